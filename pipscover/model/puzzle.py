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
from functools import cached_property
from typing import cast

from pipscover.errors import Choice, PipsError, on_one_line, shown
from pipscover.model.geometry import Cell, forward_neighbours
from pipscover.model.naming import file_region_name
from pipscover.model.region import Region, is_pair_of_whole_numbers, is_whole_number
from pipscover.regions import RegionKind

Domino = tuple[int, int]


class Difficulty(Choice):
    """The NYT's three puzzles a day (`-d` in every command), and the generator's bands of the same names; a
    `StrEnum`, so each equals its name:

    >>> Difficulty("hard") is Difficulty.HARD, Difficulty.HARD == "hard"
    (True, True)
    """

    EASY = "easy"
    MEDIUM = "medium"
    HARD = "hard"


def difficulty_named(name: str | None, where: str) -> Difficulty | None:
    """The `Difficulty` of that name (a `Difficulty` is its own name); `PipsError` naming `where` for another."""
    if name is None or isinstance(name, Difficulty):
        return name
    if name not in set(Difficulty):
        raise PipsError(f"{where}: unknown difficulty {shown(name)}; choose one of: {', '.join(Difficulty)}")
    return Difficulty(name)


@dataclass(frozen=True)
class Origin:
    """Where a puzzle came from, for messages and JSON output. `difficulty` is a `Difficulty` whichever reader
    made it (a name given as a string is turned into one), so it equals its name as a string too:

    >>> origin = Origin("day.json", "2025-09-15", "hard")
    >>> origin.difficulty is Difficulty.HARD, origin.difficulty == "hard"
    (True, True)
    """

    file: str | None = None
    date: str | None = None
    difficulty: Difficulty | None = None
    number: int | None = None  # its place in a file of several puzzles that no difficulty tells apart

    def __post_init__(self) -> None:
        object.__setattr__(self, "difficulty", difficulty_named(self.difficulty, self.file or "puzzle"))

    def describe(self) -> str:
        """`file (hard)`, `file (puzzle 2)`, `file`, or `puzzle` when nothing is known; a character a line cannot
        show (a file name may hold a line break) written as its escape, so that a headline stays one line.

        >>> Origin("two\\nlines.txt", difficulty="hard").describe()
        'two\\\\nlines.txt (hard)'
        """
        name = on_one_line(self.file or (self.date or "puzzle"))
        told = [f"puzzle {self.number}"] if self.number else []
        told += [self.difficulty] if self.difficulty else []
        return f"{name} ({', '.join(told)})" if told else name

    def as_json(self) -> dict[str, str | int | None]:
        """`file`, `date` and `difficulty`, and `number` where the file needs it to tell its puzzles apart."""
        named: dict[str, str | int | None] = {"file": self.file, "date": self.date, "difficulty": self.difficulty}
        return named if self.number is None else {**named, "number": self.number}


