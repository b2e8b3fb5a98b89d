"""The SAT backends: they agree with DLX on the NYT archive (and with brute force in
test_against_brute_force.py), every solution they give passes the checker, timeouts stop every solver, and
blocking-clause counts are right."""

import os
import time
from functools import cache, partial

import pytest
from brute_force import brute_force_grids, brute_force_solutions
from pysat.examples.genhard import PHP

from conftest import needs_nyt, nyt_files
from pipscover.cnf import Encodings
from pipscover.counting.blocking import count_by_blocking
from pipscover.engines import ALIASES, get_backend
from pipscover.engines.sat import SatBackend
from pipscover.engines.sat_enumeration import models
from pipscover.engines.sat_solvers import SOLVERS
from pipscover.errors import PipsError
from pipscover.formats import load
from pipscover.hardness.one_in_three import OneInThreeInstance, reduce_one_in_three
from pipscover.hardness.subset_sum import SubsetSumInstance, reduce_subset_sum
from pipscover.model import Puzzle, Solution
from pipscover.model.check import problems
from pipscover.model.results import Distinct, SearchTimeout, Status
from pipscover.runtime.stoppable import in_parallel, stoppable
from pipscover.solving import solve

FAST = "minisat22"  # the one backend that goes through the whole archive
SMALL = 200  # puzzles with at most this many solutions have their solution sets compared with DLX


@needs_nyt
def test_one_sat_backend_agrees_with_dlx_on_a_sixth_of_the_nyt_archive():
    """(Every day took 10 s of CPU, most of it building 1,044 CNFs, and a third 3 s; the region kinds, encodings
    and engines are judged on small puzzles in test_against_brute_force.py. A sixth, 174 puzzles, still holds
    hundreds of regions of every kind, 23 of them `unequal`, the rarest.)"""
    compared = 0
    for puzzle in [puzzle for file in nyt_files()[::6] for puzzle in load(file)]:
        sat = solve(puzzle, FAST, limit=SMALL + 1)
        assert sat.status is Status.SOLVED, puzzle.describe()
        for solution in sat.solutions:
            assert problems(puzzle, solution) == [], puzzle.describe()
        if len(sat.solutions) <= SMALL:
            assert set(sat.solutions) == set(solve(puzzle, "dlx", limit=None).solutions), puzzle.describe()
            compared += 1
    assert compared > 150


@cache
def hard_sample() -> list[tuple[Puzzle, set[Solution]]]:
    """Hard NYT puzzles and their solutions by FAST, solved once for every backend's test below."""
    sample = [puzzle for file in nyt_files()[::70] for puzzle in load(file, "hard")]
    return [(puzzle, set(solve(puzzle, FAST, limit=None).solutions)) for puzzle in sample]


# A solver that is not incremental (Kissat) starts afresh for each further solution (60 ms each here): it
# lists the sample's puzzles of at most this many solutions (4 of the 5; the fifth, 16 solutions, took 0.9 s).
MOST_FROM_SCRATCH = 8


@needs_nyt
@pytest.mark.parametrize("backend", sorted(SOLVERS))
def test_every_sat_backend_solves_a_sample_of_nyt_puzzles(backend):
    for puzzle, reference in hard_sample():
        if not SOLVERS[backend].incremental and len(reference) > MOST_FROM_SCRATCH:
            continue
        result = solve(puzzle, backend, limit=None)
        assert result.status is Status.SOLVED and set(result.solutions) == reference
        assert all(problems(puzzle, solution) == [] for solution in result.solutions)


def test_family_names_point_at_the_usual_solvers():
    assert get_backend("glucose").name == "glucose4"
    assert get_backend("cadical").name == "cadical300"
    assert ALIASES["sat"] in SOLVERS


def test_a_backend_with_other_encodings_finds_the_same_solutions():
    puzzle = Puzzle.build([("sum", [(0, 0), (0, 1), (1, 0), (1, 1)], 6)], [(1, 2), (3, 0)])
    engine = get_backend("glucose4")
    other = engine.with_encodings(Encodings("totalizer", "bdd"))
    assert isinstance(other, SatBackend) and other.encodings.card == "totalizer"
    assert set(solve(puzzle, engine, limit=None).solutions) == set(solve(puzzle, other, limit=None).solutions)


