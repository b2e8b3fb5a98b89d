"""What the page asks of the library, in the page's own JSON: no HTTP here, so every answer is testable alone.

The page keeps the puzzle (as an NYT puzzle object, which the readers validate again on every request) and
the dominoes placed so far, and sends both with each question: the server keeps no games, so several tabs,
reloads and restarts are all the same to it. Every question runs within a deadline (`SECONDS`), so one
request cannot hold the server; past it the answer says the question was too big for the time, never a
half-answer.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import Any

from pipscover.counting import count
from pipscover.errors import PipsError, shown
from pipscover.formats.nyt import puzzle_to_nyt, read_nyt
from pipscover.formats.solution import placements_in
from pipscover.hints import Step, hint, wrong_placement
from pipscover.hints.position import keeping
from pipscover.hints.rating import rate
from pipscover.model import Placement, Puzzle, are_adjacent
from pipscover.model.check import problems
from pipscover.model.naming import name_region
from pipscover.model.results import SearchTimeout
from pipscover.render.svg import EMPTY_FILL, PALETTE, region_colours
from pipscover.serve.shapes import Question

# Seconds each kind of question may take from its arrival; past them the answer is a `TooLong` (HTTP 503).
SECONDS = {"hint": 10.0, "check": 10.0, "reveal": 10.0, "stats": 60.0}  # counts show their progress
# The largest puzzle the page plays (drawing, hints and counts stay quick below it).
MAX_DOMINOES = 100
# The largest whole number the page's JavaScript holds exactly (Number.MAX_SAFE_INTEGER): a pip or target past it
# came back rounded with every question (2**53 + 1 as 2**53), and the server refused the puzzle it had served.
MAX_NUMBER = 2**53 - 1


class TooLong(Exception):
    """A question that did not finish within its deadline."""


def view(puzzle: Puzzle) -> dict[str, Any]:
    """The puzzle for the page: the NYT object to send back with every question, where it came from, and how
    to draw it (each region's cells, label, name as the hints say it, fill and outline colour; the same colours
    as the SVG drawings)."""
    if len(puzzle.dominoes) > MAX_DOMINOES:
        raise PipsError(f"{puzzle.describe()}: {len(puzzle.dominoes)} dominoes; the page plays up to {MAX_DOMINOES}")
    largest = max(puzzle.max_pip, *(region.target or 0 for region in puzzle.regions))
    if largest > MAX_NUMBER:
        raise PipsError(f"{puzzle.describe()}: {largest} is past the largest number the page holds exactly, "
                        f"{MAX_NUMBER}")
    colours = region_colours(puzzle)
    regions = []
    for index, region in enumerate(puzzle.regions):
        fill, outline = PALETTE[colours[index]] if index in colours else (EMPTY_FILL, None)
        regions.append({"cells": [list(cell) for cell in region.cells], "label": region.label,
                        "rule": region.describe(), "name": name_region(puzzle, index), "fill": fill,
                        "outline": outline})
    return {"puzzle": puzzle_to_nyt(puzzle), "origin": puzzle.origin.as_json(), "title": puzzle.describe(),
            "regions": regions, "dominoes": [list(domino) for domino in puzzle.dominoes]}


def read_request(question: Question) -> tuple[Puzzle, tuple[Placement, ...]]:
    """The puzzle and the placed dominoes of a question; `PipsError` with one sentence when either is malformed,
    a placed domino is not one of the puzzle's, or lies off the board or on cells that are not neighbours."""
    (puzzle,) = read_nyt(json.dumps(question.puzzle), "the puzzle")
    if len(puzzle.dominoes) > MAX_DOMINOES:
        raise PipsError(f"the puzzle has {len(puzzle.dominoes)} dominoes; the page plays up to {MAX_DOMINOES}")
    placed = placements_in(question.placed, lambda problem: PipsError(f"placed: {problem}"))
    for placement in placed:
        (a, b), cells = placement.domino, [list(cell) for cell in placement.cells]
        where = f"placed: the [{a}|{b}] on {shown(cells)}"
        for cell in placement.cells:
            if cell not in puzzle.region_index:
                raise PipsError(f"{where}: cell {list(cell)} is not on the board")
        if not are_adjacent(*placement.cells):
            raise PipsError(f"{where}: the cells are not neighbours")
        if tuple(sorted(placement.domino)) not in puzzle.domino_counts:
            raise PipsError(f"{where}: the puzzle has no such domino")
    return puzzle, placed


