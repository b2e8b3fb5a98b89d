"""`pipscover plot`: figures from sweep tables, written whole; bad tables and names are one line, exit code 2."""

from __future__ import annotations

import csv

import pytest

from pipscover.sweep.jobs import columns

ROWS = [
    {"file": f"p{i}.json", "difficulty": difficulty, "task": "count", "backend": backend, "status": status,
     "count": count, "exact": "true", "seconds": seconds, "dominoes": dominoes, "regions": "5"}
    for i, (difficulty, backend, status, count, seconds, dominoes) in enumerate([
        ("easy", "dlx", "counted", "1", "0.001", "4"), ("easy", "sat", "counted", "1", "0.02", "4"),
        ("medium", "dlx", "counted", "12", "0.004", "8"), ("medium", "sat", "timeout", "3", "1.0", "8"),
        ("hard", "dlx", "counted", "2764800", "0.3", "12"), ("hard", "sat", "unsatisfiable", "0", "0.5", "12"),
        ("hard", "dlx", "error", "", "", "12"),
    ])
]


@pytest.fixture
def table(tmp_path):
    path = tmp_path / "results.csv"
    with path.open("w", newline="") as stream:
        writer = csv.DictWriter(stream, columns("count"), extrasaction="ignore")
        writer.writeheader()
        writer.writerows(ROWS)
    return path


@pytest.mark.parametrize(("kind", "name", "start"), [
    ("time", "time.png", b"\x89PNG"), ("counts", "counts.svg", b"<?xml"), ("difficulty", "difficulty.pdf", b"%PDF"),
])
def test_each_kind_of_figure_is_written_in_the_format_its_name_asks(run_cli, table, tmp_path, kind, name, start):
    done = run_cli("plot", table, "--kind", kind, "-o", tmp_path / name)
    assert done.code == 0, done.err
    assert (tmp_path / name).read_bytes().startswith(start)


def test_a_column_of_words_is_drawn_as_bars(run_cli, table, tmp_path):
    done = run_cli("plot", table, "--kind", "counts", "--x", "difficulty", "--by", "backend", "-o",
                   tmp_path / "bars.png", "--json")
    assert done.code == 0 and '"x": "difficulty"' in done.out


@pytest.mark.parametrize(("args", "message"), [
    (["-o", "plot.gif"], "name a .png, .svg or .pdf file"),
    (["--x", "nodes", "-o", "plot.png"], "no column 'nodes'"),
    (["--kind", "pie", "-o", "plot.png"], "unknown plot kind"),
])
def test_bad_requests_are_one_line_and_leave_no_file(run_cli, table, tmp_path, monkeypatch, args, message):
    monkeypatch.chdir(tmp_path)
    done = run_cli("plot", table, *args)
    assert done.code == 2 and done.err.count("\n") == 1 and message in done.err
    assert sorted(path.name for path in tmp_path.iterdir()) == ["results.csv"]


def test_a_missing_table_is_one_line(run_cli, tmp_path):
    done = run_cli("plot", tmp_path / "none.csv", "-o", tmp_path / "plot.png")
    assert done.code == 2 and "none.csv: no such file" in done.err
