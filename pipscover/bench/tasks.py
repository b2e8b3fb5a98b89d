"""What `pipscover bench` times on one puzzle: a task per question a user asks (a new task is one entry in
`TASKS`)."""

from __future__ import annotations

import operator
import time
from collections.abc import Callable
from dataclasses import dataclass

from pipscover.counting import count
from pipscover.engines import Backend
from pipscover.errors import PipsError
from pipscover.model import Puzzle
from pipscover.model.results import SearchTimeout


@dataclass(frozen=True)
class Task:
    """What is timed on one puzzle. `run(puzzle, backend, deadline)` returns a one-word outcome
    (`solved`, `unsatisfiable`, ...) and may raise `SearchTimeout` once `time.monotonic()` passes `deadline`."""

    name: str
    description: str
    run: Callable[[Puzzle, Backend, float | None], str]
    engine: Callable[[Backend], str] = operator.attrgetter("name")  # what really does the work, given the backend


def first_solution(puzzle: Puzzle, backend: Backend, deadline: float | None) -> str:
    """Find one solution."""
    found = next(iter(backend.solutions(puzzle, deadline)), None)
    return "unsatisfiable" if found is None else "solved"


def every_solution(puzzle: Puzzle, backend: Backend, deadline: float | None) -> str:
    """List every solution (what `solve --all` and counting by listing do)."""
    _require_listing(backend)
    found = sum(1 for _ in backend.solutions(puzzle, deadline))
    return "solved" if found else "unsatisfiable"


def counting_engine(backend: Backend) -> str:
    """What counts in the `count` task when it is given `backend` (its `capabilities.counter`)."""
    match backend.capabilities.counter:
        case "auto":
            return "count's auto (dlx listing within a node budget, else the structural counter)"
        case "blocking":
            return f"blocking clauses with {backend.name}"
    return f"{backend.name}, listing its solutions"


def count_task(puzzle: Puzzle, backend: Backend, deadline: float | None) -> str:
    """An exact count by `counting_engine(backend)`: the counting method the backend declares, or listing
    its solutions when it declares none. Raises `SearchTimeout` past `deadline`."""
    method = backend.capabilities.counter
    if method is None:
        _require_listing(backend)
        found = sum(1 for _ in backend.solutions(puzzle, deadline))
        return "counted" if found else "unsatisfiable"
    timeout = None if deadline is None else max(0.0, deadline - time.monotonic())
    result = count(puzzle, method=method, backend=backend.name if method == "blocking" else None, timeout=timeout)
    if not result.exact:
        raise SearchTimeout()
    return "counted" if result.count else "unsatisfiable"


def _require_listing(backend: Backend) -> None:
    if not backend.capabilities.enumerates:
        raise PipsError(f"backend {backend.name!r} finds one solution, not all; time it with --task first")


TASKS: dict[str, Task] = {
    "first": Task("first", "the first solution", first_solution),
    "all": Task("all", "every solution", every_solution),
    "count": Task("count", "an exact count", count_task, counting_engine),
}
