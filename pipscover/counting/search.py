"""What the two structural searches share (the placements counter, `pipscover.counting.structural`, and the
grid counter, `pipscover.counting.grids`): the position's region states and pips left, kept up to date as
the search lays and lifts, the cache of finished subproblems, the count of search nodes with its looks at
the budget, the progress of the first levels, and how a stop becomes a lower bound.

Both are recursive searches in the same named steps (as `engines.dancing_links._Search` is): look the
position up in the cache; close it in closed form when its rest is free; choose where to branch; branch,
summing the counts of the branches; store the count. Each child's count is cached under its own key, so the
counts of a node's branches are there to read after a count (to weigh the branches, or to count them apart).
"""

from __future__ import annotations

from collections.abc import Callable

from pipscover.counting.budget import INTERRUPT, NODE_BUDGET, Budget
from pipscover.counting.progress import PROGRESS_DEPTH, Progress, tracked_levels
from pipscover.counting.region_states import RegionRules
from pipscover.model.results import CountInterrupted, CountResult, Distinct, SearchTimeout
from pipscover.runtime.deadlines import CLOCK_EVERY, has_passed
from pipscover.runtime.limits import MemoryCapReached, check_memory
from pipscover.runtime.recursion import room_for

CHECK_EVERY = CLOCK_EVERY  # search nodes between two looks at the clock and at the memory held


class NodeBudgetSpent(Exception):
    """The search passed the node budget it was given (`count(node_limit=...)`)."""


# What stops a structural search, and how its partial count names it (`CountResult.stopped_by`).
STOPPED_BY: dict[type[BaseException], str] = {
    SearchTimeout: "timeout", KeyboardInterrupt: INTERRUPT, MemoryCapReached: "memory", NodeBudgetSpent: NODE_BUDGET,
}
STOPS: tuple[type[BaseException], ...] = (*STOPPED_BY, CountInterrupted)


def stopped(found: int, stop: BaseException, distinct: Distinct) -> CountInterrupted:
    """What a search level raises when `stop` (one of `STOPS`) reaches it with `found` solutions in its
    finished branches: the partial count, not yet timed (the caller knows its clock)."""
    if isinstance(stop, CountInterrupted):
        return stop.adding(found)
    why = next(name for kind, name in STOPPED_BY.items() if isinstance(stop, kind))
    return CountInterrupted(CountResult(found, False, distinct, "structural", None, 0.0, why))


def check_search(nodes: int, deadline: float | None, memory_cap: int | None, node_limit: int | None) -> None:
    """Raise what stops a search after `nodes` nodes: its deadline passed, its memory cap or its node budget."""
    if has_passed(deadline):
        raise SearchTimeout()
    if node_limit is not None and nodes > node_limit:
        raise NodeBudgetSpent()
    check_memory(memory_cap)


class Search:
    """One count's position and bookkeeping: `states[r]` and `left[r]` (cells not yet given a pip) of each
    region, `halves[i]` of the pip of index i on the dominoes left, the `cache` of finished subproblems (the
    counter's, kept across counts), the search `nodes` and the progress of the first levels."""

    def __init__(self, rules: RegionRules, halves: tuple[int, ...], cache: dict[tuple, int], budget: Budget,
                 node_limit: int | None = None, depth: int = PROGRESS_DEPTH) -> None:
        self.rules = rules
        self.states = rules.initial_states()
        self.left = list(rules.sizes)
        self.halves = list(halves)
        self.cache = cache
        self.budget = budget
        self.node_limit = node_limit
        self.nodes = 0
        self.progress = Progress(budget.on_progress, depth)
        self.tracked = tracked_levels(budget.on_progress, depth)

    def visit(self) -> None:
        """Count a new search node; every `CHECK_EVERY` nodes, raise what stops the search (`check_search`)."""
        self.nodes += 1
        if self.nodes % CHECK_EVERY == 0:
            check_search(self.nodes, self.budget.deadline, self.budget.memory, self.node_limit)

    def store(self, key: tuple, total: int) -> int:
        """Cache the count of the position under `key`, and give it back."""
        self.cache[key] = total
        return total

    @staticmethod
    def run(root: Callable[[], int], depth: int) -> int:
        """`root()`, with room on Python's stack for `depth` levels of the search."""
        with room_for(depth):
            return root()
