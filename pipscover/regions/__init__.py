"""Region kinds, one module each: a kind's meaning, its label, what its cells may still take, and its form in
every engine (the interface is `base.RegionRule`; `supply` holds the pips not yet placed).

`RegionKind` names the kinds as the NYT JSON does (`RegionKind.SUM == "sum"`) and is made from `RULES`, so
its members are EMPTY, EQUALS, UNEQUAL, SUM, LESS and GREATER; `kind.rule` is the kind's `RegionRule`.

    >>> RegionKind.SUM.rule.holds([3, 4], 7), RegionKind.LESS.rule.label(5), RegionKind("equals").has_target
    (True, '<5', False)

To add a kind: write its module (a `RegionRule` subclass; `LinearRule` when the rule bounds the sum), add
its instance to `RULES` below, and give `pipscover.formats.text` a keyword for it if that format should hold
it. `tests/test_region_kinds.py` then runs it through every engine, counter and renderer.
"""

from __future__ import annotations

from enum import StrEnum

from pipscover.regions.base import DECIDED, FAIL, LinearRule, RegionRule
from pipscover.regions.empty import Empty
from pipscover.regions.equals import Equals
from pipscover.regions.greater import Greater
from pipscover.regions.less import Less
from pipscover.regions.sum import Sum
from pipscover.regions.supply import PipSupply, pip_values
from pipscover.regions.unequal import Unequal

# Every kind, in the order the engines write them (the CNF's clause families follow it).
RULES: dict[str, RegionRule] = {rule.name: rule for rule in (Empty(), Equals(), Unequal(), Sum(), Less(), Greater())}


class _Kind(StrEnum):
    """What every `RegionKind` member knows: its rule."""

    @property
    def rule(self) -> RegionRule:
        return RULES[self]

    @property
    def has_target(self) -> bool:
        return RULES[self].has_target


RegionKind = _Kind("RegionKind", {name.upper(): name for name in RULES}, module=__name__)
RegionKind.__doc__ = "The region kinds, named as in the NYT JSON; `kind.rule` is the kind's `RegionRule`."

__all__ = ["DECIDED", "FAIL", "LinearRule", "PipSupply", "RULES", "RegionKind", "RegionRule", "pip_values"]
