"""Pictures in Jupyter: a `Puzzle` shows as its SVG drawing, a `Solution` as its dominoes on the puzzle's regions
(when `solve` found it), a hint as its board with its cells highlighted, the results of `solve` and `count` as a
short table (with the solutions drawn), per-cell `Marginals` as the board shaded by how settled each cell is.

Jupyter asks an object for `_repr_svg_` / `_repr_html_`. The model sits below the drawings in the package's
layers, so it cannot call them; `show_in_notebooks` (called once by `pipscover`'s `__init__`, which every
import of pipscover runs first) gives the model's classes these methods from here. Each drawing gets its own
ids, since a notebook puts every picture in one page.
"""

from __future__ import annotations

from collections.abc import Mapping
from html import escape
from itertools import count

from pipscover.model import Puzzle, Solution
from pipscover.model.results import CountResult, Marginals, SolveResult, long_numbers
from pipscover.render.svg import draw_svg

# Solutions drawn under a result that lists more (a table says how many there are).
SHOWN_SOLUTIONS = 3
_drawings = count()


def show_in_notebooks() -> None:
    """Give the model's classes their notebook pictures."""
    Puzzle._repr_svg_ = puzzle_svg  # type: ignore[attr-defined]  # a notebook hook
    Solution._repr_svg_ = solution_svg  # type: ignore[attr-defined]  # a notebook hook
    SolveResult._repr_html_ = solve_html  # type: ignore[attr-defined]  # a notebook hook
    CountResult._repr_html_ = count_html  # type: ignore[attr-defined]  # a notebook hook
    Marginals._repr_svg_ = marginals_svg  # type: ignore[attr-defined]  # a notebook hook


def fresh_ids() -> str:
    """A prefix for one drawing's ids, unique in this process."""
    return f"pips{next(_drawings)}-"


def puzzle_svg(puzzle: Puzzle) -> str:
    """The puzzle drawn (without any solution: it is for solving).

    >>> from pipscover import load_one
    >>> load_one("examples/first.txt")._repr_svg_().startswith("<svg")
    True
    """
    return draw_svg(puzzle, ids=fresh_ids())


def solution_svg(solution: Solution) -> str:
    """The solution on its puzzle's regions, with their rules, when it knows its puzzle (`solve` tells it);
    else its dominoes on a board without regions.

    >>> from pipscover import load_one, solve
    >>> 'class="label"' in solve(load_one("examples/first.txt")).solutions[0]._repr_svg_()
    True
    """
    if solution.puzzle is not None:
        return draw_svg(solution.puzzle, solution, ids=fresh_ids())
    cells = [cell for placement in solution.placements for cell in placement.cells]
    board = Puzzle.build([("empty", cells, None)], [p.domino for p in solution.placements])
    return draw_svg(board, solution, ids=fresh_ids())


def solve_html(result: SolveResult) -> str:
    """The status, the backend and the time, then the first solutions drawn.

    >>> from pipscover import load_one, solve
    >>> "solved" in solve(load_one("examples/first.txt"))._repr_html_()
    True
    """
    rows = {"status": result.status.value, "solutions": len(result.solutions), "backend": result.backend,
            "seconds": f"{result.seconds:.3f}"}
    drawings = "".join(solution_svg(solution) for solution in result.solutions[:SHOWN_SOLUTIONS])
    return table(rows) + (f"<div style='display:flex;gap:1em;flex-wrap:wrap'>{drawings}</div>" if drawings else "")


def count_html(result: CountResult) -> str:
    """The count and how it was made, as a table.

    >>> from pipscover import count, load_one
    >>> "<td>1</td>" in count(load_one("examples/first.txt"))._repr_html_()
    True
    """
    with long_numbers():
        number = f"{result.count:,}" if result.exact else f"at least {result.count:,}"
    return table({"count": number, "counts": result.distinct.value, "exact": result.exact, "method": result.method,
                  "backend": result.backend, "seconds": f"{result.seconds:.3f}"})


def marginals_svg(marginals: Marginals) -> str:
    """The puzzle with each cell shaded by how settled it is, the backbone's pips written on.

    >>> from pipscover import load_one
    >>> from pipscover.counting.completions import marginals
    >>> marginals(load_one("examples/first.txt"))._repr_svg_().count('class="settled"')
    16
    """
    backbone = marginals.backbone()
    return draw_svg(marginals.puzzle, ids=fresh_ids(),
                    settled={cell: (share, backbone.get(cell)) for cell, share in marginals.settled().items()})


def table(rows: Mapping[str, object]) -> str:
    """A two-column HTML table: name, value."""
    body = "".join(f"<tr><th style='text-align:left'>{escape(name)}</th><td>{escape(str(value))}</td></tr>"
                   for name, value in rows.items())
    return f"<table>{body}</table>"