# A pigeonhole formula: one SAT call that runs far longer than the timeouts below. These tests are about
# time limits, so they alone measure time, with bounds far below what the stopped work would take. The
# deadlines are short: the solver or encoder works until one passes, so each tenth of a second is CPU spent.
HARD = PHP(11).clauses


@pytest.mark.parametrize("backend", sorted(SOLVERS))
def test_a_timeout_stops_a_single_long_sat_call(backend):
    start = time.monotonic()
    with pytest.raises(SearchTimeout):
        list(models(HARD, backend, lambda model: [-lit for lit in model], start + 0.1))
    # Interruptible solvers notice the interrupt between conflicts; the killed worker stops at once.
    assert time.monotonic() - start < 10


def big_open_puzzle() -> Puzzle:
    cells = [(row, col) for row in range(6) for col in range(6)]
    return Puzzle.build([("empty", cells, None)], [(a % 4, a % 3) for a in range(18)])


@pytest.mark.parametrize("backend", ["glucose4", "cadical195"])
def test_a_timeout_during_enumeration_keeps_the_solutions_found(backend):
    # The puzzle has more solutions than any solver lists in minutes. A timeout long enough for a first one:
    # 0.5 s (0.3 s sufficed at a load of 9), or longer where a busy machine spent them starting the worker and
    # encoding (once, at a load of 20).
    for seconds in (0.5, 2, 8, 30):
        result = solve(big_open_puzzle(), backend, limit=None, timeout=seconds)
        assert result.status is Status.TIMEOUT
        if result.solutions:
            break
    assert result.solutions


