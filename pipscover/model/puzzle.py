"""The puzzle model: one immutable `Puzzle` that flows from the readers to every engine.

A puzzle is a set of regions (each a set of board cells with one constraint) and a list of dominoes.
The board is the union of the regions' cells. A `Puzzle` is validated once, when it is made, so engines
can trust it; an invalid puzzle raises `PipsError` naming where it came from and what is wrong.

A solution places every domino on an ordered pair of adjacent cells (the first pip on the first cell).
Two placements that give the same cells the same pips are the same solution, which makes a double's two
orientations one, and identical dominoes interchangeable: `Solution` compares by tiling and pip grid.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from functools import cached_property
from typing import TypeGuard, cast

from pipscover.errors import PipsError, shown
from pipscover.regions import RegionKind, RegionRule

Cell = tuple[int, int]
Domino = tuple[int, int]


class Difficulty(StrEnum):
    """The NYT's three puzzles a day (`-d` in every command), and the generator's bands of the same names."""

    EASY = "easy"
    MEDIUM = "medium"
    HARD = "hard"


@dataclass(frozen=True)
class Origin:
    """Where a puzzle came from, for messages and JSON output."""

    file: str | None = None
    date: str | None = None
    difficulty: str | None = None
    number: int | None = None  # its place in a file of several puzzles that no difficulty tells apart

    def describe(self) -> str:
        """`file (hard)`, `file (puzzle 2)`, `file`, or `puzzle` when nothing is known."""
        name = self.file or (self.date or "puzzle")
        told = [f"puzzle {self.number}"] if self.number else []
        told += [self.difficulty] if self.difficulty else []
        return f"{name} ({', '.join(told)})" if told else name

    def as_json(self) -> dict[str, str | int | None]:
        """`file`, `date` and `difficulty`, and `number` where the file needs it to tell its puzzles apart."""
        named: dict[str, str | int | None] = {"file": self.file, "date": self.date, "difficulty": self.difficulty}
        return named if self.number is None else {**named, "number": self.number}


@dataclass(frozen=True)
class Region:
    """Cells that share one constraint; the kind (`pipscover.regions`) says what the constraint means."""

    kind: RegionKind
    cells: tuple[Cell, ...]
    target: int | None = None
    # The text format's letter for it, kept for messages and for writing the text again; a puzzle read from
    # JSON has none, and still equals the same puzzle read from text.
    letter: str | None = field(default=None, compare=False)

    @property
    def rule(self) -> RegionRule:
        """The kind's rule (`pipscover.regions`), which holds everything the kind means."""
        return self.kind.rule

    def holds(self, values: Sequence[int]) -> bool:
        """Whether the pips `values` (one per cell of the region) satisfy the constraint."""
        return self.kind.rule.holds(values, self.target)

    def describe(self) -> str:
        """`sum 10`, `less 3`, `equals`: the constraint as the NYT JSON names it."""
        return self.kind.rule.describe(self.target)

    @property
    def label(self) -> str:
        """The mark a player sees: '', '=', '≠', '10', '<3', '>5'."""
        return self.kind.rule.label(self.target)


@dataclass(frozen=True, order=True)
class Placement:
    """A domino on two adjacent cells: `domino[0]` lies on `cells[0]`, `domino[1]` on `cells[1]`."""

    domino: Domino
    cells: tuple[Cell, Cell]

    def canonical(self) -> Placement:
        """The same placement written with its cells in sorted order (a double's two ways coincide)."""
        if self.cells[0] <= self.cells[1]:
            return self
        return Placement((self.domino[1], self.domino[0]), (self.cells[1], self.cells[0]))

    def as_json(self) -> dict[str, list]:
        return {"domino": list(self.domino), "cells": [list(self.cells[0]), list(self.cells[1])]}


@dataclass(frozen=True)
class Solution:
    """A set of placements, compared by the tiling and pip grid they make. `puzzle`, when `solve` found it, is
    the puzzle it solves (for its drawing in a notebook: on its regions, with their rules), not compared."""

    placements: tuple[Placement, ...]
    puzzle: Puzzle | None = field(default=None, compare=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "placements", tuple(sorted(p.canonical() for p in self.placements)))

    @cached_property
    def grid(self) -> dict[Cell, int]:
        """The pip on every covered cell."""
        return {cell: pip for p in self.placements for cell, pip in zip(p.cells, p.domino)}

    def as_json(self) -> list[dict[str, list]]:
        return [p.as_json() for p in self.placements]


def domino_key(domino: Domino) -> Domino:
    """Dominoes are unordered: (a, b) and (b, a) are the same tile."""
    return (domino[0], domino[1]) if domino[0] <= domino[1] else (domino[1], domino[0])


def are_adjacent(a: Cell, b: Cell) -> bool:
    return abs(a[0] - b[0]) + abs(a[1] - b[1]) == 1


