"""The counting methods that `pipscover count --method` names, each a class behind `CountingMethod`: what it
counts, how it stops, and how its counter's stops become a `CountResult`. The counters themselves live in
their own modules (`structural`, `grids`, `listing`, `blocking`, `ganak`, `inclusion_exclusion`); `auto`, the
portfolio over these, in `pipscover.counting.auto`."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from pipscover.counting.base import CountingCapabilities, CountingMethod
from pipscover.counting.budget import INTERRUPT, Budget
from pipscover.counting.listing import count_by_listing
from pipscover.model import Puzzle
from pipscover.model.results import CountInterrupted, CountResult, Distinct

if TYPE_CHECKING:
    from pipscover.counting.structural import StructuralCounter

PLACEMENTS_ONLY = frozenset({Distinct.PLACEMENTS})


class StructuralMethod(CountingMethod):
    """Counts without listing: residual subproblems cached, closed forms for the free rest
    (`pipscover.counting.structural`; distinct grids by `pipscover.counting.grids`)."""

    name = "structural"
    description = "caches residual subproblems and closes free ones in closed form; never lists"
    capabilities = CountingCapabilities(splits=True)

    def count(self, puzzle: Puzzle, distinct: Distinct, budget: Budget) -> CountResult:
        from pipscover.counting.grids import count_grids, guard_grid_counter
        from pipscover.counting.structural import StructuralCounter

        if distinct is Distinct.GRIDS:
            guard_grid_counter(puzzle, budget.deadline)
        try:
            grids = distinct is Distinct.GRIDS
            found = count_grids(puzzle, budget) if grids else StructuralCounter(puzzle).count(budget)
            return budget.result(found, True, distinct, self.name)
        except CountInterrupted as stop:
            return stopped_structurally(stop, budget)
        except KeyboardInterrupt:  # before the search's first branch: nothing counted yet
            raise CountInterrupted(budget.result(0, False, distinct, self.name, stopped_by=INTERRUPT)) from None


def continue_structurally(counter: StructuralCounter, budget: Budget) -> CountResult:
    """A structural count begun before within a node budget, now without one (its caches kept, in the racer
    that inherited them with the fork), or begun now; the answer names the counter's search order unless it
    is the default."""
    method = "structural" if counter.order == "ways" else f"structural-{counter.order}"
    try:
        return budget.result(counter.count(budget), True, Distinct.PLACEMENTS, method)
    except CountInterrupted as stop:
        return stopped_structurally(stop, budget, method)


def stopped_structurally(stop: CountInterrupted, budget: Budget, method: str = "structural") -> CountResult:
    """The lower bound of a structural count that `stop` ended, timed and named `method`; Ctrl-C is raised on."""
    result = replace(budget.timed(stop.result), method=method)
    if result.stopped_by == INTERRUPT:
        raise CountInterrupted(result) from None
    return result


class ListingMethod(CountingMethod):
    """Lists every solution with the dlx backend (`pipscover.counting.listing`)."""

    name = "dlx"
    description = "lists every solution with Dancing Links (distinct grids deduplicated)"
    capabilities = CountingCapabilities(lists=True)

    def count(self, puzzle: Puzzle, distinct: Distinct, budget: Budget) -> CountResult:
        return count_by_listing(puzzle, distinct, budget)


class BlockingMethod(CountingMethod):
    """A SAT solver with blocking clauses (`pipscover.counting.blocking`), the solver named by `backend`."""

    name = "blocking"
    description = "lists the models of the puzzle's CNF with a SAT solver, blocking each one found"
    capabilities = CountingCapabilities(lists=True, backends=True)

    def count(self, puzzle: Puzzle, distinct: Distinct, budget: Budget) -> CountResult:
        from pipscover.counting.blocking import DEFAULT_SAT_BACKEND, count_by_blocking
        from pipscover.engines import get_backend

        chosen = get_backend(self.backend or DEFAULT_SAT_BACKEND)  # the stopped count names it as the finished one
        reached = [0]  # the blocking counter reports its count on every exit, Ctrl-C included

        def progress(found: int, fraction: float | None) -> None:
            reached[0] = found
            if budget.on_progress is not None:
                budget.on_progress(found, fraction)

        try:
            return count_by_blocking(puzzle, backend=chosen, distinct=distinct, limit=budget.limit,
                                     deadline=budget.deadline, on_progress=progress, memory_cap=budget.memory)
        except KeyboardInterrupt:
            stopped = budget.result(reached[0], False, distinct, self.name, chosen.name, INTERRUPT)
            raise CountInterrupted(stopped) from None


class GanakMethod(CountingMethod):
    """The projected model count of the puzzle's CNF by Ganak (`pipscover.counting.ganak`)."""

    name = "ganak"
    description = "the projected model count of the puzzle's CNF by Ganak"
    capabilities = CountingCapabilities(stops="killed", requires="pyganak", install="pip install pyganak")

    def count(self, puzzle: Puzzle, distinct: Distinct, budget: Budget) -> CountResult:
        from pipscover.counting.ganak import count_by_ganak

        try:
            return budget.timed(count_by_ganak(puzzle, distinct, budget.deadline, budget.memory))
        except KeyboardInterrupt:
            raise CountInterrupted(budget.result(0, False, distinct, self.name, "ganak", INTERRUPT)) from None


class InclusionExclusionMethod(CountingMethod):
    """Ryser's formula over the domino types, one frontier sweep per point
    (`pipscover.counting.inclusion_exclusion`); stopped, it has found nothing."""

    name = "inclusion-exclusion"
    description = "one frontier sweep per point of Ryser's formula over the domino types"
    capabilities = CountingCapabilities(counts=PLACEMENTS_ONLY)

    def count(self, puzzle: Puzzle, distinct: Distinct, budget: Budget) -> CountResult:
        from pipscover.counting.inclusion_exclusion import count as count_by_inclusion_exclusion

        try:
            found = count_by_inclusion_exclusion(puzzle, budget)
            return budget.result(found, True, Distinct.PLACEMENTS, self.name)
        except CountInterrupted as stop:
            if stop.result.stopped_by == INTERRUPT:
                raise CountInterrupted(budget.timed(stop.result)) from None
            return budget.timed(stop.result)
