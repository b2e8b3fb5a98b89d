"""What one sweep job does: run the library on one puzzle (or one generator seed) and return its table rows.

A job is the unit that goes to a worker: one puzzle for `solve`, `count`, `grids`, `bench` and `rate` (one row
per backend named, so that the backends of a puzzle are timed side by side on one machine), one seed for
`generate`. A task is one entry of `TASKS`; adding one means writing its `run` and naming its columns.

Every row starts from the job's *stub*: the columns that say what the row is about (file, difficulty, task,
backend, seed, ...), known before anything runs. The stub's key columns identify the row, so a rerun can tell
which rows are done, and the driver can write a row for a job whose worker never answered.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from pipscover.bench.timing import benchmark, cpu_seconds
from pipscover.counting import CountInterrupted, count
from pipscover.errors import PipsError
from pipscover.model import Puzzle
from pipscover.model.check import problems
from pipscover.model.results import Distinct, SearchGaveUp, Status
from pipscover.solving import solve

Row = dict[str, Any]

# The columns every table starts with, whatever the task.
COMMON_COLUMNS = (
    "file", "date", "difficulty", "number", "task", "backend", "status", "count", "exact", "seconds", "cpu_seconds",
    "worker", "error",
)
PUZZLE_COLUMNS = ("dominoes", "regions")  # the size of the puzzle, for plots of time against size
# Every status a row can hold: the tasks' answers, then `timeout`/`unknown` for a job that stopped without one
# and `error` for a job that failed. `sweep --retry` takes these.
ROW_STATUSES = ("solved", "unsatisfiable", "counted", "rated", "generated", "timeout", "interrupted", "unknown",
                "error")
COUNT_METHOD = "auto"  # the backend column of a count by the library's default method (no -b)


@dataclass(frozen=True)
class Settings:
    """What the user chose for a whole sweep; the same for every job."""

    backends: tuple[str, ...] = ()  # solve, bench: default backend; count, grids: auto, or SAT solvers
    timeout: float | None = None
    limit: int | None = 1  # solve: solutions wanted (None: all)
    repeat: int = 1  # bench: runs per puzzle, the median reported
    dominoes: int = 8  # generate
    max_pip: int = 6
    shape: str = "nyt"
    difficulty: str | None = None
    unique: bool = True


@dataclass(frozen=True)
class Job:
    """One puzzle, or one seed, for one task; `backends` are the rows it writes (all of them when new). A puzzle
    file that did not read is a job too: its `file` and the `problem` its error rows say, run by nobody."""

    task: str
    puzzle: Puzzle | None = None
    seed: int | None = None
    backends: tuple[str, ...] = field(default=("",))
    file: str | None = None
    problem: str | None = None


@dataclass(frozen=True)
class Task:
    """One kind of sweep job. `run(job, backend, settings)` returns the row's result columns; it may set
    `seconds` (the library's own time), else the time of the call is used."""

    name: str
    description: str
    run: Callable[[Job, str, Settings], Row]
    columns: tuple[str, ...]  # after COMMON_COLUMNS
    key: tuple[str, ...] = ("task", "file", "difficulty", "number", "backend")  # what identifies a row
    # Columns added since tables were written without them, each with the older column that held its value: a
    # rerun fills them in from it (`ResultTable`), where it refused such a table.
    filled_from: tuple[tuple[str, str], ...] = ()


def _solve(job: Job, backend: str, settings: Settings) -> Row:
    assert job.puzzle is not None  # every task but generate runs on a puzzle
    result = solve(job.puzzle, backend, limit=settings.limit, timeout=settings.timeout)
    found = len(result.solutions)
    answered = result.status in (Status.SOLVED, Status.UNSATISFIABLE)
    complete = answered and (settings.limit is None or found < settings.limit)
    return {"status": str(result.status), "count": found, "exact": complete, "seconds": result.seconds,
            "valid": all(not problems(job.puzzle, solution) for solution in result.solutions)}


def _counter(distinct: Distinct) -> Callable[[Job, str, Settings], Row]:
    def run(job: Job, backend: str, settings: Settings) -> Row:
        assert job.puzzle is not None
        sat = backend != COUNT_METHOD  # -b names the SAT solver of the blocking-clause method
        result = count(job.puzzle, distinct=distinct, method="blocking" if sat else COUNT_METHOD,
                       backend=backend if sat else None, timeout=settings.timeout)
        status = "counted" if result.count else "unsatisfiable"
        return {"status": status if result.exact else "timeout", "count": result.count, "exact": result.exact,
                "seconds": result.seconds, "method": result.method}

    return run


def _bench(job: Job, backend: str, settings: Settings) -> Row:
    assert job.puzzle is not None
    result = benchmark([job.puzzle], backend, "first", settings.repeat, settings.timeout)
    timing = result.times[0]
    return {"status": timing.outcome, "seconds": timing.seconds, "engine": result.backend,
            "repeat": settings.repeat}


def _rate(job: Job, backend: str, settings: Settings) -> Row:
    # Imported here: a split count's client and workers import this module, which took twice as long with it.
    from pipscover.hints.rating import rate

    assert job.puzzle is not None
    rating = rate(job.puzzle)
    fields = rating.as_json()
    del fields["puzzle"]  # the stub's columns say which puzzle
    fields["rating"] = fields.pop("difficulty")  # the `difficulty` column is the puzzle's own (the NYT's label)
    return {"status": "unsatisfiable" if rating.difficulty is None else "rated", **fields}


def _generate(job: Job, backend: str, settings: Settings) -> Row:
    from pipscover.generate.generator import generate

    assert job.seed is not None  # generate's jobs are seeds
    try:
        made = generate(settings.dominoes, settings.max_pip, settings.shape, job.seed, settings.unique,
                        settings.difficulty)
    except SearchGaveUp as stop:  # no puzzle of this seed: the search's own answer, not a failure of the job
        return {"status": "unknown", "error": str(stop)}
    # `rating` is what `rate` rates it, as in rate's rows; `difficulty` holds it too, as it did before `rating`
    # (README's `plot generated.csv --kind difficulty` reads it), though in other rows it is the puzzle's label.
    return {
        "status": "generated", "difficulty": made.difficulty, "rating": made.difficulty,
        "count": 1 if made.unique else None,
        "exact": made.unique, "seconds": made.seconds, "regions": len(made.puzzle.regions),
        "constrained_regions": made.constrained_regions, "extra_nodes": made.extra_nodes,
        "counter_calls": made.counter_calls, "restarts": made.restarts,
    }


TASKS: dict[str, Task] = {task.name: task for task in (
    Task("solve", "solve each puzzle (up to --limit solutions), checking every solution", _solve,
         (*PUZZLE_COLUMNS, "valid")),
    Task("count", "count each puzzle's solutions (placements) exactly", _counter(Distinct.PLACEMENTS),
         (*PUZZLE_COLUMNS, "method")),
    Task("grids", "count each puzzle's distinct pip grids exactly", _counter(Distinct.GRIDS),
         (*PUZZLE_COLUMNS, "method")),
    Task("bench", "time the first solution by every backend named with -b", _bench,
         (*PUZZLE_COLUMNS, "engine", "repeat")),
    Task("rate", "rate each puzzle's difficulty for a person (pipscover rate)", _rate,
         (*PUZZLE_COLUMNS, "rating", "steps", "guesses", "hardest_rule", "level")),
    Task("generate", "generate one puzzle per seed", _generate,
         ("seed", "dominoes", "max_pip", "shape", "unique", "regions", "constrained_regions", "extra_nodes",
          "counter_calls", "restarts", "rating"), key=("task", "seed", "dominoes", "max_pip", "shape"),
         filled_from=(("rating", "difficulty"),)),
)}


def columns(task: str) -> tuple[str, ...]:
    """The columns of a table of `task` rows, in order."""
    return COMMON_COLUMNS + TASKS[task].columns


def default_backends(task: str) -> tuple[str, ...]:
    """The backends a task runs when no -b is given."""
    from pipscover.engines import DEFAULT_BACKEND

    return {"count": (COUNT_METHOD,), "grids": (COUNT_METHOD,), "generate": ("",), "rate": ("",)}.get(
        task, (DEFAULT_BACKEND,))


def stubs(job: Job, settings: Settings) -> list[Row]:
    """The rows of `job` before it runs: the columns that say what each row is about."""
    if job.problem is not None:
        return [{"file": job.file, "task": job.task, "backend": backend} for backend in job.backends]
    if job.puzzle is None:
        return [{"task": job.task, "seed": job.seed, "dominoes": settings.dominoes, "max_pip": settings.max_pip,
                 "shape": settings.shape, "unique": settings.unique or settings.difficulty is not None}]
    origin = job.puzzle.origin
    return [{"file": origin.file, "date": origin.date, "difficulty": origin.difficulty, "number": origin.number,
             "task": job.task,
             "backend": backend, "dominoes": len(job.puzzle.dominoes), "regions": len(job.puzzle.regions)}
            for backend in job.backends]


def run_job(job: Job, settings: Settings) -> list[Row]:
    """Every row of `job`. The library's errors become rows with status `error`: one bad puzzle does not stop
    a sweep. With a timeout, each row runs in a forked process that is killed if it overruns the library's own
    limit (`hard_limit`), so nothing can hang a worker (a daemonic one too: see `pipscover.runtime.stoppable`)."""
    if job.problem is not None:  # a file that did not read: nothing to run, a row that says why
        return [{**stub, "status": "error", "error": job.problem} for stub in stubs(job, settings)]
    task = TASKS[job.task]
    rows = []
    for stub, backend in zip(stubs(job, settings), job.backends):
        wall, cpu = time.monotonic(), cpu_seconds()
        try:
            result = _run_bounded(task, job, backend, settings)
        except CountInterrupted:
            raise KeyboardInterrupt from None
        except Exception as error:  # noqa: BLE001 - any failure of one job is that job's row
            result = {"status": "error", "error": str(error) if isinstance(error, PipsError) else repr(error)}
        rows.append({"seconds": time.monotonic() - wall, **stub, **result, "cpu_seconds": cpu_seconds() - cpu})
    return rows


def hard_limit(timeout: float) -> float:
    """How long a job may run when the library's own timeout is `timeout`: room for it to stop and report."""
    return 1.25 * timeout + 1.0


def _run_bounded(task: Task, job: Job, backend: str, settings: Settings) -> Row:
    if settings.timeout is None:
        return task.run(job, backend, settings)
    from pipscover.model.results import SearchTimeout
    from pipscover.runtime.stoppable import stoppable

    def in_child() -> Iterator[Row]:
        yield task.run(job, backend, settings)

    try:
        return next(iter(stoppable(in_child, time.monotonic() + hard_limit(settings.timeout))))
    except SearchTimeout:
        return {"status": "timeout", "exact": False}
