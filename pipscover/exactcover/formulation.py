"""The exact-cover formulation of a Pips puzzle: items, options, and the map from options back to placements.

Items: every board cell (needed once) and every distinct domino (needed as many times as the puzzle has
copies of it, so identical dominoes are one item with a multiplicity and never multiply solutions). Options:
one per domino on an ordered pair of adjacent cells, `domino[0]` on the first cell; a double gets one
orientation. Each option covers its two cells and its domino. Region rules are not items: the search enforces
them through a propagator (`pipscover.exactcover.pruning`), which can also drop, before the search, the
options that break a rule at once (an `OptionFilter`). The full description, with sizes, is in
encodings/exact-cover.md.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Protocol

from pipscover.model import Cell, Placement, Puzzle, Solution


class OptionFilter(Protocol):
    """What `exact_cover` asks of the rules that drop options before the search (`RegionPruner` is one): the
    pips each region's cells may take, as masks (`masks[region] & pip_bit[pip]`), and whether one domino may
    put two pips on cells of one region."""

    masks: list[int]
    pip_bit: dict[int, int]

    def pair_allowed(self, region: int, first_pip: int, second_pip: int) -> bool: ...


@dataclass(frozen=True)
class ExactCover:
    """An exact cover problem built from a puzzle.

    Item j is named `items[j]` and must be covered `multiplicities[j]` times; items 0..len(cells)-1 are the
    board cells, in the order of `cells`, the rest the distinct dominoes. Option i covers the items
    `options[i]` (first cell, second cell, domino) and puts the pips `pips[i]` on its two cells.
    """

    items: tuple[str, ...]
    multiplicities: tuple[int, ...]
    cells: tuple[Cell, ...]
    options: tuple[tuple[int, int, int], ...]
    pips: tuple[tuple[int, int], ...]

    def placement(self, option: int) -> Placement:
        """The domino placement option `option` stands for."""
        first, second, _ = self.options[option]
        return Placement(self.pips[option], (self.cells[first], self.cells[second]))

    def solution(self, chosen: Iterable[int]) -> Solution:
        """The puzzle solution made by the options `chosen` (an exact cover)."""
        return Solution(tuple(self.placement(option) for option in chosen))


def exact_cover(puzzle: Puzzle, rules: OptionFilter | None = None) -> ExactCover:
    """The exact cover problem of `puzzle`; with `rules`, without the options they rule out from the start.

    >>> from pipscover import load_one
    >>> cover = exact_cover(load_one("examples/first.txt"))
    >>> len(cover.items), cover.items[0], cover.items[-1], len(cover.options)
    (24, 'cell 0 0', 'domino 5 5', 336)
    """
    cells = puzzle.cells
    dominoes = sorted(puzzle.domino_counts)
    cell_item = {cell: index for index, cell in enumerate(cells)}
    items = [f"cell {row} {col}" for row, col in cells] + [f"domino {a} {b}" for a, b in dominoes]
    multiplicities = [1] * len(cells) + [puzzle.domino_counts[domino] for domino in dominoes]
    # Each domino once per orientation, grouped by the pip on the first cell: first pip -> [(second pip, item)].
    # Only pips that occur are keys, so the loops below never depend on how large the pips are.
    laid: dict[int, list[tuple[int, int]]] = {}
    for index, (a, b) in enumerate(dominoes):
        laid.setdefault(a, []).append((b, len(cells) + index))
        if a != b:
            laid.setdefault(b, []).append((a, len(cells) + index))
    laid = dict(sorted(laid.items()))  # options by increasing first pip: the search tries them in this order
    region_of = puzzle.region_index
    # What may go on a pair of cells depends only on their regions: worked out once per pair of regions.
    laid_between: dict[tuple[int, int], tuple[list[int], list[tuple[int, int]]]] = {}
    options = []
    pips = []
    for first, second in puzzle.adjacent_pairs:
        regions = region_of[first], region_of[second]
        between = laid_between.get(regions)
        if between is None:
            between = laid_between[regions] = _laid_between(*regions, laid, rules)
        first_item, second_item = cell_item[first], cell_item[second]
        options.extend([(first_item, second_item, item) for item in between[0]])
        pips.extend(between[1])
    return ExactCover(tuple(items), tuple(multiplicities), cells, tuple(options), tuple(pips))


def _laid_between(region: int, other: int, laid: dict[int, list[tuple[int, int]]],
                  rules: OptionFilter | None) -> tuple[list[int], list[tuple[int, int]]]:
    """The domino items, and the pips they put on the two cells, of the dominoes laid on a cell of `region` and
    a cell of `other` (in that order) that `rules` allow, in the order the search tries them."""
    items, pips = [], []
    for first_pip, second_pips in laid.items():
        if rules and not rules.masks[region] & rules.pip_bit[first_pip]:
            continue
        for second_pip, item in second_pips:
            if rules:
                if not rules.masks[other] & rules.pip_bit[second_pip]:
                    continue
                if region == other and not rules.pair_allowed(region, first_pip, second_pip):
                    continue
            items.append(item)
            pips.append((first_pip, second_pip))
    return items, pips
