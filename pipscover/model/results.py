"""What the engines answer: the outcome of a search and of a count, in one shape for every backend."""

from __future__ import annotations

import operator
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from enum import StrEnum

from pipscover.errors import Choice, PipsError, is_whole_number, shown
from pipscover.model import Cell, Puzzle, Solution
from pipscover.runtime.deadlines import SearchTimeout  # raised below the model, answered here


class Status(StrEnum):
    """How a search ended, the same for every backend; a `StrEnum`, so it equals its name:

    >>> from pipscover import load_one, solve
    >>> solve(load_one("examples/first.txt")).status == Status.SOLVED == "solved"
    True
    """

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


class SearchGaveUp(SearchTimeout):
    """Raised by an incomplete engine that used up its own budget without an answer. It is a `SearchTimeout`
    (the search stopped before an answer) to every caller that does not tell the two apart; `solve` reports
    it as status `unknown`."""


@dataclass(frozen=True)
class SolveResult:
    """The solutions a backend found. With status `timeout` or `interrupted`, the ones found before it stopped.

    >>> from pipscover import load_one, solve
    >>> result = solve(load_one("examples/first.txt"), backend="dlx", limit=None)
    >>> result.status, len(result.solutions), result.backend
    (<Status.SOLVED: 'solved'>, 1, 'dlx')
    """

    status: Status
    solutions: tuple[Solution, ...]
    backend: str
    seconds: float


class Distinct(Choice):
    """What a count counts: placements (the usual semantics) or distinct pip grids.

    >>> Distinct("grids") is Distinct.GRIDS, Distinct.PLACEMENTS == "placements"
    (True, True)
    """

    PLACEMENTS = "placements"
    GRIDS = "grids"


@dataclass(frozen=True)
class Marginals:
    """For every cell of `puzzle`, how many solutions put each pip value there: `counts[cell][v]` for v = 0, 1,
    ... (exact ints; each cell's add up to the count). A cell is in the backbone when every solution puts the
    same pip there; its settledness is the share of the solutions that agree on its likeliest pip.

    >>> from pipscover import load_one, marginals
    >>> found = marginals(load_one("examples/first.txt"))  # one solution: every cell is fixed
    >>> found.total, len(found.backbone()), found.counts[(0, 0)], found.settled()[(0, 0)]
    (1, 16, [0, 0, 0, 0, 1, 0, 0], 1.0)
    """

    puzzle: Puzzle
    counts: dict[Cell, list[int]]

    def __repr__(self) -> str:
        """The figures, as `Rating`'s repr shows them: the board and every cell's counts (`counts`) ran to 2,500
        characters for a 10-domino puzzle.

        >>> from pipscover import load_one, marginals
        >>> marginals(load_one("examples/first.txt"))
        Marginals(total=1, cells=16, backbone=16)
        """
        return f"Marginals(total={self.total}, cells={len(self.counts)}, backbone={len(self.backbone())})"

    @property
    def total(self) -> int:
        """The number of solutions: each cell's counts add up to it."""
        return sum(next(iter(self.counts.values()), []))

    def backbone(self) -> dict[Cell, int]:
        """The cells every solution fixes, and their pip (none when there is no solution)."""
        return {cell: row.index(max(row)) for cell, row in self.counts.items() if max(row) == sum(row) > 0}

    def settled(self) -> dict[Cell, float]:
        """Each cell's share of solutions that agree on its likeliest pip (1 for the backbone)."""
        total = self.total
        return {cell: max(row) / total if total else 0.0 for cell, row in self.counts.items()}

    def as_json(self) -> list[list]:
        """`[[r, c, [n_0, n_1, ...]], ...]`, cells in order."""
        return [[r, c, row] for (r, c), row in sorted(self.counts.items())]


@dataclass(frozen=True)
class CountResult:
    """A count of solutions; `exact` is False when a limit, timeout or interrupt cut it short, and then
    `stopped_by` says which: "limit" (a listing found `limit` solutions and more exist), "memory" (the method
    reached its memory cap), "timeout", "nodes" (a node budget, inside `auto`) or "interrupt" (Ctrl-C).

    >>> from pipscover import count, load_one
    >>> result = count(load_one("examples/first.txt"))
    >>> result.count, result.exact, result.stopped_by
    (1, True, None)
    """

    count: int
    exact: bool
    distinct: Distinct
    method: str
    backend: str | None
    seconds: float
    stopped_by: str | None = None


def reachable(count: int) -> int:
    """A number of solutions or draws to stop after, held at `sys.maxsize`: `itertools.islice` refuses a larger
    stop (`solve --limit 10**20` and `sample -n 10**20` ended in its ValueError), and no run gets that far.

    >>> reachable(10**20) == sys.maxsize, reachable(5)
    (True, 5)
    """
    return min(count, sys.maxsize)


def checked_limit(limit: int | None) -> int | None:
    """A limit on how many solutions to find (None: no limit), or `PipsError` for one below 1: `solve` took 0 as
    "none found" and answered `unsatisfiable`, and a count of the first -1 solutions was -1.

    >>> checked_limit(0)
    Traceback (most recent call last):
    ...
    pipscover.errors.PipsError: limit must be at least 1 (or None for no limit), not 0
    >>> checked_limit(1.5)  # it reached `islice` as a ValueError about its stop argument
    Traceback (most recent call last):
    ...
    pipscover.errors.PipsError: limit must be a whole number (or None for no limit), not 1.5
    """
    if limit is None:
        return None
    if not is_whole_number(limit):
        raise PipsError(f"limit must be a whole number (or None for no limit), not {shown(limit)}")
    if limit < 1:
        raise PipsError(f"limit must be at least 1 (or None for no limit), not {limit}")
    return reachable(operator.index(limit))


# A seed is a whole number below 2^64 in size, as a 64-bit seed is: far past what anyone types, and short in a
# message (4,000-digit seeds were taken, by the command line and the page's server, and echoed back whole).
SEED_BOUND = 2**64
SEEDS = "a whole number from -(2^64 - 1) to 2^64 - 1"


def checked_seed(seed: int | None) -> int | None:
    """A seed for the randomised searches, the generators and `sample` (None: theirs), or `PipsError` past
    `SEED_BOUND` or for what is not a whole number (`sample` took 2^70, 1.5 and "abc", each a seed of its own).

    >>> checked_seed(10**4000)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    pipscover.errors.PipsError: the seed must be a whole number from -(2^64 - 1) to 2^64 - 1, not 1000...000
    """
    if seed is not None and not (is_whole_number(seed) and -SEED_BOUND < operator.index(seed) < SEED_BOUND):
        raise PipsError(f"the seed must be {SEEDS}, not {shown(seed)}")
    return None if seed is None else operator.index(seed)


class CountInterrupted(Exception):
    """A count stopped before its end: the one exception for a partial count. `result` is what it had found,
    a lower bound (not exact) whose `stopped_by` says what stopped it.

    `pipscover.counting.count` raises it for Ctrl-C alone (a time or memory limit returns the lower bound).
    Under it, the structural counters raise it for every stop, from the search level that stopped up through
    each level above, each adding the solutions of its finished branches (`adding`).
    """

    puzzle: Puzzle  # which one, set by a caller counting several (the CLI) before it raises this again

    def __init__(self, result: CountResult) -> None:
        super().__init__(result)
        self.result = result

    def adding(self, found: int) -> CountInterrupted:
        """This stop, as a level above raises it with `found` more solutions from its finished branches."""
        return CountInterrupted(replace(self.result, count=self.result.count + found))