def answer(kind: str, puzzle: Puzzle, placed: tuple[Placement, ...], deadline: float, every: bool) -> dict[str, Any]:
    """The page's question `kind` (hint, check, reveal or stats) about the position, by `deadline` (a
    `time.monotonic()` instant); one function to hand to a worker process."""
    match kind:
        case "hint":
            return hint_for(puzzle, placed, deadline)
        case "check":
            return check(puzzle, placed, deadline)
        case "reveal":
            return reveal(puzzle, placed, deadline, every)
        case _:
            return stats(puzzle, deadline)


def hint_for(puzzle: Puzzle, placed: tuple[Placement, ...], deadline: float) -> dict[str, Any]:
    """The next hint from the position, or the wrong placement named (`step` is None when the board is full)."""
    return {"step": _step(_within("hint", lambda: hint(puzzle, placed, timeout=_left(deadline))))}


def check(puzzle: Puzzle, placed: tuple[Placement, ...], deadline: float) -> dict[str, Any]:
    """`solved`, `right` (some solution keeps every domino placed so far) or `wrong` (with the wrong placement
    named as a hint names it)."""
    if len(placed) == len(puzzle.dominoes) and not problems(puzzle, placed):
        return {"status": "solved"}
    wrong = _within("check", lambda: wrong_placement(puzzle, placed, deadline))
    return {"status": "right"} if wrong is None else {"status": "wrong", "step": _step(wrong)}


def reveal(puzzle: Puzzle, placed: tuple[Placement, ...], deadline: float, every: bool) -> dict[str, Any]:
    """The dominoes of a solution that keeps the position: the next one (in reading order) or all that are
    missing; when no solution keeps the position, the wrong placement instead."""
    wrong = _within("reveal", lambda: wrong_placement(puzzle, placed, deadline))
    if wrong is not None:
        return {"placements": [], "step": _step(wrong)}
    kept = _within("reveal", lambda: keeping(puzzle, placed, deadline))
    if kept.solution is None:
        return {"placements": [], "message": "This puzzle has no solution."}
    have = {cell for placement in placed for cell in placement.cells}
    missing = sorted((p for p in kept.solution.placements if not have & set(p.cells)), key=lambda p: min(p.cells))
    return {"placements": [p.as_json() for p in (missing if every else missing[:1])]}


def stats(puzzle: Puzzle, deadline: float) -> dict[str, Any]:
    """How many solutions and distinct grids the puzzle has (by the command line's method), and its rating;
    each within what is left of the deadline. A count the deadline cut short is a lower bound (`exact` false)."""
    solutions = count(puzzle, timeout=_left(deadline))
    grids = count(puzzle, distinct="grids", timeout=_left(deadline))
    try:
        rating = rate(puzzle, timeout=_left(deadline))
        rated: dict[str, Any] = {"rating": rating.difficulty, "steps": rating.steps, "guesses": rating.guesses,
                                 "hardest_rule": None if rating.hardest is None else rating.hardest.name}
    except SearchTimeout:
        rated = {"rating": None}
    return {"solutions": {"count": str(solutions.count), "exact": solutions.exact},
            "grids": {"count": str(grids.count), "exact": grids.exact}, **rated}


def _left(deadline: float) -> float:
    return max(0.0, deadline - time.monotonic())


def _step(step: Step | None) -> dict[str, Any] | None:
    return None if step is None else {**step.as_json(), "title": step.rule.title}


def _within(question: str, ask: Callable[[], Any]) -> Any:
    """`ask()`, which keeps the question's deadline; `TooLong` when it passes."""
    try:
        return ask()
    except SearchTimeout:
        seconds = SECONDS[question]
        raise TooLong(f"The {question} took longer than {seconds:g} s on this puzzle; try a smaller one.") from None
