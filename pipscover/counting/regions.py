"""Region rules as the counters use them: a small int of state per region, updated one pip at a time.

The counters name a pip by its index in `pip_values(puzzle)` (the bit numbers of `pipscover.exactcover.pruning`'s pip
masks), so nothing they keep grows with the size of the pips. A region's state says everything its rule
needs about the pips already placed in it: the partial sum of the pips themselves (`sum`, `less`,
`greater`), the common pip's index plus one (`equals`, 0 while empty) or the bit set of the indices used
(`unequal`). A `less`/`greater` region whose rule can no longer fail becomes DECIDED, and a finished
region's state is reset to one value per kind, so finished regions never split a cache.
"""

from __future__ import annotations

from collections.abc import Sequence

from pipscover.model import Puzzle, RegionKind
from pipscover.exactcover.pruning import PipSupply, allowed_pips, pip_values

EMPTY, EQUALS, UNEQUAL, SUM, LESS, GREATER = range(6)
_KIND_CODE = {
    RegionKind.EMPTY: EMPTY, RegionKind.EQUALS: EQUALS, RegionKind.UNEQUAL: UNEQUAL,
    RegionKind.SUM: SUM, RegionKind.LESS: LESS, RegionKind.GREATER: GREATER,
}
DECIDED = -1
FAIL = None


class RegionRules:
    """The regions of one puzzle, with `max_pip` as the bound for what a cell can still receive."""

    def __init__(self, puzzle: Puzzle) -> None:
        self.kinds = [_KIND_CODE[region.kind] for region in puzzle.regions]
        self.targets = [region.target or 0 for region in puzzle.regions]
        self.sizes = [len(region.cells) for region in puzzle.regions]
        self.max_pip = puzzle.max_pip
        self.values = pip_values(puzzle)
        self.region_kinds = [region.kind for region in puzzle.regions]
        constrained = [r for r, kind in enumerate(self.kinds) if kind != EMPTY]
        self.supply_depth = max((self.sizes[r] - 1 for r in constrained), default=0)
        self.sum_depth = max((self.sizes[r] - 1 for r in constrained if self.kinds[r] == SUM), default=0)
        self._supplies: dict[tuple[int, ...], PipSupply] = {}

    def initial_states(self) -> list[int]:
        return [0] * len(self.kinds)

    def enter(self, states: list[int], left: list[int], region: int, pip: int) -> int | None:
        """The state of `region` after the pip of index `pip` goes on one of its `left[region]` uncovered
        cells, or FAIL when its rule can no longer hold."""
        kind = self.kinds[region]
        state = states[region]
        after = left[region] - 1
        if kind == SUM:
            total = state + self.values[pip]
            target = self.targets[region]
            if total > target or total + self.max_pip * after < target:
                return FAIL
            return total if after else 0
        if kind == EQUALS:
            if state and state != pip + 1:
                return FAIL
            return pip + 1 if after else 0
        if kind == UNEQUAL:
            if state >> pip & 1:
                return FAIL
            return state | 1 << pip if after else 0
        if kind == LESS:
            if state == DECIDED:
                return DECIDED
            total = state + self.values[pip]
            target = self.targets[region]
            if total >= target:
                return FAIL
            return DECIDED if total + self.max_pip * after < target else total
        if kind == GREATER:
            if state == DECIDED:
                return DECIDED
            total = state + self.values[pip]
            target = self.targets[region]
            if total > target:
                return DECIDED
            if total + self.max_pip * after <= target:
                return FAIL
            return total
        return 0

    def accepts(self, region: int, state: int, pips: list[int]) -> bool:
        """Whether `region` in `state` holds once its uncovered cells get exactly the pips of indices `pips`,
        in any order."""
        kind = self.kinds[region]
        if kind == EMPTY or state == DECIDED:
            return True
        if kind == EQUALS:
            return len(set(pips)) == 1 and (not state or pips[0] == state - 1)
        if kind == UNEQUAL:
            return len(set(pips)) == len(pips) and not any(state >> pip & 1 for pip in pips)
        total = state + sum(self.values[pip] for pip in pips)
        target = self.targets[region]
        return total == target if kind == SUM else total < target if kind == LESS else total > target

    def is_free(self, region: int, state: int) -> bool:
        """Whether the region's rule holds whatever pips its uncovered cells get."""
        return self.kinds[region] == EMPTY or state == DECIDED

    def looseness(self, region: int) -> tuple[int, int]:
        """A sort key: regions whose rule prunes most come first, big and free ones last."""
        rank = {EQUALS: 1, UNEQUAL: 2, SUM: 0, LESS: 3, GREATER: 3, EMPTY: 4}[self.kinds[region]]
        return (rank, self.sizes[region])

    def supply(self, halves: Sequence[int]) -> PipSupply:
        """The pips not yet placed (`halves[i]` of the pip of index i), as `pipscover.exactcover.pruning` wants them;
        cached."""
        key = tuple(halves)
        known = self._supplies.get(key)
        if known is None:
            known = self._supplies[key] = PipSupply.of(key, self.supply_depth, self.sum_depth, self.values)
        return known

    def allowed(self, region: int, state: int, left: int, supply: PipSupply) -> int:
        """The pips (bit set) one more of the `left` uncovered cells of `region` may take, given `supply`;
        0 when the region can no longer hold (the rules of `pipscover.exactcover.pruning`)."""
        kind = self.kinds[region]
        if kind == EMPTY or state == DECIDED:
            return supply.present
        placed_sum, placed = state, 0
        if kind == EQUALS:
            placed_sum, placed = 0, (1 << state - 1 if state else 0)
        elif kind == UNEQUAL:
            placed_sum, placed = 0, state
        return allowed_pips(self.region_kinds[region], self.targets[region], left, placed_sum, placed, supply)
