"""A brute-force solver for small puzzles, sharing nothing with the engines it is used to judge.

It lists every domino tiling of the board and tries every assignment of dominoes and orientations to its
tiles, tile by tile, keeping those that the independent checker accepts. The checker also judges an
assignment part-way (`partial`) where a tile completes a region, and one it refuses there is not extended: a
covered region's pips stay as they are, so no completion could be accepted. The tiles are taken region by
region, the region with the fewest tiles first, so that regions complete early. The answers are those of
trying every full assignment, found far sooner on six dominoes. Only for a handful of dominoes. Answers are
cached, since every engine and counter of tests/test_against_brute_force.py is judged on the same puzzles.
"""

from __future__ import annotations

from collections import Counter
from functools import cache

from pipscover.model import Placement, Puzzle, Solution
from pipscover.model.check import problems

Tile = tuple[tuple[int, int], tuple[int, int]]


def tilings(cells: set[tuple[int, int]]) -> list[list[Tile]]:
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
    found: set[Solution] = set()
    left = Counter(puzzle.dominoes)

    def assign(placed: tuple[Placement, ...], tiling: list[Tile], judged: list[bool]) -> None:
        if len(placed) == len(tiling):
            if not problems(puzzle, placed):
                found.add(Solution(placed))
            return
        for domino in [domino for domino, copies in left.items() if copies]:
            left[domino] -= 1
            for turned in {domino, domino[::-1]}:
                extended = (*placed, Placement(turned, tiling[len(placed)]))
                if not (judged[len(placed)] and problems(puzzle, extended, partial=True)):
                    assign(extended, tiling, judged)
            left[domino] += 1

    for tiling in tilings(set(puzzle.cells)):
        ordered = regions_first(puzzle, tiling)
        assign((), ordered, completes_a_region(puzzle, ordered))
    return frozenset(found)


def regions_first(puzzle: Puzzle, tiling: list[Tile]) -> list[Tile]:
    """The tiling's tiles, those of the region that has fewest tiles left first, and so on: six distinct
    dominoes in several regions are judged after two or three tiles rather than at the last."""
    left, ordered = list(tiling), []
    while left:
        touching = [[tile for tile in left if set(tile) & set(region.cells)] for region in puzzle.regions]
        nearest = min((tiles for tiles in touching if tiles), key=len)
        ordered += nearest
        left = [tile for tile in left if tile not in nearest]
    return ordered


def completes_a_region(puzzle: Puzzle, tiling: list[Tile]) -> list[bool]:
    """For each tile, whether covering it completes a region: only then can the checker refuse a part-way
    assignment that uses no domino more often than the puzzle has it. (The last tile is left to the full check.)"""
    covered: set[tuple[int, int]] = set()
    completes = []
    for tile in tiling:
        covered.update(tile)
        completes.append(any(set(tile) & set(region.cells) and covered >= set(region.cells)
                             for region in puzzle.regions))
    return [*completes[:-1], False]


def brute_force_grids(puzzle: Puzzle) -> frozenset[tuple[tuple[tuple[int, int], int], ...]]:
    """The distinct pip grids among the solutions."""
    return frozenset(tuple(sorted(solution.grid.items())) for solution in brute_force_solutions(puzzle))
