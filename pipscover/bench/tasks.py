"""What `pipscover bench` times on one puzzle: a task per question a user asks (a new task is one entry in
`TASKS`)."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from pipscover.backends import Backend
from pipscover.counting import count
from pipscover.model import Puzzle
from pipscover.results import SearchTimeout


@dataclass(frozen=True)
class Task:
    """What is timed on one puzzle. `run(puzzle, backend, deadline)` returns a one-word outcome
    (`solved`, `unsatisfiable`, ...) and may raise `SearchTimeout` once `time.monotonic()` passes `deadline`."""

    name: str
    description: str
    run: Callable[[Puzzle, Backend, float | None], str]
    engine: Callable[[str], str] = str  # what really does the work, given the backend's name


def first_solution(puzzle: Puzzle, backend: Backend, deadline: float | None) -> str:
    """Find one solution."""
    found = next(iter(backend.solutions(puzzle, deadline)), None)
    return "unsatisfiable" if found is None else "solved"


def every_solution(puzzle: Puzzle, backend: Backend, deadline: float | None) -> str:
    """List every solution (what `solve --all` and counting by listing do)."""
    found = sum(1 for _ in backend.solutions(puzzle, deadline))
    return "solved" if found else "unsatisfiable"


def counting_engine(backend: str) -> str:
    """What counts in the `count` task of `pipscover bench` when it is given `backend`."""
    return "the structural counter" if backend == "dlx" else f"blocking clauses with {backend}"


def count_task(puzzle: Puzzle, backend: Backend, deadline: float | None) -> str:
    """The `count` task of `pipscover bench`: an exact count by `counting_engine(backend.name)`.
    Raises `SearchTimeout` past `deadline`."""
    timeout = None if deadline is None else max(0.0, deadline - time.monotonic())
    sat = backend.name != "dlx"
    result = count(puzzle, method="blocking" if sat else "auto", backend=backend.name if sat else None,
                   timeout=timeout)
    if not result.exact:
        raise SearchTimeout()
    return "counted" if result.count else "unsatisfiable"


TASKS: dict[str, Task] = {
    "first": Task("first", "the first solution", first_solution),
    "all": Task("all", "every solution", every_solution),
    "count": Task("count", "an exact count", count_task, counting_engine),
}
