"""`pipscover count`: exact solution counts, by a portfolio (default) or one method: structural, listing (dlx,
SAT blocking clauses), Ganak or inclusion-exclusion."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Sized
from enum import StrEnum
from functools import partial
from typing import Annotated, Any, NamedTuple

import typer

from pipscover.cli.app import app
from pipscover.cli.common import (
    EXIT_INTERRUPTED,
    EXIT_NO,
    EXIT_OK,
    EXIT_TIMEOUT,
    SAT_NAMES,
    DifficultyOption,
    JsonOption,
    Loaded,
    PuzzlesArgument,
    TimeoutOption,
    exit_after,
    load_reported,
    memory_size,
    print_json,
    progress_bar,
    scheduler_address,
    worker_count,
)
from pipscover.cli.readable import OptionsRefused
from pipscover.counting import INTERRUPT, METHODS, CountInterrupted, ProgressCallback, count, counting_method
from pipscover.counting.auto import LIST_SOLUTIONS_UP_TO
from pipscover.counting.budget import LIMIT
from pipscover.engines import get_backend
from pipscover.model import Cell, Puzzle
from pipscover.model.results import CountResult, Distinct, Marginals, SearchTimeout, Status, long_numbers
from pipscover.runtime.deadlines import deadline_after
from pipscover.runtime.limits import MEMORY_LIMIT, MemoryCapReached, parse_size


class Split(NamedTuple):
    """Where one puzzle's count is split: the cluster at `scheduler`, else a LocalCluster of `workers`."""

    scheduler: str | None
    workers: int

    def where(self) -> str:
        """Where, as a sentence says it."""
        return f"on the cluster at {self.scheduler}" if self.scheduler else f"on {self.workers} workers"


Method = StrEnum("Method", {name: name for name in METHODS})  # type: ignore[misc]  # members from METHODS
DEFAULT_METHOD = Method("auto")
LISTING_NOTE = ("pipscover count: counting by {how}, one solution at a time (its time grows with their number); "
                "the exact counter, `pipscover count` without -b or --method, counts without listing")
# auto counts a short puzzle here even when given a cluster (`pipscover.sweep.split_count`): said, not silent.
KEPT_HERE_NOTE = ("pipscover count: counted in this process, not {where}: short enough that splitting it would "
                  "cost more than it saves")
# The marginals of a count of this many solutions or fewer are tallied from the solutions a search finds (as
# many as auto lists), not searched for: unique-40-nyt's one solution is found in a second, its marginals' walk
# and sweep ran past 30 s.
TALLIED_UP_TO = LIST_SOLUTIONS_UP_TO
UNSPLIT_NOTE = ("pipscover count: counted in this process, not on {workers} workers: a count is split by {methods} "
                "(placements), not by {method} ({distinct})")


