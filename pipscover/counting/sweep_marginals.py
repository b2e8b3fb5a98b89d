"""Per-cell marginals by inclusion-exclusion: for every edge of the sweep's graph and every domino type it
lays, the solutions through it, forward-backward over each point.

A solution is one path of the graph from the empty board to the covered one, and it lays each cell's pip on
one edge of it: at the line of the first of the domino's two cells. So the solutions that put pip v on cell c
add up, over the edges whose layings put v there, to the solutions through each such edge with that type.
Those are a count: the paths through edge e (from u into s, form {t: times}) laying t are the terms of F_u
times x_t times B_s, F_u the sum over the paths to u (the sweep's values) and B_s over those on from s (the
values of the reversed graph, `reversed_sweep`), and their coefficient of prod x_t^m_t is inclusion-
exclusion's sum over the count's points of the signed products `sign * F_u * times * weight_t * B_s`
(`edge_totals`: both sweeps of a point, then every edge's term, in the compiled core). An edge merges its
`times` layings (a domino's two orientations), which lead to the same state and so to as many solutions each:
the edge's count, divided by `times`, goes to each laying's two cells and pips (read back from the states'
keys, as a sample's draws are: `sweep_sample.edge_layings`). Every count is exact, as a count is.
"""

from __future__ import annotations

from collections.abc import Sequence

from pipscover.counting.inclusion_exclusion import Modulus, Sweep, edge_totals
from pipscover.counting.progress import ProgressCallback
from pipscover.counting.search import check_search
from pipscover.counting.sweep_sample import SKIP, edge_layings, keyed_graph
from pipscover.model import Cell, Puzzle
from pipscover.regions import pip_values
from pipscover.runtime.limits import MemoryCapReached, resident_bytes

CHECK_EVERY = 4096  # edges read back between two looks at the clock and the memory
INT_BYTES = 48  # a combined sum (about 2^90) as a Python int, with its place in the list
ROW_SLOT_BYTES = 16  # a pip's place in a cell's row of marginals, and in the rows printed from it


def marginals_by_sweep(puzzle: Puzzle, deadline: float | None = None, memory_cap: int | None = None,
                       compiled: bool | None = None,
                       on_progress: ProgressCallback | None = None) -> dict[Cell, list[int]]:
    """For every cell, how many solutions put each pip value there (`[n_0, n_1, ...]`), as
    `Completions.marginals` gives them; `TooBig` where inclusion-exclusion refuses the puzzle. `on_progress`
    hears the share of the points swept."""
    built = keyed_graph(puzzle, deadline, memory_cap, compiled)
    sweep = built.sweep
    if memory_cap is not None and resident_bytes() + _bytes_needed(sweep) > memory_cap:
        raise MemoryCapReached
    totals = iter(edge_totals(sweep, deadline, compiled, on_progress))
    modulus, values = Modulus.of_points(sweep.points), pip_values(puzzle.dominoes)
    found = [[0] * len(values) for _ in built.board.cells]  # by line, then pip index
    for state in range(1, sweep.final + 1):
        for e in range(sweep.first[state], sweep.first[state + 1]):
            if e % CHECK_EVERY == 0:
                check_search(0, deadline, memory_cap, None)
            for kind, times in sweep.forms[sweep.edge_forms[e]]:
                solutions = modulus.count(next(totals))
                if not solutions or kind == SKIP:
                    continue
                for line, a, other, b in edge_layings(built, len(values), sweep.sources[e], state, kind, times):
                    found[line][a] += solutions // times
                    found[other][b] += solutions // times
    return by_pip_value(built.board.cells, found, values)


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


def check_rows_fit(puzzle: Puzzle, memory_cap: int | None) -> None:
    """`MemoryCapReached`, before any work, when a row per cell from pip 0 to the largest would not fit under
    the cap (a pip of 10^9 asks a billion counts a cell): the marginals' shape, `[n_0, n_1, ...]`, is by value."""
    slots = len(puzzle.cells) * (max(pip_values(puzzle.dominoes), default=0) + 1)
    if memory_cap is not None and resident_bytes() + ROW_SLOT_BYTES * slots > memory_cap:
        raise MemoryCapReached


def _bytes_needed(sweep: Sweep) -> int:
    """What the edges' sums take besides the graph, estimated before they are made: each (edge, type) pair's
    residues in the core and its combined sum here (a Python int), and every state's values at a batch's eight
    points, forward and backward."""
    pairs = sum(len(sweep.forms[form]) for form in sweep.edge_forms)
    lanes = sweep.points.lanes
    return pairs * (8 * lanes + INT_BYTES) + 2 * 4 * 8 * lanes * (1 << sweep.final.bit_length())
