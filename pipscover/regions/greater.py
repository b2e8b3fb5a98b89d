"""`greater N`: the pips of the region add up to more than N (strictly)."""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Sequence
from random import Random

from pipscover.regions.base import DECIDED, FAIL, PLANTED_SLACK, HintFacts, LinearRule, Step
from pipscover.regions.less import BOUND_HINT, bound_reason
from pipscover.regions.supply import PipSupply


class Greater(LinearRule):
    """Pruning: pip v may go on one more cell when the pips placed + v + the `left - 1` largest remaining
    halves pass N. Counter state: the partial sum, DECIDED once it passes N."""

    name = "greater"
    generator_weight = 9
    keyword = "GT"
    hint_rule = BOUND_HINT
    planted_instead = "less"  # pips summing to 0 are more than no target

    def bounds(self, target: int) -> tuple[int, None]:
        return target + 1, None

    def label(self, target: int) -> str:
        return f">{target}"

    def allowed(self, target: int, left: int, placed_sum: int, placed: int, supply: PipSupply) -> int:
        others = left - 1
        if others >= len(supply.smallest):
            return 0
        bound = bisect_right(supply.values, target - placed_sum - supply.largest[others])  # v > that
        present = supply.present
        return present >> bound << bound

    def counter_step(self, target: int, values: Sequence[int], max_pip: int) -> Step:
        def step(state: int, pip: int, after: int) -> int | None:
            if state == DECIDED:
                return DECIDED
            total = state + values[pip]
            if total > target:
                return DECIDED
            if total + max_pip * after <= target:
                return FAIL
            return total

        return step

    def targets_for(self, values: Sequence[int], other: Sequence[int] | None, rng: Random) -> list[int | None]:
        total = sum(values)
        if other is None:
            return [total - rng.randint(1, min(3, total))] if total > 0 else []
        theirs = sum(other)
        return [rng.randint(theirs, total - 1)] if theirs < total else []

    def planted_targets(self, values: Sequence[int], rng: Random) -> list[int | None]:
        total = sum(values)
        target = max(0, total - 1 - rng.randrange(PLANTED_SLACK + 1))
        return [target] if total > 0 else []

    def hint_noun(self, target: int) -> str:
        return f"greater-than-{target} region"

    def hint_reason(self, target: int, facts: HintFacts) -> str:
        return bound_reason(target, facts, less=False)