@app.command("count")
def count_command(
    puzzles: PuzzlesArgument,
    difficulty: DifficultyOption = None,
    distinct: Annotated[Distinct, typer.Option(
        "--distinct", help="placements: solutions as other Pips solvers count them; grids: distinct pip grids.",
    )] = Distinct.PLACEMENTS,
    method: Annotated[Method, typer.Option(
        "--method", "-m", help="auto: a portfolio of the methods (the answer names the one that answered); "
        "structural, dlx (listing), blocking (SAT), ganak (a model counter on the CNF) or inclusion-exclusion "
        "(one sweep per multiset of dominoes: loose boards with few distinct dominoes).",
    )] = DEFAULT_METHOD,
    backend: Annotated[str | None, typer.Option(
        "--backend", "-b", help=f"SAT solver for --method blocking (see `pipscover backends`). {SAT_NAMES}",
    )] = None,
    limit: Annotated[int | None, typer.Option(
        "--limit", min=1, help="Stop the listing methods (dlx, blocking) after this many.",
    )] = None,
    timeout: TimeoutOption = None,
    jobs: Annotated[int, typer.Option(
        "--jobs", "-j", min=1, callback=worker_count,
        help="Count this many puzzles at once; with one puzzle, split its count over a Dask cluster of this many "
        "workers on this machine.",
    )] = 1,
    scheduler: Annotated[str | None, typer.Option(
        "--scheduler", callback=scheduler_address,
        help="Split the count of one puzzle over the Dask cluster at this address "
        "(tcp://HOST:PORT): inclusion-exclusion's points, a chunk per task, or with -m structural the "
        "structural counter's positions below a cut; short counts stay here.",
    )] = None,
    memory: Annotated[str, typer.Option(
        "--memory", callback=memory_size, help="The most memory one count may hold (e.g. 2G, 512M); a method "
        "that reaches it gives way to another or stops with a lower bound.",
    )] = f"{MEMORY_LIMIT // 2**30}G",
    with_marginals: Annotated[bool, typer.Option(
        "--marginals", help="Also count, for every cell, the solutions that put each pip there (placements), "
        "and mark the cells every solution fixes (the backbone); within the same --timeout and --memory, past "
        "which the exact count is still printed, and the exit code is 3.",
    )] = False,
    as_json: JsonOption = False,
) -> None:
    """Count the solutions of puzzles exactly, without listing them.

    A count stopped by --timeout, --limit, --memory or Ctrl-C is printed as a lower bound, never as exact.
    A puzzle file that does not read, among several or in a folder, is reported in one line and the others
    are counted.
    Exit code 0 when every count is done, 1 when a puzzle has no solution or a file did not read,
    3 when --timeout, --memory or --limit stopped one (a lower bound) or its --marginals, 130 on Ctrl-C.

    Examples:

      pipscover count 2025-09-15 -d hard --distinct grids

      pipscover planted 6x6 --seed 1 -o planted-6x6.json

      pipscover count planted-6x6.json --scheduler tcp://10.0.0.5:8786
    """
    if backend is not None and method is DEFAULT_METHOD:
        method = Method("blocking")  # -b names a SAT solver, which only the blocking method uses
    cap = parse_size(memory)
    settings = {"distinct": distinct, "method": str(method), "backend": backend, "limit": limit,
                "timeout": timeout, "memory": cap}
    listing = counting_method(str(method)).capabilities.lists  # one solution at a time: no share of work to show
    _refuse_what_does_not_apply(str(method), backend, limit if not listing else None,
                                with_marginals and distinct is not Distinct.PLACEMENTS)
    loaded, unread = load_reported(puzzles, difficulty, as_json, refuse=lambda read: _split(scheduler, jobs, read,
                                                                                         settings))
    split = _split(scheduler, jobs, loaded, settings)
    if backend is not None:  # named from here on as the answer names it: minisat22, not the alias minisat
        settings["backend"] = backend = get_backend(backend).name
    for note in [] if as_json else _notes_before(settings, listing, jobs if len(loaded) == 1 and split is None else 1):
        typer.echo(note, err=True)
    single_total = None if listing else 100  # a single count's bar shows its share done, when it is known
    with progress_bar(f"counting by {_method_name(str(method), backend)}",
                      total=len(loaded) if len(loaded) > 1 else single_total) as update:
        worst = _answers(loaded, settings, jobs, update, split, as_json, with_marginals)
    exit_after(worst, unread)


def _answers(loaded: list[Loaded], settings: dict[str, Any], jobs: int, update: Callable[..., None],
             split: Split | None, as_json: bool, with_marginals: bool) -> int:
    """Count and print each puzzle, with its marginals when asked for; the worst exit code. Ctrl-C stops the
    run: in a count once its lower bound is printed, in the marginals once the exact count is."""
    worst = 0
    try:
        for puzzle, result in _counts(loaded, settings, jobs, update, split):
            asked = _marginals(puzzle, result, settings["timeout"], settings["memory"],
                               update if len(loaded) == 1 else None, split) if with_marginals else None
            worst = max(worst, _print(puzzle, result, as_json, asked))
            if worst == EXIT_INTERRUPTED:
                break
            if split is not None and result.exact and result.backend is None and not as_json:
                typer.echo(KEPT_HERE_NOTE.format(where=split.where()), err=True)
    except CountInterrupted as stop:  # the marginals, asked for, are said to be missing as a --timeout's are
        stopped = AskedMarginals(None, _stopped_by(stop.result), 0.0) if with_marginals else None
        _print(stop.puzzle, stop.result, as_json, stopped)
        return EXIT_INTERRUPTED
    return worst


