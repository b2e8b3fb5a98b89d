"""Every engine, every counter and every CNF encoding against the brute-force solver, on every family of small
puzzles: one region kind at a time, all kinds mixed, many identical dominoes, distinct dominoes, huge pips.

The matrix is engine x family and counter x family. Its puzzles are drawn once per family (the same ones on
every run) and brute-forced once (tests/brute_force.py caches), so a new engine, counter or region kind adds a
column or a row at the cost of running it, not of drawing and brute-forcing again. A backend registered in
`pipscover.engines` and a region kind registered in `pipscover.regions` join the matrix with no new test.
A failure names the puzzle in the text format, ready for `pipscover solve`.
"""

from __future__ import annotations

import multiprocessing
from collections.abc import Callable, Iterator

import pytest
from brute_force import brute_force_grids, brute_force_solutions
from puzzle_factory import FAMILIES, family, named

from pipscover.cnf import CARD_ENCODINGS, PB_ENCODINGS, Encodings
from pipscover.counting import METHODS, count
from pipscover.counting.blocking import count_by_blocking
from pipscover.counting.inclusion_exclusion import build_sweep, graph_bound, sweep_total, with_fewest_primes
from pipscover.counting.inclusion_exclusion import count as count_by_inclusion_exclusion
from pipscover.counting.structural import ORDERS, StructuralCounter
from pipscover.engines import REGISTRY, get_backend
from pipscover.engines.auto import AutoBackend
from pipscover.engines.dlx import counted_solutions
from pipscover.engines.sat_solvers import SOLVERS
from pipscover.model import Puzzle, Solution
from pipscover.model.results import CountResult, Distinct, Status
from pipscover.runtime.limits import TooBig
from pipscover.solving import solve

# Engines that list solutions, beyond the registry's defaults: Dancing Links restarting many times before its
# first solution, and auto past its budgets, racing DLX against a SAT solver in worker processes.


def restarting_dlx(puzzle: Puzzle) -> list[Solution]:
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr("pipscover.engines.dancing_links.RESTART_UNIT", 0.1)  # a fraction of a node per item
        return list(counted_solutions(puzzle, restart_seed=3)[0])


# Past the budget: the race's winner, or the walk (when it starts on a solution) and then the race's winner.
RACED = ("auto:dlx", "auto:cadical195", "auto:local", "auto:local+dlx", "auto:local+cadical195")


def racing_auto(puzzle: Puzzle) -> list[Solution]:
    with pytest.MonkeyPatch.context() as patch:
        for budget in ("DLX_WORK_BUDGET", "MOVES_PER_TILE", "NODES_PER_DOMINO"):
            patch.setattr(f"pipscover.engines.auto.{budget}", 0)
        backend = AutoBackend()
        found = list(backend.solutions(puzzle))
    assert backend.answered_by() in RACED and multiprocessing.active_children() == []
    return found


LISTERS: dict[str, Callable[[Puzzle], list[Solution]]] = {
    "dlx restarting": restarting_dlx,
    "auto racing": racing_auto,
}
# The PySAT solvers share one encoding and differ only in the solver; they, local search and the race (which
# starts processes) are judged on the first few puzzles of each family; the other engines on all of them. (The
# solvers on the first 6, not 12: a blocking clause cut short for one solver, by its first literal or its
# last, failed that solver's listing and count on the first 6 as on the first 12.)
# Ganak (a stock counter, a worker process per count: 40 ms of CPU each, most of it the fresh process's)
# on fewer still: the encoding it counts is the one every SAT counter here counts on every puzzle, and each
# family's first five give it both projections on every region kind, among them the one puzzle of the first
# six with fewer grids than solutions (only empty's fifth: Ganak given the placements' projection set for
# grids, planted, failed there and only there). CP-SAT (10 ms of CPU a puzzle) on the first 25 of each
# family: all of a one-kind family, so its model's rules are judged on every puzzle of their kind, and bugs
# planted in what the other families add (copies of a domino ignored, doubles placed both ways round, pips
# capped below the largest) failed on their first 25 as on all of them.
FIRST = {**{name: 6 for name in SOLVERS if name != "minisat22"}, "local": 12, "kissat404": 4, "auto racing": 3,
         "ganak": 5, "cpsat": 25}
ENGINES = [*REGISTRY, *LISTERS]


def listed(engine: str, puzzle: Puzzle) -> list[Solution]:
    if engine in LISTERS:
        return LISTERS[engine](puzzle)
    return list(solve(puzzle, engine, limit=None).solutions)


@pytest.mark.parametrize("name", FAMILIES)
@pytest.mark.parametrize("engine", ENGINES)
def test_every_engine_lists_exactly_the_brute_force_solutions(engine, name):
    """Each solution once; an engine that finds one solution (local search) finds one exactly when there is
    one, or says unknown. (Where there is none, local search walks once, not `WALKS` times, before it gives up:
    the twenty walks of the default took 4 of the 4.3 s of CPU it spent here.)"""
    if engine in REGISTRY and not get_backend(engine).capabilities.available:
        pytest.skip(f"{engine} is not installed: {get_backend(engine).capabilities.install}")
    enumerates = engine in LISTERS or get_backend(engine).capabilities.enumerates
    for puzzle in family(name, FIRST.get(engine)):
        expected = brute_force_solutions(puzzle)
        if enumerates:
            found = listed(engine, puzzle)
            assert len(found) == len(set(found)), f"{engine} listed a solution twice:{named(puzzle)}"
            assert set(found) == expected, f"{engine} disagrees with brute force:{named(puzzle)}"
        elif expected:
            result = solve(puzzle, engine)
            assert result.solutions and result.solutions[0] in expected, named(puzzle)
        else:
            with pytest.MonkeyPatch.context() as patch:
                patch.setattr("pipscover.engines.local.WALKS", 1)  # one walk gives up as twenty do, a twentieth the CPU
                patch.setattr("pipscover.engines.local.MOVES_PER_WALK", 0)  # 200 moves a domino, as a big board's
                result = solve(puzzle, engine)
            assert result.status in (Status.UNSATISFIABLE, Status.UNKNOWN) and not result.solutions, named(puzzle)


