"""Closed forms for the unconstrained part of a count: the domino tilings of a set of cells, and the ways
to lay a multiset of dominoes on the slots of one tiling."""

from __future__ import annotations

from collections.abc import Sequence
from math import factorial, prod

from pipscover.counting.search import CHECK_EVERY, check_search
from pipscover.model import Cell
from pipscover.model.geometry import neighbours
from pipscover.runtime.limits import Remembered


class TilingCounter:
    """Counts the domino tilings of subsets of one board's cells.

    A subset is an int whose bit i stands for `cells[i]`. Internally the cells are renumbered along the
    board's longer side (row-major when it is at least as tall as wide, column-major otherwise), so that a
    cell's partners (below and right) come at most one line after it. A sweep in that order (a
    transfer-matrix count) keeps, for each way to cover the cells behind it, which cells within one line
    ahead are covered already: a handful of states, so the cost is linear in the cells (a 2 x 100,000 strip
    in under a second), and the counts of the subsets asked for are kept. On a wide board the states are up
    to 2^(the shorter side) (an open 24 x 24 board: over an hour, going by 14 x 14 to 18 x 18), so the sweep
    looks at its deadline and memory cap as a search does (`check_search`), every `CHECK_EVERY` states.
    """

    def __init__(self, cells: Sequence[Cell]) -> None:
        order = longer_side_order(cells)
        place = {cell: index for index, cell in enumerate(order)}
        self._place = [place[cell] for cell in cells]
        # How far ahead, in the internal order, each cell's later neighbours lie: below and right.
        self._later = [tuple(place[other] - index for other in ((r + 1, c), (r, c + 1)) if other in place)
                       for index, (r, c) in enumerate(order)]
        self._known: Remembered[int, int] = Remembered()  # the counts asked for, within a bound

    def count(self, cells: int, deadline: float | None = None, memory: int | None = None) -> int:
        """The number of ways to tile the cells whose bits are set in `cells`; raises `SearchTimeout` past
        `deadline`, `MemoryCapReached` once the process holds more than `memory` bytes.

        >>> TilingCounter([(r, c) for r in range(2) for c in range(10)]).count((1 << 20) - 1)  # Fibonacci
        89
        """
        known = self._known.get(cells)
        if known is None:
            places = sorted(self._place[index] for index in set_bits(cells))
            known = self._known.remember(cells, self._sweep(places, deadline, memory))
        return known

    def _sweep(self, places: list[int], deadline: float | None, memory: int | None) -> int:
        """The tilings of the cells at these internal places (increasing), within the deadline and memory."""
        present = set(places)
        later = self._later
        steps = 0
        # Bit k of a state: the cell k places ahead of the current one is covered already.
        ways: dict[int, int] = {0: 1}
        previous = places[0] if places else 0
        for place in places:
            if place != previous:  # every state covers the previous cell (bit 0); the cells between are absent
                shift = place - previous
                ways = {state >> shift: count for state, count in ways.items()}
                previous = place
            following: dict[int, int] = {}
            for state, count in ways.items():
                steps += 1
                if steps % CHECK_EVERY == 0:
                    check_search(steps, deadline, memory, None)
                if state & 1:
                    following[state] = following.get(state, 0) + count
                    continue
                for ahead in later[place]:
                    if place + ahead in present and not state >> ahead & 1:
                        covered = state | 1 | 1 << ahead
                        following[covered] = following.get(covered, 0) + count
            ways = following
        return sum(ways.values())


# Past this many states times cells, counting a board's tilings exactly takes seconds or minutes (an 18 x 18
# board: 2^18 states for each of its 324 cells), where Bregman's bound takes under a millisecond.
EXACT_TILINGS_LIMIT = 1 << 20


def tilings_at_most(cells: Sequence[Cell]) -> int:
    """A bound on the domino tilings of `cells`: their exact number where the sweep is quick (its states, at
    most 2^(the shorter side), times the cells), else `bregman_bound`.

    >>> tilings_at_most([(r, c) for r in range(2) for c in range(10)])  # exact: Fibonacci
    89
    >>> tilings_at_most([(r, c) for r in range(30) for c in range(30)]).bit_length()  # Bregman's
    500
    """
    shorter = min(len({r for r, _ in cells}), len({c for _, c in cells}))
    if len(cells) << shorter <= EXACT_TILINGS_LIMIT:
        return TilingCounter(cells).count((1 << len(cells)) - 1)
    return bregman_bound(cells)


def bregman_bound(cells: Sequence[Cell]) -> int:
    """Bregman's bound on the perfect matchings of a bipartite graph, here the tilings: the product over one
    colour's cells of (d!)^(1/d), d a cell's neighbours (the lower of the two colours' products), rounded up
    to a power of two; 0 where no tiling can exist (the colours differ in size, or a cell has no neighbour)."""
    present = set(cells)
    colours = [[len(present.intersection(neighbours(cell))) for cell in cells if sum(cell) % 2 == colour]
                for colour in (0, 1)]
    if len(colours[0]) != len(colours[1]) or 0 in colours[0] + colours[1]:
        return 0
    # prod (d!)^(1/d) = (prod (d!)^(12/d))^(1/12) for d <= 4, which is below 2^ceil(its bits / 12)
    twelfth = min(prod(factorial(d) ** (12 // d) for d in degrees) for degrees in colours)
    return 1 << -(-twelfth.bit_length() // 12)


def set_bits(bits: int) -> list[int]:
    """The indices of the bits set in `bits`, in linear time (peeling bits off a long int one by one is not).

    >>> set_bits(0b10110)
    [1, 2, 4]
    """
    text = f"{bits:b}"[::-1]
    return [index for index, bit in enumerate(text) if bit == "1"]


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
