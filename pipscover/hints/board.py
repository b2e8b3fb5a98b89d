"""What a player knows part-way through a puzzle, and the words hints use to talk about it.

A `Board` keeps, for every cell, the pips it may still hold (a bitmask over the puzzle's pip values: bit i
stands for pip `values[i]`), the cell it is known to share a domino with, the neighbours it is known not
to share one with, and the dominoes known not to lie on a pair of neighbours. Rules read a board and propose
`Deduction`s whose `Change` only ever narrows what is possible: a rule is sound exactly when every change it
proposes keeps every solution. A board that can hold no solution raises `Contradiction`.

Two counts follow from the board and are what "the pips left" and "the dominoes left" mean in every rule:
- the halves left: every domino's halves, less one for each cell whose pip is known (the cells not yet known
  are covered by exactly these halves);
- the dominoes left: every domino, less the one on each pair of cells known to share a domino whose pips are
  known (`unplaced`), and less, further, the one on each known pair that only one of those can fit
  (`free_dominoes`, the dominoes still to be placed on cells not yet paired).
"""

from __future__ import annotations

import copy
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from pipscover.model import Cell, Puzzle
from pipscover.model.geometry import neighbours
from pipscover.model.naming import name_cell, name_cells, name_domino, name_region
from pipscover.regions import pip_values
from pipscover.regions.base import listing

Pair = tuple[int, int]  # two cell indices, the smaller first


def pair(first: int, second: int) -> Pair:
    return (first, second) if first < second else (second, first)


def single(mask: int) -> bool:
    """Whether a pip mask holds exactly one pip."""
    return mask != 0 and mask & (mask - 1) == 0


def bits(mask: int) -> Iterator[int]:
    """The indices of the set bits of `mask`, smallest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


class Contradiction(Exception):
    """The board holds no solution: `reason` says why in a sentence, `cells` (indices) where."""

    def __init__(self, reason: str, cells: Iterable[int] = ()) -> None:
        super().__init__(reason)
        self.reason = reason
        self.cells = tuple(cells)


@dataclass(frozen=True)
class Change:
    """What a deduction learns: cells keep only the pips of their mask, pairs share a domino, excluded pairs
    of neighbours do not, and banned (pair, domino type) do not go together."""

    restrict: tuple[tuple[int, int], ...] = ()
    pairs: tuple[Pair, ...] = ()
    exclude: tuple[Pair, ...] = ()
    ban: tuple[tuple[Pair, int], ...] = ()


@dataclass(frozen=True)
class Deduction:
    """A rule's finding: why (one sentence), the cells it concerns (indices) and what it changes."""

    reason: str
    cells: tuple[int, ...]
    change: Change


@dataclass(frozen=True)
class Applied:
    """What applying a change established: cells whose pip became known, and pairs newly found."""

    changed: bool
    pips: tuple[int, ...]
    pairs: tuple[Pair, ...]


