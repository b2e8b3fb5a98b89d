"""Per-cell marginals by inclusion-exclusion: for every laying (a domino type on two cells, one orientation)
that the sweep's graph makes, the solutions that make it, forward-backward over each point.

A solution is one path of the graph from the empty board to the covered one, and it lays each cell's pip on
one edge of it: at the line of the first of the domino's two cells. So the solutions that put pip v on cell c
add up, over the layings that put v there, to the solutions that make each. An edge e (from u into s, form
{t: times}) merges `times` layings of type t (a domino's two orientations, say), each leading to s: the paths
through e that make one of them are the terms of F_u times x_t times B_s, F_u the sum over the paths to u
(the sweep's values) and B_s over those on from s (the values of the reversed graph, `reversed_sweep`), and
their coefficient of prod x_t^m_t is inclusion-exclusion's sum over the count's points of the signed
products `sign * F_u * weight_t * B_s`. A laying's sum adds those over the edges that make it
(`laying_totals`: both sweeps of a point, then every laying's terms, in the compiled core); the layings of
each edge are read back from the states' keys first, as a sample's draws are (`sweep_sample.edge_layings`).
Every count is exact, as a count is.
"""

from __future__ import annotations

from array import array
from collections.abc import Sequence
from typing import NamedTuple

from pipscover.counting.inclusion_exclusion import BuiltSweep, EdgeLayings, Modulus, laying_totals
from pipscover.counting.progress import ProgressCallback
from pipscover.counting.search import check_search
from pipscover.counting.sweep_sample import SKIP, Ends, edge_layings, key_of, keyed_graph
from pipscover.model import Cell, Puzzle, Solution
from pipscover.regions import pip_values
from pipscover.runtime.limits import MemoryCapReached, resident_bytes

CHECK_EVERY = 4096  # edges read back between two looks at the clock and the memory
INT_BYTES = 4  # a C int (array "i")
WORD_BYTES = 8  # a C uint64, a group's held sum or a laying's total's part
TOTAL_BYTES = 64  # a laying's combined total, an int in a list
ROW_SLOT_BYTES = 16  # a pip's place in a cell's row of marginals, and in the rows printed from it


def marginals_by_sweep(puzzle: Puzzle, deadline: float | None = None, memory_cap: int | None = None,
                       compiled: bool | None = None,
                       on_progress: ProgressCallback | None = None) -> dict[Cell, list[int]]:
    """For every cell, how many solutions put each pip value there (`[n_0, n_1, ...]`), as
    `Completions.marginals` gives them; `TooBig` where inclusion-exclusion refuses the puzzle. `on_progress`
    hears the share of the points swept."""
    return laid_marginals(laid_graph(puzzle, deadline, memory_cap, compiled), deadline, memory_cap, compiled,
                          on_progress)


def laid_marginals(laid: LaidGraph, deadline: float | None = None, memory_cap: int | None = None,
                   compiled: bool | None = None, on_progress: ProgressCallback | None = None) -> dict[Cell, list[int]]:
    """`marginals_by_sweep`'s, from the graph and layings read back already."""
    totals = laying_totals(laid.built.sweep, laid.made, deadline, compiled, on_progress, memory_cap=memory_cap)
    return marginal_rows(laid.built.board.cells, laid.values, laid.layings, Modulus.of_points(laid.built.sweep.points),
                         totals)


class LaidGraph(NamedTuple):
    """The sweep's graph with the layings its edges make (`laying_totals`'s), each laying as (kind, line, pip,
    other line, pip), and the pip values by index."""

    built: BuiltSweep
    made: EdgeLayings
    layings: list[tuple[int, int, int, int, int]]
    values: tuple[int, ...]


def laid_graph(puzzle: Puzzle, deadline: float | None = None, memory_cap: int | None = None,
               compiled: bool | None = None, built: BuiltSweep | None = None) -> LaidGraph:
    """The puzzle's graph (`built`, when the caller has it) and its layings, read back; `MemoryCapReached`
    where the sums would then pass `memory_cap` (`_bytes_needed`), before they are made."""
    built = keyed_graph(puzzle, deadline, memory_cap, compiled) if built is None else built
    values = pip_values(puzzle.dominoes)
    made, layings = _layings_of(built, len(values), deadline, memory_cap)
    if memory_cap is not None and resident_bytes() + _bytes_needed(built, made) > memory_cap:
        raise MemoryCapReached
    return LaidGraph(built, made, layings, values)


