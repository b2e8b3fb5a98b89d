"""Region rules as the counters use them: a small int of state per region, updated one pip at a time.

The counters name a pip by its index in `pip_values(puzzle.dominoes)` (the bit numbers of the pip masks of
`pipscover.regions.supply`), so nothing they keep grows with the size of the pips. A region's state says
everything its rule needs about the pips already placed in it, as its kind defines it (`pipscover.regions`):
the partial sum of the pips themselves (`sum`, `less`, `greater`), the common pip's index plus one
(`equals`, 0 while empty) or the bit set of the indices used (`unequal`). A `less`/`greater` region whose rule
can no longer fail becomes DECIDED, and a finished region's state is reset to one value per kind, so
finished regions never split a cache. Each region's step and allowed-pips functions are made once, with its
target built in, so the counters' inner loops call them without dispatching on the kind.
"""

from __future__ import annotations

from collections.abc import Sequence

from pipscover.model import Puzzle
from pipscover.regions import DECIDED, FAIL, PipSupply, pip_values
from pipscover.runtime.limits import Remembered

__all__ = ["DECIDED", "FAIL", "RegionRules"]


class RegionRules:
    """The regions of one puzzle, with `max_pip` as the bound for what a cell can still receive."""

    def __init__(self, puzzle: Puzzle) -> None:
        rules = [region.rule for region in puzzle.regions]
        self.rules = rules
        self.targets = [region.target for region in puzzle.regions]
        self.sizes = [len(region.cells) for region in puzzle.regions]
        self.max_pip = puzzle.max_pip
        self.values = pip_values(puzzle.dominoes)
        # steps[r](state, pip index, cells left after it): region r's next state, DECIDED or FAIL.
        self.steps = [rule.counter_step(target, self.values, self.max_pip) for rule, target in zip(rules, self.targets)]
        # allowed_of[r](state, cells left, supply): the pips one more cell of region r may take.
        self.allowed_of = [rule.counter_allowed(target) for rule, target in zip(rules, self.targets)]
        # Whether each region's rule holds whatever pips its cells get (as it does once its state is DECIDED).
        self.free_kind = [not rule.constrains for rule in rules]
        constrained = [r for r, rule in enumerate(rules) if rule.constrains]
        self.supply_depth = max((self.sizes[r] - 1 for r in constrained), default=0)
        self.sum_depth = max((self.sizes[r] - 1 for r in constrained if rules[r].exact_sums), default=0)
        self._supplies: Remembered[tuple[int, ...], PipSupply] = Remembered()

    def initial_states(self) -> list[int]:
        return [0] * len(self.rules)

    def accepts(self, region: int, state: int, pips: Sequence[int]) -> bool:
        """Whether `region` in `state` holds once its uncovered cells get exactly the pips of indices `pips`,
        in any order."""
        return self.free_kind[region] or self.rules[region].counter_accepts(state, self.targets[region], pips,
                                                                             self.values)

    def supply(self, halves: tuple[int, ...]) -> PipSupply:
        """The pips not yet placed (`halves[i]` of the pip of index i), as the region kinds want them; cached."""
        known = self._supplies.get(halves)
        if known is None:
            made = PipSupply.of(halves, self.supply_depth, self.sum_depth, self.values)
            known = self._supplies.remember(halves, made)
        return known
