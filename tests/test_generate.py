"""The puzzle generator: puzzles hold their hidden solution, are unique when asked, and repeat by seed."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from brute_force import brute_force_solutions
from hypothesis import given, settings
from puzzle_factory import puzzles

from pipscover.engines.dlx import counted_solutions
from pipscover.errors import PipsError
from pipscover.formats import parse
from pipscover.generate import generator
from pipscover.generate.generator import Shape, extra_nodes, generate, other_solution
from pipscover.hints.rating import rate
from pipscover.model import Difficulty, RegionKind
from pipscover.model.check import problems
from pipscover.solving import solve


@pytest.mark.parametrize("shape", list(Shape))
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_unique_puzzle_has_its_hidden_solution_and_no_other(shape, seed):
    made = generate(dominoes=6, shape=shape, seed=seed)
    assert made.unique
    assert problems(made.puzzle, made.solution) == []
    assert solve(made.puzzle, "dlx", limit=None).solutions == (made.solution,)


def test_rect_shape_is_a_full_rectangle():
    cells = generate(dominoes=6, shape="rect", seed=4).puzzle.cells
    rows, columns = {r for r, _ in cells}, {c for _, c in cells}
    assert len(cells) == len(rows) * len(columns) == 12


def test_same_seed_gives_the_same_puzzle_and_another_seed_another():
    first, again, other = (generate(dominoes=7, seed=s).puzzle for s in (11, 11, 12))
    assert (first.regions, first.dominoes) == (again.regions, again.dominoes)
    assert (first.regions, first.dominoes) != (other.regions, other.dominoes)


@pytest.mark.parametrize(
    "options",
    [
        ["-n", "12", "--seed", "6"],  # some questions pass the DLX node budget and go to SAT
        ["-n", "8", "--seed", "5", "--difficulty", "hard"],
    ],
)
def test_same_seed_gives_the_same_file_in_separate_processes(run_cli, tmp_path, options):
    # String hashing differs between processes; the generator must not depend on it (nor on the clock).
    here, there = written_here_and_in_another_process(run_cli, tmp_path, ["generate", *options])
    assert here == there


def written_here_and_in_another_process(run_cli, folder: Path, args: list[str]) -> tuple[str, str]:
    """The file `pipscover ARGS -o FILE` writes in this process and in a new one whose strings hash
    differently (this one's hash seed is random unless PYTHONHASHSEED fixes it: the other's is another)."""
    here, there = folder / "here.json", folder / "there.json"
    assert run_cli(*args, "-o", here).code == 0
    hash_seed = "2" if os.environ.get("PYTHONHASHSEED") == "1" else "1"
    subprocess.run([sys.executable, "-m", "pipscover", *args, "-o", str(there)], check=True, capture_output=True,
                   env={**os.environ, "PYTHONHASHSEED": hash_seed})
    return here.read_text(), there.read_text()


def test_nyt_dominoes_are_distinct_and_within_max_pip():
    puzzle = generate(dominoes=10, max_pip=6, seed=3, unique=False).puzzle
    assert len(set(puzzle.domino_counts)) == 10
    assert puzzle.max_pip <= 6


def test_without_uniqueness_the_counter_is_not_called():
    made = generate(dominoes=8, seed=1, unique=False)
    assert (made.unique, made.counter_calls) == (False, 0)
    assert problems(made.puzzle, made.solution) == []


def test_written_puzzle_reads_back_with_its_solution(run_cli, tmp_path):
    path = tmp_path / "made.json"
    assert run_cli("generate", "-n", "5", "--seed", "9", "-o", path, "--json").code == 0
    (puzzle,) = parse(path.read_text(), str(path))
    assert problems(puzzle, puzzle.published_solution) == []
    assert json.loads(path.read_text())["solution"]


def test_bad_sizes_are_refused():
    with pytest.raises(PipsError):
        generate(dominoes=0)


@pytest.mark.parametrize("difficulty", list(Difficulty))
def test_a_puzzle_asked_for_a_difficulty_is_rated_so(difficulty):
    """(One seed: a second, seed 1, tried the same thing and cost 5 s of CPU, most of it for an easy one.)"""
    made = generate(dominoes=7, seed=0, difficulty=difficulty)
    assert made.difficulty is made.puzzle.origin.difficulty is difficulty and rate(made.puzzle).difficulty == difficulty
    assert solve(made.puzzle, "dlx", limit=None).solutions == (made.solution,)


def test_a_puzzle_made_with_any_difficulty_is_not_named_by_its_rating(run_cli, tmp_path):
    """The generator wrote its rating into the puzzle's origin: `show` and `solve` of its certificate called a
    puzzle made with any difficulty "(medium)", as a day is called by the difficulty the NYT gave it."""
    made = generate(dominoes=6, seed=3)
    assert made.difficulty is not None and made.puzzle.origin.difficulty is None
    assert run_cli("generate", "-n", "6", "--seed", "3", "--certify", "-o", tmp_path / "made.json").code == 0
    assert run_cli("show", tmp_path / "made.cnf").out.splitlines()[0] == str(tmp_path / "made.cnf")
    assert run_cli("solve", tmp_path / "made.cnf").out.startswith(f"{tmp_path / 'made.cnf'}: solved")


def test_a_difficulty_repeats_by_seed():
    first, again = (generate(dominoes=9, seed=4, difficulty="medium").puzzle for _ in range(2))
    assert (first.regions, first.dominoes) == (again.regions, again.dominoes)


def test_extra_nodes_are_the_search_nodes_beyond_one_path():
    puzzle = generate(dominoes=7, seed=2).puzzle
    solutions, search = counted_solutions(puzzle)
    list(solutions)
    assert extra_nodes(puzzle) == search.nodes - len(puzzle.dominoes) - 1 >= 0
    assert extra_nodes(puzzle, limit=-1) is None


def test_repeated_dominoes_make_a_unique_puzzle():
    """Six kinds for 12 dominoes: the hidden grid is laid so that no second tiling fits it."""
    made = generate(dominoes=12, max_pip=2, shape="rect", seed=1)
    assert len(set(made.puzzle.dominoes)) < 12
    assert solve(made.puzzle, "dlx", limit=2).solutions == (made.solution,)
    assert not problems(made.puzzle, made.solution)


def test_pips_in_the_millions_cost_no_more_to_draw():
    made = generate(dominoes=6, max_pip=10**6, seed=3)
    assert max(max(domino) for domino in made.puzzle.dominoes) <= 10**6
    assert len(set(made.puzzle.dominoes)) == 6
    assert solve(made.puzzle, "dlx", limit=2).solutions == (made.solution,)


@settings(max_examples=40)
@given(puzzles())
def test_whole_board_question_agrees_with_brute_force(puzzle):
    every = brute_force_solutions(puzzle)
    for hidden in sorted(every, key=lambda s: s.placements)[:2]:
        found = other_solution(puzzle, hidden)
        assert (found is None) == (every == {hidden})
        assert found is None or (found in every and found != hidden)
        cell = min(puzzle.cells)
        moved = other_solution(puzzle, hidden, differ=[cell])
        assert (moved is None) == all(s.grid[cell] == hidden.grid[cell] for s in every)


def test_the_generator_asks_the_region_kinds_and_names_none():
    # Which kind starts a region, which one is the last resort and which ones merge is each kind's to say.
    assert re.findall(r"RegionKind\.[A-Z]+", Path(generator.__file__).read_text()) == []
    assert (generator.NO_RULE, generator.LAST_RESORT) == (RegionKind.EMPTY, RegionKind.SUM)
    assert [kind for kind in RegionKind if kind.rule.merges] == [RegionKind.SUM]
    assert RegionKind.SUM.rule.merged_target(3, 4) == 7


def test_under_o_dash_stdout_holds_the_puzzle_alone_and_help_says_where_the_report_goes(run_cli, monkeypatch):
    """`generate -o - --json` wrote the report to stderr and `--help` did not say so; a search that gave up
    wrote its report to stdout, where a script reads the puzzle."""
    made = run_cli("generate", "-n", "4", "--seed", "3", "--json")
    assert made.code == 0 and "regions" in json.loads(made.out) and json.loads(made.err)["status"] == "generated"
    monkeypatch.setattr("pipscover.generate.generator.MAX_RESTARTS", 1)
    gave_up = run_cli("generate", "-n", "6", "--difficulty", "hard", "--seed", "1", "--json")
    assert gave_up.code == 3 and gave_up.out == "" and json.loads(gave_up.err)["status"] == "unknown"
    monkeypatch.setenv("COLUMNS", "200")
    shown = " ".join(run_cli("generate", "--help").out.split())
    assert "on stderr under -o -" in shown and "sends the report to stderr" in shown


@pytest.mark.parametrize(("args", "says"), [
    (["-n", "1", "--difficulty", "easy"], "generate: 1 domino is out of reach for an easy puzzle"),
    (["-n", "1500"], "generate: 1,500 dominoes is too many to prove a single solution (the limit is 1,000: "),
    (["-n", "2500", "--no-unique"], "generate: 2,500 dominoes is too many for --shape nyt (the limit is 2,000: "),
])
def test_a_refused_size_counts_its_dominoes_as_people_write_them(run_cli, args, says):
    """It said "1 dominoes", and "1500 dominoes ... the limit is 1000", where every count is written 1,500."""
    done = run_cli("generate", *args)
    assert done.code == 2 and says in done.err, done.err


def test_the_report_counts_in_words_and_names_the_file_written(run_cli, tmp_path, monkeypatch):
    """`generate -n 1 -o p.json` said "1 dominoes" and did not say where the puzzle went; `encode -o` says
    "wrote p.cnf". Under -o - the report is on stderr, the puzzle on stdout: no file to name."""
    monkeypatch.chdir(tmp_path)
    done = run_cli("generate", "-n", "1", "--seed", "1", "-o", "p.json")
    assert done.code == 0 and done.out.startswith("seed 1: wrote p.json: 1 domino, 2 regions (1 with a rule)")
    assert ", 0 restarts, " in done.out and "counter call" in done.out
    on_stdout = run_cli("generate", "-n", "1", "--seed", "1")
    assert on_stdout.err.startswith("seed 1: 1 domino, 2 regions") and json.loads(on_stdout.out)["dominoes"]


def test_the_json_report_names_the_rating_rating_beside_the_difficulty_asked(run_cli):
    """Its `difficulty` was the rating and `puzzle.difficulty` the one asked for (null: any): `rating` says
    which is which, as the page's API does; `difficulty` stays, for the scripts that read it."""
    report = json.loads(run_cli("generate", "-n", "5", "--seed", "3", "--json").err)
    rated = str(generate(dominoes=5, seed=3).difficulty)
    assert (report["rating"], report["difficulty"], report["puzzle"]["difficulty"]) == (rated, rated, None)
    loose = json.loads(run_cli("generate", "-n", "5", "--seed", "3", "--no-unique", "--json").err)
    assert (loose["unique"], loose["rating"]) == (False, None)
