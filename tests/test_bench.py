"""The benchmark library and `pipscover bench`."""

from __future__ import annotations

import json

import pytest

from conftest import EXAMPLES
from pipscover import PipsError, Puzzle, load_one
from pipscover.bench import benchmark

UNSOLVABLE = Puzzle.build([("sum", [(0, 0), (0, 1)], 5)], [(1, 1)])


def test_benchmark_times_every_puzzle_and_takes_medians():
    puzzles = [load_one(EXAMPLES / "first.txt"), UNSOLVABLE]
    result = benchmark(puzzles, "dlx", repeat=3)
    assert [timing.puzzle for timing in result.times] == puzzles
    assert len(result.run_totals) == 3 and min(result.run_totals) <= result.total <= max(result.run_totals)
    assert result.worst.seconds >= result.median > 0
    assert result.outcomes == {"solved": 1, "unsatisfiable": 1}
    assert "2 puzzles" in result.summary()


def test_a_summary_writes_its_counts_as_people_read_them():
    summary = benchmark([UNSOLVABLE] * 1000, "dlx").summary()
    assert summary.startswith("1,000 puzzles, ") and "outcome 1,000 unsatisfiable" in summary
    assert benchmark([UNSOLVABLE], "dlx").summary().startswith("1 puzzle, ")


def test_benchmark_reports_timeouts_as_outcomes():
    result = benchmark([load_one(EXAMPLES / "first.txt")], "dlx", timeout=0)
    assert result.outcomes == {"timeout": 1}


def test_benchmark_rejects_unknown_tasks_and_empty_lists():
    with pytest.raises(PipsError, match="task"):
        benchmark([UNSOLVABLE], "dlx", task="fastest")
    with pytest.raises(PipsError, match="no puzzles"):
        benchmark([], "dlx")


def test_bench_command_prints_figures(run_cli):
    result = run_cli("bench", EXAMPLES / "first.txt", "--repeat", "2")
    assert result.code == 0
    assert "median" in result.out and "worst" in result.out and "puzzles/s" in result.out


def test_bench_command_json(run_cli):
    result = run_cli("bench", EXAMPLES / "first.txt", "--json", "--clock", "cpu")
    document = json.loads(result.out)
    assert result.code == 0 and document["puzzles"] == 1 and document["backend"] == "auto"
    assert document["outcomes"] == {"solved": 1} and len(document["times"]) == 1
    assert document["seconds"] == sum(timing["seconds"] for timing in document["times"])
    assert document["median_puzzle_seconds"] == document["worst_puzzle_seconds"] == document["times"][0]["seconds"]


@pytest.mark.parametrize("task", ["all", "count"])
def test_every_task_runs(task):
    result = benchmark([load_one(EXAMPLES / "first.txt"), UNSOLVABLE], "dlx", task=task)
    assert result.outcomes["unsatisfiable"] == 1 and sum(result.outcomes.values()) == 2


def test_bench_command_compares_backends(run_cli):
    result = run_cli("bench", EXAMPLES / "first.txt", "-b", "dlx", "-b", "minisat22", "--json")
    rows = [json.loads(line) for line in result.out.splitlines()]
    assert result.code == 0 and [row["backend"] for row in rows] == ["dlx", "minisat22"]
    table = run_cli("bench", EXAMPLES / "first.txt", "-b", "dlx", "-b", "minisat22")
    assert "configuration" in table.out and "minisat22" in table.out
