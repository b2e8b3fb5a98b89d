"""Closed forms for the unconstrained part of a count: domino tilings of a cell set, and the ways to lay
a multiset of dominoes on the slots of one tiling.

Cells are bits of an int, numbered in row-major order, so the lowest uncovered cell can only pair with
its right or lower neighbour; counting tilings is then a memoised recursion on the set of cells left
(a transfer-matrix count in disguise: the sets reached differ only near the frontier).
"""

from __future__ import annotations

from collections.abc import Sequence
from math import factorial


class TilingCounter:
    """Counts the domino tilings of subsets of one board.

    `right[i]` / `down[i]` are the bits of the cell right of / below cell i (0 when off the board).
    """

    def __init__(self, right: Sequence[int], down: Sequence[int]) -> None:
        self._right = right
        self._down = down
        self._known: dict[int, int] = {0: 1}

    def count(self, cells: int) -> int:
        """The number of ways to tile the cells whose bits are set in `cells`."""
        known = self._known
        if cells in known:
            return known[cells]
        # Iterative over an explicit stack: boards with hundreds of cells must not hit the recursion limit.
        stack = [cells]
        while stack:
            current = stack[-1]
            if current in known:
                stack.pop()
                continue
            lowest = current & -current
            index = lowest.bit_length() - 1
            rests = [current ^ lowest ^ partner for partner in (self._right[index], self._down[index])
                     if partner and current & partner]
            missing = [rest for rest in rests if rest not in known]
            if missing:
                stack.extend(missing)
                continue
            known[current] = sum(known[rest] for rest in rests)
            stack.pop()
        return known[cells]


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
