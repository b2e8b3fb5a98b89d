"""Rating: a difficulty from the hints a puzzle takes, its JSON, and its agreement with the NYT's labels."""

from __future__ import annotations

import json

from conftest import EXAMPLES, needs_nyt, nyt_files
from pipscover.formats import load, load_one
from pipscover.hints.rating import EASY_STEPS, MEDIUM_STEPS, difficulty_of, rate
from pipscover.model import Puzzle


def test_bands_meet_at_their_cut_points():
    assert [difficulty_of(n) for n in (EASY_STEPS, EASY_STEPS + 1, MEDIUM_STEPS, MEDIUM_STEPS + 1)] == [
        "easy", "medium", "medium", "hard"]


def test_a_puzzle_without_solution_has_no_difficulty():
    rating = rate(Puzzle.build([("sum", [(0, 0), (0, 1)], 9)], [(1, 2)]))
    assert (rating.difficulty, rating.steps) == (None, 0)


def test_a_puzzle_with_many_solutions_counts_its_guesses():
    puzzle = Puzzle.build([("empty", [(0, 0), (0, 1), (1, 0), (1, 1)], None)], [(1, 2), (3, 4)])
    rating = rate(puzzle)
    assert rating.guesses >= 1 and rating.difficulty == "easy"


def test_rate_command_json_is_one_object_per_puzzle(run_cli):
    result = run_cli("rate", EXAMPLES / "first.txt", "--json")
    document = json.loads(result.out)
    assert result.code == 0
    assert set(document) == {"puzzle", "difficulty", "hardest_rule", "level", "guesses", "steps"}
    assert document["steps"] == rate(load_one(EXAMPLES / "first.txt")).steps


def test_rate_command_stops_at_its_timeout_with_exit_code_3(run_cli):
    """`rate` took no --timeout: on a planted 10 x 10 board it ran past a minute with no way to bound it."""
    said = run_cli("rate", EXAMPLES / "first.txt", "--timeout", "0")
    assert said.code == 3 and said.out.endswith("first.txt: no rating within --timeout 0 s\n")
    document = json.loads(run_cli("rate", EXAMPLES / "first.txt", "--timeout", "0", "--json").out)
    assert document["stopped_by"] == "--timeout" and document["difficulty"] is None and document["steps"] is None


def test_rate_command_exits_1_for_a_puzzle_without_solution(run_cli, tmp_path):
    puzzle = tmp_path / "none.txt"
    puzzle.write_text("1\nAA\n1\nA SUM 9\n1\n1 2\n")
    result = run_cli("rate", puzzle)
    assert result.code == 1 and "no solution" in result.out


@needs_nyt
def test_ratings_agree_with_the_nyt_labels_as_often_as_the_docs_say():
    """The docs quote 83% over the whole archive (encodings/benchmarks.md); every 40th day, 27 puzzles, agrees
    on 24 (89%). A rating that agreed less than the docs say fails here."""
    puzzles = [puzzle for file in nyt_files()[::40] for puzzle in load(file)]
    agree = sum(rate(puzzle).difficulty == puzzle.origin.difficulty for puzzle in puzzles)
    assert agree >= 0.83 * len(puzzles)