def slow_to_encode() -> dict[str, Puzzle]:
    """Puzzles whose CNF alone takes seconds: one PBEnc call over a 16-cell sum region with pips up to 10^4
    (4 s), and a reduced 1-in-3-SAT puzzle of 484 dominoes under the sequential counter (2.5 s)."""
    numbers = (9_301, 7_745, 1_202, 5_566, 8_009, 3_137, 6_611, 2_873, 4_450, 9_970, 1_876, 7_003, 5_219, 3_390,
               8_654, 2_491)
    subset_sum, _ = reduce_subset_sum(SubsetSumInstance(numbers, sum(numbers) // 2))
    clauses = ((1, 2, 3), (4, 5, 6), (7, 8, 1), (2, 4, 7), (3, 5, 8), (6, 1, 4))
    one_in_three, _ = reduce_one_in_three(OneInThreeInstance(8, clauses))
    return {"subset sum": subset_sum, "1-in-3-SAT": one_in_three}


@pytest.mark.parametrize("backend", ["minisat22", "cadical153"])
def test_a_timeout_bounds_the_encoding_too(backend):
    for name, puzzle in slow_to_encode().items():
        engine = get_backend(backend).with_encodings(Encodings(card="seqcounter"))
        start = time.monotonic()
        result = solve(puzzle, engine, timeout=0.2)
        assert result.status is Status.TIMEOUT, name
        assert time.monotonic() - start < 1.5, name


def test_a_count_with_a_deadline_stops_during_the_encoding():
    puzzle = slow_to_encode()["subset sum"]
    start = time.monotonic()
    result = count_by_blocking(puzzle, FAST, deadline=start + 0.2)
    assert (result.count, result.exact) == (0, False)
    assert time.monotonic() - start < 1.5


def test_an_error_in_the_worker_reaches_the_caller():
    def broken():
        raise ValueError("from the worker")
        yield

    with pytest.raises(ValueError, match="from the worker"):
        list(stoppable(broken, time.monotonic() + 5))


def test_tasks_in_parallel_answer_in_order_and_an_error_in_its_turn():
    """`count --jobs`'s workers: two forked workers take the tasks as they finish; the slow first task's
    result still comes first, and the failing third raises after the second's result."""
    def fail():
        raise ValueError("task 3")

    tasks = [partial(time.sleep, 0.3), partial(os.getpid), fail, partial(os.getpid)]
    results = in_parallel(tasks, 2)
    assert next(results) is None and next(results) != os.getpid()
    with pytest.raises(ValueError, match="task 3"):
        next(results)


def test_blocking_counts_placements_and_grids():
    cells = [(row, col) for row in range(2) for col in range(4)]
    puzzle = Puzzle.build([("empty", cells, None)], [(1, 2), (1, 2), (0, 0), (3, 1)])
    placements = count_by_blocking(puzzle, FAST)
    grids = count_by_blocking(puzzle, FAST, Distinct.GRIDS)
    assert (placements.count, placements.exact) == (len(brute_force_solutions(puzzle)), True)
    assert (grids.count, grids.exact, grids.distinct) == (len(brute_force_grids(puzzle)), True, Distinct.GRIDS)
    assert placements.method == "blocking" and placements.backend == FAST


def test_a_count_stopped_by_its_limit_is_not_exact():
    puzzle = big_open_puzzle()
    result = count_by_blocking(puzzle, FAST, limit=10)
    assert (result.count, result.exact) == (10, False)


def test_a_count_that_reaches_its_limit_exactly_is_exact():
    puzzle = Puzzle.build([("sum", [(0, 0), (0, 1)], 3)], [(1, 2)])
    assert count_by_blocking(puzzle, FAST, limit=2).exact


def test_a_count_stopped_by_its_deadline_is_not_exact_and_reports_progress():
    # A deadline long enough for a first model: 1 s (0.7 s sufficed at a load of 9), or longer where a busy
    # machine spent them starting the worker and encoding (the puzzle has more models than any deadline here
    # lets the solver list).
    seen: list[int] = []
    for seconds in (1, 4, 30):
        seen.clear()
        result = count_by_blocking(big_open_puzzle(), "cadical195", deadline=time.monotonic() + seconds,
                                   on_progress=lambda found, fraction: seen.append(found))
        assert not result.exact and seen and seen[-1] == result.count and seen == sorted(seen)
        if result.count > 0:
            break
    assert result.count > 0


def test_an_unsatisfiable_puzzle_counts_zero_exactly():
    puzzle = Puzzle.build([("sum", [(0, 0), (0, 1)], 4)], [(1, 2)])
    result = count_by_blocking(puzzle, "glucose")
    assert (result.count, result.exact) == (0, True)
    assert solve(puzzle, "cadical").status is Status.UNSATISFIABLE


def test_blocking_needs_a_sat_backend():
    with pytest.raises(PipsError, match="SAT backend"):
        count_by_blocking(Puzzle.build([("empty", [(0, 0), (0, 1)], None)], [(1, 2)]), "dlx")


def test_card_and_pb_options_apply_to_sat_backends_only():
    from pipscover.cli.cnf_options import CardName, PbName, backend_with_encodings

    assert backend_with_encodings("glucose", None, None) == "glucose"
    chosen = backend_with_encodings("glucose", CardName["totalizer"], None)
    assert chosen.encodings == Encodings("totalizer", "best")
    with pytest.raises(PipsError, match="does not use one"):
        backend_with_encodings("dlx", None, PbName["bdd"])


@pytest.mark.parametrize("name", ["cadical195", "minisat22", "glucose4"])
def test_a_solver_that_a_ctrl_c_interrupted_is_never_freed_again(name):
    """PySAT leaves a search stopped by Ctrl-C by a long jump out of the solver's C++ code; freeing what that
    left behind may corrupt the heap. `abandon` makes the solver's delete() and finalizer do nothing."""
    from pysat.solvers import Solver

    from pipscover.engines.sat_enumeration import _ABANDONED, abandon

    solver = Solver(name=name, bootstrap_with=[[1, 2], [-1]])
    inner = solver.solver
    abandon(solver)
    solver.delete()
    kept, handles = _ABANDONED[-1]
    assert solver.solver is None and kept is inner and handles
    assert all(getattr(inner, handle) is None for handle in handles)
