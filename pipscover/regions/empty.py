"""`empty`: a region with no rule. Any pips will do; the engines skip it and the SVG leaves it grey."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from pipscover.regions.base import ClauseWriter, Domains, LinearWriter, RegionRule, StateAllowed, Step
from pipscover.regions.supply import PipSupply


class Empty(RegionRule):
    name = "empty"
    constrains = False

    def holds(self, values: Sequence[int], target: int | None) -> bool:
        return True

    def label(self, target: int | None) -> str:
        return ""

    def violation(self, size: int, total: int, counts: Mapping[int, int], target: int | None) -> int:
        return 0

    def allowed(self, target: int | None, left: int, placed_sum: int, placed: int, supply: PipSupply) -> int:
        return supply.present

    def counter_step(self, target: int | None, values: Sequence[int], max_pip: int) -> Step:
        def step(state: int, pip: int, after: int) -> int:
            return 0

        return step

    def counter_allowed(self, target: int | None) -> StateAllowed:
        def allowed(state: int, left: int, supply: PipSupply) -> int:
            return supply.present

        return allowed

    def counter_accepts(self, state: int, target: int | None, pips: Sequence[int], values: Sequence[int]) -> bool:
        return True

    def clauses(self, writer: ClauseWriter, cells: Sequence, target: int | None, domains: Domains,
                value_var: dict) -> None:
        pass  # no rule, no clause

    def pb_constraints(self, writer: LinearWriter, cells: Sequence, target: int | None, domains: Domains,
                       value_var: dict) -> None:
        pass  # no rule, no constraint

    def constrain(self, model: Any, values: list[Any], target: int | None) -> None:
        pass  # no rule, no constraint
