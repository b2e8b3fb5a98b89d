"""Region feasibility: which pips a region's empty cells may still take, given the pips still available.

The rules are necessary conditions, so they never cut off a solution; they are cheap because a region is
summarised by a few ints (cells left empty, sum placed, bitmask of pips placed) and the pips not yet placed by
a `PipSupply` (how many halves of each pip remain, with their reachable sums), built once per multiset and
shared by all regions. A set of pips is a bitmask: bit v set means pip v.

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

`RegionPruner` applies the rules during an exact-cover search (see `pipscover.dlx.Propagator`): after every
placement it recomputes the allowed pips of every constrained region and hides the options that put a pip no
longer allowed on one of the region's cells.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, NamedTuple

from pipscover.model import Puzzle, RegionKind

if TYPE_CHECKING:
    from pipscover.exactcover import ExactCover

# Exact sum reachability is computed up to this many cells left in a region, bounds beyond (generated
# puzzles can have regions of hundreds of cells; the NYT's largest sum region has far fewer).
EXACT_SUM_DEPTH = 12
# Supplies are memoised per multiset of remaining halves; a long enumeration meets very many, so the memo
# is emptied when it reaches this size rather than allowed to grow without bound.
SUPPLY_MEMO_SIZE = 100_000


class PipSupply(NamedTuple):
    """The halves not yet placed: their pips as a bitmask, their counts, and the sums a few of them make.

    `reach[j]` has bit `base - s` set when some `j` remaining halves sum to `s` (mirrored, so that the pips
    allowed by a sum rule come out with one shift); `smallest[j]` / `largest[j]` are the sums of the `j`
    smallest / largest remaining halves. (A NamedTuple rather than a frozen dataclass: the search builds
    one per new multiset, and the dataclass's slower construction showed in profiles.)
    """

    present: int
    counts: tuple[int, ...]
    base: int
    reach: tuple[int, ...]
    smallest: tuple[int, ...]
    largest: tuple[int, ...]

    @classmethod
    def of(cls, counts: Sequence[int], depth: int, sum_depth: int, base: int) -> PipSupply:
        """The supply of `counts[v]` halves with pip v: bounds for up to `depth` halves, exact sums for up to
        `sum_depth` (at most `EXACT_SUM_DEPTH`); `base` is at least the sum of all halves.

        >>> supply = PipSupply.of([0, 2, 1], depth=2, sum_depth=2, base=10)
        >>> supply.smallest, supply.largest
        ((0, 1, 2), (0, 2, 3))
        """
        present = 0
        for pip, count in enumerate(counts):
            if count:
                present |= 1 << pip
        smallest, largest = [0], [0]
        for pips, pip_order in ((smallest, range(len(counts))), (largest, range(len(counts) - 1, -1, -1))):
            total = 0
            for pip in pip_order:
                for _ in range(counts[pip]):
                    if len(pips) > depth:
                        break
                    total += pip
                    pips.append(total)
        exact = min(sum_depth, EXACT_SUM_DEPTH)
        reach = [1 << base] + [0] * exact
        for pip, count in enumerate(counts):
            # Bounded knapsack, in place from the largest j down: reach[j] |= reach[j - t] + t copies of pip.
            for j in range(exact, 0, -1):
                sums = reach[j]
                for copies in range(1, min(count, j) + 1):
                    sums |= reach[j - copies] >> (copies * pip)
                reach[j] = sums
        return cls(present, tuple(counts), base, tuple(reach), tuple(smallest), tuple(largest))


def allowed_pips(kind: RegionKind, target: int | None, left: int, placed_sum: int, placed: int,
                 supply: PipSupply) -> int:
    """The pips (bitmask) one more empty cell of a region may take; 0 when the region cannot be satisfied.

    `left` >= 1 is the number of empty cells, `placed` the bitmask of pips already on the region's cells.

    >>> supply = PipSupply.of([0, 2, 1, 0, 1], depth=2, sum_depth=2, base=10)    # halves 1, 1, 2, 4
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
    match kind:
        case RegionKind.SUM:
            if need < 0:
                return 0
            if others < len(supply.reach):
                shift = supply.base - need
                return (supply.reach[others] >> shift) & present if shift >= 0 else 0
            low, high = need - supply.largest[others], need - supply.smallest[others]
            if high < 0:
                return 0
            return present & ((1 << (high + 1)) - 1) >> max(low, 0) << max(low, 0)
        case RegionKind.LESS:
            bound = target - placed_sum - supply.smallest[others]   # v < bound
            return present & ((1 << bound) - 1) if bound > 0 else 0
        case _:
            bound = target - placed_sum - supply.largest[others]    # v > bound
            return present if bound < 0 else present >> (bound + 1) << (bound + 1)


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
    """Pips region rules for the exact-cover search: a `pipscover.dlx.Propagator` over placement options.

    Build it, build the exact cover with it (`exact_cover(puzzle, rules)` keeps only the options allowed by
    `masks` and `pair_allowed`), then `watch` that cover: since no option breaks a rule at the start, the
    pruner only has to act on what each placement changes.
    """

    def __init__(self, puzzle: Puzzle) -> None:
        self.kinds = [region.kind for region in puzzle.regions]
        self.targets = [region.target for region in puzzle.regions]
        self.left = [len(region.cells) for region in puzzle.regions]
        self.placed_sum = [0] * len(puzzle.regions)
        self.placed = [0] * len(puzzle.regions)
        self.constrained = [i for i, kind in enumerate(self.kinds) if kind is not RegionKind.EMPTY]
        counts = [0] * (puzzle.max_pip + 1)
        for domino in puzzle.dominoes:
            counts[domino[0]] += 1
            counts[domino[1]] += 1
        self.counts = counts
        self.depth = max((self.left[i] - 1 for i in self.constrained), default=0)
        self.sum_depth = max((self.left[i] - 1 for i in self.constrained if self.kinds[i] is RegionKind.SUM), default=0)
        self.base = sum(pip * count for pip, count in enumerate(counts))
        self.supplies: dict[tuple[int, ...], PipSupply] = {}
        self.region_of = puzzle.region_index
        # The pips each region's cells may take before anything is placed: the builder's filter.
        self.masks = [self.allowed(region) for region in range(len(self.kinds))]
        self.moves: list[tuple[int, int, int, int]] = []
        self.by_region_pip: list[list[list[int]]] = []
        self.undo: list[list[tuple[int, int]]] = []

    def watch(self, cover: ExactCover) -> None:
        """Learn what each option of `cover` does (it must be built with these rules: `exact_cover(puzzle, self)`)."""
        region_of_item = [self.region_of[cell] for cell in cover.cells]
        self.moves = [
            (region_of_item[first], first_pip, region_of_item[second], second_pip)
            for (first, second, _), (first_pip, second_pip) in zip(cover.options, cover.pips)
        ]
        # The options putting pip v on a cell of region r: by_region_pip[r][v].
        self.by_region_pip = [[[] for _ in self.counts] for _ in self.kinds]
        for option, (first, first_pip, second, second_pip) in enumerate(self.moves):
            self.by_region_pip[first][first_pip].append(option)
            if (second, second_pip) != (first, first_pip):
                self.by_region_pip[second][second_pip].append(option)

    def supply(self) -> PipSupply:
        """The halves not placed yet (memoised: the same multiset recurs across the search)."""
        key = tuple(self.counts)
        found = self.supplies.get(key)
        if found is None:
            if len(self.supplies) >= SUPPLY_MEMO_SIZE:
                self.supplies.clear()
            found = self.supplies[key] = PipSupply.of(key, self.depth, self.sum_depth, self.base)
        return found

    def allowed(self, region: int, supply: PipSupply | None = None) -> int:
        """The pips one more cell of `region` may take now (the region has an empty cell)."""
        return allowed_pips(self.kinds[region], self.targets[region], self.left[region],
                            self.placed_sum[region], self.placed[region], supply or self.supply())

    def pair_allowed(self, region: int, first_pip: int, second_pip: int) -> bool:
        """Whether one domino may put both pips on cells of `region`, at the start of the search."""
        if not self.masks[region] >> first_pip & 1:
            return False
        kind, target, empty_after_first = self.kinds[region], self.targets[region], self.left[region] - 1
        if empty_after_first == 1:  # the domino fills the region
            if kind is RegionKind.EQUALS and first_pip != second_pip:
                return False
            if kind is RegionKind.UNEQUAL and first_pip == second_pip:
                return False
            return region_holds(kind, target, first_pip + second_pip)
        mask = allowed_pips(kind, target, empty_after_first, first_pip, 1 << first_pip, self.supply())
        return bool(mask >> second_pip & 1)

    def choose(self, option: int) -> list[int] | None:
        """Place option `option`; the options it rules out, or None when some region can no longer hold."""
        first, first_pip, second, second_pip = self.moves[option]
        counts, left, placed_sum, placed = self.counts, self.left, self.placed_sum, self.placed
        counts[first_pip] -= 1
        counts[second_pip] -= 1
        changes: list[tuple[int, int]] = [(first, placed[first]), (second, placed[second])]
        self.undo.append(changes)
        left[first] -= 1
        placed_sum[first] += first_pip
        placed[first] |= 1 << first_pip
        left[second] -= 1
        placed_sum[second] += second_pip
        placed[second] |= 1 << second_pip
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
        first, first_pip, second, second_pip = self.moves[option]
        changes = self.undo.pop()
        for region, old in reversed(changes[2:]):
            self.masks[region] = old
        self.placed[second] = changes[1][1]
        self.placed[first] = changes[0][1]
        self.counts[first_pip] += 1
        self.counts[second_pip] += 1
        self.left[first] += 1
        self.placed_sum[first] -= first_pip
        self.left[second] += 1
        self.placed_sum[second] -= second_pip
