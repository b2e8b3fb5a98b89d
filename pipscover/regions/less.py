"""`less N`: the pips of the region add up to less than N (strictly)."""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Sequence
from random import Random

from pipscover.regions.base import DECIDED, FAIL, PLANTED_SLACK, HintFacts, HintRule, LinearRule, Step
from pipscover.regions.supply import PipSupply

# `less` and `greater` share their hint rule and its sentence.
BOUND_HINT = HintRule("region-bound", "staying under or over", 2)


def bound_reason(target: int, facts: HintFacts, less: bool) -> str:
    """The hint sentence of a `less` (or else `greater`) region: what its empty cells must add up to, against
    the smallest (largest) halves left for all but one of them."""
    relation = "less" if less else "more"
    bound = target - sum(facts.placed)
    if facts.empty == 1:
        return f"{facts.opening} needs {facts.cells} to be {relation} than {bound}, so {facts.outcome}."
    others = facts.empty - 1
    extreme = facts.halves[:others] if less else sorted(facts.halves, reverse=True)[:others]
    which = "smallest" if less else "largest"
    left = (f"the {which} pip left is {extreme[0]}" if others == 1
            else f"the {others} {which} pips left add up to {sum(extreme)}")
    return f"{facts.opening} needs {facts.cells} to add up to {relation} than {bound}; {left}, so {facts.outcome}."


class Less(LinearRule):
    """Pruning: pip v may go on one more cell when the pips placed + v + the `left - 1` smallest remaining
    halves stay below N. Counter state: the partial sum, DECIDED once even the largest pips cannot reach N."""

    name = "less"
    generator_weight = 7
    keyword = "LT"
    hint_rule = BOUND_HINT

    def bounds(self, target: int) -> tuple[None, int]:
        return None, target - 1

    def label(self, target: int) -> str:
        return f"<{target}"

    def allowed(self, target: int, left: int, placed_sum: int, placed: int, supply: PipSupply) -> int:
        others = left - 1
        if others >= len(supply.smallest):
            return 0
        bound = bisect_left(supply.values, target - placed_sum - supply.smallest[others])  # v < that
        return supply.present & ((1 << bound) - 1)

    def counter_step(self, target: int, values: Sequence[int], max_pip: int) -> Step:
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

    def planted_targets(self, values: Sequence[int], rng: Random) -> list[int | None]:
        return [sum(values) + 1 + rng.randrange(PLANTED_SLACK + 1)]

    def hint_noun(self, target: int) -> str:
        return f"less-than-{target} region"

    def hint_reason(self, target: int, facts: HintFacts) -> str:
        return bound_reason(target, facts, less=True)
