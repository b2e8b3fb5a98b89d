"""`less N`: the pips of the region add up to less than N (strictly)."""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Sequence
from random import Random

from pipscover.regions.base import DECIDED, FAIL, LinearRule, Step
from pipscover.regions.supply import PipSupply


class Less(LinearRule):
    """Pruning: pip v may go on one more cell when the pips placed + v + the `left - 1` smallest remaining
    halves stay below N. Counter state: the partial sum, DECIDED once even the largest pips cannot reach N."""

    name = "less"
    generator_weight = 7

    def bounds(self, target: int) -> tuple[None, int]:
        return None, target - 1

    def label(self, target: int | None) -> str:
        return f"<{target}"

    def allowed(self, target: int | None, left: int, placed_sum: int, placed: int, supply: PipSupply) -> int:
        others = left - 1
        if others >= len(supply.smallest):
            return 0
        bound = bisect_left(supply.values, target - placed_sum - supply.smallest[others])  # v < that
        return supply.present & ((1 << bound) - 1)

    def counter_step(self, target: int | None, values: Sequence[int], max_pip: int) -> Step:
        def step(state: int, pip: int, after: int) -> int | None:
            if state == DECIDED:
                return DECIDED
            total = state + values[pip]
            if total >= target:
                return FAIL
            return DECIDED if total + max_pip * after < target else total

        return step

    def targets_for(self, values: Sequence[int], other: Sequence[int] | None, rng: Random) -> list[int | None]:
        total = sum(values)
        if other is None:
            return [total + rng.randint(1, 3)]
        theirs = sum(other)
        return [rng.randint(total + 1, theirs)] if theirs > total else []
