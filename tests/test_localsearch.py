"""Local search: every solution it returns passes the checker, it is deterministic, it never claims that a
puzzle has no solution unless the board has no tiling, and `auto` uses it past its DLX budget."""

from __future__ import annotations

import json

import pytest

import pipscover.engines.auto as auto
import pipscover.engines.local as local
from conftest import EXAMPLES
from pipscover.engines import get_backend
from pipscover.engines.local_search import LocalBoard, board_tiling, walk
from pipscover.formats import load_one
from pipscover.generate.planted import Pips, PlantedSpec, planted
from pipscover.model import Puzzle
from pipscover.model.check import problems
from pipscover.solving import solve

# A 2 x 2 board whose sum cannot be made: it has a tiling, so local search can only give up.
IMPOSSIBLE = Puzzle.build([("sum", [(0, 0), (0, 1), (1, 0), (1, 1)], 99)], [(1, 2), (3, 4)])
# Two cells that do not touch: no tiling at all, which local search proves.
APART = Puzzle.build([("empty", [(0, 0), (0, 2)], None)], [(1, 2)])


@pytest.mark.parametrize(("rows", "columns", "distinct", "max_pip", "seed"), [
    (8, 8, False, 6, 1), (8, 8, True, 8, 2), (12, 12, True, 12, 3), (2, 60, True, 30, 4), (6, 10, False, 3, 5)])
def test_walks_find_solutions_that_pass_the_checker(rows, columns, distinct, max_pip, seed):
    puzzle, _ = planted(PlantedSpec(rows, columns, Pips.DISTINCT if distinct else Pips.REPEATED, max_pip, seed))
    board = LocalBoard.of(puzzle)
    found = walk(board, 0, 200 * len(puzzle.dominoes))
    assert found is not None and problems(puzzle, found) == []
    assert walk(LocalBoard.of(puzzle), 0, 200 * len(puzzle.dominoes)) == found  # the same seed, the same walk


def test_a_board_without_a_tiling_has_no_solution_and_local_search_says_so():
    assert board_tiling(APART) is None and LocalBoard.of(APART) is None
    assert str(solve(APART, "local").status) == "unsatisfiable"


@pytest.fixture
def one_walk(monkeypatch):
    """Local search gives up after one walk, as it does after twenty, in a twentieth of the CPU."""
    monkeypatch.setattr(local, "WALKS", 1)


def test_local_search_solves_the_bundled_example(run_cli):
    """A new user's first try of the backend: each walk's 1,600 moves (200 a domino) never found its one
    solution, and twenty of them said unknown."""
    solved = run_cli("solve", EXAMPLES / "first.txt", "-b", "local", "--json")
    assert solved.code == 0 and json.loads(solved.out)["status"] == "solved"
    said = run_cli("solve", EXAMPLES / "first.txt", "-b", "local").out  # --all, which it refuses, was offered
    assert "maybe not the only one (pipscover count counts them)" in said and "--all" not in said


def test_local_search_gives_up_instead_of_claiming_no_solution(run_cli, tmp_path, one_walk):
    result = solve(IMPOSSIBLE, "local")
    assert str(result.status) == "unknown" and not result.solutions
    assert str(solve(IMPOSSIBLE, "local", timeout=0.2).status) == "timeout"
    path = tmp_path / "impossible.json"
    path.write_text(json.dumps({"regions": [{"indices": [[0, 0], [0, 1], [1, 0], [1, 1]], "type": "sum",
                                              "target": 99}], "dominoes": [[1, 2], [3, 4]]}))
    cli = run_cli("solve", path, "-b", "local", "--json")
    assert cli.code == 3 and json.loads(cli.out)["status"] == "unknown"
    said = run_cli("solve", path, "-b", "local").out  # it said "0 solutions found so far", and nothing of why
    assert "impossible.json: unknown by local" in said and "-b dlx or -b auto answers" in said


