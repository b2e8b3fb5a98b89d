"""Counting with Ganak, a stock projected model counter (component caching, clause learning), on the CNF.

The CNF is the one `pipscover encode` writes; its projection set is the placement variables (the count is the
number of solutions) or the cell values (the number of distinct pip grids), as `--project` picks for the file.
Ganak is a C++ call that cannot be stopped from Python, so it runs in a forked worker that a deadline kills,
and that worker may map no more memory than the cap leaves it (`RLIMIT_AS`): Ganak's failed allocation then
ends the count, which stops with `stopped_by="memory"` instead of taking the machine's memory.

    >>> from pipscover import load_one
    >>> count_by_ganak(load_one("examples/first.txt")).count
    1
"""

from __future__ import annotations

import os
import resource
import sys
import time
from collections.abc import Iterator
from functools import partial

from pipscover.cnf import encode
from pipscover.counting.budget import TIMEOUT
from pipscover.errors import PipsError
from pipscover.model import Puzzle
from pipscover.model.results import CountResult, Distinct, SearchTimeout
from pipscover.runtime.limits import MEMORY_LIMIT, resident_bytes
from pipscover.runtime.stoppable import race


def count_by_ganak(puzzle: Puzzle, distinct: Distinct = Distinct.PLACEMENTS, deadline: float | None = None,
                   memory_cap: int | None = MEMORY_LIMIT) -> CountResult:
    """The projected model count of the puzzle's CNF by Ganak (`pyganak`), in a worker killed at `deadline`."""
    try:
        import pyganak  # type: ignore[import-not-found]  # noqa: F401  (optional: only this method needs it)
    except ImportError:
        raise PipsError("--method ganak needs the pyganak package: pip install pyganak") from None
    start = time.monotonic()
    found, exact, stopped_by = 0, True, None
    try:
        found = next(race({"ganak": partial(_ganak_count, puzzle, Distinct(distinct), memory_cap)}, deadline))
    except SearchTimeout:
        exact, stopped_by = False, TIMEOUT
    except RuntimeError as error:  # std::bad_alloc within the cap, or the worker killed on the way
        if not _out_of_memory(error):
            raise
        exact, stopped_by = False, "memory"
    return CountResult(found, exact, Distinct(distinct), "ganak", "ganak", time.monotonic() - start, stopped_by)


def _ganak_count(puzzle: Puzzle, distinct: Distinct, memory_cap: int | None) -> Iterator[int]:
    """In the worker: the count, as the one item of an iterator (what `race` hands over)."""
    import pyganak

    encoding = encode(puzzle)
    if not _satisfiable(encoding.cnf.clauses):  # Ganak can take a minute to prove a small CNF has no model
        yield 0
        return
    _quiet()
    counter = pyganak.Counter()
    counter.new_vars(encoding.cnf.nv)
    counter.add_clauses(encoding.cnf.clauses)
    counter.set_sampling_set(list(encoding.projection(distinct)))
    if memory_cap is not None:
        _limit_address_space(memory_cap)
    yield counter.count()


def _satisfiable(clauses: list[list[int]]) -> bool:
    """Whether the CNF has a model, by CaDiCaL: milliseconds where Ganak spent 27 s of CPU proving that a
    4-domino puzzle's 203-variable CNF has none (tests/test_against_brute_force.py's mixed family)."""
    from pysat.solvers import Solver

    if any(not clause for clause in clauses):  # the encoder found no solution already
        return False
    with Solver(name="cadical195", bootstrap_with=clauses) as solver:
        return bool(solver.solve())


def _quiet() -> None:
    """Send this worker's standard output to /dev/null: Ganak prints progress lines (`c o ...`) there, which
    would land in the middle of `count --json`'s output."""
    sys.stdout.flush()
    with open(os.devnull, "wb") as nothing:
        os.dup2(nothing.fileno(), 1)


def _limit_address_space(memory_cap: int) -> None:
    """Let this process map only as much more memory as `memory_cap` leaves beside what it holds (Linux)."""
    try:
        with open("/proc/self/statm", "rb") as statm:
            mapped = int(statm.read().split()[0]) * resource.getpagesize()
    except OSError:  # no /proc: Ganak runs without a cap of its own
        return
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    limit = mapped + max(memory_cap - resident_bytes(), 0)
    for bound in (soft, hard):
        if bound != resource.RLIM_INFINITY:
            limit = min(limit, bound)
    resource.setrlimit(resource.RLIMIT_AS, (limit, hard))


def _out_of_memory(error: RuntimeError) -> bool:
    return "bad_alloc" in str(error) or "died without an answer" in str(error)