def _notes_before(settings: dict[str, Any], listing: bool, unsplit_jobs: int) -> list[str]:
    """What the answer will not say: that a listing method lists (its time grows with the solutions), and that
    one puzzle given --jobs N (`unsplit_jobs` > 1) is counted here by a method or a --distinct no split takes."""
    notes = []
    method = settings["method"]
    if listing:
        from pipscover.counting.blocking import DEFAULT_SAT_BACKEND

        solver = settings["backend"] or DEFAULT_SAT_BACKEND if method == "blocking" else None
        notes.append(LISTING_NOTE.format(how=_method_name(method, solver)))
    if unsplit_jobs > 1:
        from pipscover.sweep.split_count import split_methods

        notes.append(UNSPLIT_NOTE.format(workers=unsplit_jobs, methods=split_methods(), method=method,
                                         distinct=settings["distinct"]))
    return notes


def _refuse_what_does_not_apply(method: str, backend: str | None, ignored_limit: int | None, grid_marginals: bool
                                ) -> None:
    """Refuse, in one line, an option that the chosen method would ignore or cannot honour (`ignored_limit`: a
    --limit given a method that lists no solution)."""
    if grid_marginals:
        raise OptionsRefused("--marginals counts placements, not distinct grids")
    if backend is not None and method == "blocking" and get_backend(backend).capabilities.counter != "blocking":
        raise OptionsRefused(f"-b {backend}: counting by blocking clauses needs a SAT solver (see pipscover backends)")
    if backend is not None and method != "blocking":
        raise OptionsRefused(f"-b {backend}: only --method blocking takes a SAT solver; leave out -b or --method")
    if ignored_limit is not None:
        raise OptionsRefused(f"--limit {ignored_limit}: only the listing methods (--method dlx, blocking) stop after a "
                             f"number of solutions; --method {method} counts them all")


def _split(scheduler: str | None, jobs: int, puzzles: Sized, settings: dict[str, Any]) -> Split | None:
    """Where one puzzle's count is split (`pipscover.sweep.split_count`): a --scheduler's cluster, or --jobs
    workers here; None: it is not (--jobs on one puzzle that a method counts in one process: as before, in this
    process). What a --scheduler cannot split is refused here, before anything is counted."""
    if scheduler is None and (jobs == 1 or len(puzzles) != 1):
        return None
    from pipscover.sweep.split_count import SPLIT_METHODS, split_methods

    splittable = settings["method"] in SPLIT_METHODS and settings["distinct"] is Distinct.PLACEMENTS
    if scheduler is None and not splittable:
        return None
    if scheduler is not None and jobs != 1:
        raise OptionsRefused("--jobs sets the workers of this machine; a --scheduler's cluster has its own")
    if len(puzzles) != 1:
        raise OptionsRefused(f"--scheduler splits the count of one puzzle, not {len(puzzles)}; "
                             "`pipscover sweep count --scheduler` counts many")
    if not splittable:
        raise OptionsRefused(f"a count is split over a cluster by {split_methods()} (placements), not by "
                             f"{settings['method']} ({settings['distinct']})")
    return Split(scheduler, jobs)


