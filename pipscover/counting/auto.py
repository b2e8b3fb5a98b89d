"""`auto`, the default counting method: a portfolio over the registered methods, whose answers name the
method that answered, e.g. `auto:blocking`.

1. on puzzles of fewer than `LIST_FROM_DOMINOES` dominoes, `structural` (all of them are quick);
2. else `dlx` listing within `LIST_NODE_BUDGET` search nodes and `LIST_SOLUTIONS_UP_TO` solutions, which
   finishes on puzzles with few solutions (up to 50 times faster than the structural counter there);
3. for placements, `structural` within `STRUCTURAL_WORK_BUDGET` (search nodes x cells), which finishes
   on the NYT puzzles with many solutions; past it, when its finished branches hold `LIST_UNLESS_FOUND`
   solutions or more, no listing can win: the structural count goes on (its caches kept) in a forked
   worker, raced against a structural count in the other search order (`structural-sweep`, which wins on
   rectangles: `pipscover.counting.structural.ORDERS`);
4. past those budgets, `structural` (continuing with the caches of step 3) and `blocking` race in forked
   workers (`pipscover.counting.portfolio`): the first exact count wins. The structural counter wins when
   there are astronomically many solutions and the board decomposes, blocking clauses when there are few
   and the board does not (a unique puzzle of 50 dominoes: seconds, where the structural counter thrashes
   for minutes). For grids the structural racer is the grid plan: the structural placement count, which is
   the grid count when the board has a single tiling, else `dlx` listing when it is at most
   `LIST_GRIDS_UP_TO` and the structural grid count beyond.
Both placement races take `inclusion-exclusion` too when it takes the puzzle (its sweeps within
`POINTS_LIMIT`, its sums' residues wide enough): its sweeps do not care how many solutions the structural
budget found (no-unique-20 has none there and 473 trillion in all, which only inclusion-exclusion counts
within seconds); its sweeps end in a known time, so the other racers run at a lower priority beside it. Each
racer keeps within its share of the memory cap.
All budgets count nodes or solutions, never seconds, so which method answers never depends on the machine.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from dataclasses import replace
from functools import partial
from typing import TYPE_CHECKING

from pipscover.counting import counting_method
from pipscover.counting.base import CountingCapabilities, CountingMethod
from pipscover.counting.budget import INTERRUPT, NODE_BUDGET, TIMEOUT, Budget
from pipscover.counting.listing import count_by_listing
from pipscover.counting.methods import continue_structurally, stopped_structurally
from pipscover.model import Puzzle
from pipscover.model.results import CountInterrupted, CountResult, Distinct
from pipscover.runtime.limits import TooBig

if TYPE_CHECKING:
    from pipscover.counting.structural import StructuralCounter

LIST_GRIDS_UP_TO = 20_000  # auto lists grids with dlx up to this many placements
LIST_NODE_BUDGET = 4096  # DLX search nodes auto spends listing before it counts structurally
LIST_FROM_DOMINOES = 12
LIST_SOLUTIONS_UP_TO = 64  # nor lists past this many solutions (the structural counter's caches win there)
# Structural search work (nodes x cells: a node scans the uncovered cells) auto spends in this process before
# the race, a few tenths of a second: the 15 NYT puzzles that pass the listing budget need at most 15,610
# nodes of 26 cells (2025-10-28 hard, 166,724 solutions); a 100-cell board gets 5,000 nodes.
STRUCTURAL_WORK_BUDGET = 500_000
# Nor does it race when the finished branches of that budget hold this many solutions: listing them takes
# a SAT solver a minute (on a 2 x 12 planted board they hold 67 million of 46 billion after 20,000 nodes).
LIST_UNLESS_FOUND = 100_000
RACE_SAT_BACKEND = "cadical195"
# When inclusion-exclusion races, the other racers run this much lower in the kernel's priority (`nice`), so
# that its sweeps, which end in a known time, keep a core to themselves while the others share the rest:
# three racers on two cores each had two thirds of one (planted 6 x 6: 13.5 s, against 8.6 s alone).
BESIDE_THE_SWEEPS_NICENESS = 5
# The race's SAT racer writes the placements form (the rules prune it) up to this many estimated clauses:
# a unique 30-domino rect puzzle is proved in 1.1 s there, 12 s in the compact form that `auto` picks.
RACE_PLACEMENT_CLAUSES_LIMIT = 400_000


class AutoMethod(CountingMethod):
    """The portfolio of the module's docstring; the answer's method is `auto:` and the method that answered."""

    name = "auto"
    description = "structural or dlx within budgets, then a race of the methods that suit the puzzle (default)"
    capabilities = CountingCapabilities(stops="races")

    def count(self, puzzle: Puzzle, distinct: Distinct, budget: Budget) -> CountResult:
        if len(puzzle.dominoes) < LIST_FROM_DOMINOES:
            return _auto(counting_method("structural").count(puzzle, distinct, budget))
        # (A listing within LIST_NODE_BUDGET nodes cannot reach a solution of more dominoes than that: a node each.)
        listed = 0  # solutions the listing found before it gave way: a floor for the steps after it
        if len(puzzle.dominoes) < LIST_NODE_BUDGET:
            try:
                return _auto(count_by_listing(puzzle, distinct, budget, LIST_NODE_BUDGET, LIST_SOLUTIONS_UP_TO))
            except CountInterrupted as stop:
                if stop.result.stopped_by != NODE_BUDGET:
                    raise
                listed = stop.result.count
        if distinct is Distinct.PLACEMENTS:
            return _count_placements(puzzle, budget, listed)
        from pipscover.counting.grids import guard_grid_counter

        guard_grid_counter(puzzle, budget.deadline)  # here, before a racer lists a board too big to count
        racing = _racers_budget(budget, 2)
        return _race({"structural": partial(_count_grids_by_plan, puzzle, racing),
                      "blocking": partial(_count_by_blocking_racer, puzzle, distinct, racing)},
                     distinct, budget, listed)


def _count_placements(puzzle: Puzzle, budget: Budget, listed: int) -> CountResult:
    """Steps 3 and 4 for placements: the structural count within its budget, then a race; a count stopped
    before it knows more says at least the `listed` solutions."""
    from pipscover.counting.structural import StructuralCounter

    counter = StructuralCounter(puzzle)
    try:
        found = counter.count(budget, STRUCTURAL_WORK_BUDGET // len(puzzle.cells))
        return _auto(budget.result(found, True, Distinct.PLACEMENTS, "structural"))
    except CountInterrupted as stop:
        floor = max(stop.result.count, listed)  # two lower bounds of the same count
        if stop.result.stopped_by != NODE_BUDGET:
            return _auto(stopped_structurally(CountInterrupted(replace(stop.result, count=floor)), budget))
    racers = _placement_racers(puzzle, counter, floor)
    racing = _racers_budget(budget, len(racers))
    return _race({name: partial(racer, racing) for name, racer in racers.items()}, Distinct.PLACEMENTS, budget, floor)


def _placement_racers(puzzle: Puzzle, counter: StructuralCounter,
                      floor: int) -> dict[str, Callable[[Budget], CountResult]]:
    """Step 4's racers, each waiting for its budget: the structural count going on (`counter`, its caches
    kept), against blocking clauses when its budget found fewer than `LIST_UNLESS_FOUND` solutions (a listing
    may win), else against the structural count in the sweep order; and inclusion-exclusion in either case
    when it takes the puzzle (its count is in no way tied to the solutions the
    structural budget found: no-unique-20 has none in it, and 473 trillion)."""
    from pipscover.counting.structural import StructuralCounter

    racers: dict[str, Callable[[Budget], CountResult]] = {"structural": partial(continue_structurally, counter)}
    if floor < LIST_UNLESS_FOUND:
        racers["blocking"] = partial(_count_by_blocking_racer, puzzle, Distinct.PLACEMENTS)
    else:
        racers["structural-sweep"] = partial(continue_structurally, StructuralCounter(puzzle, "sweep"))
    if _inclusion_exclusion_takes(puzzle):
        racers = {name: partial(_beside_the_sweeps, racer) for name, racer in racers.items()}
        racers["inclusion-exclusion"] = partial(counting_method("inclusion-exclusion").count, puzzle,
                                                Distinct.PLACEMENTS)
    return racers


def _beside_the_sweeps(racer: Callable[[Budget], CountResult], budget: Budget) -> CountResult:
    """The racer in its worker at a lower priority than inclusion-exclusion's (`BESIDE_THE_SWEEPS_NICENESS`)."""
    os.nice(BESIDE_THE_SWEEPS_NICENESS)
    return racer(budget)


