"""Figures from sweep tables: time against puzzle size per backend, the distribution of counts, difficulty
histograms. Drawn with matplotlib's Agg backend (no display needed), imported only when a figure is drawn.

A figure is one of `KINDS`, each a plot type with default columns that `x`, `y` and `by` override:
- `time`: `y` against `x`, a point per row and a line through the medians, one colour per `by` group; the
  y axis is logarithmic (times span decades), and so is x when it spans more than two decades;
- `counts`, `difficulty`: a histogram of `x` per `by` group; for a positive column that spans decades,
  logarithmic bins and a logarithmic count of rows; a bar per value for a column of words (easy, medium, hard).

    >>> rows = [{"dominoes": "4", "seconds": "0.01", "backend": "dlx", "status": "solved"}]
    >>> figure = draw(rows, "time")
    >>> save(figure, "/tmp/doc-plot.svg")
"""

from __future__ import annotations

import csv
import math
import statistics
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from pipscover.errors import PipsError
from pipscover.runtime.writes import cannot_write, replacing

if TYPE_CHECKING:
    from matplotlib.figure import Figure

Row = dict[str, str]
FORMATS = (".png", ".svg", ".pdf")
ORDER = {"easy": 0, "medium": 1, "hard": 2}  # words that have an order of their own
SKIPPED_STATUSES = ("error",)  # rows with no result to show
# A histogram's outlines lie on one another where groups share a bin's height: each next one is narrower and
# dashed, so that the one below shows beside it and through its gaps (drawn alike, hard's hid easy's).
DASHES = ["solid", (0, (6, 3)), (0, (2, 2)), (0, (6, 2, 2, 2))]
WIDEST, NARROWING = 2.8, 0.7  # points; each next outline's width is the last one's times NARROWING


@dataclass(frozen=True)
class Kind:
    """A plot type and its default columns (`y` None: a histogram of `x`)."""

    x: str
    y: str | None
    by: str


KINDS: dict[str, Kind] = {
    "time": Kind("dominoes", "seconds", "backend"),
    "counts": Kind("count", None, "difficulty"),
    "difficulty": Kind("seconds", None, "difficulty"),
}


def read_tables(paths: Iterable[str | Path]) -> list[Row]:
    """The rows of one or more sweep tables (their columns may differ)."""
    rows: list[Row] = []
    for path in paths:
        try:
            with open(path, newline="", encoding="utf-8") as stream:
                rows.extend(csv.DictReader(stream))
        except FileNotFoundError:
            raise PipsError(f"{path}: no such file") from None
        except (OSError, UnicodeDecodeError, csv.Error) as error:
            raise PipsError(f"{path}: cannot be read as a table ({error})") from None
    return rows


def draw(rows: Sequence[Row], kind: str = "time", x: str | None = None, y: str | None = None,
         by: str | None = None) -> Figure:
    """The figure of `kind` (see `KINDS`) for `rows`, with its columns replaced by `x`, `y`, `by` if given."""
    if kind not in KINDS:
        raise PipsError(f"unknown plot kind {kind!r}; choose one of: {', '.join(KINDS)}")
    default = KINDS[kind]
    x, by = x or default.x, by or default.by
    y = y or default.y
    for column in filter(None, (x, y, by)):
        if rows and not any(column in row for row in rows):
            raise PipsError(f"no column {column!r} in the table; it has: {', '.join(rows[0])}")
    kept = [row for row in rows if row.get("status") not in SKIPPED_STATUSES]
    if kind == "counts":
        kept = _placement_counts(kept)
    if not kept:
        raise PipsError("no rows to plot")
    from matplotlib.figure import Figure

    figure = Figure(figsize=(7, 4.5), layout="constrained")
    axes = figure.add_subplot()
    if y is None:
        _histogram(axes, kept, x, by)
    else:
        _scatter(axes, kept, x, y, by)
    return figure


def figure_name(path: str | Path) -> Path:
    """The file a figure goes to, refused unless its suffix names a format written (.png, .svg, .pdf): checked
    before the tables are read, so that a wrong name is the one thing said of it."""
    target = Path(path)
    if target.suffix.lower() not in FORMATS:
        raise PipsError(f"{path}: name a .png, .svg or .pdf file")
    return target


def save(figure: Figure, path: str | Path) -> None:
    """Write the figure (format from the suffix: .png, .svg, .pdf) whole or not at all."""
    target = figure_name(path)
    try:
        with replacing(target, binary=True) as stream:
            figure.savefig(stream, format=target.suffix[1:].lower(), dpi=120)
    except OSError as error:
        raise cannot_write(path, error) from None


def _placement_counts(rows: list[Row]) -> list[Row]:
    """The rows of one count per puzzle: a table of `count` and `grids` rows (`sweep count` and `sweep grids`)
    keeps the `count` ones, so that no puzzle is counted twice."""
    tasks = {row.get("task") for row in rows}
    return rows if len(tasks) < 2 or "count" not in tasks else [row for row in rows if row.get("task") == "count"]


def _number(text: str | None) -> float | None:
    if text is None:
        return None
    try:
        value = float(text)
    except (TypeError, ValueError, OverflowError):
        return None
    return value if math.isfinite(value) else None


def _groups(rows: Sequence[Row], by: str) -> dict[str, list[Row]]:
    groups: dict[str, list[Row]] = defaultdict(list)
    for row in rows:
        groups[row.get(by) or "(none)"].append(row)
    return dict(sorted(groups.items(), key=lambda item: (ORDER.get(item[0], 3), item[0])))


