"""A brute-force solver for small puzzles, sharing nothing with the engines it is used to judge.

It lists every domino tiling of the board, tries every assignment of dominoes and orientations to the
tiles, and keeps those that the independent checker accepts. Only for a handful of dominoes. Answers are
cached, since every engine and counter of tests/test_against_brute_force.py is judged on the same puzzles.
"""

from __future__ import annotations

from functools import cache
from itertools import permutations, product

from pipscover.model import Placement, Puzzle, Solution
from pipscover.model.check import problems


def tilings(cells: set[tuple[int, int]]) -> list[list[tuple[tuple[int, int], tuple[int, int]]]]:
    """Every way to cover `cells` with dominoes, each as a list of cell pairs."""
    if not cells:
        return [[]]
    first = min(cells)
    found = []
    for other in ((first[0], first[1] + 1), (first[0] + 1, first[1])):
        if other in cells:
            for rest in tilings(cells - {first, other}):
                found.append([(first, other), *rest])
    return found


@cache
def brute_force_solutions(puzzle: Puzzle) -> frozenset[Solution]:
    """Every solution of `puzzle`, as a set (so identical dominoes and doubles count once)."""
    found = set()
    for tiling in tilings(set(puzzle.cells)):
        for order in set(permutations(puzzle.dominoes)):
            for flips in product((False, True), repeat=len(order)):
                placements = tuple(
                    Placement(domino[::-1] if flip else domino, slot)
                    for domino, slot, flip in zip(order, tiling, flips)
                )
                if not problems(puzzle, placements):
                    found.add(Solution(placements))
    return frozenset(found)


def brute_force_grids(puzzle: Puzzle) -> frozenset[tuple[tuple[tuple[int, int], int], ...]]:
    """The distinct pip grids among the solutions."""
    return frozenset(tuple(sorted(solution.grid.items())) for solution in brute_force_solutions(puzzle))
