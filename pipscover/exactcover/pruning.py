"""Region feasibility: which pips a region's empty cells may still take, given the pips still available.

The rules are necessary conditions, so they never cut off a solution; they are cheap because a region is
summarised by a few ints (cells left empty, sum placed, bitmask of pips placed) and the pips not yet placed by
a `PipSupply` (how many halves of each pip remain, with their reachable sums), built once per multiset and
shared by all regions. A set of pips is a bitmask over the puzzle's pip values (`pip_values`): bit i stands
for pip `values[i]`, which is pip i itself when the pips are small (the NYT's 0..6) and the i-th smallest
distinct pip otherwise, so that no cost grows with the size of the pips, only with how many values occur.

For one more cell of a region with `left` empty cells, `placed` pips summing to `placed_sum`, and `need =
target - placed_sum`, pip v is allowed when a half with pip v remains and
- equals: v is the pip already placed (if any) and at least `left` halves with pip v remain;
- unequal: v is not placed yet, and at least `left` distinct pips not placed yet remain;
- sum: `need - v` is a sum of exactly `left - 1` remaining halves (exact subset-sum reachability, with
  bounds from the smallest and largest halves beyond `EXACT_SUM_DEPTH` cells);
- less: `placed_sum + v + (the left - 1 smallest remaining halves) < target`;
- greater: `placed_sum + v + (the left - 1 largest remaining halves) > target`.
A region whose allowed set is empty can no longer be satisfied. The halves of the domino being tested are
counted among the remaining ones, which only makes the rules weaker, never wrong.

`RegionPruner` applies the rules during an exact-cover search (a `dancing_links.Propagator`): after every
placement it recomputes the allowed pips of every constrained region and hides the options that put a pip no
longer allowed on one of the region's cells.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from operator import mul
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, NamedTuple

from pipscover.model import Puzzle, RegionKind

if TYPE_CHECKING:
    from pipscover.exactcover.formulation import ExactCover

# Exact sum reachability is computed up to this many cells left in a region, bounds beyond (generated
# puzzles can have regions of hundreds of cells; the NYT's largest sum region has far fewer).
EXACT_SUM_DEPTH = 12
# Supplies are memoised per multiset of remaining halves; a long enumeration meets very many, so the memo
# is emptied when it reaches this size rather than allowed to grow without bound.
SUPPLY_MEMO_SIZE = 100_000
# Pips up to this are their own bit numbers in pip masks (a sum rule then takes one shift); beyond, masks
# number the distinct pips that occur, so that nothing is sized by the largest pip.
SMALL_PIPS = 63
# Reachable sums are kept as an int with one bit per sum up to this total of the remaining halves (fast
# shifts while the ints stay short), as a set of the sums that occur beyond (few when pips are huge).
BITSET_SUMS_UP_TO = 1 << 16


def pip_values(puzzle: Puzzle) -> tuple[int, ...]:
    """The pips that the bits of a pip mask stand for, in increasing order: bit i is pip `values[i]`.

    >>> from pipscover.model import Puzzle
    >>> pip_values(Puzzle.build([("empty", [(0, 0), (0, 1)], None)], [(2, 5)]))
    (0, 1, 2, 3, 4, 5)
    >>> pip_values(Puzzle.build([("empty", [(0, 0), (0, 1)], None)], [(2, 5000)]))
    (2, 5000)
    """
    if puzzle.max_pip <= SMALL_PIPS:
        return tuple(range(puzzle.max_pip + 1))
    return tuple(sorted({pip for domino in puzzle.dominoes for pip in domino}))


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


def allowed_pips(kind: RegionKind, target: int | None, left: int, placed_sum: int, placed: int,
                 supply: PipSupply) -> int:
    """The pips (bitmask over `supply.values`) one more empty cell of a region may take; 0 when the region
    cannot be satisfied.

    `left` >= 1 is the number of empty cells, `placed` the bitmask of pips already on the region's cells
    and `placed_sum` their sum.

    >>> supply = PipSupply.of([0, 2, 1, 0, 1], depth=2, sum_depth=2)    # halves 1, 1, 2, 4
    >>> bin(allowed_pips(RegionKind.SUM, 5, 2, 0, 0, supply))      # 1 + 4 or 4 + 1
    '0b10010'
    """
    present = supply.present
    match kind:
        case RegionKind.EMPTY:
            return present
        case RegionKind.EQUALS:
            if placed:
                pip = placed.bit_length() - 1
                return placed if supply.counts[pip] >= left else 0
            if left == 1:
                return present
            mask = 0
            for pip, count in enumerate(supply.counts):
                if count >= left:
                    mask |= 1 << pip
            return mask
        case RegionKind.UNEQUAL:
            mask = present & ~placed
            return mask if mask.bit_count() >= left else 0
    need = target - placed_sum
    others = left - 1
    if others >= len(supply.smallest):
        return 0
    values = supply.values
    match kind:
        case RegionKind.SUM:
            if need < 0:
                return 0
            if others < len(supply.reach):
                sums = supply.reach[others]
                if type(sums) is int:
                    shift = supply.total - need
                    if shift < 0:
                        return 0
                    if supply.direct:
                        return (sums >> shift) & present
                    sums >>= shift  # now bit v is set when need - v is reachable
                    return _pips_where(present, values, lambda pip: sums >> pip & 1)
                return _pips_where(present, values, lambda pip: need - pip in sums)
            low, high = need - supply.largest[others], need - supply.smallest[others]
            low, high = bisect_left(values, low), bisect_right(values, high)   # pip indices low..high-1
            return present & ((1 << high) - 1) >> low << low if high > low else 0
        case RegionKind.LESS:
            bound = bisect_left(values, target - placed_sum - supply.smallest[others])   # v < that
            return present & ((1 << bound) - 1)
        case _:
            bound = bisect_right(values, target - placed_sum - supply.largest[others])   # v > that
            return present >> bound << bound


def _pips_where(present: int, values: Sequence[int], test: Callable[[int], object]) -> int:
    """The bits of `present` whose pip passes `test`."""
    mask = 0
    rest = present
    while rest:
        low = rest & -rest
        rest ^= low
        if test(values[low.bit_length() - 1]):
            mask |= low
    return mask


def region_holds(kind: RegionKind, target: int | None, placed_sum: int) -> bool:
    """Whether a full region with pips summing to `placed_sum` meets a sum, less or greater rule.

    (Equals and unequal are kept by the allowed pips of each cell, so a full region of theirs holds.)
    """
    match kind:
        case RegionKind.SUM:
            return placed_sum == target
        case RegionKind.LESS:
            return placed_sum < target
        case RegionKind.GREATER:
            return placed_sum > target
    return True


class RegionPruner:
    """Pips region rules for the exact-cover search: a `dancing_links.Propagator` over placement options.

    Build it, build the exact cover with it (`exact_cover(puzzle, rules)` keeps only the options allowed by
    `masks` and `pair_allowed`), then `watch` that cover: since no option breaks a rule at the start, the
    pruner only has to act on what each placement changes. Masks are over `values` (see `pip_values`);
    `pip_bit[v]` is the bit of pip v.
    """

    def __init__(self, puzzle: Puzzle) -> None:
        self.kinds = [region.kind for region in puzzle.regions]
        self.targets = [region.target for region in puzzle.regions]
        self.left = [len(region.cells) for region in puzzle.regions]
        self.placed_sum = [0] * len(puzzle.regions)
        self.placed = [0] * len(puzzle.regions)
        self.constrained = [i for i, kind in enumerate(self.kinds) if kind is not RegionKind.EMPTY]
        self.values = pip_values(puzzle)
        self.index_of = {pip: index for index, pip in enumerate(self.values)}
        self.pip_bit = {pip: 1 << index for pip, index in self.index_of.items()}
        counts = [0] * len(self.values)
        for domino in puzzle.dominoes:
            counts[self.index_of[domino[0]]] += 1
            counts[self.index_of[domino[1]]] += 1
        self.counts = counts
        self.depth = max((self.left[i] - 1 for i in self.constrained), default=0)
        self.sum_depth = max((self.left[i] - 1 for i in self.constrained if self.kinds[i] is RegionKind.SUM), default=0)
        self.supplies: dict[tuple[int, ...], PipSupply] = {}
        self.region_of = puzzle.region_index
        # The pips each region's cells may take before anything is placed: the builder's filter.
        self.masks = [self.allowed(region) for region in range(len(self.kinds))]
        self.moves: list[tuple[int, int, int, int, int, int]] = []
        self.by_region_pip: list[list[list[int]]] = []
        self.undo: list[list[tuple[int, int]]] = []

    def watch(self, cover: ExactCover) -> None:
        """Learn what each option of `cover` does (it must be built with these rules: `exact_cover(puzzle, self)`)."""
        region_of_item = [self.region_of[cell] for cell in cover.cells]
        index_of = self.index_of
        # (first region, its pip's index, the pip, second region, its pip's index, the pip)
        self.moves = [
            (region_of_item[first], index_of[first_pip], first_pip,
             region_of_item[second], index_of[second_pip], second_pip)
            for (first, second, _), (first_pip, second_pip) in zip(cover.options, cover.pips)
        ]
        # The options putting the pip of index i on a cell of region r: by_region_pip[r][i].
        self.by_region_pip = [[[] for _ in self.counts] for _ in self.kinds]
        for option, (first, first_index, _, second, second_index, _) in enumerate(self.moves):
            self.by_region_pip[first][first_index].append(option)
            if (second, second_index) != (first, first_index):
                self.by_region_pip[second][second_index].append(option)

    def supply(self) -> PipSupply:
        """The halves not placed yet (memoised: the same multiset recurs across the search)."""
        key = tuple(self.counts)
        found = self.supplies.get(key)
        if found is None:
            if len(self.supplies) >= SUPPLY_MEMO_SIZE:
                self.supplies.clear()
            found = self.supplies[key] = PipSupply.of(key, self.depth, self.sum_depth, self.values)
        return found

    def allowed(self, region: int, supply: PipSupply | None = None) -> int:
        """The pips one more cell of `region` may take now (the region has an empty cell)."""
        return allowed_pips(self.kinds[region], self.targets[region], self.left[region],
                            self.placed_sum[region], self.placed[region], supply or self.supply())

    def pair_allowed(self, region: int, first_pip: int, second_pip: int) -> bool:
        """Whether one domino may put both pips on cells of `region`, at the start of the search."""
        first_bit = self.pip_bit[first_pip]
        if not self.masks[region] & first_bit:
            return False
        kind, target, empty_after_first = self.kinds[region], self.targets[region], self.left[region] - 1
        if empty_after_first == 1:  # the domino fills the region
            if kind is RegionKind.EQUALS and first_pip != second_pip:
                return False
            if kind is RegionKind.UNEQUAL and first_pip == second_pip:
                return False
            return region_holds(kind, target, first_pip + second_pip)
        mask = allowed_pips(kind, target, empty_after_first, first_pip, first_bit, self.supply())
        return bool(mask & self.pip_bit[second_pip])

    def choose(self, option: int) -> list[int] | None:
        """Place option `option`; the options it rules out, or None when some region can no longer hold."""
        first, first_index, first_pip, second, second_index, second_pip = self.moves[option]
        counts, left, placed_sum, placed = self.counts, self.left, self.placed_sum, self.placed
        counts[first_index] -= 1
        counts[second_index] -= 1
        changes: list[tuple[int, int]] = [(first, placed[first]), (second, placed[second])]
        self.undo.append(changes)
        left[first] -= 1
        placed_sum[first] += first_pip
        placed[first] |= 1 << first_index
        left[second] -= 1
        placed_sum[second] += second_pip
        placed[second] |= 1 << second_index
        kinds, targets, masks, by_region_pip = self.kinds, self.targets, self.masks, self.by_region_pip
        supply = self.supply()
        hidden: list[int] = []
        for region in self.constrained:
            if left[region] == 0:
                if (region == first or region == second) and not region_holds(
                    kinds[region], targets[region], placed_sum[region]
                ):
                    return None
                continue
            old = masks[region]
            new = old & allowed_pips(kinds[region], targets[region], left[region], placed_sum[region],
                                     placed[region], supply)
            if new == 0:
                return None
            if new != old:
                changes.append((region, old))
                masks[region] = new
                lost = old ^ new
                options = by_region_pip[region]
                while lost:
                    low = lost & -lost
                    hidden.extend(options[low.bit_length() - 1])
                    lost ^= low
        return hidden

    def unchoose(self, option: int) -> None:
        """Take back the last `choose(option)`."""
        first, first_index, first_pip, second, second_index, second_pip = self.moves[option]
        changes = self.undo.pop()
        for region, old in reversed(changes[2:]):
            self.masks[region] = old
        self.placed[second] = changes[1][1]
        self.placed[first] = changes[0][1]
        self.counts[first_index] += 1
        self.counts[second_index] += 1
        self.left[first] += 1
        self.placed_sum[first] -= first_pip
        self.left[second] += 1
        self.placed_sum[second] -= second_pip