def _spans_decades(values: Sequence[float]) -> bool:
    positive = [value for value in values if value > 0]
    return bool(positive) and len(positive) == len(values) and max(positive) > 100 * min(positive)


def _scatter(axes, rows: Sequence[Row], x: str, y: str, by: str) -> None:
    """A point per row, a line through the medians at each x; timeouts marked x (their time is a floor)."""
    xs_all: list[float] = []
    for colour, (group, members) in enumerate(_groups(rows, by).items()):
        points = []
        for row in members:
            a, b = _number(row.get(x)), _number(row.get(y))
            if a is not None and b is not None and b > 0:
                points.append((a, b, row.get("status") == "timeout"))
        if not points:
            continue
        style = {"color": f"C{colour}", "alpha": 0.35, "s": 12, "linewidths": 0}
        done = [(a, b) for a, b, late in points if not late]
        late = [(a, b) for a, b, late_ in points if late_]
        if done:
            axes.scatter(*zip(*done), **style)
        if late:
            axes.scatter(*zip(*late), marker="x", color=f"C{colour}", s=20, label=f"{group}: timeout")
        by_x: dict[float, list[float]] = defaultdict(list)
        for a, b in done:
            by_x[a].append(b)
        medians = sorted((a, statistics.median(bs)) for a, bs in by_x.items())
        axes.plot(*zip(*medians), color=f"C{colour}", marker="o", markersize=3,
                  label=f"{group} (median, {len(points)} rows)")
        xs_all.extend(a for a, _, _ in points)
    axes.set_yscale("log")
    if _spans_decades(xs_all):
        axes.set_xscale("log")
    axes.set_xlabel(x)
    axes.set_ylabel(f"{y} (log scale)")
    axes.set_title(f"{y} against {x}, by {by}")
    axes.grid(True, which="major", alpha=0.3)
    axes.legend(fontsize="small")


def _histogram(axes, rows: Sequence[Row], x: str, by: str) -> None:
    """Numbers: one histogram per group on shared bins (logarithmic when they span decades); words: bars."""
    groups = _groups(rows, by)
    values = {group: [_number(row.get(x)) for row in members] for group, members in groups.items()}
    if all(value is None for group in values.values() for value in group):
        _bars(axes, groups, x, by)
        return
    numbers = {group: [value for value in group_values if value is not None] for group, group_values in values.items()}
    missing = sum(len(group_values) - len(numbers[group]) for group, group_values in values.items())
    numbers = {group: group_values for group, group_values in numbers.items() if group_values}  # no "(none) (0)"
    everything = [value for group in numbers.values() for value in group]
    zeros = sum(value == 0 for value in everything)
    import numpy

    if _spans_decades([value for value in everything if value != 0]) and min(everything) >= 0:
        positive = [value for value in everything if value > 0]
        bins = numpy.geomspace(min(positive), max(positive) * 1.0001, 30)
        axes.set_xscale("log")
        axes.set_yscale("log")  # a long tail holds a few rows per bin
        from matplotlib.ticker import LogFormatter

        # rows as numbers (1, 2, 6, 10), not as 6 x 10^0: a count of rows spans a decade or two
        axes.yaxis.set_major_formatter(LogFormatter())
        axes.yaxis.set_minor_formatter(LogFormatter(labelOnlyBase=False, minor_thresholds=(1, 0.4)))
        numbers = {group: [value for value in group_values if value > 0] for group, group_values in numbers.items()}
    else:
        bins = numpy.histogram_bin_edges(everything, bins=min(30, max(1, len(set(everything)))))
        from matplotlib.ticker import MaxNLocator

        axes.yaxis.set_major_locator(MaxNLocator(integer=True))  # rows are whole: no 1.25 rows on the axis
    for index, (group, group_values) in enumerate(numbers.items()):  # outlines, so that groups stay readable
        axes.hist(group_values, bins=bins, histtype="step", linewidth=WIDEST * NARROWING**index,
                  linestyle=DASHES[index % len(DASHES)], label=f"{group} ({len(group_values)})")
    note = f" ({zeros:,} zero, not shown)" if zeros and axes.get_xscale() == "log" else ""
    note += f" ({missing:,} rows without one, not shown)" if missing else ""  # generate's rows that timed out
    axes.set_xlabel(f"{x}{' (log scale)' if axes.get_xscale() == 'log' else ''}{note}")
    axes.set_ylabel(f"rows{' (log scale)' if axes.get_yscale() == 'log' else ''}")
    axes.set_title(f"distribution of {x}, by {by}")
    axes.legend(fontsize="small")


def _bars(axes, groups: dict[str, list[Row]], x: str, by: str) -> None:
    """How many rows have each value of a column of words, side by side per group."""
    categories = sorted({row.get(x) or "(none)" for members in groups.values() for row in members},
                        key=lambda value: (ORDER.get(value, 3), value))
    width = 0.8 / len(groups)
    for index, (group, members) in enumerate(groups.items()):
        tally = [sum((row.get(x) or "(none)") == value for row in members) for value in categories]
        axes.bar([position + index * width for position in range(len(categories))], tally, width,
                 label=f"{group} ({len(members)})")
    axes.set_xticks([position + 0.4 - width / 2 for position in range(len(categories))], categories)
    axes.set_xlabel(x)
    axes.set_ylabel("rows")
    axes.set_title(f"{x}, by {by}")
    axes.legend(fontsize="small")
