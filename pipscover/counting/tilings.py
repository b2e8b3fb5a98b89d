"""Closed forms for the unconstrained part of a count: the domino tilings of a set of cells, and the ways
to lay a multiset of dominoes on the slots of one tiling."""

from __future__ import annotations

from collections.abc import Sequence
from math import factorial

from pipscover.model import Cell


class TilingCounter:
    """Counts the domino tilings of subsets of one board's cells.

    A subset is an int whose bit i stands for `cells[i]`. Internally the cells are renumbered along the
    board's longer side (row-major when it is at least as tall as wide, column-major otherwise), so the
    lowest uncovered cell pairs only with a later cell and the sets reached differ only within one short
    frontier: a transfer-matrix count, kept as a memoised recursion over explicit stacks.
    """

    def __init__(self, cells: Sequence[Cell]) -> None:
        order = longer_side_order(cells)
        bit_of = {cell: 1 << i for i, cell in enumerate(order)}
        self._bit = [bit_of[cell] for cell in cells]
        # The later neighbours of each cell in the internal order: below and right.
        self._later = [[bit_of[other] for other in ((r + 1, c), (r, c + 1)) if other in bit_of] for r, c in order]
        self._known: dict[int, int] = {0: 1}

    def count(self, cells: int) -> int:
        """The number of ways to tile the cells whose bits are set in `cells`."""
        internal = 0
        bits = self._bit
        while cells:
            low = cells & -cells
            cells ^= low
            internal |= bits[low.bit_length() - 1]
        return self._count(internal)

    def _count(self, cells: int) -> int:
        known = self._known
        stack = [cells]  # iterative: boards with thousands of cells must not hit the recursion limit
        while stack:
            current = stack[-1]
            if current in known:
                stack.pop()
                continue
            lowest = current & -current
            rests = [current ^ lowest ^ partner for partner in self._later[lowest.bit_length() - 1]
                     if current & partner]
            missing = [rest for rest in rests if rest not in known]
            if missing:
                stack.extend(missing)
                continue
            known[current] = sum(known[rest] for rest in rests)
            stack.pop()
        return known[cells]


def longer_side_order(cells: Sequence[Cell]) -> list[Cell]:
    """The cells row by row, or column by column when the board is wider than tall: the order in which a
    sweep keeps the shortest frontier. Either way a cell's right and lower neighbours come after it."""
    wide = bool(cells) and (max(c for _, c in cells) - min(c for _, c in cells)
                            > max(r for r, _ in cells) - min(r for r, _ in cells))
    return sorted(cells, key=(lambda cell: (cell[1], cell[0])) if wide else None)


def arrangements(multiplicities: Sequence[tuple[int, bool]]) -> int:
    """The distinct ways to lay dominoes on as many fixed slots: n!/(m1! m2! ...) * 2^(non-doubles).

    `multiplicities` holds (copies, is_double) for each distinct domino; identical copies are
    interchangeable and a double has one orientation.

    >>> arrangements([(1, False), (1, False), (1, True)])  # (1,2), (3,4), (5,5) on three slots
    24
    """
    total = factorial(sum(copies for copies, _ in multiplicities))
    for copies, double in multiplicities:
        total //= factorial(copies)
        if not double:
            total <<= copies
    return total
