"""An independent solution checker: it shares no code with any engine, so it can judge them all.

`problems` lists everything wrong with a proposed solution in words a user can act on; an empty list
means the solution is valid. With `partial`, it judges a position part-way (the dominoes a player has placed
so far): cells left empty are not wrong, a domino is wrong only when placed more often than the puzzle has
it, and a region is judged once all its cells are covered.
"""

from __future__ import annotations

from collections import Counter

from pipscover.model import Placement, Puzzle, Solution, domino_key, given_placements, given_puzzle
from pipscover.model.geometry import are_adjacent
from pipscover.model.naming import name_cell, name_cells, name_domino, name_pips, name_region
from pipscover.regions.base import listing


def problems(puzzle: Puzzle, solution: Solution | tuple[Placement, ...], partial: bool = False,
             most_cells: int | None = None) -> list[str]:
    """Everything that keeps `solution` from solving `puzzle` (with `partial`: from being part of a solution);
    empty when it is valid. With `most_cells`, the cells not covered are named up to that many, then counted.

    >>> from pipscover.model import Puzzle
    >>> puzzle = Puzzle.build([("sum", [(0, 0), (0, 1)], 5), ("empty", [(1, 0), (1, 1)], None)], [(1, 4), (2, 2)])
    >>> problems(puzzle, (Placement((2, 2), ((0, 0), (0, 1))),), partial=True)
    ['the sum-5 region at the top breaks its rule with pips 2 and 2']
    """
    board = given_puzzle(puzzle).region_index
    placements = given_placements(solution, "a solution")
    found: list[str] = []
    pips: dict[tuple[int, int], int] = {}
    for placement in placements:
        first, second = placement.cells
        for cell in placement.cells:
            if cell not in board:
                found.append(f"{_named(placement)}: {name_cell(cell)} is not on the board")
        if not are_adjacent(first, second):
            found.append(f"{_named(placement)}: the cells are not side by side")
        for cell, pip in zip(placement.cells, placement.domino):
            if cell in pips:
                found.append(f"{name_cell(cell)} is covered twice")
            pips[cell] = pip
    uncovered = [] if partial else [cell for cell in puzzle.cells if cell not in pips]
    if uncovered:
        found.append(f"not covered: {_uncovered(uncovered, most_cells)}")
    used = Counter(domino_key(p.domino) for p in placements)
    for domino in sorted(set(puzzle.domino_counts) | set(used)):
        have, wanted = used[domino], puzzle.domino_counts[domino]
        if have > wanted or (have != wanted and not partial):
            placed = f"placed {_times(have)}" if have else "not placed"
            found.append(f"the {name_domino(domino)} is {placed}; the puzzle has {wanted or 'none'}")
    if uncovered or any(cell not in board for cell in pips):
        return found
    for index, region in enumerate(puzzle.regions):
        if partial and any(cell not in pips for cell in region.cells):
            continue
        values = [pips[cell] for cell in region.cells]
        if not region.holds(values):
            found.append(f"{name_region(puzzle, index)} breaks its rule with pips {name_pips(values)}")
    return found


def _uncovered(cells: list[tuple[int, int]], most: int | None) -> str:
    """The cells not covered, past `most` the first `most` and how many more: a few dominoes on an NYT board
    left a line of 60 cells, and on a planted board one of thousands.

    >>> _uncovered([(0, 0), (1, 1), (2, 2), (3, 3)], 2)
    'row 1, column 1, row 2, column 2 and 2 more cells'
    """
    if most is None or len(cells) <= most:
        return name_cells(cells)
    return listing([*(name_cell(cell) for cell in cells[:most]), f"{len(cells) - most} more cells"], "and")


def _named(placement: Placement) -> str:
    """A placement in a problem's words, made only when there is a problem (the brute force of the tests asks
    this checker about hundreds of thousands of placements that have none)."""
    return f"the {name_domino(placement.domino)} on {name_cells(placement.cells)}"


def _times(count: int) -> str:
    return {1: "once", 2: "twice"}.get(count, f"{count} times")


def is_valid(puzzle: Puzzle, solution: Solution) -> bool:
    """Whether `solution` solves `puzzle`, by the independent checker (`problems` says what is wrong).

    >>> from pipscover import load_one, solve
    >>> puzzle = load_one("examples/first.txt")
    >>> is_valid(puzzle, solve(puzzle).solutions[0]), is_valid(puzzle, Solution(()))
    (True, False)
    """
    return not problems(puzzle, solution)