def _inclusion_exclusion_takes(puzzle: Puzzle) -> bool:
    """Whether inclusion-exclusion takes the puzzle (`Modulus.of`: its sweeps within `POINTS_LIMIT`, its sums'
    residues wide enough for the count's bound): a racer it would refuse (the SAT reductions) would only take
    a share of the memory cap."""
    from pipscover.counting.inclusion_exclusion import Modulus

    try:
        Modulus.of(puzzle)
    except TooBig:
        return False
    return True


def _race(racers: Mapping[str, Callable[[], CountResult]], distinct: Distinct, budget: Budget,
          floor: int) -> CountResult:
    """Auto's answer from a race of `racers` (`pipscover.counting.portfolio`); `floor` is a lower bound found
    before it (the structural count's finished branches), the answer when the race stops before it knows more."""
    from pipscover.counting.portfolio import race_counts

    try:
        raced = race_counts(racers, budget.deadline, budget.on_progress)
    except CountInterrupted as stop:
        bound = replace(stop.result, count=max(stop.result.count, floor))
        raise CountInterrupted(_auto(budget.timed(bound))) from None
    except KeyboardInterrupt:
        raise CountInterrupted(budget.result(floor, False, distinct, "auto", stopped_by=INTERRUPT)) from None
    if raced is None:  # no racer answered in time
        return budget.result(floor, False, distinct, "auto", stopped_by=TIMEOUT)
    if not raced.exact:
        raced = replace(raced, count=max(raced.count, floor))
    return _auto(budget.timed(raced))


