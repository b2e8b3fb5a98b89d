"""The named rules, from easy to hard: what a hint may use, in the order a player would try them.

The level (1 easy ... 4 hard) is what `pipscover rate` reads; `guess` (5) and `no-solution` are not rules
but the ends of a chain, and so is `wrong-placement` (a player's position that no solution keeps). Each rule
is specified in its family's module and in encodings/hints.md.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import partial

from pipscover.hints import dominoes, region_rules, tiling, trial
from pipscover.hints.board import Board, Deduction
from pipscover.model import RegionKind


@dataclass(frozen=True)
class Rule:
    """A named rule; `title` says it in a player's words (the page's hint heads its reason with it; the name is
    the command line's); `find` lists its deductions on a board. `exhaustive`: the driver may look through all
    of them for one that settles a pip or a pair (false for costly rules: the first one found is taken)."""

    name: str
    level: int
    title: str
    # None: `GUESS` and `NO_SOLUTION`, never searched for; left out of the repr, which names the rule
    find: Callable[[Board], Iterator[Deduction]] | None = field(repr=False)
    exhaustive: bool = True

    @property
    def finder(self) -> Callable[[Board], Iterator[Deduction]]:
        """`find`, of a rule that is searched for (every rule of `RULES`)."""
        assert self.find is not None, f"{self.name} is not searched for"
        return self.find


# Each region kind names the rule that tells its arithmetic (`RegionRule.hint_rule`; kinds may share one).
REGION_ARITHMETIC: tuple[Rule, ...] = tuple(
    Rule(hint.name, 1, hint.title, partial(region_rules.arithmetic, hint_rule=hint.name))
    for hint in sorted({kind.rule.hint_rule for kind in RegionKind if kind.rule.hint_rule}, key=lambda h: h.order)
)
DEDUCTIONS: tuple[Rule, ...] = (
    Rule("forced-tiling", 1, "only one neighbour left", tiling.forced_tiling),
    *REGION_ARITHMETIC,
    Rule("pair-domino", 1, "which dominoes fit there", dominoes.pair_domino),
    Rule("pip-count", 2, "counting the pips left", dominoes.pip_count),
    Rule("domino-fit", 2, "no domino fits", dominoes.domino_fit),
    Rule("domino-home", 3, "only one place for a domino", dominoes.domino_home),
    Rule("region-combinations", 3, "every way to fill a region", region_rules.combinations),
    Rule("tiling-split", 3, "cells that would be cut off", tiling.tiling_split),
)
WHAT_IF = Rule(
    "what-if", 4, "try it and see",
    partial(trial.what_if, finders=[rule.finder for rule in DEDUCTIONS], titles=[rule.title for rule in DEDUCTIONS]),
    exhaustive=False,
)
RULES: tuple[Rule, ...] = (*DEDUCTIONS, WHAT_IF)
GUESS = Rule("guess", 5, "time to guess", None)
NO_SOLUTION = Rule("no-solution", 0, "no solution", None)
WRONG = Rule("wrong-placement", 0, "a wrong placement", None)  # a player's position no solution keeps
BY_NAME = {rule.name: rule for rule in (*RULES, GUESS, NO_SOLUTION, WRONG)}
