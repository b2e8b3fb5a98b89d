"""A template for a new counting method: copy this file, fill in the marked places, register it.

1. Copy this file to `pipscover/counting/<name>.py` and rename `TemplateMethod`.
2. Declare what it can do in `capabilities` (see `pipscover.counting.base.CountingCapabilities`): what it
   counts (placements, distinct grids or both), whether it lists solutions (then `Budget.limit` stops it),
   takes a SAT backend, how it keeps to its budget, and the module it needs with the command that installs it.
3. Write `count`: the exact count, or, when the budget stops it, the lower bound it has found as
   `budget.result(found, False, distinct, self.name, stopped_by="timeout")` (or `"memory"`). Look at the
   clock with `budget.passed()` (every `pipscover.runtime.deadlines.CLOCK_EVERY` steps in a hot loop), at
   the memory with `pipscover.runtime.limits.check_memory(budget.memory)`, and report progress to
   `budget.on_progress` (a few times a second at most: `pipscover.counting.progress.PROGRESS_EVERY`). On
   Ctrl-C raise `CountInterrupted(budget.result(found, False, distinct, self.name, stopped_by=INTERRUPT))`.
4. Add one line to `pipscover.counting.REGISTRY`: `"<name>": ("pipscover.counting.<name>", "<Class>")`.

Nothing else changes: `pipscover count --method <name>` runs it (the CLI lists `REGISTRY`), `count` checks
the distinct kind and the backend against its capabilities and makes its budget, and the tests that go over
`REGISTRY` (tests/test_against_brute_force.py) check its counts against brute force.
This module itself is not registered (tests/test_counting_methods.py registers it for a test).
"""

from __future__ import annotations

from pipscover.counting.base import CountingCapabilities, CountingMethod
from pipscover.counting.budget import Budget
from pipscover.model import Puzzle
from pipscover.model.results import CountResult, Distinct


class TemplateMethod(CountingMethod):
    """One line on what the method is; `description` says it in a few words."""

    name = "template"
    description = "a template for new counting methods (not registered)"
    capabilities = CountingCapabilities(counts=frozenset({Distinct.PLACEMENTS}))  # fill in

    def count(self, puzzle: Puzzle, distinct: Distinct, budget: Budget) -> CountResult:
        found = 0  # fill in: count the solutions of `puzzle`, keeping to `budget`
        return budget.result(found, False, distinct, self.name, stopped_by="timeout")
