"""What the engines answer: the outcome of a search and of a count, in one shape for every backend."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from pipscover.model import Solution


class Status(StrEnum):
    SOLVED = "solved"
    UNSATISFIABLE = "unsatisfiable"
    TIMEOUT = "timeout"


class SearchTimeout(Exception):
    """Raised inside an engine when its deadline passes; `solve` and the counters turn it into a status."""


@dataclass(frozen=True)
class SolveResult:
    """The solutions a backend found. With status `timeout` they are the ones found before time ran out."""

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
    """A count of solutions; `exact` is False when a limit, timeout or interrupt cut it short."""

    count: int
    exact: bool
    distinct: Distinct
    method: str
    backend: str | None
    seconds: float
