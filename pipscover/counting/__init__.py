"""Exact solution counts, by several methods that give the same numbers, each one class in `REGISTRY`.

A count walks down once: `count` checks the method and the backend, makes the `Budget` (clock, deadline,
memory cap, progress, limit) and hands both to the method (`pipscover.counting.base.CountingMethod`). The
methods are in `pipscover.counting.methods` (`structural`, `dlx`, `blocking`, `ganak`, `inclusion-exclusion`)
and the default, `auto`, a portfolio over them, in `pipscover.counting.auto`; `encodings/counting.md`
explains them. To add one, see `pipscover/counting/template.py`.

Every method stops once its process holds more than its memory cap (`memory`, default `MEMORY_LIMIT`), as
it stops at its deadline: with a lower bound marked not exact (`stopped_by="memory"`), or, in a race, by
giving way to another method.

    >>> from pipscover import load_one
    >>> count(load_one("examples/first.txt")).count
    1
"""

from __future__ import annotations

from importlib import import_module

from pipscover.counting.base import CountingMethod
from pipscover.counting.budget import INTERRUPT, TIMEOUT, Budget
from pipscover.counting.progress import ProgressCallback
from pipscover.errors import PipsError
from pipscover.model import Puzzle, given_puzzle
from pipscover.model.results import CountInterrupted, CountResult, Distinct, checked_limit
from pipscover.runtime.limits import MEMORY_LIMIT, checked_memory

# name -> (module, class): the method, made from its module on first use.
REGISTRY: dict[str, tuple[str, str]] = {
    "auto": ("pipscover.counting.auto", "AutoMethod"),
    "structural": ("pipscover.counting.methods", "StructuralMethod"),
    "dlx": ("pipscover.counting.methods", "ListingMethod"),
    "blocking": ("pipscover.counting.methods", "BlockingMethod"),
    "ganak": ("pipscover.counting.methods", "GanakMethod"),
    "inclusion-exclusion": ("pipscover.counting.methods", "InclusionExclusionMethod"),
}
METHODS = tuple(REGISTRY)

__all__ = ["INTERRUPT", "METHODS", "REGISTRY", "CountInterrupted", "ProgressCallback", "count", "counting_method"]


def counting_method(name: str) -> CountingMethod:
    """The counting method called `name`."""
    if name not in REGISTRY:
        raise PipsError(f"unknown counting method {name!r}; choose one of: {', '.join(REGISTRY)}")
    module, factory = REGISTRY[name]
    method: CountingMethod = getattr(import_module(module), factory)()
    return method


def count(puzzle: Puzzle, distinct: Distinct | str = Distinct.PLACEMENTS, method: str = "auto",
          backend: str | type | None = None, limit: int | None = None, timeout: float | None = None,
          on_progress: ProgressCallback | None = None, start: float | None = None,
          memory: int | None = MEMORY_LIMIT) -> CountResult:
    """The number of solutions of `puzzle` (or of its distinct pip grids), exact unless stopped.

    `limit` stops the listing methods (`dlx`, `blocking`) after that many; `timeout` (seconds) stops every
    method, counted from `start` (a `time.monotonic()` value; default now: the CLI starts the clock before it
    reads the puzzle); `memory` (bytes; None: no cap) stops a method whose process holds more. A stopped count
    has `exact=False`, is a lower bound and says what stopped it (`stopped_by`: "limit", "timeout", "memory").
    Ctrl-C raises `CountInterrupted`.
    `backend` is the SAT solver for `blocking` (default: `pipscover.counting.blocking`'s), as `solve` takes it.

    >>> from pipscover import load_one
    >>> found = count(load_one("examples/first.txt"), distinct="grids")
    >>> found.count, found.exact
    (1, True)
    """
    given_puzzle(puzzle)
    distinct, limit = Distinct(distinct), checked_limit(limit)
    chosen = counting_method(method)
    if backend is not None:
        chosen = chosen.with_backend(backend)
    chosen.check(distinct, limit)
    budget = Budget.of(timeout, start, checked_memory(memory), on_progress, limit)
    if budget.passed():  # reading the puzzle took the time: build nothing
        return budget.result(0, False, distinct, method, chosen.backend, TIMEOUT)
    return chosen.count(puzzle, distinct, budget)
