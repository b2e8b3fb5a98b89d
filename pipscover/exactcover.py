"""The exact-cover reduction of a Pips puzzle: items, options, and the map from options back to placements.

Items: every board cell (needed once) and every distinct domino (needed as many times as the puzzle has
copies of it, so identical dominoes are one item with a multiplicity and never multiply solutions). Options:
one per domino on an ordered pair of adjacent cells, `domino[0]` on the first cell; a double gets one
orientation. Each option covers its two cells and its domino. Region rules are not items: the search enforces
them through `pipscover.pruning.RegionPruner`, which can also drop, before the search, the options that break
a rule at once. The full description, with sizes, is in encodings/exact-cover.md.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from pipscover.model import Placement, Puzzle, Solution
from pipscover.pruning import RegionPruner


@dataclass(frozen=True)
class ExactCover:
    """An exact cover problem built from a puzzle: option i covers the items `options[i]` (item numbers)
    and stands for `placements[i]`; item j is named `items[j]` and must be covered `multiplicities[j]` times."""

    items: tuple[str, ...]
    multiplicities: tuple[int, ...]
    options: tuple[tuple[int, int, int], ...]
    placements: tuple[Placement, ...]

    def solution(self, chosen: Iterable[int]) -> Solution:
        """The puzzle solution made by the options `chosen` (an exact cover)."""
        return Solution(tuple(self.placements[option] for option in chosen))


def exact_cover(puzzle: Puzzle, rules: RegionPruner | None = None) -> ExactCover:
    """The exact cover problem of `puzzle`; with `rules`, without the options they rule out from the start.

    >>> from pipscover import load_one
    >>> cover = exact_cover(load_one("examples/first.txt"))
    >>> len(cover.items), cover.items[0], cover.items[-1]
    (24, 'cell 0 0', 'domino 5 5')
    """
    cells = puzzle.cells
    dominoes = sorted(puzzle.domino_counts)
    cell_item = {cell: index for index, cell in enumerate(cells)}
    items = [f"cell {row} {col}" for row, col in cells] + [f"domino {a} {b}" for a, b in dominoes]
    multiplicities = [1] * len(cells) + [puzzle.domino_counts[domino] for domino in dominoes]
    # Each domino once per orientation: (pip on the first cell, pip on the second, domino item).
    laid = [(a, b, len(cells) + index) for index, (a, b) in enumerate(dominoes)]
    laid += [(b, a, item) for a, b, item in laid if a != b]
    options = []
    placements = []
    for first, second in puzzle.adjacent_pairs:
        ends = (cell_item[first], cell_item[second])
        for first_pip, second_pip, item in laid:
            placement = Placement((first_pip, second_pip), (first, second))
            if rules is None or rules.admits(placement):
                options.append((*ends, item))
                placements.append(placement)
    return ExactCover(tuple(items), tuple(multiplicities), tuple(options), tuple(placements))
