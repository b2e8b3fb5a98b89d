"""The pips not yet placed, as every region rule sees them: a `PipSupply`, and the pip masks it is read with.

A set of pips is a bitmask over the puzzle's pip values (`pip_values`): bit i stands for pip `values[i]`,
which is pip i itself when the pips are small (the NYT's 0..6) and the i-th smallest distinct pip
otherwise, so that no cost grows with the size of the pips, only with how many values occur. A supply is
built once per multiset of remaining halves and shared by all regions; the region kinds
(`pipscover.regions`) read it to say which pips one more cell may take.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from itertools import repeat
from operator import mul
from typing import NamedTuple, cast

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
        counts = tuple(counts)
        present = 0
        kinds = []  # (pip, copies) of the pips present, increasing
        for index, count in enumerate(counts):
            if count:
                present |= 1 << index
                kinds.append((values[index], count))
        total = sum(map(mul, values, counts))
        exact = min(sum_depth, EXACT_SUM_DEPTH)
        reach = _reach_bits(kinds, total, exact) if total <= BITSET_SUMS_UP_TO else _reach_sets(kinds, exact)
        direct = not values or values[-1] == len(values) - 1
        return cls(present, counts, values, direct, total, reach, _first_sums(kinds, depth),
                   _first_sums(reversed(kinds), depth))

    def makes(self, halves: int, target: int) -> bool:
        """Whether some `halves` of the remaining halves sum to `target` (`halves` < len(reach)).

        >>> PipSupply.of([2, 0, 1], depth=2, sum_depth=2).makes(2, 2), PipSupply.of([2], 2, 2, [9**9]).makes(2, 2)
        (True, False)
        """
        sums = self.reach[halves]
        if type(sums) is int:
            return 0 <= target <= self.total and bool(sums >> (self.total - target) & 1)
        return target in cast("frozenset[int]", sums)  # the set form (the int test above is cheaper than isinstance)


def _first_sums(kinds: Iterable[tuple[int, int]], depth: int) -> tuple[int, ...]:
    """The sums of the first 0, 1, ..., `depth` halves (fewer if there are fewer), in the order of `kinds`."""
    sums = [0]
    total, room = 0, depth
    for pip, copies in kinds:
        if not room:
            break
        taken = copies if copies < room else room
        sums.extend(range(total + pip, total + pip * taken + 1, pip) if pip else repeat(total, taken))
        total += pip * taken
        room -= taken
    return tuple(sums)


def _reach_bits(kinds: Sequence[tuple[int, int]], total: int, exact: int) -> tuple[int, ...]:
    """`reach` as ints, mirrored (bit `total - s` for a sum s), for 0..`exact` halves.

    Every row is computed at once in one int, row j (sums of j halves) in bits j*W .. j*W + total, W = total + 1:
    one more half of pip v takes a sum s of row j to s + v in row j + 1, a shift left by W - v that never
    leaves a row's bits since s + v <= total. The copies of a pip are added 1, 2, 4, ... at a time (subsets of
    those batches make exactly 0..copies of them), so the cost is a few shifts per pip, not a loop per row;
    rows past `exact` are cut off after each pip.
    """
    width = total + 1
    keep = (1 << (exact + 1) * width) - 1
    rows = 1 << total  # no halves: the sum 0
    for pip, copies in kinds:
        step = width - pip
        batch = 1
        if copies > exact:  # more copies than `exact` halves only reach rows that are cut off
            copies = exact
        while copies:
            taken = batch if batch < copies else copies
            rows |= rows << taken * step
            copies -= taken
            batch <<= 1
        rows &= keep
    row = (1 << width) - 1
    return tuple([rows >> j * width & row for j in range(exact + 1)])


def _reach_sets(kinds: Sequence[tuple[int, int]], exact: int) -> tuple[frozenset[int], ...]:
    """`reach` as sets of sums (when the total is large): a bounded knapsack, in place from the largest j down."""
    reach = [frozenset((0,))] + [frozenset()] * exact
    for pip, copies in kinds:
        for j in range(exact, 0, -1):
            sums = set(reach[j])
            for taken in range(1, min(copies, j) + 1):
                added = taken * pip
                sums.update(s + added for s in reach[j - taken])
            reach[j] = frozenset(sums)
    return tuple(reach)


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
