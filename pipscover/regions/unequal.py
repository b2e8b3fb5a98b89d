"""`unequal`: the cells of the region hold pairwise different pips."""

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
    listing,
)
from pipscover.regions.supply import PipSupply


class Unequal(RegionRule[None]):
    """Pruning: one more cell may take a pip not placed yet, while at least as many distinct unplaced pips
    remain as the region has empty cells. Counter state: the bit set of the pip indices placed."""

    name = "unequal"
    generator_weight = 2
    keyword = "NEQ"
    hint_rule = HintRule("region-unequal", "all different pips", 4)

    def holds(self, values: Sequence[int], target: None) -> bool:
        return len(set(values)) == len(values)

    def label(self, target: None) -> str:
        return "≠"

    def violation(self, size: int, total: int, counts: Mapping[int, int], target: None) -> int:
        """The cells that repeat a pip."""
        return size - len(counts)

    def allowed(self, target: None, left: int, placed_sum: int, placed: int, supply: PipSupply) -> int:
        mask = supply.present & ~placed
        return mask if mask.bit_count() >= left else 0

    def counter_step(self, target: None, values: Sequence[int], max_pip: int) -> Step:
        def step(state: int, pip: int, after: int) -> int | None:
            if state >> pip & 1:
                return FAIL
            return state | 1 << pip if after else 0

        return step

    def counter_allowed(self, target: None) -> StateAllowed:
        allowed = self.allowed

        def allowed_from(state: int, left: int, supply: PipSupply) -> int:
            return allowed(target, left, 0, state, supply)

        return allowed_from

    def counter_accepts(self, state: int, target: None, pips: Sequence[int], values: Sequence[int]) -> bool:
        return len(set(pips)) == len(pips) and not any(state >> pip & 1 for pip in pips)

    def pair_possible(self, target: None, first: int, second: int, others: Sequence[set[int]]) -> bool:
        return first != second

    def clauses(self, writer: ClauseWriter, cells: Sequence[Cell], target: None, domains: Domains,
                value_var: dict[tuple[Cell, int], int]) -> None:
        for pip in sorted(set().union(*(domains[cell] for cell in cells))):
            writer.at_most_one([value_var[cell, pip] for cell in cells if pip in domains[cell]])

    def pb_constraints(self, writer: LinearWriter, cells: Sequence[Cell], target: None, domains: Domains,
                       value_var: dict[tuple[Cell, int], int]) -> None:
        for pip in sorted(set().union(*(domains[cell] for cell in cells))):
            holding = [value_var[cell, pip] for cell in cells if pip in domains[cell]]
            if len(holding) > 1:
                writer.linear([(1, var) for var in holding], "<=", 1)

    def constrain(self, model: Any, values: list[Any], target: None) -> None:
        model.add_all_different(values)

    def targets_for(self, values: Sequence[int], other: Sequence[int] | None, rng: Random) -> list[int | None]:
        return [None] if len(values) > 1 and len(set(values)) == len(values) else []

    def planted_grows(self, values: Sequence[int], pip: int) -> bool:
        return pip not in values

    def hint_noun(self, target: None) -> str:
        return "all-different region"

    def hint_reason(self, target: None, facts: HintFacts) -> str:
        if facts.placed:
            shown = listing([str(pip) for pip in sorted(set(facts.placed))], "or")
            return f"No two cells of {facts.region} match and it already holds {shown}, so {facts.outcome}."
        return f"No two cells of {facts.region} match and too few different pips are left, so {facts.outcome}."
