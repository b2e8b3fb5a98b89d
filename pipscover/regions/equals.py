"""`equals`: every cell of the region holds the same pip."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from random import Random
from typing import Any

from pipscover.regions.base import (
    FAIL,
    Cell,
    ClauseWriter,
    Domains,
    HintFacts,
    HintRule,
    LinearWriter,
    RegionRule,
    StateAllowed,
    Step,
)
from pipscover.regions.supply import PipSupply


class Equals(RegionRule[None]):
    """Pruning: one more cell may take the pip already placed, or, in an empty region, any pip with at least
    as many halves left as the region has empty cells. Counter state: the common pip's index + 1 (0 while
    empty)."""

    name = "equals"
    generator_weight = 20
    keyword = "EQ"
    hint_rule = HintRule("region-equal", "all the same pip", 3)

    def holds(self, values: Sequence[int], target: None) -> bool:
        return len(set(values)) <= 1

    def label(self, target: None) -> str:
        return "="

    def violation(self, size: int, total: int, counts: Mapping[int, int], target: None) -> int:
        """The cells that differ from the most common pip."""
        return size - max(counts.values(), default=size)

    def allowed(self, target: None, left: int, placed_sum: int, placed: int, supply: PipSupply) -> int:
        if placed:
            pip = placed.bit_length() - 1
            return placed if supply.counts[pip] >= left else 0
        if left == 1:
            return supply.present
        mask = 0
        for pip, count in enumerate(supply.counts):
            if count >= left:
                mask |= 1 << pip
        return mask

    def counter_step(self, target: None, values: Sequence[int], max_pip: int) -> Step:
        def step(state: int, pip: int, after: int) -> int | None:
            if state and state != pip + 1:
                return FAIL
            return pip + 1 if after else 0

        return step

    def counter_allowed(self, target: None) -> StateAllowed:
        allowed = self.allowed

        def allowed_from(state: int, left: int, supply: PipSupply) -> int:
            return allowed(target, left, 0, 1 << state - 1 if state else 0, supply)

        return allowed_from

    def counter_accepts(self, state: int, target: None, pips: Sequence[int], values: Sequence[int]) -> bool:
        return len(set(pips)) == 1 and (not state or pips[0] == state - 1)

    def narrow(self, cells: Sequence[Cell], target: None, domains: Domains) -> None:
        common = set.intersection(*(domains[cell] for cell in cells))
        for cell in cells:
            domains[cell] = set(common)

    def pair_possible(self, target: None, first: int, second: int, others: Sequence[set[int]]) -> bool:
        return first == second

    def clauses(self, writer: ClauseWriter, cells: Sequence[Cell], target: None, domains: Domains,
                value_var: dict[tuple[Cell, int], int]) -> None:
        # `narrow` left every cell of the region the same domain; chain each pip through the cells both ways.
        for pip in sorted(domains[cells[0]]):
            for first, second in zip(cells, cells[1:]):
                writer.clause(-value_var[first, pip], value_var[second, pip])
                writer.clause(-value_var[second, pip], value_var[first, pip])

    def pb_constraints(self, writer: LinearWriter, cells: Sequence[Cell], target: None, domains: Domains,
                       value_var: dict[tuple[Cell, int], int]) -> None:
        # As in `clauses`: each pip's value is the same on neighbouring cells of the list, `x - y = 0`.
        for pip in sorted(domains[cells[0]]):
            for first, second in zip(cells, cells[1:]):
                writer.linear([(1, value_var[first, pip]), (-1, value_var[second, pip])], "=", 0)

    def constrain(self, model: Any, values: list[Any], target: None) -> None:
        for other in values[1:]:
            model.add(other == values[0])

    def targets_for(self, values: Sequence[int], other: Sequence[int] | None, rng: Random) -> list[int | None]:
        return [None] if len(values) > 1 and len(set(values)) == 1 else []

    def planted_grows(self, values: Sequence[int], pip: int) -> bool:
        return pip == values[0]

    def hint_noun(self, target: None) -> str:
        return "all-equal region"

    def hint_narrow(self, allowed: int, candidates: Sequence[int]) -> int:
        """The common pip must suit every cell."""
        for mask in candidates:
            allowed &= mask
        return allowed

    def hint_reason(self, target: None, facts: HintFacts) -> str:
        if facts.placed:
            return f"{facts.opening} already holds a {facts.placed[0]}, so {facts.outcome}."
        return (f"{facts.opening} needs the same pip on all {facts.empty} of its cells: a pip with {facts.empty} "
                f"halves left that fits every one of them, so {facts.outcome}.")
