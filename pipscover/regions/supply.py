"""The pips not yet placed, as every region rule sees them: a `PipSupply`, and the pip masks it is read with.

A set of pips is a bitmask over the puzzle's pip values (`pip_values`): bit i stands for pip `values[i]`,
which is pip i itself when the pips are small (the NYT's 0..6) and the i-th smallest distinct pip
otherwise, so that no cost grows with the size of the pips, only with how many values occur. A supply is
built once per multiset of remaining halves and shared by all regions; the region kinds
(`pipscover.regions`) read it to say which pips one more cell may take.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from operator import mul
from typing import NamedTuple

# Exact sum reachability is computed up to this many cells left in a region, bounds beyond (generated
# puzzles can have regions of hundreds of cells; the NYT's largest sum region has far fewer).
EXACT_SUM_DEPTH = 12
# Pips up to this are their own bit numbers in pip masks (a sum rule then takes one shift); beyond, masks
# number the distinct pips that occur, so that nothing is sized by the largest pip.
SMALL_PIPS = 63
# Reachable sums are kept as an int with one bit per sum up to this total of the remaining halves (fast
# shifts while the ints stay short), as a set of the sums that occur beyond (few when pips are huge).
BITSET_SUMS_UP_TO = 1 << 16


def pip_values(dominoes: Iterable[tuple[int, int]]) -> tuple[int, ...]:
    """The pips that the bits of a pip mask stand for, in increasing order: bit i is pip `values[i]`
    (for a puzzle, `pip_values(puzzle.dominoes)`).

    >>> pip_values([(2, 5)]), pip_values([(2, 5000)])
    ((0, 1, 2, 3, 4, 5), (2, 5000))
    """
    pips = {pip for domino in dominoes for pip in domino}
    if max(pips, default=0) <= SMALL_PIPS:
        return tuple(range(max(pips, default=0) + 1))
    return tuple(sorted(pips))


class PipSupply(NamedTuple):
    """The halves not yet placed: their pips as a bitmask, their counts, and the sums a few of them make.

    `counts[i]` halves have pip `values[i]`. `reach[j]` holds the sums of `j` remaining halves: either an
    int with bit `total - s` set when `s` is such a sum (mirrored, so that the pips allowed by a sum rule come
    out with one shift), `total` being the sum of all the halves, or a frozenset of the sums (when `total`
    is large). `smallest[j]` / `largest[j]` are the sums of the `j` smallest / largest remaining halves.
    (A NamedTuple rather than a frozen dataclass: the search builds one per new multiset, and the
    dataclass's slower construction showed in profiles.)
    """

    present: int
    counts: tuple[int, ...]
    values: tuple[int, ...]
    direct: bool    # bit i is pip i: values is 0, 1, 2, ...
    total: int
    reach: tuple[int, ...] | tuple[frozenset[int], ...]
    smallest: tuple[int, ...]
    largest: tuple[int, ...]

    @classmethod
    def of(cls, counts: Sequence[int], depth: int, sum_depth: int,
           values: Sequence[int] | None = None) -> PipSupply:
        """The supply of `counts[i]` halves with pip `values[i]` (default: pip i; increasing): bounds for up
        to `depth` halves, exact sums for up to `sum_depth` (at most `EXACT_SUM_DEPTH`).

        >>> supply = PipSupply.of([0, 2, 1], depth=2, sum_depth=2)
        >>> supply.smallest, supply.largest
        ((0, 1, 2), (0, 2, 3))
        >>> sorted(PipSupply.of([2, 1], depth=2, sum_depth=2, values=[10**6, 10**7]).reach[2])
        [2000000, 11000000]
        """
        values = tuple(range(len(counts)) if values is None else values)
        present = 0
        for index, count in enumerate(counts):
            if count:
                present |= 1 << index
        smallest, largest = [0], [0]
        for sums, order in ((smallest, range(len(counts))), (largest, range(len(counts) - 1, -1, -1))):
            total = 0
            for index in order:
                for _ in range(counts[index]):
                    if len(sums) > depth:
                        break
                    total += values[index]
                    sums.append(total)
        total = sum(map(mul, values, counts))
        exact = min(sum_depth, EXACT_SUM_DEPTH)
        # Bounded knapsack, in place from the largest j down: reach[j] |= reach[j - t] + t copies of a pip.
        if total <= BITSET_SUMS_UP_TO:
            reach = [1 << total] + [0] * exact
            for value, count in zip(values, counts):
                if not count:
                    continue
                for j in range(exact, 0, -1):
                    sums = reach[j]
                    for copies in range(1, min(count, j) + 1):
                        sums |= reach[j - copies] >> (copies * value)
                    reach[j] = sums
        else:
            reach = [frozenset((0,))] + [frozenset()] * exact
            for value, count in zip(values, counts):
                if not count:
                    continue
                for j in range(exact, 0, -1):
                    sums = set(reach[j])
                    for copies in range(1, min(count, j) + 1):
                        added = copies * value
                        sums.update(s + added for s in reach[j - copies])
                    reach[j] = frozenset(sums)
        direct = not values or values[-1] == len(values) - 1
        return cls(present, tuple(counts), values, direct, total, tuple(reach), tuple(smallest), tuple(largest))

    def makes(self, halves: int, target: int) -> bool:
        """Whether some `halves` of the remaining halves sum to `target` (`halves` < len(reach)).

        >>> PipSupply.of([2, 0, 1], depth=2, sum_depth=2).makes(2, 2), PipSupply.of([2], 2, 2, [9**9]).makes(2, 2)
        (True, False)
        """
        sums = self.reach[halves]
        if type(sums) is int:
            return 0 <= target <= self.total and bool(sums >> (self.total - target) & 1)
        return target in sums


def pips_where(present: int, values: Sequence[int], test: Callable[[int], object]) -> int:
    """The bits of `present` whose pip passes `test`."""
    mask = 0
    rest = present
    while rest:
        low = rest & -rest
        rest ^= low
        if test(values[low.bit_length() - 1]):
            mask |= low
    return mask
