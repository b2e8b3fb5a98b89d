"""Board geometry: cells, the cells beside a cell, and the groups of cells that hang together (flood fill).

The lowest floor of the model: it imports nothing of it, and `puzzle` builds on it.

Hand-written rather than with networkx: the groups are asked for on every hint step (`tiling-split`) and on
boards of 200,000 cells (the text format's `#` cells), where building a graph first costs more than the whole
fill (encodings/README.md has the measurement).

    >>> components([(0, 0), (0, 1), (2, 2), (1, 1)])
    [[(0, 0), (0, 1), (1, 1)], [(2, 2)]]
    >>> are_adjacent((0, 0), (1, 0)), are_adjacent((0, 0), (1, 1)), forward_neighbours((2, 3))
    (True, False, ((2, 4), (3, 3)))
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Iterator
from typing import TypeVar

Cell = tuple[int, int]  # (row, column)
Node = TypeVar("Node", bound=Hashable)


def neighbours(cell: Cell) -> tuple[Cell, Cell, Cell, Cell]:
    """The four cells beside `cell` (above, below, left, right), on the board or not."""
    r, c = cell
    return (r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)


def forward_neighbours(cell: Cell) -> tuple[Cell, Cell]:
    """The cells right of and below `cell`: walking the board with them meets each side-by-side pair once."""
    r, c = cell
    return (r, c + 1), (r + 1, c)


def are_adjacent(a: Cell, b: Cell) -> bool:
    """Whether two cells share a side (one domino may lie on them)."""
    return abs(a[0] - b[0]) + abs(a[1] - b[1]) == 1


def connected(starts: Iterable[Node], linked: Callable[[Node], Iterable[Node]], within: Iterable[Node]
              ) -> Iterator[list[Node]]:
    """The groups of `within` joined by `linked`, each the one of a start (in order; a start already in a group,
    or not within, is skipped), lazily; a group lists its members in the order they were reached."""
    unseen = set(within)
    for start in starts:
        if start not in unseen:
            continue
        unseen.discard(start)
        group, stack = [start], [start]
        while stack:
            for other in linked(stack.pop()):
                if other in unseen:
                    unseen.discard(other)
                    group.append(other)
                    stack.append(other)
        yield group


def components(cells: Iterable[Cell]) -> list[list[Cell]]:
    """The groups of side-by-side `cells`, each sorted, in the order of their first cell."""
    ordered = sorted(cells)
    return [sorted(group) for group in connected(ordered, neighbours, ordered)]