class Board:
    """The knowledge of one line of reasoning; `copy()` branches it (the puzzle's layout is shared)."""

    def __init__(self, puzzle: Puzzle) -> None:
        self.puzzle = puzzle
        self.cells: tuple[Cell, ...] = puzzle.cells
        self.index = {cell: i for i, cell in enumerate(self.cells)}
        self.values = pip_values(puzzle.dominoes)
        value_index = {value: i for i, value in enumerate(self.values)}
        self.region_cells = [tuple(self.index[cell] for cell in region.cells) for region in puzzle.regions]
        self.neighbours = [
            tuple(self.index[n] for n in neighbours(cell) if n in self.index) for cell in self.cells
        ]
        kinds = Counter(pair(value_index[a], value_index[b]) for a, b in puzzle.dominoes)
        self.types: list[tuple[int, int]] = sorted(kinds)
        self.type_index = {kind: k for k, kind in enumerate(self.types)}
        self.copies = [kinds[kind] for kind in self.types]
        self.halves = [0] * len(self.values)
        for (a, b), count in zip(self.types, self.copies):
            self.halves[a] += count
            self.halves[b] += count
        present = sum(1 << v for v, count in enumerate(self.halves) if count)
        self.candidates = [present] * len(self.cells)
        self.partner = [-1] * len(self.cells)
        self.excluded: set[Pair] = set()
        self.banned: set[tuple[Pair, int]] = set()

    def copy(self) -> Board:
        branch = copy.copy(self)
        branch.candidates = list(self.candidates)
        branch.partner = list(self.partner)
        branch.excluded = set(self.excluded)
        branch.banned = set(self.banned)
        return branch

    # What is known

    def known(self, cell: int) -> int | None:
        """The pip index of a cell whose pip is known, else None."""
        mask = self.candidates[cell]
        return mask.bit_length() - 1 if single(mask) else None

    def pip(self, cell: int) -> int:
        """The pip of a cell whose pip is known."""
        known = self.known(cell)
        assert known is not None, f"the pip of {self.name(cell)} is not known"
        return self.values[known]

    def free_partners(self, cell: int) -> list[int]:
        """The neighbours an unpaired cell may still share a domino with."""
        partner, excluded = self.partner, self.excluded
        return [n for n in self.neighbours[cell] if partner[n] < 0 and pair(cell, n) not in excluded]

    def pairs(self) -> Iterator[Pair]:
        """The pairs of cells known to share a domino."""
        return ((i, j) for i, j in enumerate(self.partner) if j > i)

    def solved(self) -> bool:
        return all(j >= 0 for j in self.partner) and all(map(single, self.candidates))

    def halves_left(self) -> list[int]:
        """Halves per pip index not yet on a known cell."""
        left = list(self.halves)
        for cell in range(len(self.cells)):
            pip = self.known(cell)
            if pip is not None:
                left[pip] -= 1
                if left[pip] < 0:
                    raise Contradiction(
                        f"more cells are {self.values[pip]} than there are halves with {self.values[pip]}", (cell,)
                    )
        return left

    def fits(self, kind: int, first: int, second: int) -> tuple[int, int]:
        """The pips domino type `kind` can put on two neighbours as they stand (masks; 0, 0 when it does not fit)."""
        if self.banned and (pair(first, second), kind) in self.banned:
            return 0, 0
        a, b = self.types[kind]
        first_mask, second_mask = self.candidates[first], self.candidates[second]
        on_first = on_second = 0
        if first_mask >> a & 1 and second_mask >> b & 1:
            on_first, on_second = 1 << a, 1 << b
        if first_mask >> b & 1 and second_mask >> a & 1:
            on_first, on_second = on_first | 1 << b, on_second | 1 << a
        return on_first, on_second

    def unplaced(self) -> list[int]:
        """Copies per domino type, less those on known pairs whose pips are known."""
        left = list(self.copies)
        for first, second in self.pairs():
            a, b = self.known(first), self.known(second)
            if a is None or b is None:
                continue
            kind = self.type_index.get((min(a, b), max(a, b)))
            if kind is None or left[kind] == 0 or ((first, second), kind) in self.banned:
                pips = name_domino((self.values[a], self.values[b]))
                raise Contradiction(f"{self.names((first, second))} need a {pips} domino, and none is left",
                                    (first, second))
            left[kind] -= 1
        return left

    def pair_fits(self, first: int, second: int, left: list[int]) -> list[int]:
        """The domino types with copies in `left` that fit a known pair."""
        return [k for k, count in enumerate(left) if count and self.fits(k, first, second)[0]]

    def free_dominoes(self) -> list[int]:
        """Copies per domino type still to be placed on unpaired cells (see the module's docstring)."""
        unplaced = self.unplaced()
        left = list(unplaced)
        for first, second in self.pairs():
            if self.known(first) is not None and self.known(second) is not None:
                continue
            kinds = self.pair_fits(first, second, unplaced)
            if len(kinds) == 1:
                left[kinds[0]] -= 1
                if left[kinds[0]] < 0:
                    raise Contradiction(f"more known pairs need the {self.domino(kinds[0])} than there are",
                                        (first, second))
        return left

    def places(self, kind: int, unplaced: list[int]) -> list[Pair]:
        """Where a domino of type `kind` still to be placed can lie: known pairs not yet pinned to one domino
        (their pips unknown and more than one domino of `unplaced` fitting), and free pairs of neighbours."""
        found = []
        for first in range(len(self.cells)):
            second = self.partner[first]
            if second < 0:
                found += [(first, n) for n in self.free_partners(first) if n > first and self.fits(kind, first, n)[0]]
            elif second > first and self.fits(kind, first, second)[0] and not (
                self.known(first) is not None and self.known(second) is not None
            ) and len(self.pair_fits(first, second, unplaced)) > 1:
                found.append((first, second))
        return found

    # Learning

    def apply(self, change: Change) -> Applied:
        """Narrow the board by `change`; raises `Contradiction` when that leaves no solution."""
        pips: list[int] = []
        changed = False
        for cell, mask in change.restrict:
            old = self.candidates[cell]
            new = old & mask
            if new == old:
                continue
            if not new:
                raise Contradiction(f"{self.name(cell)} has no pip left", (cell,))
            self.candidates[cell] = new
            changed = True
            if single(new):
                pips.append(cell)
        pairs: list[Pair] = []
        for first, second in change.pairs:
            if self.partner[first] == second:
                continue
            if self.partner[first] >= 0 or self.partner[second] >= 0 or (first, second) in self.excluded:
                raise Contradiction(
                    f"{self.name(first)} and {self.name(second)} cannot share a domino", (first, second)
                )
            self.partner[first], self.partner[second] = second, first
            pairs.append((first, second))
            changed = True
        for excluded in change.exclude:
            if self.partner[excluded[0]] == excluded[1]:
                raise Contradiction(f"{self.name(excluded[0])} and {self.name(excluded[1])} share a domino", excluded)
            if excluded not in self.excluded:
                self.excluded.add(excluded)
                changed = True
        for banned in change.ban:
            if banned not in self.banned:
                self.banned.add(banned)
                changed = True
        return Applied(changed, tuple(pips), tuple(pairs))

    # Words

    def name(self, cell: int) -> str:
        """`row 2, column 3` (`pipscover.model.naming`, as every message names a cell)."""
        return name_cell(self.cells[cell])

    def names(self, cells: Iterable[int]) -> str:
        return name_cells([self.cells[cell] for cell in cells])

    def pips(self, mask: int) -> str:
        """`4`, `4 or 6`, `2, 4 or 6`."""
        return listing([str(self.values[v]) for v in bits(mask)], "or")

    def domino(self, kind: int) -> str:
        a, b = self.types[kind]
        return name_domino((self.values[a], self.values[b]))

    def region_name(self, region: int) -> str:
        """`the sum-12 region B`, `the sum-12 region at the top left` (`pipscover.model.naming`)."""
        return name_region(self.puzzle, region)
