"""`encode`'s DIMACS read by a stock projected model counter (Ganak) gives `pipscover count`'s numbers.

The counter reads only the file: its clauses and its `c p show` projection set. By default the set is the
placement variables and the projected count is the number of solutions; with `--project grids` it is the
value variables and the count is the number of distinct pip grids. The puzzles chosen have fewer grids
than solutions, so a file projected on the wrong set would fail.
"""

from __future__ import annotations

import pytest

from conftest import NYT_FOLDER, needs_nyt
from pipscover import count, load_one

pyganak = pytest.importorskip("pyganak")

# (day, difficulty): placements != grids on each (e.g. 2025-08-23 hard: 80 solutions, 16 grids; 2025-11-08
# hard: 10 and 6). (2025-09-04 hard, 86 and 65, took Ganak 4 s of CPU and showed nothing more.)
PUZZLES = [("2025-08-23", "hard"), ("2025-11-08", "hard"), ("2025-09-08", "medium"), ("2025-08-27", "easy")]


def projected_count(dimacs: str) -> int:
    """What a projected model counter makes of the file: its clauses, counted over its `c p show` set."""
    counter = pyganak.Counter()
    clauses, shown = [], None
    for line in dimacs.splitlines():
        if line.startswith("c p show "):
            shown = [int(word) for word in line.split()[3:-1]]
        elif line.startswith("p cnf "):
            counter.new_vars(int(line.split()[2]))
        elif line and not line.startswith("c"):
            clauses.append([int(word) for word in line.split()[:-1]])
    counter.add_clauses(clauses)
    assert shown, "the file has no projection set"
    counter.set_sampling_set(shown)
    return counter.count()


@needs_nyt
@pytest.mark.parametrize(("day", "difficulty"), PUZZLES)
@pytest.mark.parametrize("project", ["placements", "grids"])
def test_ganak_counts_the_encoded_file_as_pipscover_count_does(run_cli, tmp_path, day, difficulty, project):
    cnf = tmp_path / "puzzle.cnf"
    day_file = NYT_FOLDER / f"{day}.json"
    assert run_cli("encode", day_file, "-d", difficulty, "--project", project, "-o", cnf).code == 0
    expected = count(load_one(day_file, difficulty), distinct=project).count
    assert projected_count(cnf.read_text()) == expected


@needs_nyt
def test_the_puzzles_chosen_have_fewer_grids_than_solutions():
    for day, difficulty in PUZZLES:
        puzzle = load_one(NYT_FOLDER / f"{day}.json", difficulty)
        assert count(puzzle, distinct="grids").count < count(puzzle).count
