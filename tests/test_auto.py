"""The `auto` backend: DLX within a node budget, then a walk of local search, then DLX raced against a SAT solver
in worker processes."""

from __future__ import annotations

import multiprocessing

import pytest

from conftest import EXAMPLES
from pipscover import load_one, problems, solve
from pipscover.engines import DEFAULT_BACKEND, get_backend
from pipscover.generate.planted import PlantedSpec, planted
from pipscover.model.results import Status


@pytest.fixture(scope="module")
def always_race():
    """A budget of 0 nodes and a walk of 0 moves: every puzzle not solved where the walk starts goes to the
    race of DLX against the SAT solver."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr("pipscover.engines.auto.DLX_WORK_BUDGET", 0)
        patch.setattr("pipscover.engines.auto.MOVES_PER_TILE", 0)
        patch.setattr("pipscover.engines.auto.NODES_PER_DOMINO", 0)
        yield


def test_auto_is_the_default_and_names_the_engine_that_answered():
    assert DEFAULT_BACKEND == "auto"
    result = solve(load_one(EXAMPLES / "first.txt"))
    assert result.status is Status.SOLVED and result.backend == "auto:dlx"


def test_the_race_answers_a_planted_board_and_leaves_no_worker(always_race):
    puzzle, _ = planted(PlantedSpec(6, 6, seed=2))
    result = solve(puzzle, "auto", limit=2)
    assert result.status is Status.SOLVED and len(result.solutions) == 2
    assert all(problems(puzzle, solution) == [] for solution in result.solutions)
    assert result.backend in ("auto:dlx", "auto:cadical195")  # the walk of 0 moves does not start on a solution
    assert multiprocessing.active_children() == []


def test_a_timeout_in_the_race_kills_both_workers(always_race):
    puzzle, _ = planted(PlantedSpec(20, 20, "distinct", 20, 1))
    result = solve(puzzle, "auto", timeout=0.5)
    assert result.status is Status.TIMEOUT
    assert multiprocessing.active_children() == []


def test_dlx_and_sat_backends_stay_pure():
    assert get_backend("dlx").answered_by() == "dlx"
    assert get_backend("sat").answered_by() == "minisat22"
