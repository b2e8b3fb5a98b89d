"""What a count may spend and who hears of it: one frozen `Budget` that every counting method takes.

A count has a clock (`start`, a `time.monotonic()` value, which the CLI starts before it reads the puzzle),
a `deadline`, a memory cap, a listener for its progress and, for the methods that list solutions, a `limit`.
They travel together, from `pipscover.counting.count` down to the counters, instead of one by one; a
method that hands part of its work on (auto's racers, issue 29's subtasks) passes a `shared` copy. The
budget also makes the answers (`result`, `timed`), so that every count's seconds run from the same clock.

    >>> budget = Budget.of(timeout=None, start=0.0, memory=None)
    >>> budget.result(3, True, Distinct.PLACEMENTS, "structural").count, budget.passed()
    (3, False)
"""

from __future__ import annotations

import time
from dataclasses import dataclass, replace

from pipscover.counting.progress import ProgressCallback
from pipscover.model.results import CountResult, Distinct
from pipscover.runtime.deadlines import deadline_after, has_passed
from pipscover.runtime.limits import MEMORY_LIMIT

TIMEOUT = "timeout"  # a count's `stopped_by` when its deadline ended it
LIMIT = "limit"  # a count's `stopped_by` when it listed `limit` solutions and more exist
INTERRUPT = "interrupt"  # a count's `stopped_by` when Ctrl-C stopped it (and `count` raised `CountInterrupted`)
# A count's `stopped_by` when it passed the node budget `auto` gave it (a listing or a structural count), and
# gave way to the next method with what it found.
NODE_BUDGET = "nodes"


@dataclass(frozen=True)
class Budget:
    """The limits of one count. `memory` is in bytes (None: no cap), `limit` stops a listing after that many
    solutions, `on_progress` hears `(found so far, share done or None)`."""

    start: float
    deadline: float | None = None
    memory: int | None = MEMORY_LIMIT
    on_progress: ProgressCallback | None = None
    limit: int | None = None

    @classmethod
    def of(cls, timeout: float | None = None, start: float | None = None, memory: int | None = MEMORY_LIMIT,
           on_progress: ProgressCallback | None = None, limit: int | None = None) -> Budget:
        """The budget of a count that may take `timeout` seconds from `start` (default: now)."""
        start = time.monotonic() if start is None else start
        return cls(start, deadline_after(timeout, start), memory, on_progress, limit)

    def passed(self) -> bool:
        """Whether the deadline has passed."""
        return has_passed(self.deadline)

    def shared(self, ways: int, on_progress: ProgressCallback | None = None) -> Budget:
        """The budget of one of `ways` counts that run side by side: an even share of the memory cap, its
        progress heard by `on_progress`, and no limit (a racer's count is exact or gives way)."""
        memory = None if self.memory is None else self.memory // ways
        return replace(self, memory=memory, on_progress=on_progress, limit=None)

    def heard_by(self, on_progress: ProgressCallback | None) -> Budget:
        """The same budget with its progress heard by `on_progress`."""
        return replace(self, on_progress=on_progress)

    def result(self, found: int, exact: bool, distinct: Distinct, method: str, backend: str | None = None,
               stopped_by: str | None = None) -> CountResult:
        """A count's answer, its seconds counted on this budget's clock."""
        return CountResult(found, exact, distinct, method, backend, time.monotonic() - self.start, stopped_by)

    def timed(self, result: CountResult) -> CountResult:
        """`result` with its seconds counted on this budget's clock."""
        return replace(result, seconds=time.monotonic() - self.start)


UNLIMITED = Budget(start=0.0, memory=None)  # a counter's default: no deadline, no cap, nobody listening
