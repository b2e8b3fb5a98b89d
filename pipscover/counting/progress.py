"""How a count reports its progress: `on_progress(found so far, fraction done or None when unknown)`, the one
signature every counter and `pipscover.counting.count` call; `found` is a lower bound until the end."""

from __future__ import annotations

import time
from collections.abc import Callable

ProgressCallback = Callable[[int, float | None], None]

PROGRESS_EVERY = 0.2  # seconds between two calls of a counter's `on_progress` (the search's last is always made)
# The search levels whose branches report progress: deep enough that a report comes every fraction of a second
# on the puzzles that take minutes (at depth 1 alone, a branch of no-unique-16 took seconds).
PROGRESS_DEPTH = 4
# The structural counter's (compiled, and its Python twin, report for report): nearly every level, so that the
# count found so far moves on a board whose first branches each take minutes (a planted 10 x 10 showed
# `0 so far` for a whole count with 4). The compiled core holds up to 64 (`MAX_TRACKED`); no cost measured.
STRUCTURAL_PROGRESS_DEPTH = 64


def tracked_levels(on_progress: ProgressCallback | None, depth: int = PROGRESS_DEPTH) -> int:
    """The search levels that report progress: none when nobody listens, so the bookkeeping costs nothing."""
    return depth if on_progress is not None else 0


class Progress:
    """Progress of a counting search as the share done of its first `depth` levels, with the count of
    the finished branches (a lower bound until the end). A node spans a share of the whole search: its
    parent's share, divided evenly among the parent's branches. The compiled structural counter keeps the same
    arithmetic in C (`progress_begin`, `progress_report`), so that a report costs a Python call only when due."""

    def __init__(self, on_progress: ProgressCallback | None, depth: int = PROGRESS_DEPTH) -> None:
        self.on_progress = on_progress
        levels = depth + 1
        self.start = [0.0] * levels  # where the current node of each level begins, as a share of the whole
        self.span = [1.0] * levels  # its share of the whole
        self.branches = [1] * levels
        self.found = [0] * levels  # the solutions found before it
        self.reported = 0.0  # when on_progress was last called

    def begin(self, depth: int, branches: int) -> None:
        """The current node at `depth` (< the levels tracked) has `branches` branches; the first comes next."""
        self.branches[depth] = branches
        self._next(depth, 0, 0)

    def report(self, depth: int, done: int, found: int) -> None:
        """`done` branches of the current node at `depth` are finished, with `found` solutions in them."""
        self._next(depth, done, found)
        if self.on_progress is not None and ((depth == 0 and done == self.branches[0]) or
                                             time.monotonic() - self.reported >= PROGRESS_EVERY):
            self.reported = time.monotonic()
            self.on_progress(self.found[depth] + found,
                             self.start[depth] + self.span[depth] * done / self.branches[depth])

    def _next(self, depth: int, done: int, found: int) -> None:
        """The span of the node's next branch."""
        child = depth + 1
        self.span[child] = self.span[depth] / self.branches[depth]
        self.start[child] = self.start[depth] + self.span[child] * done
        self.found[child] = self.found[depth] + found
