"""`pipscover plot`: figures from sweep tables, written whole; bad tables and names are one line, exit code 2."""

from __future__ import annotations

import csv
import json
import re
import struct
import xml.etree.ElementTree as ET

import pytest

from pipscover.sweep.jobs import columns
from pipscover.sweep.plot import draw

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


def whole(name: str, data: bytes) -> bool:
    """Whether `data` is a whole file of the format `name` asks: a 7 x 4.5 inch PNG at 120 dpi, an SVG document,
    a PDF with its end-of-file marker."""
    if name.endswith(".png"):
        return data.startswith(b"\x89PNG\r\n\x1a\n") and struct.unpack(">II", data[16:24]) == (840, 540)
    if name.endswith(".svg"):
        return ET.fromstring(data).tag == "{http://www.w3.org/2000/svg}svg"
    return data.startswith(b"%PDF") and data.rstrip().endswith(b"%%EOF")


@pytest.mark.parametrize(("kind", "name"), [("time", "time.png"), ("counts", "counts.svg"),
                                            ("difficulty", "difficulty.pdf")])
def test_each_kind_of_figure_is_written_whole_in_the_format_its_name_asks(run_cli, table, tmp_path, kind, name):
    done = run_cli("plot", table, "--kind", kind, "-o", tmp_path / name, "--json")
    assert done.code == 0, done.err
    assert whole(name, (tmp_path / name).read_bytes())
    assert json.loads(done.out)["kind"] == kind


# What the figures show, read back from matplotlib's axes.


def test_time_has_a_median_line_per_backend_and_marks_timeouts_apart():
    axes = draw(ROWS, "time").axes[0]
    assert axes.get_title() == "seconds against dominoes, by backend"
    assert axes.get_legend_handles_labels()[1] == ["dlx (median, 3 rows)", "sat: timeout", "sat (median, 3 rows)"]
    # The error row is left out; a timeout's time is only a floor, so it stays out of the median line.
    assert [line.get_xydata().tolist() for line in axes.get_lines()] == [
        [[4, 0.001], [8, 0.004], [12, 0.3]], [[4, 0.02], [12, 0.5]]]
    assert (axes.get_xscale(), axes.get_yscale()) == ("linear", "log")


def test_counts_spanning_decades_get_logarithmic_bins_and_the_zeros_are_named():
    axes = draw(ROWS, "counts").axes[0]
    assert axes.get_legend_handles_labels()[1] == ["easy (2)", "medium (2)", "hard (1)"]
    assert (axes.get_xscale(), axes.get_yscale()) == ("log", "log")
    assert axes.get_xlabel() == "count (log scale) (1 zero, not shown)"


def test_the_rows_of_a_histogram_on_a_log_scale_are_numbers_as_people_write_them():
    """Its rows read 6 x 10^0, 4 x 10^0, 3 x 10^0, 2 x 10^0 and 10^0 up the side, for six rows or fewer."""
    axes = draw(ROWS * 6, "counts").axes[0]
    axes.figure.canvas.draw()
    shown = [label.get_text() for label in axes.get_yticklabels() + axes.get_yticklabels(minor=True)]
    assert {"1", "2", "6", "10"} <= set(shown) and not any("times" in text or "^" in text for text in shown), shown


def test_a_column_of_words_is_drawn_as_bars_in_its_own_order(run_cli, table, tmp_path):
    done = run_cli("plot", table, "--kind", "counts", "--x", "difficulty", "--by", "backend", "-o",
                   tmp_path / "bars.png", "--json")
    assert done.code == 0 and json.loads(done.out)["x"] == "difficulty"
    axes = draw(ROWS, "counts", x="difficulty", by="backend").axes[0]
    assert [label.get_text() for label in axes.get_xticklabels()] == ["easy", "medium", "hard"]
    assert axes.get_legend_handles_labels()[1] == ["dlx (3)", "sat (3)"]
    assert [bar.get_height() for bar in axes.patches] == [1, 1, 1, 1, 1, 1]  # one row each; the error row left out


@pytest.mark.parametrize(("args", "message"), [
    (["-o", "plot.gif"], "name a .png, .svg or .pdf file"),
    (["--x", "nodes", "-o", "plot.gif"], "name a .png, .svg or .pdf file"),  # was "no column", the name said after
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


def test_counts_of_a_table_with_count_and_grids_rows_count_each_puzzle_once():
    """`sweep count` and `sweep grids` rows in one table: each puzzle was counted twice."""
    rows = [{"task": task, "difficulty": "easy", "count": str(n), "status": "solved"}
            for n in (1, 2) for task in ("count", "grids")]
    axes = draw(rows, "counts").axes[0]
    assert axes.get_legend_handles_labels()[1] == ["easy (2)"]


def test_the_outlines_of_groups_whose_bins_coincide_both_show(run_cli, tmp_path):
    """Easy's and hard's outlines were drawn alike (solid, 1.8 pt), so that where their bins had the same height
    hard's hid easy's; each next outline is now narrower than the one before and dashed, which shows beside it
    and through its gaps."""
    path = tmp_path / "same.csv"
    with path.open("w", newline="") as stream:
        writer = csv.DictWriter(stream, ["difficulty", "seconds", "status"])
        writer.writeheader()
        writer.writerows({"difficulty": difficulty, "seconds": seconds, "status": "solved"}
                         for difficulty in ("easy", "hard") for seconds in ("0.1", "0.2", "0.2", "0.5"))
    assert run_cli("plot", path, "--kind", "difficulty", "-o", tmp_path / "same.svg").code == 0
    outlines = {}  # colour -> its outline's style (the histogram's, and the same again in the legend)
    for style in re.findall(r'style="(fill: none;[^"]*)"', (tmp_path / "same.svg").read_text()):
        declared = dict(part.strip().split(": ") for part in style.split(";") if part.strip())
        outlines.setdefault(declared["stroke"], declared)
    easy, hard = outlines["#1f77b4"], outlines["#ff7f0e"]  # the first two colours, in the order easy, hard
    assert float(hard["stroke-width"]) < float(easy["stroke-width"])
    assert "stroke-dasharray" in hard and "stroke-dasharray" not in easy


def test_a_histogram_says_how_many_rows_had_no_number_and_draws_no_empty_group():
    """A `sweep generate` table's rows that timed out have no extra_nodes: 290 of 295 were left out unsaid,
    under a legend entry "(none) (0)", on an axis of 1.25 rows."""
    rows = [{"difficulty": "hard", "extra_nodes": str(nodes), "status": "generated"} for nodes in (91, 384, 402)]
    rows += [{"difficulty": "", "extra_nodes": "", "status": "timeout"}] * 4
    axes = draw(rows, "difficulty", x="extra_nodes").axes[0]
    assert [text.get_text() for text in axes.get_legend().get_texts()] == ["hard (3)"]
    assert axes.get_xlabel() == "extra_nodes (4 rows without one, not shown)"
    assert all(tick == int(tick) for tick in axes.get_yticks())


def test_a_table_of_one_row_is_said_so(run_cli, tmp_path):
    """`plot` said "time plot of 1 rows"."""
    path = tmp_path / "one.csv"
    with path.open("w", newline="") as stream:
        writer = csv.DictWriter(stream, columns("count"), extrasaction="ignore")
        writer.writeheader()
        writer.writerow(ROWS[0])
    done = run_cli("plot", path, "-o", tmp_path / "one.svg")
    assert (done.code, done.out) == (0, f"{tmp_path / 'one.svg'}: time plot of 1 row\n")
