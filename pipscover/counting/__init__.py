"""Exact solution counts, by several methods that give the same numbers.

- `structural`: counts without listing. Placements by caching residual subproblems and closed forms for
  the free rest (`pipscover.counting.structural`); distinct grids by a search over grids that carries all
  tilings at once (`pipscover.counting.grids`). Both are explained in `encodings/counting.md`.
- `dlx`: lists every solution with the dlx backend (deduplicating pip grids for `grids`);
- `blocking`: a SAT solver with blocking clauses (`pipscover.counting.blocking`), with `backend` naming the solver;
- `ganak`: the projected model count of the puzzle's CNF by Ganak (`pipscover.counting.ganak`);
- `inclusion-exclusion` (placements): one frontier sweep per point of Ryser's formula over the domino types,
  with no dominoes left in any state (`pipscover.counting.inclusion_exclusion`): it counts the loose boards
  whose multisets of dominoes left the structural counter cannot cache (planted 6 x 6);
- `auto` (the default), a portfolio whose answers name the method, e.g. `auto:blocking`:
  1. on puzzles of fewer than `LIST_FROM_DOMINOES` dominoes, `structural` (all of them are quick);
  2. else `dlx` listing within `LIST_NODE_BUDGET` search nodes and `LIST_SOLUTIONS_UP_TO` solutions, which
     finishes on puzzles with few solutions (up to 50 times faster than the structural counter there);
  3. for placements, `structural` within `STRUCTURAL_WORK_BUDGET` (search nodes x cells), which finishes
     on the NYT puzzles with many solutions; past it, when its finished branches hold `LIST_UNLESS_FOUND`
     solutions or more, no listing can win: the structural count goes on (its caches kept) in a forked
     worker, raced against a structural count in the other search order (`structural-sweep`, which wins on
     rectangles: `pipscover.counting.structural.ORDERS`), and, when the dominoes need at most
     `RACE_IE_POINTS` sweeps, against `inclusion-exclusion`; each racer within its share of the memory cap;
  4. past those budgets, `structural` (continuing with the caches of step 3) and `blocking` race in two
     forked workers (`pipscover.counting.portfolio`), each within half the memory cap: the first exact
     count wins. The structural counter wins when there are astronomically many solutions and the board
     decomposes, blocking clauses when there are few and the board does not (a unique puzzle of 50
     dominoes: seconds, where the structural counter thrashes for minutes). For grids the structural racer
     is the grid plan: the structural placement count, which is the grid count when the board has a single
     tiling, else `dlx` listing when it is at most `LIST_GRIDS_UP_TO` and the structural grid count beyond.
  All budgets count nodes or solutions, never seconds, so which method answers never depends on the machine.

Every method stops once its process holds more than its memory cap (`memory`, default `MEMORY_LIMIT`), as
it stops at its deadline: with a lower bound marked not exact (`stopped_by="memory"`), or, in the race, by
giving way to the other method.

    >>> from pipscover import load_one
    >>> count(load_one("examples/first.txt")).count
    1
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import replace
from functools import partial
from typing import TYPE_CHECKING

from pipscover.counting.progress import ProgressCallback
from pipscover.errors import PipsError
from pipscover.model import Puzzle
from pipscover.model.results import CountInterrupted, CountResult, Distinct, SearchTimeout
from pipscover.runtime.deadlines import deadline_after, has_passed
from pipscover.runtime.limits import MEMORY_LIMIT, guard

if TYPE_CHECKING:
    from pipscover.counting.structural import StructuralCounter

METHODS = ("auto", "structural", "dlx", "blocking", "ganak", "inclusion-exclusion")
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
# Auto races inclusion-exclusion when the dominoes need at most this many sweeps (82,944 on planted 6 x 6).
RACE_IE_POINTS = 1 << 17
# The race's SAT racer writes the placements form (the rules prune it) up to this many estimated clauses:
# a unique 30-domino rect puzzle is proved in 1.1 s there, 12 s in the compact form that `auto` picks.
RACE_PLACEMENT_CLAUSES_LIMIT = 400_000
INTERRUPT = "interrupt"  # a count's `stopped_by` when Ctrl-C stopped it (and `count` raised `CountInterrupted`)


def count(
    puzzle: Puzzle,
    distinct: Distinct | str = Distinct.PLACEMENTS,
    method: str = "auto",
    backend: str | None = None,
    limit: int | None = None,
    timeout: float | None = None,
    on_progress: ProgressCallback | None = None,
    start: float | None = None,
    memory: int | None = MEMORY_LIMIT,
) -> CountResult:
    """The number of solutions of `puzzle` (or of its distinct pip grids), exact unless stopped.

    `limit` stops the listing methods (`dlx`, `blocking`) after that many; `timeout` (seconds) stops every
    method, counted from `start` (a `time.monotonic()` value; default now: the CLI starts the clock before it
    reads the puzzle); `memory` (bytes; None: no cap) stops a method whose process holds more. A stopped count
    has `exact=False` and is a lower bound. Ctrl-C raises `CountInterrupted`.
    `backend` is the SAT solver for `blocking` (default: `pipscover.counting.blocking`'s).

    >>> from pipscover import load_one
    >>> found = count(load_one("examples/first.txt"), distinct="grids")
    >>> found.count, found.exact
    (1, True)
    """
    distinct = Distinct(distinct)
    if method not in METHODS:
        raise PipsError(f"unknown counting method {method!r}; choose one of: {', '.join(METHODS)}")
    if backend is not None and method != "blocking":
        raise PipsError(f"a backend (-b {backend}) only applies to the blocking method, not to {method!r}")
    start = time.monotonic() if start is None else start
    deadline = deadline_after(timeout, start)
    if has_passed(deadline):  # reading the puzzle took the time: build nothing
        return _result(0, False, distinct, method, start, backend)
    match method:
        case "auto":
            return _count_auto(puzzle, distinct, deadline, on_progress, start, memory)
        case "structural":
            return _count_structurally(puzzle, distinct, deadline, on_progress, start, memory)
        case "dlx":
            return _count_by_listing(puzzle, distinct, limit, deadline, on_progress, start)  # type: ignore[return-value]  # no budget: it counts
        case "inclusion-exclusion":
            if distinct is not Distinct.PLACEMENTS:
                raise PipsError("inclusion-exclusion counts placements, not distinct grids")
            result = _count_by_inclusion_exclusion(puzzle, deadline, start, memory, on_progress)
            if result.stopped_by == INTERRUPT:
                raise CountInterrupted(result)
            return result
        case "ganak":
            from pipscover.counting.ganak import count_by_ganak

            try:
                return _timed(count_by_ganak(puzzle, distinct, deadline, memory), start)
            except KeyboardInterrupt:
                raise CountInterrupted(_result(0, False, distinct, "ganak", start, "ganak", INTERRUPT)) from None
    from pipscover.counting.blocking import DEFAULT_SAT_BACKEND, count_by_blocking

    chosen = backend or DEFAULT_SAT_BACKEND
    reached = [0]  # the blocking counter reports its count on every exit, Ctrl-C included

    def progress(found: int, fraction: float | None) -> None:
        reached[0] = found
        if on_progress is not None:
            on_progress(found, fraction)

    try:
        return count_by_blocking(puzzle, backend=chosen, distinct=distinct, limit=limit, deadline=deadline,
                                 on_progress=progress, memory_cap=memory)
    except KeyboardInterrupt:
        raise CountInterrupted(_result(reached[0], False, distinct, "blocking", start, chosen, INTERRUPT)) from None


def _count_auto(puzzle: Puzzle, distinct: Distinct, deadline: float | None, on_progress: ProgressCallback | None,
                start: float, memory: int | None) -> CountResult:
    """The portfolio of the module's docstring; the answer's method is `auto:` and the method that answered."""
    if len(puzzle.dominoes) < LIST_FROM_DOMINOES:
        return _auto(_count_structurally(puzzle, distinct, deadline, on_progress, start, memory))
    # (A listing within LIST_NODE_BUDGET nodes cannot reach a solution of more dominoes than that: a node each.)
    if len(puzzle.dominoes) < LIST_NODE_BUDGET:
        listed = _count_by_listing(puzzle, distinct, None, deadline, on_progress, start, LIST_NODE_BUDGET,
                                   LIST_SOLUTIONS_UP_TO)
        if listed is not None:
            return _auto(listed)
    share = _share(memory, 2)  # each of the two racers
    if distinct is Distinct.PLACEMENTS:
        from pipscover.counting.structural import StructuralCounter

        counter = StructuralCounter(puzzle)
        try:
            found = counter.count(deadline, on_progress, memory, STRUCTURAL_WORK_BUDGET // len(puzzle.cells))
            return _auto(_result(found, True, distinct, "structural", start))
        except CountInterrupted as stop:
            if stop.result.stopped_by != "nodes":
                return _auto(_stopped_structurally(stop, start))
            if stop.result.count >= LIST_UNLESS_FOUND:  # listing cannot win: the counters that do not list race
                from pipscover.counting.inclusion_exclusion import points_of
                from pipscover.counting.portfolio import racer_progress

                sweeps = points_of(puzzle) <= RACE_IE_POINTS
                each = _share(memory, 3 if sweeps else 2)
                racers = {"structural": partial(_continue_structurally, counter, deadline, start, each),
                          "structural-sweep": partial(_continue_structurally, StructuralCounter(puzzle, "sweep"),
                                                      deadline, start, each)}
                if sweeps:
                    racers["inclusion-exclusion"] = partial(_count_by_inclusion_exclusion, puzzle, deadline, start,
                                                            each, racer_progress)
                return _race(racers, distinct, deadline, start, stop.result.count, on_progress)
            floor = stop.result.count
        structural = partial(_continue_structurally, counter, deadline, start, share)
    else:
        _guard_grid_counter(puzzle, deadline)  # here, before a racer lists a board too big to count
        structural = partial(_count_grids_by_plan, puzzle, deadline, start, share)
        floor = 0
    return _race({"structural": structural, "blocking": partial(_count_by_blocking_racer, puzzle, distinct, share)},
                 distinct, deadline, start, floor, on_progress)


def _share(memory: int | None, racers: int) -> int | None:
    """Each racer's memory cap: an even share of the count's."""
    return None if memory is None else memory // racers


def _race(racers: Mapping[str, Callable[[], CountResult]], distinct: Distinct, deadline: float | None,
          start: float, floor: int, on_progress: ProgressCallback | None) -> CountResult:
    """Auto's answer from a race of `racers` (`pipscover.counting.portfolio`); `floor` is a lower bound found
    before it (the structural count's finished branches), the answer when the race stops before it knows more."""
    from pipscover.counting.portfolio import race_counts

    try:
        raced = race_counts(racers, deadline, on_progress)
    except CountInterrupted as stop:
        bound = replace(stop.result, count=max(stop.result.count, floor))
        raise CountInterrupted(_auto(_timed(bound, start))) from None
    except KeyboardInterrupt:
        raise CountInterrupted(_result(floor, False, distinct, "auto", start, stopped_by=INTERRUPT)) from None
    if raced is None:  # no racer answered in time
        return _result(floor, False, distinct, "auto", start, stopped_by="timeout")
    if not raced.exact:
        raced = replace(raced, count=max(raced.count, floor))
    return _auto(_timed(raced, start))


def _continue_structurally(counter: StructuralCounter, deadline: float | None, start: float,
                           memory: int | None) -> CountResult:
    """A structural count begun before within a budget, now without one (its caches kept in the racer that
    inherited them with the fork), or begun now; the answer names the counter's search order unless it is the
    default."""
    from pipscover.counting.portfolio import racer_progress

    method = "structural" if counter.order == "ways" else f"structural-{counter.order}"
    try:
        found = counter.count(deadline, racer_progress, memory)
        return _result(found, True, Distinct.PLACEMENTS, method, start)
    except CountInterrupted as stop:
        return _stopped_structurally(stop, start, method)


def _count_by_inclusion_exclusion(puzzle: Puzzle, deadline: float | None, start: float, memory: int | None,
                                  on_progress: ProgressCallback | None = None) -> CountResult:
    """The count by inclusion-exclusion (`pipscover.counting.inclusion_exclusion`); stopped, it found nothing."""
    from pipscover.counting.inclusion_exclusion import count as count_by_inclusion_exclusion

    try:
        found = count_by_inclusion_exclusion(puzzle, deadline, memory, on_progress=on_progress)
        return _result(found, True, Distinct.PLACEMENTS, "inclusion-exclusion", start)
    except CountInterrupted as stop:
        return _timed(stop.result, start)


def _count_by_blocking_racer(puzzle: Puzzle, distinct: Distinct, memory: int | None) -> CountResult:
    from pipscover.cnf import Encodings
    from pipscover.cnf.forms import placement_clauses_estimate
    from pipscover.counting.blocking import count_by_blocking
    from pipscover.counting.portfolio import racer_progress

    small = placement_clauses_estimate(puzzle) <= RACE_PLACEMENT_CLAUSES_LIMIT
    encodings = Encodings(form="placements" if small else "compact")
    # No deadline: the race kills this racer once the deadline and its grace have passed (with one, the solver
    # would run in yet another process).
    return count_by_blocking(puzzle, RACE_SAT_BACKEND, distinct, encodings=encodings, memory_cap=memory,
                             on_progress=racer_progress)


def _count_grids_by_plan(puzzle: Puzzle, deadline: float | None, start: float, memory: int | None) -> CountResult:
    """Distinct grids the structural way: the placement count, which is the grid count on a board of one
    tiling, else dlx listing of few or the structural grid count of many (whose progress is the race's)."""
    from pipscover.counting.portfolio import racer_progress

    placements = _count_structurally(puzzle, Distinct.PLACEMENTS, deadline, None, start, memory)
    if placements.count == 0 or not placements.exact:
        # No solution means no grid; a stopped count shows only that a grid exists, if it found a solution.
        return replace(placements, count=min(placements.count, 1), distinct=Distinct.GRIDS)
    if _has_one_tiling(puzzle):  # then each grid is carried by exactly one solution
        return replace(placements, distinct=Distinct.GRIDS)
    if placements.count <= LIST_GRIDS_UP_TO:
        return _count_by_listing(puzzle, Distinct.GRIDS, None, deadline, racer_progress, start)  # type: ignore[return-value]  # no budget: it counts
    return _count_structurally(puzzle, Distinct.GRIDS, deadline, racer_progress, start, memory)


def _count_structurally(puzzle: Puzzle, distinct: Distinct, deadline: float | None,
                        on_progress: ProgressCallback | None, start: float, memory: int | None) -> CountResult:
    from pipscover.counting.grids import GridCounter
    from pipscover.counting.structural import StructuralCounter

    if distinct is Distinct.GRIDS:
        _guard_grid_counter(puzzle, deadline)
    try:
        counter = GridCounter(puzzle) if distinct is Distinct.GRIDS else StructuralCounter(puzzle)
        return _result(counter.count(deadline, on_progress, memory), True, distinct, "structural", start)
    except CountInterrupted as stop:
        return _stopped_structurally(stop, start)
    except KeyboardInterrupt:  # before the search's first branch: nothing counted yet
        raise CountInterrupted(_result(0, False, distinct, "structural", start, stopped_by=INTERRUPT)) from None


def _guard_grid_counter(puzzle: Puzzle, deadline: float | None) -> None:
    """Refuse a board too big for the grid counter. Its residual subproblems are keyed by a bit mask of the
    uncovered cells: about one per cell on a long board. (The placements counter guards itself once it needs
    such masks: `StructuralCounter.cell_tables`.)"""
    cells = len(puzzle.cells)
    guard(puzzle, "the grid counter", needs_bytes=cells * cells // 4, steps=cells * cells, deadline=deadline)


def _stopped_structurally(stop: CountInterrupted, start: float, method: str = "structural") -> CountResult:
    """The lower bound of a structural count that `stop` ended, timed from `start` and named `method`; Ctrl-C
    is raised on."""
    result = replace(_timed(stop.result, start), method=method)
    if result.stopped_by == INTERRUPT:
        raise CountInterrupted(result) from None
    return result


def _count_by_listing(puzzle: Puzzle, distinct: Distinct, limit: int | None, deadline: float | None,
                      on_progress: ProgressCallback | None, start: float,
                      node_limit: int | None = None, solution_limit: int | None = None) -> CountResult | None:
    """The count by listing with dlx; None when the search passes `node_limit` nodes or finds more than
    `solution_limit` solutions."""
    from pipscover.engines.dancing_links import NodeBudgetExceeded
    from pipscover.engines.dlx import DlxBackend, counted_covers

    grids: set[tuple[tuple[tuple[int, int], int], ...]] = set()
    found, exact = 0, True
    # Restarts speed up a first solution, not a listing of every one; within a node budget they only spend
    # it again (the archive's budgeted listings visit 8% more nodes with them and take 12% longer).
    restart_seed = DlxBackend.seed if node_limit is None else None
    covers, search, cover = counted_covers(puzzle, deadline, node_limit, restart_seed)
    try:
        if distinct is Distinct.PLACEMENTS:
            counted = _count_covers(covers, limit, solution_limit, on_progress)
            if counted is None:
                return None
            exact = limit is None or search.found <= limit  # the search found one past the limit: more exist
            return _result(counted, exact, distinct, "dlx", start, "dlx")
        for chosen in covers:
            if limit is not None and found >= limit:
                exact = False  # one more solution exists
                break
            if solution_limit is not None and found >= solution_limit:
                return None
            if distinct is Distinct.GRIDS:
                grid = tuple(sorted(cover.solution(chosen).grid.items()))
                if grid in grids:
                    continue
                grids.add(grid)
            found += 1
            if on_progress is not None and found % 1000 == 0:
                on_progress(found, None)
    except SearchTimeout:
        found, exact = search.found if distinct is Distinct.PLACEMENTS else found, False
    except NodeBudgetExceeded:
        return None
    except KeyboardInterrupt:
        found = search.found if distinct is Distinct.PLACEMENTS else found
        raise CountInterrupted(_result(found, False, distinct, "dlx", start, "dlx", INTERRUPT)) from None
    return _result(found, exact, distinct, "dlx", start, "dlx")


def _count_covers(covers: Iterator[list[int]], limit: int | None, solution_limit: int | None,
                  on_progress: ProgressCallback | None) -> int | None:
    """The number of `covers`, passed without building them (see `dancing_links.skip`), reported every
    1000; `limit` when there are more than `limit` (one past it is enough to know), None when there are more
    than `solution_limit`."""
    from pipscover.engines.dancing_links import skip

    bounds = [bound for bound in (limit, solution_limit) if bound is not None]
    bound = min(bounds) if bounds else None
    found = 0
    while True:
        step = 1000 - found % 1000  # up to the next report
        if bound is not None:
            step = min(step, bound + 1 - found)
        passed = skip(covers, step)
        if bound is not None and found + passed > bound:
            return bound if limit == bound else None
        found += passed
        if passed < step:
            return found
        if on_progress is not None and found % 1000 == 0:
            on_progress(found, None)


def _has_one_tiling(puzzle: Puzzle) -> bool:
    from pipscover.counting.tilings import TilingCounter

    return TilingCounter(puzzle.cells).count((1 << len(puzzle.cells)) - 1) == 1


def _result(found: int, exact: bool, distinct: Distinct, method: str, start: float,
            backend: str | None = None, stopped_by: str | None = None) -> CountResult:
    return CountResult(found, exact, distinct, method, backend, time.monotonic() - start, stopped_by)


def _auto(result: CountResult) -> CountResult:
    """`result` as auto's answer: its method names the method that answered, as `solve` names its engine."""
    return replace(result, method=f"auto:{result.method}")


def _timed(result: CountResult, start: float) -> CountResult:
    """`result` with its seconds counted from `start` (the count's clock, which began before the puzzle was read)."""
    return replace(result, seconds=time.monotonic() - start)
