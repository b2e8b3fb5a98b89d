"""Solving with any backend: limits, timeouts and statuses, the same for every engine."""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import replace
from itertools import islice

from pipscover.engines import DEFAULT_BACKEND, Backend, BackendName, get_backend
from pipscover.errors import PipsError
from pipscover.model import Puzzle, Solution, given_puzzle
from pipscover.model.results import SearchGaveUp, SearchTimeout, SolveResult, Status, checked_limit, checked_seed
from pipscover.runtime.collection import fewer_collections
from pipscover.runtime.deadlines import deadline_after, has_passed


def solve(
    puzzle: Puzzle,
    backend: BackendName | Backend = DEFAULT_BACKEND,
    limit: int | None = 1,
    timeout: float | None = None,
    start: float | None = None,
    seed: int | None = None,
) -> SolveResult:
    """Up to `limit` solutions (`None`: all of them), within `timeout` seconds if given, counted from `start`
    (a `time.monotonic()` value; default now): the CLI starts the clock before it reads the puzzle. `seed`
    draws the randomised engines' choices (dlx's restarts, local search; default the backend's own, 0).

    >>> from pipscover import load_one, solve
    >>> result = solve(load_one("examples/first.txt"))
    >>> result.status
    <Status.SOLVED: 'solved'>
    """
    given_puzzle(puzzle)
    limit = checked_limit(limit)
    engine = configured(backend, limit, timeout, seed)
    start = time.monotonic() if start is None else start
    deadline = deadline_after(timeout, start)
    found: list[Solution] = []
    status = Status.SOLVED
    try:
        if has_passed(deadline):  # before the engine builds anything
            raise SearchTimeout
        with fewer_collections():
            found.extend(islice(engine.solutions(puzzle, deadline), limit))
    except SearchGaveUp:
        status = Status.UNKNOWN
    except SearchTimeout:
        status = Status.TIMEOUT
    except KeyboardInterrupt:
        status = Status.INTERRUPTED
    if status is Status.SOLVED and not found:
        status = Status.UNSATISFIABLE
    solved = tuple(replace(solution, puzzle=puzzle) for solution in found)  # drawn on its puzzle in a notebook
    return SolveResult(status, solved, engine.answered_by(), time.monotonic() - start)


def configured(backend: BackendName | Backend = DEFAULT_BACKEND, limit: int | None = 1, timeout: float | None = None,
               seed: int | None = None) -> Backend:
    """The engine `solve` runs with these options (seeded), or the refusal of one the backend cannot honour: the
    command line asks before it reads the puzzles, so that the refusal comes alone and at once.

    >>> configured("dlx", seed=3).capabilities.seeded
    True
    """
    engine = get_backend(backend)
    seed = checked_seed(seed)  # the library's callers too: "x" was dlx's string seed, and local's TypeError
    if seed is not None:
        if not engine.capabilities.seeded:
            raise PipsError(f"backend {_as_named(backend, engine)} draws nothing from a seed, so --seed would change "
                            "nothing; drop it or choose dlx, local or auto")
        engine = engine.with_seed(seed)
    if checked_limit(limit) != 1:
        _refuse_one_solution_backends(engine, backend)
    if timeout is not None and not engine.capabilities.timeout:
        raise PipsError(f"backend {_as_named(backend, engine)} takes no time limit; drop --timeout or choose another "
                        "backend")
    return engine


def solutions(puzzle: Puzzle, backend: BackendName | Backend = DEFAULT_BACKEND) -> Iterator[Solution]:
    """Every solution of `puzzle`, one at a time, with no time limit; a backend that finds one solution, not
    every one (`local`), is refused, since the one it gave read as the puzzle's only solution.

    >>> from pipscover import load_one
    >>> len(list(solutions(load_one("examples/first.txt"), backend="cadical")))
    1
    """
    engine = get_backend(backend)
    _refuse_one_solution_backends(engine, backend)
    return engine.solutions(given_puzzle(puzzle))


def _refuse_one_solution_backends(engine: Backend, named: BackendName | Backend) -> None:
    """`PipsError` for a backend asked for several solutions that finds one at most."""
    if not engine.capabilities.enumerates:
        raise PipsError(f"backend {_as_named(named, engine)} finds one solution, not several; choose another "
                        "(see pipscover backends)")


def _as_named(named: BackendName | Backend, engine: Backend) -> str:
    """The backend as the user named it, with the one it resolved to when that differs: 'cadical'
    (cadical300), not a name they never typed."""
    if not isinstance(named, str) or named == engine.name:
        return repr(engine.name)
    return f"{named!r} ({engine.name})"
