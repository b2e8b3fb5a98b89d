"""A template for a new search backend: copy this file, fill in the two marked places, register it.

1. Copy this file to `pipscover/engines/<name>.py` and rename `TemplateBackend`.
2. Declare what it can do in `capabilities` (see `pipscover.engines.base.Capabilities`): whether it lists
   every solution, stops at a deadline, which counter counts for it (None: `pipscover count` and
   `bench --task count` list its solutions), and the module it needs with the command that installs it.
   Commands consult these; nothing recognises a backend by its class or name.
3. Write `solutions`: every solution of the puzzle exactly once, lazily, raising `SearchTimeout` once
   `time.monotonic()` passes `deadline`. Build the model from the puzzle's regions through their kinds
   (`region.rule`, `pipscover.regions`), as `cpsat.py` does with `RegionRule.constrain`; import an optional
   solver inside `solutions`, after `self.require()`, so that listing backends never needs it.
4. Add one line to `pipscover.engines.REGISTRY`: `"<name>": ("pipscover.engines.<name>", "<Class>", None)`.

Nothing else changes: `pipscover.solving` adds limits, timing and statuses, `pipscover backends` lists it, and
the tests that go over `REGISTRY` (tests/test_against_brute_force.py) check its solutions against brute force.
This module itself is not registered.
"""

from __future__ import annotations

from collections.abc import Iterator

from pipscover.engines.base import Backend, Capabilities
from pipscover.model import Puzzle, Solution


class TemplateBackend(Backend):
    """One line on what the engine is; `description` is what `pipscover backends` prints."""

    name = "template"
    description = "a template for new backends (not registered)"
    capabilities = Capabilities(requires="some_solver", install="pip install some-solver")  # fill in

    def solutions(self, puzzle: Puzzle, deadline: float | None = None) -> Iterator[Solution]:
        self.require()
        raise NotImplementedError("fill in: model the puzzle, then yield each solution once")  # fill in
