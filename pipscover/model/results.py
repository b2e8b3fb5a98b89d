"""What the engines answer: the outcome of a search and of a count, in one shape for every backend."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from enum import StrEnum

from pipscover.model import Solution


class Status(StrEnum):
    SOLVED = "solved"
    UNSATISFIABLE = "unsatisfiable"
    TIMEOUT = "timeout"
    INTERRUPTED = "interrupted"  # Ctrl-C: like a timeout, the solutions found so far are kept
    UNKNOWN = "unknown"  # an incomplete engine (local search) gave up: that proves nothing


@contextmanager
def long_numbers() -> Iterator[None]:
    """Let counts of any size be written in decimal inside the block (a 2 x 100,000 strip has a count of
    51,000 digits). Python refuses to turn ints of more than 4,300 digits into text, a guard against slow
    parsing of untrusted input; what is written here is our own exact count, so the guard is lifted for it."""
    previous = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(0)
    try:
        yield
    finally:
        sys.set_int_max_str_digits(previous)


class SearchTimeout(Exception):
    """Raised inside an engine when its deadline passes; `solve` and the counters turn it into a status."""


class SearchGaveUp(SearchTimeout):
    """Raised by an incomplete engine that used up its own budget without an answer. It is a `SearchTimeout`
    (the search stopped before an answer) to every caller that does not tell the two apart; `solve` reports
    it as status `unknown`."""


@dataclass(frozen=True)
class SolveResult:
    """The solutions a backend found. With status `timeout` or `interrupted`, the ones found before it stopped."""

    status: Status
    solutions: tuple[Solution, ...]
    backend: str
    seconds: float


class Distinct(StrEnum):
    """What a count counts: placements (the usual semantics) or distinct pip grids."""

    PLACEMENTS = "placements"
    GRIDS = "grids"


@dataclass(frozen=True)
class CountResult:
    """A count of solutions; `exact` is False when a limit, timeout or interrupt cut it short, and then
    `stopped_by` says which when the counter knows ("memory": the method reached its memory cap)."""

    count: int
    exact: bool
    distinct: Distinct
    method: str
    backend: str | None
    seconds: float
    stopped_by: str | None = None