def _racers_budget(budget: Budget, racers: int) -> Budget:
    """The budget of each of `racers` racers: its share of the memory, its progress sent to the race. (The race
    is imported only when one is run: the NYT puzzles never get there.)"""
    from pipscover.counting.portfolio import racer_progress

    return budget.shared(racers, racer_progress)


def _count_by_blocking_racer(puzzle: Puzzle, distinct: Distinct, budget: Budget) -> CountResult:
    from pipscover.cnf import Encodings
    from pipscover.cnf.forms import placement_clauses_estimate
    from pipscover.counting.blocking import count_by_blocking

    small = placement_clauses_estimate(puzzle) <= RACE_PLACEMENT_CLAUSES_LIMIT
    encodings = Encodings(form="placements" if small else "compact")
    # No deadline: the race kills this racer once the deadline and its grace have passed (with one, the solver
    # would run in yet another process).
    return count_by_blocking(puzzle, RACE_SAT_BACKEND, distinct, encodings=encodings, memory_cap=budget.memory,
                             on_progress=budget.on_progress)


def _count_grids_by_plan(puzzle: Puzzle, budget: Budget) -> CountResult:
    """Distinct grids the structural way: the placement count, which is the grid count on a board of one
    tiling, else dlx listing of few or the structural grid count of many (whose progress is the race's)."""
    structural = counting_method("structural")
    placements = structural.count(puzzle, Distinct.PLACEMENTS, budget.heard_by(None))
    if placements.count == 0 or not placements.exact:
        # No solution means no grid; a stopped count shows only that a grid exists, if it found a solution.
        return replace(placements, count=min(placements.count, 1), distinct=Distinct.GRIDS)
    if _has_one_tiling(puzzle):  # then each grid is carried by exactly one solution
        return replace(placements, distinct=Distinct.GRIDS)
    if placements.count <= LIST_GRIDS_UP_TO:
        return count_by_listing(puzzle, Distinct.GRIDS, budget)
    return structural.count(puzzle, Distinct.GRIDS, budget)


def _has_one_tiling(puzzle: Puzzle) -> bool:
    from pipscover.counting.tilings import TilingCounter

    return TilingCounter(puzzle.cells).count((1 << len(puzzle.cells)) - 1) == 1


def _auto(result: CountResult) -> CountResult:
    """`result` as auto's answer: its method names the method that answered, as `solve` names its engine."""
    return replace(result, method=f"auto:{result.method}")
