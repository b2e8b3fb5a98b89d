"""Counting solutions with a SAT solver and blocking clauses, over placements or projected on pip grids.

After each model a clause rules it out: over the placement variables (`Distinct.PLACEMENTS`, one model per
solution) or over the cell-value variables (`Distinct.GRIDS`, one model per distinct pip grid, since the
blocking clause also rules out every other tiling with that grid). This counts one by one, so it suits
puzzles with up to some hundred thousand solutions; the counting engines of `pipscover count` do better
beyond that.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from functools import partial

from pipscover.cnf import Encodings, encode
from pipscover.counting.budget import LIMIT, TIMEOUT
from pipscover.counting.progress import PROGRESS_EVERY, ProgressCallback
from pipscover.engines import Backend, BackendName, get_backend
from pipscover.engines.sat_enumeration import models
from pipscover.errors import PipsError
from pipscover.model import Puzzle
from pipscover.model.results import CountResult, Distinct, SearchTimeout
from pipscover.runtime.limits import MemoryCapReached, check_memory
from pipscover.runtime.stoppable import stoppable

# Fastest at long enumerations on the hard NYT puzzles (2025-10-18: 10 464 solutions in 1.1 s, minisat22 2.5 s;
# 2025-10-28: 1 700 solutions/s, minisat22 1 080/s), though not at finding a first solution (see `sat`).
DEFAULT_SAT_BACKEND = "cadical195"
MEMORY_CHECK_EVERY = 256  # models between two looks at the memory the solver's process holds


def count_by_blocking(
    puzzle: Puzzle,
    backend: BackendName | Backend = DEFAULT_SAT_BACKEND,
    distinct: Distinct = Distinct.PLACEMENTS,
    limit: int | None = None,
    deadline: float | None = None,
    on_progress: ProgressCallback | None = None,
    encodings: Encodings | None = None,
    memory_cap: int | None = None,
) -> CountResult:
    """Count the solutions (or the distinct pip grids) of `puzzle` by blocking each model found.

    `limit` stops after that many; `deadline` is a `time.monotonic()` value. `exact` is False when either
    stopped the count before the last solution, and `stopped_by` then says which (`"limit"`, `"timeout"`).
    `on_progress(count so far, None)` is called every 0.2 s or so, and once more with the final count when the
    count ends in any way (a `KeyboardInterrupt` included).
    `encodings` (default: the backend's) chooses how the CNF is written. Once the process that holds the
    solver holds more than `memory_cap` bytes (every blocking clause stays in it), the count stops there
    with `stopped_by="memory"`.

    >>> from pipscover import load_one
    >>> count_by_blocking(load_one("examples/first.txt")).count
    1
    """
    engine = get_backend(backend)
    if engine.capabilities.counter != "blocking":
        raise PipsError(
            f"counting by blocking clauses needs a SAT backend, not {engine.name!r} (see pipscover backends)"
        )
    start = time.monotonic()
    # With a deadline the encoding runs in the killable worker too: it alone can outlast any timeout.
    found = stoppable(partial(_each_model, puzzle, engine.name, distinct, encodings or engine.encodings, memory_cap),
                      deadline)
    count, exact, reported, stopped_by = 0, True, start, None
    try:
        for _ in found:
            if limit is not None and count >= limit:
                exact, stopped_by = False, LIMIT  # a model beyond the limit exists
                break
            count += 1
            if on_progress is not None and time.monotonic() - reported >= PROGRESS_EVERY:
                on_progress(count, None)
                reported = time.monotonic()
    except SearchTimeout:
        exact, stopped_by = False, TIMEOUT
    except MemoryCapReached:
        exact, stopped_by = False, "memory"
    finally:
        found.close()
        if on_progress is not None:
            on_progress(count, None)  # also on Ctrl-C, so a caller knows the partial count
    return CountResult(count, exact, distinct, "blocking", engine.name, time.monotonic() - start, stopped_by)


def _each_model(puzzle: Puzzle, solver: str, distinct: Distinct, encodings: Encodings,
                memory_cap: int | None) -> Iterator[None]:
    """Nothing, once per model: only the number of models crosses from the worker."""
    encoding = encode(puzzle, encodings)
    block = encoding.grid_blocker if distinct is Distinct.GRIDS else encoding.placement_blocker
    for found, _ in enumerate(models(encoding.cnf.clauses, solver, block), start=1):
        if found % MEMORY_CHECK_EVERY == 0:
            check_memory(memory_cap)
        yield None