def _layings_of(built: BuiltSweep, pips: int, deadline: float | None,
                memory_cap: int | None) -> tuple[EdgeLayings, list[tuple[int, int, int, int, int]]]:
    """The layings each edge makes, as `laying_totals` takes them (the layings numbered as first met, and the
    edges that make the same ones grouped); and each laying as (kind, line, pip, other line, other pip)."""
    sweep = built.sweep
    edge_groups, group_start, group_layings = array("i"), array("i", [0]), array("i")
    number: dict[tuple[int, int, int, int, int], int] = {}
    group_of: dict[tuple[int, ...], int] = {}
    for state in range(1, sweep.final + 1):
        target = key_of(built, state)
        for e in range(sweep.first[state], sweep.first[state + 1]):
            if e % CHECK_EVERY == 0:
                check_search(0, deadline, memory_cap, None)
            ends = Ends.of(key_of(built, sweep.sources[e]), target)
            made = tuple(number.setdefault((kind, *laid), len(number))
                         for kind, times in sweep.forms[sweep.edge_forms[e]] if kind != SKIP
                         for laid in edge_layings(built, pips, ends, kind, times))
            if made and made not in group_of:
                group_of[made] = len(group_of)
                group_layings.extend(made)
                group_start.append(len(group_layings))
            edge_groups.append(group_of[made] if made else -1)
    return EdgeLayings(edge_groups, group_start, group_layings, array("i", (kind for kind, *_ in number))), list(number)


def marginal_rows(cells: Sequence[Cell], values: Sequence[int], layings: Sequence[tuple[int, int, int, int, int]],
                  modulus: Modulus, totals: Sequence[int]) -> dict[Cell, list[int]]:
    """The marginals from each laying's total (`laying_totals`', or a split's chunks' added up): its solutions
    added to its two cells' pips (`cells` by line, `values` by pip index)."""
    found = [[0] * len(values) for _ in cells]  # by line, then pip index
    for (_, line, a, other, b), total in zip(layings, totals):
        solutions = modulus.count(total)
        found[line][a] += solutions
        found[other][b] += solutions
    return by_pip_value(cells, found, values)


def by_pip_value(cells: Sequence[Cell], found: Sequence[Sequence[int]], values: Sequence[int]) -> dict[Cell, list[int]]:
    """Each cell's counts by pip index (`found`, the cells in `cells`' order) as the marginals give them: by
    pip value, 0 to the largest (`[n_0, n_1, ...]`); made in one pass over each row, not one per value."""
    rows, most = {}, max(values, default=0)
    for cell, counts in zip(cells, found):
        row = [0] * (most + 1)
        for index, n in enumerate(counts):
            row[values[index]] += n
        rows[cell] = row
    return rows


def tallied_marginals(puzzle: Puzzle, solutions: Sequence[Solution], memory_cap: int | None) -> dict[Cell, list[int]]:
    """The marginals of a puzzle counted to have these few solutions (none, one, a handful), tallied from them
    as a search gives them, pip 0 to the largest: with no search of their own (one-in-three-unsat-9v, 0
    solutions by dlx in 0.05 s, had its marginals searched until --memory stopped them after 392 s; unique-40-nyt,
    1 solution in 0.7 s, until a --timeout of 30 s); `MemoryCapReached` where those rows would not fit."""
    check_rows_fit(puzzle, memory_cap)
    rows = by_pip_value(puzzle.cells, [[] for _ in puzzle.cells], pip_values(puzzle.dominoes))
    for solution in solutions:
        for cell, pip in solution.grid.items():
            rows[cell][pip] += 1
    return rows


def check_rows_fit(puzzle: Puzzle, memory_cap: int | None) -> None:
    """`MemoryCapReached`, before any work, when a row per cell from pip 0 to the largest would not fit under
    the cap (a pip of 10^9 asks a billion counts a cell): the marginals' shape, `[n_0, n_1, ...]`, is by value."""
    slots = len(puzzle.cells) * (max(pip_values(puzzle.dominoes), default=0) + 1)
    if memory_cap is not None and resident_bytes() + ROW_SLOT_BYTES * slots > memory_cap:
        raise MemoryCapReached


def _bytes_needed(built: BuiltSweep, made: EdgeLayings) -> int:
    """What the layings' sums take besides the graph and the layings (`_layings_of` looks at the memory as it
    reads them back), before they are made: the reversed graph (`reversed_sweep`: an edge's source and form,
    two starts a state) and each edge's source copied in each direction for the core's passes; every state's
    values at a batch's sixteen points, forward and backward; each group's held sums, sixteen points' a lane;
    and each laying's total, eight parts a lane in the core and then a combined int."""
    sweep, lanes = built.sweep, built.sweep.points.lanes
    groups = len(made.group_start) - 1
    return (4 * INT_BYTES * len(sweep.sources) + 2 * INT_BYTES * (sweep.final + 2)
            + 2 * INT_BYTES * 16 * lanes * (1 << sweep.final.bit_length())
            + groups * lanes * 16 * WORD_BYTES + len(made.kinds) * (lanes * 9 * WORD_BYTES + TOTAL_BYTES))