def _counts(puzzles: list[Loaded], settings: dict[str, Any], jobs: int, update: Callable[..., None],
            split: Split | None = None) -> Iterator[tuple[Puzzle, CountResult]]:
    """(puzzle, result) in the order given; one puzzle shows its own progress, several advance one bar."""
    if len(puzzles) == 1:
        def progress(found: int, fraction: float | None) -> None:
            update(advance=0, completed=None if fraction is None else round(100 * fraction),
                   description=f"counting by {_method_name(settings['method'], settings['backend'])}: "
                               f"{found:,} so far")

        counted = _count_one if split is None else partial(_count_split, split=split)
        yield puzzles[0].puzzle, counted(puzzles[0], settings, progress)
        return
    if jobs == 1:
        for item in puzzles:
            yield item.puzzle, _count_one(item, settings)
            update()
        return
    # The forked workers of pipscover.runtime.stoppable: they ignore Ctrl-C, which this process alone handles
    # (the counts printed so far stay) by killing them all, so that none is left behind.
    from pipscover.runtime.stoppable import in_parallel

    results = in_parallel([partial(_count_one, item, settings) for item in puzzles], jobs)
    try:
        for item, result in zip(puzzles, results):
            yield item.puzzle, result
            update()
    except KeyboardInterrupt:
        raise typer.Exit(EXIT_INTERRUPTED) from None
    finally:
        results.close()


def _method_name(method: str, backend: str | None) -> str:
    """How a method reads in a sentence: `blocking clauses (cadical195)`, `dlx listing`, `structural`; the
    backend is not named twice.

    >>> _method_name("blocking", "cadical195"), _method_name("auto:dlx", "dlx")
    ('blocking clauses (cadical195)', 'auto:dlx')
    """
    name = {"blocking": "blocking clauses", "dlx": "dlx listing"}.get(method, method)
    return name if backend in (None, method, method.rpartition(":")[2]) else f"{name} ({backend})"


def _count_one(item: Loaded, settings: dict[str, Any], progress: ProgressCallback | None = None) -> CountResult:
    """One count, its --timeout clock started as long ago as reading the puzzle took; a Ctrl-C carries the
    puzzle with it, for the message."""
    try:
        return count(item.puzzle, on_progress=progress, start=item.clock_start(), **settings)
    except CountInterrupted as stop:
        stop.puzzle = item.puzzle
        raise


def _count_split(item: Loaded, settings: dict[str, Any], progress: ProgressCallback, split: Split) -> CountResult:
    """One puzzle's count split over a cluster; a Ctrl-C carries the puzzle with it, as `_count_one`'s."""
    from pipscover.sweep.split_count import count_on_cluster

    start = item.clock_start()
    try:
        return count_on_cluster(item.puzzle, settings["method"], split.scheduler, split.workers,
                                deadline_after(settings["timeout"], start), settings["memory"], start, progress)
    except CountInterrupted as stop:
        stop.puzzle = item.puzzle
        raise


class AskedMarginals(NamedTuple):
    """What --marginals gave for one puzzle: the per-cell counts, or what stopped them (as `_stopped_by` names
    it: the count's own stop when it is not exact), and the seconds they took."""

    cells: Marginals | None
    stopped_by: str | None
    seconds: float


def _marginals(puzzle: Puzzle, result: CountResult, timeout: float | None, memory: int | None,
               update: Callable[..., None] | None, split: Split | None = None) -> AskedMarginals:
    """The per-cell counts of an exact placement count (`pipscover.counting.completions`), within what is left
    of the puzzle's --timeout; their sums split as the count was (`split`: `pipscover.sweep.split_marginals`).
    `update` moves the one puzzle's bar."""
    if not result.exact:
        return AskedMarginals(None, _stopped_by(result), 0.0)
    from pipscover.counting.completions import marginals

    def progress(solutions: int, fraction: float | None) -> None:
        if update is not None:  # no share is known while the subproblems are counted: the clock alone moves
            update(advance=0, completed=0 if fraction is None else round(100 * fraction),
                   description="marginals: " + _marginals_work(solutions, fraction))

    start = time.monotonic()
    try:
        left = None if timeout is None else max(0.0, timeout - result.seconds)
        if result.count <= TALLIED_UP_TO:
            cells = _tallied(puzzle, result.count, left, memory)
        elif split is None:
            cells = marginals(puzzle, left, memory, progress)
        else:
            from pipscover.sweep.split_marginals import marginals_on_cluster

            cells = marginals_on_cluster(puzzle, split.scheduler, split.workers, deadline_after(left, start), memory,
                                         progress)
    except SearchTimeout:
        return AskedMarginals(None, "--timeout", time.monotonic() - start)
    except MemoryCapReached:
        return AskedMarginals(None, "--memory", time.monotonic() - start)
    except KeyboardInterrupt:  # the count stands: it is printed, then the run stops
        return AskedMarginals(None, "Ctrl-C", time.monotonic() - start)
    return AskedMarginals(cells, None, time.monotonic() - start)


