"""Drawings of puzzles and solutions for people: box-drawing text (`terminal`) and SVG pictures (`svg`).

Both place the board the same way, through `Layout`: rows and columns keep their order, and the empty
space between separate pieces of a board shrinks to one blank row or column, so a drawing's size follows
the board's cells rather than how far apart its coordinates lie.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from pipscover.model import Cell


@dataclass(frozen=True)
class Layout:
    """Where each board row and column goes in a drawing of `height` x `width` cells."""

    rows: dict[int, int]
    columns: dict[int, int]
    height: int
    width: int

    @classmethod
    def of(cls, cells: Iterable[Cell]) -> Layout:
        """The layout of a board: here rows 0, 5, 6 are drawn as 0, 2, 3 and columns 0, 1, 7 as 0, 1, 3.

        >>> Layout.of([(0, 0), (0, 1), (5, 7), (6, 7)]).position((5, 7))
        (2, 3)
        """
        cells = list(cells)
        rows, height = _squeeze({row for row, _ in cells})
        columns, width = _squeeze({column for _, column in cells})
        return cls(rows, columns, height, width)

    def position(self, cell: Cell) -> tuple[int, int]:
        """The drawing's (row, column) of a board cell."""
        return self.rows[cell[0]], self.columns[cell[1]]


def _squeeze(used: set[int]) -> tuple[dict[int, int], int]:
    """Number the used values in order, leaving one free number wherever a gap was."""
    places: dict[int, int] = {}
    place = 0
    for value in sorted(used):
        if places:
            place += 1 if value - 1 in places else 2
        places[value] = place
    return places, (place + 1 if places else 0)
