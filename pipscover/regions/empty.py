"""`empty`: a region with no rule. Any pips will do; the engines skip it and the SVG leaves it grey."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from pipscover.regions.base import ClauseWriter, Domains, LinearWriter, RegionRule, StateAllowed, Step
from pipscover.regions.supply import PipSupply


class Empty(RegionRule[None]):
    name = "empty"
    constrains = False  # no keyword: the text format draws it as `#` cells; no hint arithmetic

    def holds(self, values: Sequence[int], target: None) -> bool:
        return True

    def label(self, target: None) -> str:
        return ""

    def hint_noun(self, target: None) -> str:
        return "region without a rule"

    def violation(self, size: int, total: int, counts: Mapping[int, int], target: None) -> int:
        return 0

    def allowed(self, target: None, left: int, placed_sum: int, placed: int, supply: PipSupply) -> int:
        return supply.present

    def counter_step(self, target: None, values: Sequence[int], max_pip: int) -> Step:
        def step(state: int, pip: int, after: int) -> int:
            return 0

        return step

    def counter_allowed(self, target: None) -> StateAllowed:
        def allowed(state: int, left: int, supply: PipSupply) -> int:
            return supply.present

        return allowed

    def counter_accepts(self, state: int, target: None, pips: Sequence[int], values: Sequence[int]) -> bool:
        return True

    def clauses(self, writer: ClauseWriter, cells: Sequence, target: None, domains: Domains,
                value_var: dict) -> None:
        pass  # no rule, no clause

    def pb_constraints(self, writer: LinearWriter, cells: Sequence, target: None, domains: Domains,
                       value_var: dict) -> None:
        pass  # no rule, no constraint

    def constrain(self, model: Any, values: list[Any], target: None) -> None:
        pass  # no rule, no constraint