def _tallied(puzzle: Puzzle, solutions: int, timeout: float | None, memory: int | None) -> Marginals:
    """The marginals of a puzzle counted to have this many `solutions` (`TALLIED_UP_TO` or fewer), tallied from
    the solutions a search stopped at that many finds within `timeout` (it need not prove there are no more);
    `SearchTimeout` when it finds fewer, KeyboardInterrupt when Ctrl-C stopped it."""
    from pipscover.counting.sweep_marginals import tallied_marginals
    from pipscover.solving import solve

    searched = solve(puzzle, limit=solutions, timeout=timeout) if solutions else None
    found = [] if searched is None else searched.solutions
    if searched is not None and searched.status is Status.INTERRUPTED:  # Ctrl-C, kept by the search
        raise KeyboardInterrupt
    if len(found) < solutions:
        raise SearchTimeout()
    return Marginals(puzzle, tallied_marginals(puzzle, found, memory))


def _marginals_work(solutions: int, fraction: float | None) -> str:
    """What the marginals are doing, as their progress tells it: the walk counts its subproblems (no share
    known), then walks them forward with the count known; the sweep's graph (past the walk's budget) reports
    the share of its points swept, with nothing found (`laying_totals`)."""
    if fraction is None:
        return "counting every subproblem"
    return "walking the levels forward" if solutions else "sweeping the points forward and back"


def _print(puzzle: Puzzle, result: CountResult, as_json: bool, asked: AskedMarginals | None = None) -> int:
    """Print one count (with its marginals, when asked for, or what stopped them); the exit code it calls for."""
    code = EXIT_OK if result.exact else EXIT_TIMEOUT  # a lower bound is not the answer, whatever stopped it
    if result.exact and result.count == 0:
        code = EXIT_NO
    if asked is not None and asked.stopped_by is not None:  # the count stands; what was asked beside it is missing
        code = max(code, EXIT_INTERRUPTED if asked.stopped_by == "Ctrl-C" else EXIT_TIMEOUT)
    if as_json:
        print_json({
            "puzzle": puzzle.origin.as_json(), "count": result.count, "exact": result.exact,
            "distinct": str(result.distinct), "method": result.method, "backend": result.backend,
            "seconds": round(result.seconds, 6), "stopped_by": _stopped_by(result),
            **({} if asked is None else _marginals_json(asked)),
        })
        return code
    placements = result.distinct is Distinct.PLACEMENTS
    one, many = ("solution", "solutions") if placements else ("distinct grid", "distinct grids")
    noun = one if result.count == 1 else many
    engine = _method_name(result.method, result.backend)
    with long_numbers():
        counted = f"{result.count:,}"
    if result.exact:
        typer.echo(f"{puzzle.describe()}: {counted} {noun} (exact, {result.distinct}) "
                   f"by {engine} in {result.seconds:.3f} s")
    else:
        why = _stopped_by(result)
        typer.echo(f"{puzzle.describe()}: at least {counted} {noun} (NOT exact: stopped by {why}; "
                   f"a lower bound, {result.distinct}) by {engine} in {result.seconds:.3f} s")
    if asked is not None:
        typer.echo(_marginals_said(result, asked))
    return code


