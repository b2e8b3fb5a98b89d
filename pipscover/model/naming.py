"""Cells and regions named as a player sees them, the same way in every message, hint and page.

A cell is `row 3, column 1`, counted from 1 as a person counts (the files count from 0). A region is named
by its rule and by the letter the text format gave it (`the less-than-2 region H`), or, when it has no
letter (an NYT file), by its rule and where it lies on the board (`the sum-5 region at the top left`); two
regions that would get the same name are told apart by a cell of each (`the sum-5 region at row 1, column 2`).

    >>> from pipscover.model import Puzzle
    >>> puzzle = Puzzle.build([("sum", [(0, 0), (0, 1)], 5), ("equals", [(1, 0), (1, 1)], None)], [(1, 4), (2, 2)])
    >>> name_region(puzzle, 0), name_region(puzzle, 1), name_cell((1, 0))
    ('the sum-5 region at the top', 'the all-equal region at the bottom', 'row 2, column 1')
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Protocol

from pipscover.model.geometry import Cell
from pipscover.model.region import Region, is_pair_of_whole_numbers, is_whole_number
from pipscover.regions import RegionKind
from pipscover.regions.base import listing


class HasRegions(Protocol):
    """What naming reads of a puzzle: its regions. (A protocol, not `Puzzle`: the puzzle's module names the
    regions of one it refuses with `file_region_name`.)"""

    @property
    def regions(self) -> tuple[Region, ...]: ...


# Where a region's centre lies along one side of the board, by thirds.
_ROWS = ("top", "", "bottom")
_COLUMNS = ("left", "", "right")


def name_cell(cell: Cell) -> str:
    """`row 3, column 1`: the cell counted from 1, as a player counts.

    >>> name_cell((2, 0))
    'row 3, column 1'
    """
    return f"row {cell[0] + 1}, column {cell[1] + 1}"


def name_cells(cells: Sequence[Cell]) -> str:
    """Several cells in one phrase: `row 1, columns 2 and 3` when they share a row (or a column), each named
    otherwise.

    >>> name_cells([(0, 1), (0, 2)]), name_cells([(0, 4), (2, 4)]), name_cells([(0, 0), (1, 1)])
    ('row 1, columns 2 and 3', 'rows 1 and 3, column 5', 'row 1, column 1 and row 2, column 2')
    """
    if len(cells) > 1 and len({row for row, _ in cells}) == 1:
        return f"row {cells[0][0] + 1}, columns {listing([str(c + 1) for _, c in cells], 'and')}"
    if len(cells) > 1 and len({column for _, column in cells}) == 1:
        return f"rows {listing([str(r + 1) for r, _ in cells], 'and')}, column {cells[0][1] + 1}"
    return listing([name_cell(cell) for cell in cells], "and")


def name_domino(domino: Sequence[int]) -> str:
    """A domino as a player sees it, its two halves: `[4|3]`.

    >>> name_domino((4, 3))
    '[4|3]'
    """
    return f"[{domino[0]}|{domino[1]}]"


def name_pips(pips: Sequence[int]) -> str:
    """Pips in a sentence: `1, 2 and 2`.

    >>> name_pips([1, 2, 2])
    '1, 2 and 2'
    """
    return listing([str(pip) for pip in pips], "and")


def name_region(puzzle: HasRegions, index: int) -> str:
    """The region `puzzle.regions[index]` in a player's words (see the module's docstring); a sentence that
    opens with it capitalises it (`opening`).

    >>> from pipscover.formats.text import read_text
    >>> [puzzle] = read_text("1\\nAB\\n2\\nA SUM 3\\nB LT 2\\n1\\n3 1\\n", "day.txt")
    >>> name_region(puzzle, 1)
    'the less-than-2 region B'
    """
    return region_names(puzzle)[index]


def opening(phrase: str) -> str:
    """`phrase` to open a sentence: `The sum-5 region at the top`."""
    return phrase[:1].upper() + phrase[1:]


# The names of the last few puzzles named, by identity: equal puzzles may carry different letters.
_NAMED: dict[int, tuple[HasRegions, tuple[str, ...]]] = {}
_NAMED_KEPT = 4


def region_names(puzzle: HasRegions) -> tuple[str, ...]:
    """Every region's name (`name_region`), in the puzzle's order: different regions get different names."""
    kept = _NAMED.get(id(puzzle))
    if kept is not None and kept[0] is puzzle:
        return kept[1]
    if len(_NAMED) >= _NAMED_KEPT:
        _NAMED.clear()
    names = _region_names(puzzle.regions)
    _NAMED[id(puzzle)] = (puzzle, names)
    return names


def file_region_name(regions: Sequence[Region], index: int) -> str:
    """`regions[index]` named for a message about the file that holds it, whose regions may be malformed: as
    `name_region` names it where its rule and cells can be read, by its kind alone where its target cannot
    (`the sum region at the top`), and by its place in the file where its cells cannot (`the 3rd region in
    the file`).

    >>> from pipscover.regions import RegionKind
    >>> file_region_name([Region(RegionKind.SUM, ((0, 0),), "x"), Region(RegionKind.EMPTY, ())], 1)
    'the 2nd region in the file'
    """
    return _region_names(regions)[index]


def _region_names(regions: Sequence[Region]) -> tuple[str, ...]:
    readable = [_readable(region) for region in regions]
    cells = [cell for region, ok in zip(regions, readable, strict=True) if ok for cell in region.cells]
    rows, columns = zip(*cells, strict=True) if cells else ((0,), (0,))
    bounds = (min(rows), max(rows), min(columns), max(columns))
    names = [_named(region, _place(region, bounds)) if ok else f"the {ordinal(index + 1)} region in the file"
             for index, (region, ok) in enumerate(zip(regions, readable, strict=True))]
    clashes = Counter(names)
    return tuple(
        name if clashes[name] == 1 or not ok else _named(region, f"at {name_cell(min(region.cells))}")
        for name, region, ok in zip(names, regions, readable, strict=True)
    )


def _readable(region: Region) -> bool:
    """Whether a region has cells to say where it lies, all of them [row, column] pairs."""
    return bool(region.cells) and all(is_pair_of_whole_numbers(cell) for cell in region.cells)


def _named(region: Region, place: str) -> str:
    return f"the {_noun(region)} {region.letter}" if region.letter else f"the {_noun(region)} {place}"


def _noun(region: Region) -> str:
    """`sum-5 region`, as hints say it; `sum region` when the target is not one the kind takes, `region` when
    the kind is unknown."""
    if not isinstance(region.kind, RegionKind):
        return "region"
    if region.kind.has_target and not (is_whole_number(region.target) and region.target >= 0):
        return f"{region.kind} region"
    return region.rule.hint_noun(region.target)


def ordinal(number: int) -> str:
    """`1st`, `2nd`, `3rd`, `11th`, `22nd`: where a region lies in its file, when that is all there is to name it by."""
    suffix = "th" if number % 100 in (11, 12, 13) else {1: "st", 2: "nd", 3: "rd"}.get(number % 10, "th")
    return f"{number}{suffix}"


def _place(region: Region, bounds: tuple[int, int, int, int]) -> str:
    """`at the top left`, `on the right`, `in the centre`: where the region's centre lies, by thirds."""
    top, bottom, left, right = bounds
    row = sum(r for r, _ in region.cells) / len(region.cells)
    column = sum(c for _, c in region.cells) / len(region.cells)
    vertical = _ROWS[_third(row - top, bottom - top)]
    horizontal = _COLUMNS[_third(column - left, right - left)]
    if vertical and horizontal:
        return f"at the {vertical} {horizontal}"
    if vertical:
        return f"at the {vertical}"
    return f"on the {horizontal}" if horizontal else "in the centre"


def _third(offset: float, span: int) -> int:
    """0, 1 or 2: which third of a side `span` cells long (plus one) a point `offset` along it lies in."""
    share = (offset + 0.5) / (span + 1)
    return 0 if share <= 1 / 3 else 2 if share >= 2 / 3 else 1