@dataclass(frozen=True)
class Puzzle:
    """A validated Pips puzzle. Build it with `Puzzle.build` or a reader; both validate."""

    regions: tuple[Region, ...]
    dominoes: tuple[Domino, ...]
    origin: Origin = field(default=Origin(), compare=False)
    published_solution: Solution | None = field(default=None, compare=False)

    def __post_init__(self) -> None:
        _validate(self)

    @classmethod
    def build(
        cls,
        regions: Iterable[tuple[str | RegionKind, Iterable[Cell], int | None]],
        dominoes: Iterable[Sequence[int]],
        origin: Origin = Origin(),
        published_solution: Solution | None = None,
    ) -> Puzzle:
        """Make a puzzle from plain values: `[(kind, cells, target), ...]` and `[(a, b), ...]`."""
        problem = f"{origin.describe()}: "
        built = []
        for index, (kind, cells, target) in enumerate(regions):
            try:
                kind = RegionKind(kind)
            except ValueError:
                raise PipsError(f"{problem}region {index} has unknown type {shown(kind)}") from None
            built.append(Region(kind, tuple(_pair(cell) for cell in cells), target))
        return cls(tuple(built), tuple(_pair(d) for d in dominoes), origin, published_solution)

    @cached_property
    def cells(self) -> tuple[Cell, ...]:
        """Every board cell, sorted by row then column."""
        return tuple(sorted(cell for region in self.regions for cell in region.cells))

    @cached_property
    def region_index(self) -> dict[Cell, int]:
        """The index of the region each board cell belongs to."""
        return {cell: i for i, region in enumerate(self.regions) for cell in region.cells}

    @cached_property
    def adjacent_pairs(self) -> tuple[tuple[Cell, Cell], ...]:
        """Every unordered pair of adjacent board cells, smaller cell first."""
        board = self.region_index
        return tuple(
            (cell, other)
            for cell in self.cells
            for other in ((cell[0], cell[1] + 1), (cell[0] + 1, cell[1]))
            if other in board
        )

    @cached_property
    def domino_counts(self) -> Counter[Domino]:
        """How many of each distinct domino the puzzle has (dominoes taken unordered)."""
        return Counter(domino_key(d) for d in self.dominoes)

    @cached_property
    def max_pip(self) -> int:
        return max((max(d) for d in self.dominoes), default=0)

    def describe(self) -> str:
        return self.origin.describe()

    def with_origin(self, origin: Origin) -> Puzzle:
        """The same puzzle told as coming from `origin` (`pipscover serve` names a generated one)."""
        return Puzzle(self.regions, self.dominoes, origin, self.published_solution)


def _validate(puzzle: Puzzle) -> None:
    """Raise `PipsError` on the first problem that makes the puzzle meaningless."""
    where = puzzle.origin.describe()

    def fail(problem: str) -> None:
        raise PipsError(f"{where}: {problem}")

    owner: dict[Cell, int] = {}
    for index, region in enumerate(puzzle.regions):
        name = f"region {index} ({region.kind})"
        if not isinstance(region.kind, RegionKind):
            fail(f"region {index} has unknown type {shown(region.kind)}")
        if not region.cells:
            fail(f"{name} has no cells")
        if region.kind.has_target:
            if region.target is None:
                fail(f"{name} needs a target")
            if not _is_whole_number(region.target) or region.target < 0:
                fail(f"{name} has target {shown(region.target)}; targets are whole numbers >= 0")
        elif region.target is not None:
            fail(f"{name} takes no target, but has target {shown(region.target)}")
        for cell in region.cells:
            if not _is_pair_of_whole_numbers(cell):
                fail(f"{name} has a malformed cell {shown(list(cell))}; cells are [row, column], both >= 0")
            if cell in owner:
                if owner[cell] == index:
                    fail(f"{name} lists cell {list(cell)} twice")
                fail(f"cell {list(cell)} is in region {owner[cell]} and region {index}")
            owner[cell] = index
    for domino in puzzle.dominoes:
        if not _is_pair_of_whole_numbers(domino):
            fail(f"domino {shown(list(domino))} must have two whole pip counts >= 0")
    if len(owner) != 2 * len(puzzle.dominoes):
        fail(
            f"the board has {len(owner)} cells but {len(puzzle.dominoes)} dominoes cover "
            f"{2 * len(puzzle.dominoes)}; it needs exactly two cells per domino"
        )


def _pair(values: Iterable[int]) -> tuple[int, int]:
    """A cell or a domino given as plain values, as the model holds it (`_validate` checks it is a pair)."""
    return cast("tuple[int, int]", tuple(values))


def _is_whole_number(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_pair_of_whole_numbers(pair: tuple) -> bool:
    """A cell or a domino: two whole numbers >= 0 (no generator per pair: a big board has 200,000 of them)."""
    return (len(pair) == 2 and _is_whole_number(pair[0]) and _is_whole_number(pair[1])
            and pair[0] >= 0 and pair[1] >= 0)


def solution_from_grid(tiling: Iterable[tuple[Cell, Cell]], grid: Mapping[Cell, int]) -> Solution:
    """The solution that lays a domino on each pair of `tiling` with the pips of `grid`."""
    return Solution(tuple(Placement((grid[a], grid[b]), (a, b)) for a, b in tiling))