# Counters: every method of `count`, blocking clauses with every PySAT solver and with the compact CNF.


def counted(counter: str, puzzle: Puzzle, distinct: Distinct) -> CountResult:
    if counter in METHODS:
        return count(puzzle, distinct, method=counter)
    solver, _, form = counter.partition(" ")
    return count_by_blocking(puzzle, solver, distinct, encodings=Encodings(form=form) if form else None)


COUNTERS = [*METHODS, "glucose4 compact", *(name for name in SOLVERS if name != "minisat22")]


@pytest.mark.parametrize("name", FAMILIES)
@pytest.mark.parametrize("counter", COUNTERS)
def test_every_counter_counts_the_brute_force_solutions_and_grids(counter, name):
    first = FIRST.get(counter.split()[0])
    for puzzle in family(name, first):
        for distinct, truth in ((Distinct.PLACEMENTS, brute_force_solutions), (Distinct.GRIDS, brute_force_grids)):
            if counter == "inclusion-exclusion" and distinct is Distinct.GRIDS:
                continue  # (it counts placements only)
            result = counted(counter, puzzle, distinct)
            assert (result.count, result.exact) == (len(truth(puzzle)), True), f"{distinct}:{named(puzzle)}"
            if counter != "auto":  # (auto names the method it chose)
                assert result.method == (counter if counter in METHODS else "blocking")


@pytest.mark.parametrize("name", FAMILIES)
def test_the_grid_counter_in_each_of_its_orders_counts_the_brute_force_grids(name):
    """`count_grids` takes turns between four orders of the cells, and the first to finish answers: each must
    give the grids brute force finds."""
    from pipscover.counting.grids import GridCounter, search_orders

    for puzzle in family(name):
        counts = {GridCounter(puzzle, order).count() for order in search_orders(puzzle.cells)}
        assert counts == {len(brute_force_grids(puzzle))}, named(puzzle)


@pytest.mark.parametrize("name", FAMILIES)
@pytest.mark.parametrize("order", ORDERS)
def test_the_structural_counter_compiled_and_in_python_counts_the_brute_force_solutions(order, name):
    """Both search orders (`auto` races the sweep against the default; `count` has no flag for it), each in the
    compiled core and in its Python twin, which must also visit the same nodes."""
    for puzzle in family(name):
        counts = set()
        for compiled in (False, True):
            counter = StructuralCounter(puzzle, order, compiled=compiled)
            counts.add((counter.count(), counter.nodes))
        assert len(counts) == 1 and counts.pop()[0] == len(brute_force_solutions(puzzle)), named(puzzle)


@pytest.mark.parametrize("name", FAMILIES)
def test_inclusion_exclusion_compiled_and_in_python_counts_the_brute_force_solutions(name):
    """The graph built by the core and by its twin alike, swept by the core and by its twin alike."""
    for puzzle in family(name):
        sweep = build_sweep(puzzle, compiled=True)
        assert sweep == build_sweep(puzzle, compiled=False), named(puzzle)
        assert sweep_total(sweep, compiled=True) == sweep_total(sweep, compiled=False), named(puzzle)
        assert count_by_inclusion_exclusion(puzzle) == len(brute_force_solutions(puzzle)), named(puzzle)


@pytest.mark.parametrize("name", FAMILIES)
def test_the_sweep_graphs_bound_is_at_least_the_brute_force_count(name):
    """The count's bound from the built graph (`graph_bound`), by which it may take fewer primes: never below
    the count, and the primes it takes multiply past the count."""
    for puzzle in family(name):
        sweep, solutions = build_sweep(puzzle), len(brute_force_solutions(puzzle))
        assert graph_bound(puzzle, sweep) >= solutions, named(puzzle)
        assert with_fewest_primes(puzzle, sweep).points.modulus > solutions, named(puzzle)


# Every cardinality encoding in both CNF forms, each with every pseudo-Boolean encoding in turn: over the first 54
# mixed puzzles and 18 with huge pips (8 of them past the unary encodings), eight puzzles for each pseudo-Boolean
# encoding. All 144 took twice the CPU (15 s) and found no more: a bug planted in the writer (auxiliary variables
# numbered over others') failed every pair on the first 30 and 6 as on all of them.


def every_pb() -> Iterator[str]:
    while True:
        yield from PB_ENCODINGS


@pytest.mark.parametrize("form", ["placements", "compact"])
@pytest.mark.parametrize("card", CARD_ENCODINGS)
def test_every_encoding_has_exactly_the_brute_force_solutions(card, form):
    for puzzle, pb in zip(family("mixed", 54) + family("huge pips", 18), every_pb()):
        engine = get_backend("glucose4").with_encodings(Encodings(card, pb, form))
        try:
            found = solve(puzzle, engine, limit=None).solutions
        except TooBig:  # a unary encoding (bdd, totalizer) of a sum in the millions: refused, as it should be
            assert max(map(max, puzzle.dominoes)) > 10**5, f"{pb} refused:{named(puzzle)}"
            continue
        assert len(found) == len(set(found)) and set(found) == brute_force_solutions(puzzle), f"{pb}:{named(puzzle)}"
