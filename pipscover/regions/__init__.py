"""Region kinds, one module each: a kind's meaning, its label, what its cells may still take, and its form in
every engine, the hints, the generators and the text format (the interface is `base.RegionRule`; `supply`
holds the pips not yet placed).

`RegionKind` is the registry: one member per kind, named as the NYT JSON names it (`RegionKind.SUM == "sum"`)
and made from the kind's rule; `kind.rule` is that `RegionRule`.

    >>> RegionKind.SUM.rule.holds([3, 4], 7), RegionKind.LESS.rule.label(5), RegionKind("equals").has_target
    (True, '<5', False)

To add a kind: write its module (a `RegionRule` subclass; `LinearRule` when the rule bounds the sum), import
it here and give it a member of `RegionKind`. `tests/test_region_kinds.py` then runs it through every engine,
counter, format, renderer, the hints and the planted puzzles.
"""

from __future__ import annotations

from enum import StrEnum
from typing import TYPE_CHECKING, Any

from pipscover.regions.base import DECIDED, FAIL, LinearRule, RegionRule
from pipscover.regions.empty import Empty
from pipscover.regions.equals import Equals
from pipscover.regions.greater import Greater
from pipscover.regions.less import Less
from pipscover.regions.sum import Sum
from pipscover.regions.supply import PipSupply, pip_values
from pipscover.regions.unequal import Unequal


class RegionKind(StrEnum):
    """The region kinds, named as in the NYT JSON; `kind.rule` is the kind's `RegionRule`. The members'
    order is the engines' (the CNF's clause families follow it) and the planted puzzles' draw.

    >>> RegionKind("sum").rule.holds([2, 3], 5), RegionKind.EQUALS == "equals"
    (True, True)
    """

    _value_: str
    rule: RegionRule[Any]

    if TYPE_CHECKING:
        # What callers see: `RegionKind("sum")` looks a kind up by its name, as with any enum.
        def __new__(cls, value: str) -> RegionKind: ...
    else:
        # What makes each member below, once: its name is its rule's (`RegionKind.SUM == "sum"`).
        def __new__(cls, rule: RegionRule[Any]) -> RegionKind:
            kind = str.__new__(cls, rule.name)
            kind._value_ = rule.name
            kind.rule = rule
            return kind

    EMPTY = Empty()
    EQUALS = Equals()
    UNEQUAL = Unequal()
    SUM = Sum()
    LESS = Less()
    GREATER = Greater()

    @property
    def has_target(self) -> bool:
        return self.rule.has_target


__all__ = ["DECIDED", "FAIL", "LinearRule", "PipSupply", "RegionKind", "RegionRule", "pip_values"]