def _marginals_said(result: CountResult, asked: AskedMarginals) -> str:
    """What --marginals gave, in words: a count stopped short said nothing of them (they need the exact
    count), and a puzzle with no solution was "0 of 2 cells fixed by every solution", and a board of dots."""
    if not result.exact:
        return f"marginals: not counted (they need the exact count, and {asked.stopped_by} stopped it)"
    if asked.cells is None:
        return f"marginals: not counted (stopped by {asked.stopped_by} after {asked.seconds:.3f} s)"
    if result.count == 0:
        return "marginals: none (no solution puts a pip anywhere)"
    return _backbone_board(asked.cells, asked.seconds)


def _marginals_json(asked: AskedMarginals) -> dict[str, Any]:
    """--marginals' keys of a count's JSON: null counts (and why) where they were stopped."""
    cells = asked.cells
    return {"marginals": None if cells is None else cells.as_json(),
            "backbone": None if cells is None else [[r, c, pip] for (r, c), pip in sorted(cells.backbone().items())],
            "marginals_seconds": round(asked.seconds, 6), "marginals_stopped_by": asked.stopped_by}


def _backbone_board(cells: Marginals, seconds: float) -> str:
    """The board with the pip of each backbone cell and `.` on the others, under a line that counts them."""
    backbone = cells.backbone()
    rows = [r for r, _ in cells.counts]
    columns = [c for _, c in cells.counts]
    heading = (f"backbone: {len(backbone):,} of {len(cells.counts):,} cells fixed by every solution "
               f"(marginals counted in {seconds:.3f} s)")
    lines = [heading]
    for r in range(min(rows), max(rows) + 1):
        lines.append(" ".join(str(backbone[r, c]) if (r, c) in backbone else "." if (r, c) in cells.counts else " "
                              for c in range(min(columns), max(columns) + 1)).rstrip())
    return "\n".join(lines + _shares_table(cells, backbone))


def _shares_table(cells: Marginals, backbone: dict[Cell, int]) -> list[str]:
    """The cells off the backbone, each with the share of the solutions that put each pip there, in tenths of a
    percent (the counts themselves are in --json): the text said only which cells are fixed. A share that rounds
    to 0 or 100 but is not is written <0.1 or >99.9, and a pip no solution puts there `·`."""
    open_cells = sorted(cell for cell in cells.counts if cell not in backbone)
    if not open_cells:
        return []
    total = cells.total
    pips = [pip for pip in range(max(len(cells.counts[cell]) for cell in open_cells))
            if any(pip < len(cells.counts[cell]) and cells.counts[cell][pip] for cell in open_cells)]

    def share(solutions: int) -> str:
        tenths = (solutions * 1000 + total // 2) // total
        if solutions == 0:
            return "·"
        return "<0.1" if tenths == 0 else ">99.9" if tenths == 1000 and solutions < total else f"{tenths / 10:.1f}"

    width = max(5, *(len(str(pip)) for pip in pips))
    lines = [(f"the other cells (rows and columns from 1, as hints name them): the share of the {total:,} "
              "solutions that put each pip there (%)"),
             "row col " + " ".join(f"{pip:>{width}}" for pip in pips)]
    for r, c in open_cells:
        row = cells.counts[r, c]
        lines.append(f"{r + 1:>3} {c + 1:>3} " + " ".join(
            f"{share(row[pip] if pip < len(row) else 0):>{width}}" for pip in pips))
    return lines


def _stopped_by(result: CountResult) -> str | None:
    """What stopped a count that is not exact, as the user asked for it (None: the count is exact); a race's
    or a cluster's stop that is none of the user's limits ended at their deadline."""
    if result.exact:
        return None
    return {INTERRUPT: "Ctrl-C", "memory": "--memory", LIMIT: "--limit"}.get(result.stopped_by or "", "--timeout")
