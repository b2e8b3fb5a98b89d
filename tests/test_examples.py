"""The research scripts in examples/ run end to end on tiny inputs."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from conftest import EXAMPLES
from pipscover.formats import puzzle_to_nyt
from pipscover.generate.generator import generate

REPOSITORY = EXAMPLES.parent


def run_example(script: str, *arguments: str) -> str:
    # The checkout's package, whatever is installed: the scripts document this version of the API.
    environment = {**os.environ, "PYTHONPATH": str(REPOSITORY)}
    done = subprocess.run(
        [sys.executable, str(EXAMPLES / script), *arguments],
        capture_output=True, text=True, cwd=REPOSITORY, env=environment,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_counting_by_blocking_agrees_with_dlx():
    table = run_example("count_by_blocking.py", str(EXAMPLES / "first.txt"), "--limit", "100")
    assert "first.txt" in table and " NO" not in table


def test_encodings_are_compared_on_a_folder(tmp_path: Path):
    for seed in (1, 2):
        made = generate(dominoes=5, seed=seed)
        (tmp_path / f"{seed}.json").write_text(json.dumps(puzzle_to_nyt(made.puzzle, made.solution)))
    table = run_example("compare_encodings.py", str(tmp_path), "--card", "seqcounter,totalizer", "--pb", "best")
    assert "2 puzzles" in table
    assert len([line for line in table.splitlines() if line.startswith(("seqcounter", "totalizer"))]) == 2


def test_growth_table_on_reduced_one_in_three_instances():
    table = run_example("one_in_three_growth.py", "--sizes", "1,2", "--instances", "2", "--connected")
    assert [line.split()[0] for line in table.splitlines()[1:]] == ["1", "2"]