def test_pips_of_hundreds_of_digits_cost_no_float(one_walk):
    big = 10**400
    rule = ("sum", [(0, 0), (0, 1), (1, 0), (1, 1)])
    solvable = Puzzle.build([(*rule, 2 * big + 3), ("empty", [(0, 2), (1, 2)], None)], [(big, 1), (big, 2), (5, 5)])
    assert str(solve(solvable, "local").status) == "solved"
    impossible = Puzzle.build([(*rule, 7 * big), ("empty", [(0, 2), (1, 2)], None)], [(big, 1), (big, 2), (5, 5)])
    assert str(solve(impossible, "local").status) == "unknown"


def test_local_search_finds_one_solution_not_all(run_cli):
    assert not get_backend("local").capabilities.enumerates and not get_backend("local").capabilities.complete
    listed = json.loads(run_cli("backends", "--json").out)["backends"]
    assert {row["name"]: row["complete"] for row in listed if row["name"] in ("local", "dlx")} == {
        "local": False, "dlx": True}
    listed = run_cli("solve", EXAMPLES / "first.txt", "-b", "local", "--all")
    assert listed.code == 2 and "one solution" in listed.err and "Traceback" not in listed.err
    counted = run_cli("bench", EXAMPLES / "first.txt", "-b", "local", "--task", "count")
    assert counted.code == 2 and "finds one solution" in counted.err


def test_auto_walks_past_its_budget_and_lists_the_rest_with_the_race(monkeypatch):
    monkeypatch.setattr(auto, "DLX_WORK_BUDGET", 1)  # every puzzle past its dlx budget at once
    monkeypatch.setattr(auto, "NODES_PER_DOMINO", 0)
    puzzle, _ = planted(PlantedSpec(4, 4, seed=2))  # 12,024 solutions
    first = solve(puzzle, "auto")
    assert first.backend == "auto:local" and problems(puzzle, first.solutions[0]) == []
    several = solve(puzzle, "auto", limit=5)
    assert several.solutions[0] == first.solutions[0] and several.backend.startswith("auto:local+")
    assert len(set(several.solutions)) == 5 and all(problems(puzzle, found) == [] for found in several.solutions)
    assert str(solve(APART, "auto").status) == "unsatisfiable"
    unique = load_one(EXAMPLES / "first.txt")  # one solution: the walk may miss it, the race finds it
    assert solve(unique, "auto").solutions == solve(unique, "dlx").solutions


def test_auto_walks_first_on_a_board_of_many_placements(monkeypatch):
    monkeypatch.setattr(auto, "WALK_FIRST_PLACEMENTS", 0)  # every puzzle counts as big
    planted_board, _ = planted(PlantedSpec(4, 4, seed=2))
    assert solve(planted_board, "auto").backend == "auto:local"
    monkeypatch.setattr(auto, "MOVES_PER_TILE", 0)  # a walk that finds nothing: the dlx budget follows
    unique = load_one(EXAMPLES / "first.txt")
    result = solve(unique, "auto", limit=None)
    assert result.backend == "auto:dlx" and set(result.solutions) == set(solve(unique, "dlx", limit=None).solutions)


def test_a_board_too_big_for_dlx_after_a_fruitless_walk_goes_to_sat_alone(monkeypatch):
    monkeypatch.setattr(auto, "WALK_FIRST_PLACEMENTS", 0)
    monkeypatch.setattr(auto, "MOVES_PER_TILE", 0)  # the walk finds nothing
    monkeypatch.setattr("pipscover.runtime.limits.STEP_LIMIT", 0)  # and dlx refuses every puzzle without --timeout
    walks = []
    monkeypatch.setattr(auto, "walk", lambda *args: walks.append(args) or walk(*args))  # the real walk, counted
    unique = load_one(EXAMPLES / "first.txt")
    result = solve(unique, "auto")
    assert result.backend == "auto:cadical195" and result.solutions == solve(unique, "dlx", timeout=60).solutions
    assert len(walks) == 1  # the walk that came first is not taken again
