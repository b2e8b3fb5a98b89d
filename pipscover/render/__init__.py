"""Drawings of puzzles and solutions for people: box-drawing text (`terminal`) and SVG pictures (`svg`).

Both place the board the same way, through `Layout`: rows and columns keep their order and their gaps,
except that a gap of more than `MAX_GAP` empty rows or columns (between separate pieces of a board)
shrinks to `MAX_GAP`, so a drawing's size follows the board's cells rather than how far apart its
coordinates lie. NYT boards keep their exact shape: their gaps are at most 2.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from pipscover.model import Cell

MAX_GAP = 2


@dataclass(frozen=True)
class Layout:
    """Where each board row and column goes in a drawing of `height` x `width` cells."""

    rows: dict[int, int]
    columns: dict[int, int]
    height: int
    width: int

    @classmethod
    def of(cls, cells: Iterable[Cell]) -> Layout:
        """The layout of a board: here rows 0, 5, 6 are drawn as 0, 3, 4 and columns 0, 1, 7 as 0, 1, 4.

        >>> Layout.of([(0, 0), (0, 1), (5, 7), (6, 7)]).position((5, 7))
        (3, 4)
        """
        cells = list(cells)
        rows, height = _squeeze({row for row, _ in cells})
        columns, width = _squeeze({column for _, column in cells})
        return cls(rows, columns, height, width)

    def position(self, cell: Cell) -> tuple[int, int]:
        """The drawing's (row, column) of a board cell."""
        return self.rows[cell[0]], self.columns[cell[1]]


def _squeeze(used: set[int]) -> tuple[dict[int, int], int]:
    """Number the used values in order, keeping the gaps between them but none longer than `MAX_GAP`."""
    places: dict[int, int] = {}
    place = previous = 0
    for value in sorted(used):
        if places:
            place += 1 + min(value - previous - 1, MAX_GAP)
        places[value] = place
        previous = value
    return places, (place + 1 if places else 0)
