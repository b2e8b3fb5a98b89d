"""`sum N`: the pips of the region add up to exactly N."""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Sequence
from random import Random
from typing import cast

from pipscover.regions.base import FAIL, HintFacts, HintRule, LinearRule, StateAllowed, Step
from pipscover.regions.supply import PipSupply, pips_where


class Sum(LinearRule):
    """Pruning: pip v may go on one more cell when `need - v` (need: the target minus the pips placed) is a sum
    of exactly `left - 1` remaining halves: exact subset-sum reachability from the supply, with bounds from the
    smallest and largest halves beyond `EXACT_SUM_DEPTH` cells. Counter state: the partial sum."""

    name = "sum"
    exact_sums = True
    generator_weight = 45
    merges = True
    splits = True
    keyword = "SUM"
    hint_rule = HintRule("region-sum", "making the sum", 1)

    def bounds(self, target: int) -> tuple[int, int]:
        return target, target

    def label(self, target: int) -> str:
        return f"{target}"

    def allowed(self, target: int, left: int, placed_sum: int, placed: int, supply: PipSupply) -> int:
        need = target - placed_sum
        others = left - 1
        if others >= len(supply.smallest) or need < 0:
            return 0
        present, values = supply.present, supply.values
        if others < len(supply.reach):
            sums = supply.reach[others]
            if type(sums) is int:
                shift = supply.total - need
                if shift < 0:
                    return 0
                if supply.direct:
                    return (sums >> shift) & present
                sums >>= shift  # now bit v is set when need - v is reachable
                return pips_where(present, values, lambda pip: sums >> pip & 1)
            reachable = cast("frozenset[int]", sums)  # not a bit set (see PipSupply.makes)
            return pips_where(present, values, lambda pip: need - pip in reachable)
        low, high = need - supply.largest[others], need - supply.smallest[others]
        low, high = bisect_left(values, low), bisect_right(values, high)  # pip indices low..high-1
        return present & ((1 << high) - 1) >> low << low if high > low else 0

    def counter_step(self, target: int, values: Sequence[int], max_pip: int) -> Step:
        def step(state: int, pip: int, after: int) -> int | None:
            total = state + values[pip]
            if total > target or total + max_pip * after < target:
                return FAIL
            return total if after else 0

        return step

    def counter_allowed(self, target: int) -> StateAllowed:
        # A sum region is never DECIDED, so its counters skip LinearRule's check for it (a hot path).
        allowed = self.allowed

        def allowed_from(state: int, left: int, supply: PipSupply) -> int:
            return allowed(target, left, state, 0, supply)

        return allowed_from

    def targets_for(self, values: Sequence[int], other: Sequence[int] | None, rng: Random) -> list[int | None]:
        return [sum(values)]

    def merged_target(self, first: int, second: int) -> int:
        return first + second

    def planted_targets(self, values: Sequence[int], rng: Random) -> list[int | None]:
        return [sum(values)]

    def hint_noun(self, target: int) -> str:
        return f"sum-{target} region"

    def hint_reason(self, target: int, facts: HintFacts) -> str:
        need = target - sum(facts.placed)
        more = " more" if facts.placed else ""
        if facts.empty == 1:
            return f"{facts.opening} needs {need}{more} from {facts.cells}, so {facts.outcome}."
        return f"{facts.opening} needs {need}{more} from {facts.cells}; with the pips left, {facts.outcome}."
