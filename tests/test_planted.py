"""Planted puzzles: their planted grid solves them, and a seed names one puzzle on any machine."""

from __future__ import annotations

import hashlib
import json
from collections import Counter

import pytest
from brute_force import brute_force_solutions
from test_generate import written_here_and_in_another_process

from pipscover.errors import PipsError
from pipscover.formats import load_one, puzzle_to_nyt
from pipscover.generate.planted import SCALE_SUITE, Pips, PlantedSpec, planted
from pipscover.model import RegionKind
from pipscover.model.check import problems
from pipscover.solving import solve

# A fingerprint of one planted file: it changes only if the maker does (and then the benchmark's figures too).
FINGERPRINT = "33c14cb011a9e6a5"


@pytest.mark.parametrize("spec", [
    PlantedSpec(8, 8, Pips.REPEATED, 6, 5), PlantedSpec(12, 12, Pips.DISTINCT, 12, 1),
    PlantedSpec(2, 300, Pips.DISTINCT, 30, 1), PlantedSpec(3, 4, Pips.REPEATED, 2, 9), PlantedSpec(1, 2),
])
def test_the_planted_solution_solves_the_puzzle(spec):
    puzzle, solution = planted(spec)
    assert problems(puzzle, solution) == []
    assert len(puzzle.cells) == spec.rows * spec.columns


def test_distinct_dominoes_never_repeat():
    puzzle, _ = planted(PlantedSpec(12, 12, Pips.DISTINCT, 12, 4))
    assert max(puzzle.domino_counts.values()) == 1 and puzzle.max_pip <= 12


@pytest.mark.parametrize("seed", range(6))
def test_small_planted_puzzles_have_the_brute_force_solutions(seed):
    puzzle, solution = planted(PlantedSpec(2, 4, Pips.REPEATED, 3, seed))
    expected = set(brute_force_solutions(puzzle))
    assert solution in expected
    assert set(solve(puzzle, "dlx", limit=None).solutions) == expected


def test_the_suite_uses_every_region_kind():
    kinds = Counter(region.kind for spec in SCALE_SUITE[:5] for region in planted(spec)[0].regions)
    assert set(kinds) == set(RegionKind)


def test_a_seed_gives_the_same_puzzle_and_another_seed_another():
    first, again, other = (planted(PlantedSpec(6, 6, seed=s))[0] for s in (3, 3, 4))
    assert (first.regions, first.dominoes) == (again.regions, again.dominoes)
    assert (first.regions, first.dominoes) != (other.regions, other.dominoes)


def test_a_seed_gives_the_same_puzzle_on_any_machine():
    puzzle, solution = planted(PlantedSpec(4, 6, Pips.DISTINCT, 6, 11))
    text = json.dumps(puzzle_to_nyt(puzzle, solution), sort_keys=True)
    assert hashlib.sha256(text.encode()).hexdigest()[:16] == FINGERPRINT



def test_the_cli_writes_the_same_file_in_separate_processes(run_cli, tmp_path):
    here, there = written_here_and_in_another_process(
        run_cli, tmp_path, ["planted", "6x8", "--pips", "distinct", "--max-pip", "8", "--seed", "3"])
    assert here == there
    puzzle = load_one(tmp_path / "here.json")
    assert problems(puzzle, puzzle.published_solution) == []


def test_a_board_dominoes_cannot_tile_is_bad_input(run_cli):
    with pytest.raises(PipsError, match="cannot be tiled"):
        planted(PlantedSpec(3, 3))
    done = run_cli("planted", "2x10", "--pips", "distinct", "--max-pip", "2")  # (an exception would escape)
    assert done.code == 2 and "larger --max-pip" in done.err and "Traceback" not in done.err


def test_a_file_written_is_named_as_encode_names_its_own(run_cli, tmp_path, monkeypatch):
    """`planted 1x2 -o p.json` wrote it without a word (its --json names it by "file"); stdout takes no line
    when the puzzle itself goes there."""
    monkeypatch.chdir(tmp_path)
    done = run_cli("planted", "1x2", "--seed", "1", "-o", "p.json")
    assert (done.code, done.out) == (0, "planted-1x2-repeated-p6-s1: wrote p.json: 1 domino, 1 region\n")
    assert json.loads(run_cli("planted", "1x2", "--seed", "1", "-o", "q.json", "--json").out)["file"] == "q.json"
    assert json.loads(run_cli("planted", "1x2", "--seed", "1").out)["dominoes"]


def test_too_few_distinct_dominoes_are_counted_as_people_write_them(run_cli):
    """It said "5000 distinct dominoes" where every count is written 5,000."""
    done = run_cli("planted", "100x100", "--pips", "distinct", "--max-pip", "10", "--seed", "1")
    assert done.code == 2 and "5,000 distinct dominoes need a larger --max-pip (pips up to 10 make 66)" in done.err
