"""Sweeps: one task over many puzzles (or generator seeds), on Dask distributed or in this process, into a CSV.

- `tasks`: what one job does (one puzzle or seed; the library's `solve`, `count`, `benchmark`, `generate`);
- `table`: the CSV, written row by row, which a rerun resumes;
- `cluster`: the jobs as Dask tasks (a LocalCluster, or a cluster's scheduler); `local`: in this process;
- `address`: a scheduler's address, refused before any work when it is no HOST:PORT.

    >>> import tempfile
    >>> from pathlib import Path
    >>> from pipscover import load
    >>> table = Path(tempfile.mkdtemp()) / "counts.csv"
    >>> summary = sweep("count", make_jobs("count", load("examples/first.txt")), Settings(), table, workers=1)
    >>> summary.statuses
    {'counted': 1}
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from pipscover.errors import on_one_line, printable_path
from pipscover.model import Puzzle
from pipscover.runtime.deadlines import checked_timeout
from pipscover.sweep.address import check_scheduler
from pipscover.sweep.jobs import TASKS, Job, Row, Settings, columns, default_backends, stubs
from pipscover.sweep.table import Key, ResultTable, cell

__all__ = ["TASKS", "Job", "Progress", "Settings", "Summary", "SweepInterrupted", "make_jobs", "sweep"]



@dataclass
class Progress:
    """Where a sweep stands, for a progress bar: rows are counted by job."""

    total: int
    done: int = 0
    timeouts: int = 0
    failed: int = 0
    running: int = 0
    workers: int = 0


@dataclass(frozen=True)
class Summary:
    """What a sweep did: jobs run and skipped (already in the table), rows written and their statuses."""

    task: str
    out: str
    jobs: int
    done: int
    skipped: int
    statuses: dict[str, int] = field(default_factory=dict)
    seconds: float = 0.0
    workers: int = 0
    interrupted: bool = False
    repeated: int = 0  # jobs that repeat one named before them in the same sweep: run once

    def as_json(self) -> dict[str, Any]:
        return {"task": self.task, "out": self.out, "jobs": self.jobs, "done": self.done, "skipped": self.skipped,
                "rows": sum(self.statuses.values()), "statuses": self.statuses, "seconds": round(self.seconds, 3),
                "workers": self.workers, "interrupted": self.interrupted, "repeated": self.repeated}

    def describe(self) -> str:
        """One line, whatever the table's name holds (a line break in it made two), counts as people read them."""
        statuses = ", ".join(f"{n:,} {status}" for status, n in sorted(self.statuses.items())) or "no rows"
        stopped = ", stopped by Ctrl-C" if self.interrupted else ""
        workers = f"{self.workers:,} worker{'s' if self.workers != 1 else ''}"
        repeated = f", {self.repeated:,} repeated (run once)" if self.repeated else ""
        return (f"sweep {self.task}: {self.done:,} of {self.jobs:,} jobs done{stopped} ({statuses}), {self.skipped:,} "
                f"already in {on_one_line(printable_path(self.out))}{repeated}; {self.seconds:.1f} s on {workers}")


class SweepInterrupted(Exception):
    """Ctrl-C stopped a sweep; the rows written so far stay. `summary` says what was done."""

    def __init__(self, summary: Summary) -> None:
        super().__init__(summary.describe())
        self.summary = summary


def make_jobs(task: str, puzzles: Iterable[Puzzle] = (), seeds: Iterable[int] = (),
              backends: Sequence[str] = (), unreadable: Iterable[tuple[str, str]] = ()) -> list[Job]:
    """One job per puzzle (per seed for `generate`), each for every backend named (default: the task's), and
    one per (file, problem) of `unreadable`, the puzzle files that did not read, whose rows say why."""
    chosen = tuple(backends) or default_backends(task)
    if task == "generate":
        return [Job(task, seed=seed, backends=chosen) for seed in seeds]
    return ([Job(task, puzzle=puzzle, backends=chosen) for puzzle in puzzles]
            + [Job(task, file=file, problem=problem, backends=chosen) for file, problem in unreadable])


def row_key(row: Row) -> Key:
    """What identifies a row (of any task) in a table: the same for a stub and for the row read back."""
    task = TASKS.get(str(row.get("task")))
    return tuple(cell(row.get(column)) for column in (task.key if task else ("task", "file")))


def sweep(
    task: str,
    jobs: Sequence[Job],
    settings: Settings,
    out: Path,
    scheduler: str | None = None,
    workers: int | None = None,
    retry: Iterable[str] = (),
    on_progress: Callable[[Progress], None] | None = None,
) -> Summary:
    """Run `jobs` and append their rows to the table `out`, skipping rows it holds (except `retry` statuses).

    On the Dask cluster at `scheduler`; else with `workers == 1` in this process, else on a LocalCluster of
    `workers` processes (default: one per core). Ctrl-C raises `SweepInterrupted`; the rows written stay.
    """
    check_scheduler(scheduler)
    checked_timeout(settings.timeout)
    table = ResultTable(out, columns(task), row_key, retry, TASKS[task].filled_from)
    todo, repeated = _not_done(jobs, settings, table.done)
    progress = Progress(total=len(todo))
    statuses: Counter[str] = Counter()
    start = time.monotonic()
    engine = _engine(scheduler, workers)

    def summary(interrupted: bool = False) -> Summary:
        return Summary(task, str(out), len(todo), progress.done, len(jobs) - len(todo) - repeated, dict(statuses),
                       time.monotonic() - start, progress.workers, interrupted, repeated)

    if not todo:
        return summary()
    try:
        with engine, table:  # a cluster that fails to start leaves no file
            for rows in engine.results(todo, settings):
                progress.running, progress.workers = engine.running, max(progress.workers, engine.workers)
                if rows is not None:
                    for row in rows:
                        table.write(row)
                    _tally(progress, statuses, rows)
                if on_progress is not None:
                    on_progress(progress)
    except KeyboardInterrupt:
        raise SweepInterrupted(summary(interrupted=True)) from None
    return summary()


def _not_done(jobs: Sequence[Job], settings: Settings, done: set[Key]) -> tuple[list[Job], int]:
    """The jobs with rows still missing from the table, each for those rows only; and how many jobs repeat one
    before them (a file named twice), run once and not in the table."""
    todo, seen, repeated = [], set(done), 0
    for job in jobs:
        keys = [row_key(stub) for stub in stubs(job, settings)]
        missing = tuple(backend for backend, key in zip(job.backends, keys) if key not in seen)
        if missing:
            todo.append(replace(job, backends=missing))
            seen.update(row_key(stub) for stub in stubs(todo[-1], settings))
        elif not done.issuperset(keys):
            repeated += 1
    return todo, repeated


def _tally(progress: Progress, statuses: Counter[str], rows: list[Row]) -> None:
    statuses.update(str(row["status"]) for row in rows)
    progress.done += 1
    progress.timeouts += any(row["status"] in ("timeout", "unknown") for row in rows)
    progress.failed += any(row["status"] == "error" for row in rows)


def _engine(scheduler: str | None, workers: int | None):
    """Where the jobs run: this process for one worker and no scheduler, else Dask (imported only then)."""
    if scheduler is None and workers == 1:
        from pipscover.sweep.local import InProcess

        return InProcess()
    import os

    from pipscover.sweep.cluster import DaskEngine

    return DaskEngine(scheduler, workers or os.cpu_count() or 1)