@dataclass(frozen=True, order=True)
class Placement:
    """A domino on two adjacent cells: `domino[0]` lies on `cells[0]`, `domino[1]` on `cells[1]`.

    >>> Placement((4, 3), ((0, 1), (0, 0))).canonical()
    Placement(domino=(3, 4), cells=((0, 0), (0, 1)))
    """

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
    the puzzle it solves (for its drawing in a notebook: on its regions, with their rules), not compared.

    >>> one = Solution((Placement((1, 2), ((0, 0), (0, 1))),))
    >>> one == Solution((Placement((2, 1), ((0, 1), (0, 0))),)), one.grid
    (True, {(0, 0): 1, (0, 1): 2})
    """

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


@dataclass(frozen=True)
class Puzzle:
    """A validated Pips puzzle. Build it with `Puzzle.build` or a reader; both validate.

    >>> puzzle = Puzzle.build([("sum", [(0, 0), (0, 1)], 3)], [(1, 2)])
    >>> puzzle.cells, puzzle.dominoes, puzzle.regions[0].describe()
    (((0, 0), (0, 1)), ((1, 2),), 'sum 3')
    """

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
        built = []
        for kind, cells, target in regions:
            # An unknown kind is kept as given, for `_validate` to name the region and reject it.
            known = RegionKind(kind) if isinstance(kind, str) and kind in _KIND_NAMES else cast(RegionKind, kind)
            built.append(Region(known, _pairs(cells), target))
        return cls(tuple(built), _pairs(dominoes), origin, published_solution)

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
        return tuple((cell, other) for cell in self.cells for other in forward_neighbours(cell) if other in board)

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


def given_puzzle(puzzle: object) -> Puzzle:
    """`puzzle` as the API's functions take it, or `PipsError` saying how to make one: a file's name given to
    `count`, `solve` or `sample` ended deep inside, in "'str' object has no attribute 'dominoes'".

    >>> given_puzzle("examples/first.txt")
    Traceback (most recent call last):
    ...
    pipscover.errors.PipsError: expected a Puzzle, not the str 'examples/first.txt': read one with pipscover.load_one
    """
    if not isinstance(puzzle, Puzzle):
        raise PipsError(f"expected a Puzzle, not the {type(puzzle).__name__} {shown(puzzle)}: read one with "
                        "pipscover.load_one")
    return puzzle


def given_placements(placed: object, name: str) -> tuple[Placement, ...]:
    """`placed` (Placements, or a `Solution`) as a tuple of `Placement`s, or `PipsError` naming the first item
    that is not one: the file's JSON handed on as it is ended in "'dict' object has no attribute 'cells'", and
    `problems(puzzle, None)` in "'NoneType' object is not iterable".

    >>> given_placements([{"domino": [4, 3], "cells": [[0, 0], [0, 1]]}], "placed")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    pipscover.errors.PipsError: placed must hold Placements, as solve gives them (...), not {'cells': ...}
    """
    if isinstance(placed, Solution):
        return placed.placements
    items = tuple(placed) if isinstance(placed, Iterable) and not isinstance(placed, (str, bytes, Mapping)) else None
    stray = placed if items is None else next((each for each in items if not isinstance(each, Placement)), None)
    if items is None or stray is not None:
        raise PipsError(f"{name} must hold Placements, as solve gives them (Placement((4, 3), ((0, 0), (0, 1)))), "
                        f"not {shown(stray)}")
    return cast(tuple[Placement, ...], items)


def _validate(puzzle: Puzzle) -> None:
    """Raise `PipsError` on the first problem that makes the puzzle meaningless."""
    problem = _region_problem(puzzle.regions) or _domino_problem(puzzle)
    if problem is not None:
        raise PipsError(f"{puzzle.origin.describe()}: {problem}")


def _region_problem(regions: Sequence[Region]) -> str | None:
    """The first problem of the regions (their kinds, targets and cells), or None; the region is named as a
    player sees it (`naming.file_region_name`), worked out only once there is a problem."""
    owner: dict[Cell, int] = {}
    for index, region in enumerate(regions):
        problem = _own_problem(region)
        if problem is not None:
            return f"{file_region_name(regions, index)} {problem}"
        for cell in region.cells:
            if cell in owner:
                if owner[cell] == index:
                    return f"{file_region_name(regions, index)} lists cell {list(cell)} twice"
                return (f"cell {list(cell)} is in both {file_region_name(regions, owner[cell])} and "
                        f"{file_region_name(regions, index)}")
            owner[cell] = index
    return None


def _own_problem(region: Region) -> str | None:
    """What is wrong with one region on its own (its kind, its target, its cells), said after its name."""
    if not isinstance(region.kind, RegionKind):
        return f"has unknown type {shown(region.kind)}"
    if not region.cells:
        return "has no cells"
    problem = _target_problem(region)
    if problem is not None:
        return problem
    malformed = next((cell for cell in region.cells if not is_pair_of_whole_numbers(cell)), None)
    if malformed is not None:
        return f"has a malformed cell {shown(list(malformed))}; cells are [row, column], both >= 0"
    return None


def _domino_problem(puzzle: Puzzle) -> str | None:
    """A domino that is not two whole pips, or a board that is not two cells per domino (its regions being
    valid), or None."""
    for domino in puzzle.dominoes:
        if not is_pair_of_whole_numbers(domino):
            return f"domino {shown(list(domino))} must have two whole pip counts >= 0"
    cells, dominoes = sum(len(region.cells) for region in puzzle.regions), len(puzzle.dominoes)
    if cells != 2 * dominoes:
        return (f"the board has {cells} cells but {dominoes} dominoes cover {2 * dominoes}; it needs exactly two "
                "cells per domino")
    return None


def _target_problem(region: Region) -> str | None:
    """What is wrong with a region's target for its kind, or None."""
    if not region.kind.has_target:
        return None if region.target is None else f"takes no target, but has target {shown(region.target)}"
    if region.target is None:
        return "needs a target"
    if not is_whole_number(region.target) or region.target < 0:
        return f"has target {shown(region.target)}; targets are whole numbers >= 0"
    return None


def _pairs(values: Iterable[Iterable[int]]) -> tuple[tuple[int, int], ...]:
    """Cells or dominoes given as plain values, as the model holds them (`_validate` checks each is a pair)."""
    return cast("tuple[tuple[int, int], ...]", tuple(map(tuple, values)))


# The kinds' names, for `Puzzle.build` to look a name up without listing the enum for every region (a
# 50,000-region board listed it 50,000 times).
_KIND_NAMES = frozenset(kind.value for kind in RegionKind)


def solution_from_grid(tiling: Iterable[tuple[Cell, Cell]], grid: Mapping[Cell, int]) -> Solution:
    """The solution that lays a domino on each pair of `tiling` with the pips of `grid`."""
    return Solution(tuple(Placement((grid[a], grid[b]), (a, b)) for a, b in tiling))
