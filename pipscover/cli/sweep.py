"""`pipscover sweep`: one task over many puzzles (or seeds) on Dask distributed, into a CSV that a rerun resumes.

Nothing of Dask is imported here: `pipscover.sweep` brings it in only when a sweep starts.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from pipscover.cli.app import app
from pipscover.cli.common import (
    BACKEND_NAMES,
    EXIT_INTERRUPTED,
    EXIT_NO,
    EXIT_TIMEOUT,
    PUZZLES_HELP,
    LimitOption,
    Unread,
    exit_with,
    load_timed,
    max_pip_option,
    output_format,
    print_json,
    progress_bar,
    scheduler_address,
    seconds,
    solutions_wanted,
    worker_count,
)
from pipscover.cli.readable import OptionsRefused
from pipscover.engines import get_backend
from pipscover.errors import brief
from pipscover.generate.generator import Shape
from pipscover.model import Difficulty
from pipscover.model.results import checked_seed
from pipscover.sweep.jobs import ROW_STATUSES

if TYPE_CHECKING:
    from pipscover.sweep import Job, Progress, Settings, Summary

TaskName = StrEnum("TaskName", ["solve", "count", "grids", "bench", "rate", "generate"])  # values: the names
RowStatus = StrEnum("RowStatus", ROW_STATUSES)  # type: ignore[misc]  # members from a tuple, as TaskName


# The options of one task alone (by their names in the code): given to another, they were ignored.
TASK_OPTIONS = {"seeds": "generate", "dominoes": "generate", "max_pip": "generate", "shape": "generate",
                "every": "solve", "limit": "solve", "repeat": "bench"}


@app.command("sweep")
def sweep_command(
    context: typer.Context,
    task: Annotated[TaskName, typer.Argument(
        help="solve, count (placements), grids (distinct pip grids), bench (every -b), rate, or generate (--seeds).",
        show_default=False)],
    inputs: Annotated[list[Path] | None, typer.Argument(
        help=PUZZLES_HELP, show_default=False, metavar="PUZZLE...")] = None,
    output: Annotated[Path, typer.Option(
        "--output", "-o", help="The CSV table; a rerun skips the rows it holds.")] = Path("results.csv"),
    scheduler: Annotated[str | None, typer.Option(
        "--scheduler", callback=scheduler_address,
        help="Run on the Dask cluster at this address (tcp://HOST:PORT) instead of this machine.")] = None,
    jobs: Annotated[int | None, typer.Option(
        "--jobs", "-j", min=1, callback=worker_count,
        help="Dask workers on this machine (default: one per core); 1: in this process, without Dask.")] = None,
    timeout: Annotated[float | None, typer.Option(
        "--timeout", callback=seconds,
        help="Give up on a puzzle after this many seconds (status `timeout`), and move on.")] = None,
    difficulty: Annotated[Difficulty | None, typer.Option(
        "--difficulty", "-d", help="The puzzle of each NYT day file (default: all three); for generate, the "
        "band to make.")] = None,
    backends: Annotated[list[str] | None, typer.Option(
        "--backend", "-b", help="Backend to run; repeat for several (a row each). For count and grids, a SAT "
        f"solver counting by blocking clauses (default: the fastest exact counter). {BACKEND_NAMES}")] = None,
    limit: LimitOption = None,
    every: Annotated[bool, typer.Option("--all", help="solve: find every solution of each puzzle.")] = False,
    repeat: Annotated[int, typer.Option("--repeat", "-r", min=1, help="bench: runs per puzzle; the median.")] = 1,
    seeds: Annotated[str | None, typer.Option(
        "--seeds", help="generate: the seeds, e.g. 1-10000 or 1,5,9-12 (a puzzle each).")] = None,
    dominoes: Annotated[int, typer.Option("--dominoes", "-n", min=1, help="generate: dominoes per puzzle.")] = 8,
    max_pip: Annotated[int, max_pip_option("generate: the largest pip.")] = 6,
    shape: Annotated[Shape, typer.Option("--shape", help="generate: the board's shape (as generate's).")] = Shape.NYT,
    retry: Annotated[list[RowStatus] | None, typer.Option(
        "--retry", help="Run again the rows of --output with this status; repeatable.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the summary as one JSON object.")] = False,
) -> None:
    """Run TASK on every PUZZLE (or every seed), one Dask task each, writing rows to --output as they come.

    Columns: file, date, difficulty, number (a puzzle's place in a text file of several), task, backend, status,
    count, exact, seconds, cpu_seconds, worker, error, then the task's own. A rerun with the same --output skips
    the rows already there; a worker that dies has its puzzle run again elsewhere; a puzzle file that does not
    read is a row with status error, and the others go on. Exit code 0 when every job ran, 3 when some stopped
    at --timeout, 1 when some failed (status error), 130 on Ctrl-C (the rows written stay).

    Examples:

      pipscover sweep count /path/to/nyt -o counts.csv

      pipscover sweep rate 2025-09-15 today -o ratings.csv

      pipscover sweep bench /path/to/nyt -d hard -b dlx -b cadical --timeout 10

      pipscover sweep count /path/to/nyt -o c.csv --scheduler tcp://10.0.0.5:8786

      pipscover sweep generate --seeds 1-10000 -n 20 -o generated.csv --json
    """
    from pipscover.sweep import Settings

    _refuse_other_tasks(context, task)
    output_format(str(output), {".csv": "csv"})
    settings = Settings(
        timeout=timeout, limit=solutions_wanted(every, limit), repeat=repeat, dominoes=dominoes, max_pip=max_pip,
        shape=str(shape), unique=True, difficulty=None if difficulty is None else str(difficulty),
    )
    _check_backends(task, backends or ())
    if scheduler is not None and jobs is not None:
        raise OptionsRefused("--jobs sets the workers of this machine; a --scheduler's cluster has its own")
    work = _jobs(task, inputs, seeds, difficulty, backends or ())
    summary = _run(task, work, settings, output, scheduler, jobs, [str(status) for status in retry or ()])
    print_json(summary.as_json()) if as_json else typer.echo(summary.describe())
    if summary.interrupted:
        exit_with(EXIT_INTERRUPTED)
    stopped = summary.statuses.get("timeout") or summary.statuses.get("unknown")
    exit_with(EXIT_NO if summary.statuses.get("error") else EXIT_TIMEOUT if stopped else 0)


def _refuse_other_tasks(context: typer.Context, task: TaskName) -> None:
    """Refuse an option of another task in one line: `sweep count FILE --seeds 1-2` counted and said nothing."""
    for param in context.command.params:
        owner = TASK_OPTIONS.get(param.name or "")
        source = context.get_parameter_source(param.name or "")
        if owner is not None and owner != task and source is not None and source.name != "DEFAULT":
            raise OptionsRefused(f"{param.opts[0]} is for sweep {owner} alone, not sweep {task}; leave it out")


def _check_backends(task: TaskName, backends: Sequence[str]) -> None:
    """Refuse, here in one line rather than in a row per puzzle, a backend that cannot do `task`."""
    for name in backends:
        engine = get_backend(name)
        if task in (TaskName.count, TaskName.grids) and engine.capabilities.counter != "blocking":
            raise OptionsRefused(f"-b {name}: sweep {task} takes a SAT solver counting by blocking clauses; "
                                 "without -b the exact counter counts")


def _jobs(task: TaskName, inputs: list[Path] | None, seeds: str | None, difficulty: Difficulty | None,
          backends: Sequence[str]) -> list[Job]:
    """The sweep's jobs: one per seed for `generate`, else one per puzzle read as every command reads them."""
    from pipscover.sweep import make_jobs

    if task is TaskName.generate:
        if inputs:
            raise OptionsRefused("sweep generate takes --seeds, not puzzle files")
        if seeds is None:
            raise OptionsRefused("sweep generate needs --seeds, e.g. --seeds 1-100")
        return make_jobs(str(task), seeds=parse_seeds(seeds), backends=backends)
    if not inputs:
        raise OptionsRefused(f"sweep {task} needs puzzle files, folders or dates")
    unread: list[Unread] = []  # a bad file among good ones is an error row, not the sweep's end
    loaded = load_timed(inputs, difficulty, unread)
    return make_jobs(str(task), [item.puzzle for item in loaded], backends=backends, unreadable=unread)


def _run(task: TaskName, work: list[Job], settings: Settings, output: Path, scheduler: str | None,
         jobs: int | None, retry: list[str]) -> Summary:
    """The sweep, with its progress on a terminal; its summary, also when Ctrl-C stopped it."""
    from pipscover.sweep import SweepInterrupted, sweep

    with progress_bar(f"sweep {task}", total=len(work)) as update:
        def show(progress: Progress) -> None:
            update(advance=0, total=progress.total, completed=progress.done, description=(
                f"{task}: {progress.done} done, {progress.failed} failed, {progress.timeouts} timeout, "
                f"{progress.running} running, {progress.workers} worker{'s' if progress.workers != 1 else ''}"))

        try:
            return sweep(str(task), work, settings, output, scheduler, jobs, retry, show)
        except SweepInterrupted as stop:
            return stop.summary


MAX_SEEDS = 10**6  # seeds of one sweep: a job each, held at once (a rerun with the same --output goes on)


def parse_seeds(text: str) -> list[int]:
    """`1-10000`, `7`, `1,5,9-12` or `-3--1` as a list of seeds, at most `MAX_SEEDS` of them
    (`1-10000000000000` filled the memory with jobs), each a seed `checked_seed` takes: negative ones too, as
    generate's --seed takes them (`--seeds -1` was "not a seed").

    >>> parse_seeds("-2-1"), parse_seeds("-3--2,7")
    ([-2, -1, 0, 1], [-3, -2, 7])
    """
    seeds: list[int] = []
    quoted = brief(text)
    for part in text.split(","):
        written = re.fullmatch(r"\s*(-?[0-9]+)(?:-(-?[0-9]+))?\s*", part)  # ASCII digits: int() took '３'
        if written is None:
            raise OptionsRefused(f"--seeds {quoted}: not a seed or range such as 1-100, 1,5,9-12 or -3--1")
        low, high = int(written[1]), int(written[2] or written[1])
        if high < low:
            raise OptionsRefused(f"--seeds {quoted}: the range {brief(part)} is empty")
        checked_seed(low), checked_seed(high)
        if len(seeds) + high - low + 1 > MAX_SEEDS:
            raise OptionsRefused(f"--seeds {quoted}: more than {MAX_SEEDS:,} seeds; sweep them a part at a time "
                                 "(a rerun with the same --output goes on)")
        seeds.extend(range(low, high + 1))
    return seeds
