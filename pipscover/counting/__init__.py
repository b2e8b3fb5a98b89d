"""Exact solution counts, by several methods that give the same numbers.

- `structural`: counts without listing. Placements by caching residual subproblems and closed forms for
  the free rest (`pipscover.counting.structural`); distinct grids by a search over grids that carries all
  tilings at once (`pipscover.counting.grids`). Both are explained in `encodings/counting.md`.
- `dlx`: lists every solution with the dlx backend (deduplicating pip grids for `grids`);
- `blocking`: a SAT solver with blocking clauses (`pipscover.counting.blocking`), with `backend` naming the solver;
- `auto` (the default): on puzzles of `LIST_FROM_DOMINOES` dominoes or more, first `dlx` listing within
  `LIST_NODE_BUDGET` search nodes and `LIST_SOLUTIONS_UP_TO` solutions, which finishes on puzzles with few
  solutions, where listing is up to 50 times faster than the structural counter (on smaller puzzles, and on
  puzzles with many solutions, whose subproblems its caches share, the structural counter is the faster one;
  all measured on the NYT archive, encodings/counting.md); past either budget, `structural` for placements,
  and for grids the structural placement count, which is the grid count when the board has a single tiling,
  else `dlx` listing when it is at most `LIST_GRIDS_UP_TO` and the structural grid count beyond.

    >>> from pipscover import load_one
    >>> count(load_one("examples/first.txt")).count
    1
"""

from __future__ import annotations

import time

from pipscover.counting.progress import ProgressCallback
from pipscover.errors import PipsError
from pipscover.model import Puzzle
from pipscover.model.results import CountResult, Distinct, SearchTimeout, deadline_after, has_passed
from pipscover.runtime.limits import guard

METHODS = ("auto", "structural", "dlx", "blocking")
LIST_GRIDS_UP_TO = 20_000  # auto lists grids with dlx up to this many placements
LIST_NODE_BUDGET = 4096  # DLX search nodes auto spends listing before it counts structurally
LIST_FROM_DOMINOES = 12
LIST_SOLUTIONS_UP_TO = 64  # nor lists past this many solutions (the structural counter's caches win there)



class CountInterrupted(Exception):
    """Ctrl-C stopped a count; `result` holds what was found so far (not exact)."""

    def __init__(self, result: CountResult) -> None:
        super().__init__(result)
        self.result = result


def count(
    puzzle: Puzzle,
    distinct: Distinct | str = Distinct.PLACEMENTS,
    method: str = "auto",
    backend: str | None = None,
    limit: int | None = None,
    timeout: float | None = None,
    on_progress: ProgressCallback | None = None,
    start: float | None = None,
) -> CountResult:
    """The number of solutions of `puzzle` (or of its distinct pip grids), exact unless stopped.

    `limit` stops the listing methods (`dlx`, `blocking`) after that many; `timeout` (seconds) stops every
    method, counted from `start` (a `time.monotonic()` value; default now: the CLI starts the clock before it
    reads the puzzle). A stopped count has `exact=False` and is a lower bound. Ctrl-C raises `CountInterrupted`.
    `backend` is the SAT solver for `blocking` (default: `pipscover.counting.blocking`'s).
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
    # (A listing within LIST_NODE_BUDGET nodes cannot reach a solution of more dominoes than that: a node each.)
    if method == "auto" and LIST_FROM_DOMINOES <= len(puzzle.dominoes) < LIST_NODE_BUDGET:
        listed = _count_by_listing(puzzle, distinct, None, deadline, on_progress, start, LIST_NODE_BUDGET,
                                   LIST_SOLUTIONS_UP_TO)
        if listed is not None:
            return listed
    if method == "auto" and distinct is Distinct.GRIDS:
        placements = _count_structurally(puzzle, Distinct.PLACEMENTS, deadline, on_progress, start)
        if placements.count == 0 or not placements.exact:
            # No solution means no grid; a stopped count shows only that a grid exists, if it found a solution.
            return _result(min(placements.count, 1), placements.exact, Distinct.GRIDS, "structural", start)
        if _has_one_tiling(puzzle):  # then each grid is carried by exactly one solution
            return _result(placements.count, True, Distinct.GRIDS, "structural", start)
        method = "dlx" if placements.count <= LIST_GRIDS_UP_TO else "structural"
    match method:
        case "auto" | "structural":
            return _count_structurally(puzzle, distinct, deadline, on_progress, start)
        case "dlx":
            return _count_by_listing(puzzle, distinct, limit, deadline, on_progress, start)
    from pipscover.counting.blocking import DEFAULT_SAT_BACKEND, count_by_blocking

    chosen = backend or DEFAULT_SAT_BACKEND
    reached = [0]  # the blocking counter reports its count on every exit, Ctrl-C included

    def progress(found: int, fraction: float | None) -> None:
        reached[0] = found
        if on_progress is not None:
            on_progress(found, fraction)

    try:
        return count_by_blocking(puzzle, backend=chosen, distinct=distinct, limit=limit, deadline=deadline,
                                 on_progress=progress)
    except KeyboardInterrupt:
        elapsed = time.monotonic() - start
        raise CountInterrupted(CountResult(reached[0], False, distinct, "blocking", chosen, elapsed)) from None


def _count_structurally(puzzle: Puzzle, distinct: Distinct, deadline: float | None,
                        on_progress: ProgressCallback | None, start: float) -> CountResult:
    from pipscover.counting.grids import GridCounter
    from pipscover.counting.structural import Interrupted, StructuralCounter

    if distinct is Distinct.GRIDS:
        cells = len(puzzle.cells)
        # Residual subproblems are keyed by a bit mask of the uncovered cells: about one per cell on a long
        # board. (The placements counter guards itself once it needs such masks: `StructuralCounter.cell_tables`.)
        guard(puzzle, "the grid counter", needs_bytes=cells * cells // 4, steps=cells * cells, deadline=deadline)
    try:
        counter = GridCounter(puzzle) if distinct is Distinct.GRIDS else StructuralCounter(puzzle)
        found = counter.count(deadline, on_progress)
        exact = True
    except Interrupted as stop:
        found, exact = stop.found, False
        if isinstance(stop.reason, KeyboardInterrupt):
            raise CountInterrupted(_result(found, False, distinct, "structural", start)) from None
    except KeyboardInterrupt:  # before the search's first branch: nothing counted yet
        raise CountInterrupted(_result(0, False, distinct, "structural", start)) from None
    return _result(found, exact, distinct, "structural", start)


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
    covers, _, cover = counted_covers(puzzle, deadline, node_limit, restart_seed)
    try:
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
        exact = False
    except NodeBudgetExceeded:
        return None
    except KeyboardInterrupt:
        raise CountInterrupted(_result(found, False, distinct, "dlx", start, "dlx")) from None
    return _result(found, exact, distinct, "dlx", start, "dlx")


def _has_one_tiling(puzzle: Puzzle) -> bool:
    from pipscover.counting.tilings import TilingCounter

    return TilingCounter(puzzle.cells).count((1 << len(puzzle.cells)) - 1) == 1


def _result(found: int, exact: bool, distinct: Distinct, method: str, start: float,
            backend: str | None = None) -> CountResult:
    return CountResult(found, exact, distinct, method, backend, time.monotonic() - start)
