"""How a count reports its progress: `on_progress(found so far, fraction done or None when unknown)`, the one
signature every counter and `pipscover.counting.count` call; `found` is a lower bound until the end."""

from __future__ import annotations

from collections.abc import Callable

ProgressCallback = Callable[[int, float | None], None]


class Progress:
    """Progress of a counting search as the share of its first two levels done, with the count of the
    finished branches (a lower bound until the end)."""

    def __init__(self, on_progress: ProgressCallback | None) -> None:
        self.on_progress = on_progress
        self.step = 1.0  # the share of one branch of the first level
        self.share = 0.0
        self.found = 0

    def begin(self, branches: int) -> None:
        """The first level has `branches` branches."""
        self.step = 1 / branches

    def report(self, depth: int, share: float, found: int) -> None:
        """A branch at `depth` (0 or 1) is done: `share` of its level, `found` solutions in its finished branches."""
        if self.on_progress is None:
            return
        if depth == 0:
            self.share, self.found = share, found
            self.on_progress(found, share)
        else:
            self.on_progress(self.found + found, self.share + share * self.step)
