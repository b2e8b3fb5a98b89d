"""The structural count cut below its first levels, for a count split into tasks (`pipscover.sweep.split_count`).

The structural search counts a position as the sum of the counts of the positions after each domino that
covers its chosen cell. Run down to a cut (a number of dominoes laid) and stopped there, the same search
gives the count of the root as a sum: the closed forms and dead ends met above the cut (an int), plus, for
each position at the cut, its count times its multiplicity, the number of paths of the search from the root
to it. Positions reached by several paths (the same dominoes laid in another order) are merged, as the search
merges them: its cache is keyed by the position, and a cached position's value is the sum of its frontier.
Each frontier position is then counted on its own (`StructuralCounter.count_from`), exactly, and the root's
count is `closed + sum(paths * count)`; a finished part of that sum is a lower bound.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from pipscover.counting.budget import UNLIMITED, Budget
from pipscover.counting.structural import Position, StructuralCounter, StructuralSearch
from pipscover.model.results import CountInterrupted

# A cut deeper than this many dominoes is not tried: by then the frontier is too small to split because the
# count is nearly done (most positions closed above it).
DEEPEST_CUT = 64


@dataclass(frozen=True)
class Frontier:
    """The root's count as `closed + sum(paths * N(position))` over `positions` (position -> paths)."""

    closed: int = 0
    positions: dict[Position, int] = field(default_factory=dict)

    def __add__(self, other: Frontier | int) -> Frontier:
        if isinstance(other, int):
            return Frontier(self.closed + other, self.positions)
        positions = dict(self.positions)
        for position, paths in other.positions.items():
            positions[position] = positions.get(position, 0) + paths
        return Frontier(self.closed + other.closed, positions)

    __radd__ = __add__

    def total(self, counts: dict[Position, int]) -> int:
        """The root's count, given the count of every position of the frontier."""
        return self.closed + sum(paths * counts[position] for position, paths in self.positions.items())


class FrontierSearch(StructuralSearch):
    """The structural search stopped `cut` dominoes below where it starts: a position there counts as itself
    (a `Frontier` of one path), and every count above is a `Frontier`, summed and cached by the same steps."""

    def __init__(self, counter: StructuralCounter, budget: Budget, cut: int) -> None:
        super().__init__(counter, budget, None)
        self.cache = {}  # Frontier values, not the counter's counts
        self.cut = cut

    def count(self, uncovered: int, remaining: int, depth: int) -> int:
        if depth >= self.cut:
            return Frontier(0, {Position(uncovered, remaining, tuple(self.states)): 1})  # type: ignore[return-value]  # summed as a count
        return super().count(uncovered, remaining, depth)


def frontier(counter: StructuralCounter, at_least: int, budget: Budget = UNLIMITED,
             deepest: int = DEEPEST_CUT) -> Frontier:
    """The shallowest cut of the counter's search (at most `deepest` dominoes down) with `at_least` positions, or
    the deepest tried. Raises `CountInterrupted` (0, not exact) when the budget stops it."""
    cut, level = 0, Frontier(0, {counter.root(): 1})
    while level.positions and len(level.positions) < at_least and cut < deepest:
        cut += 1
        level = _cut_at(counter, cut, budget)
    return level


def _cut_at(counter: StructuralCounter, cut: int, budget: Budget) -> Frontier:
    root = counter.root()
    search = FrontierSearch(counter, budget, cut)
    try:
        found: Frontier | int = search.run(lambda: search.count(root.uncovered, root.remaining, 0),
                                           2 * counter.cell_count)
    except CountInterrupted as stop:  # its partial sum is a Frontier: no bound yet
        raise CountInterrupted(budget.timed(replace(stop.result, count=0))) from None
    return found if isinstance(found, Frontier) else Frontier(found)
