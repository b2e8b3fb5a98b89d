"""The structural count split over a Dask cluster (`pipscover count -m structural --scheduler ...`, and `auto`
on a cluster where inclusion-exclusion refuses the puzzle).

The client runs the structural search down to a cut (`pipscover.counting.frontier`): the solutions closed
above it, and the positions at it with their multiplicities (paths from the root). The positions, in
`CHUNKS` batches, are the tasks: a task counts each of its positions exactly (`StructuralCounter.count_from`)
and returns the counts, and the client adds `paths x count` in Python ints. A task is pure (the puzzle and
its positions in, ints out): a task whose worker dies runs again elsewhere with the same answer, and the
client keeps one answer per task. Unlike inclusion-exclusion's signed sum, every finished term is a part of
the count, so a stopped split count (deadline, Ctrl-C, a worker past `--memory`) answers a lower bound.

What the split costs: one process's cache serves every subproblem of the count; split, a subproblem below
two positions on two workers is counted twice. Each worker thread keeps its counter (and its cache, which
forgets at the memory cap) from task to task of one count, so that its later positions find what its earlier
ones counted; the client has the workers drop them when the count ends, leaving the cluster as it was. A task
already running then (which stops at its counter's next progress report: `cluster.stop_if_cancelled`), or
started by a worker before the cancel reached it, drops its counter as it ends: each task knows its count's
run, and the worker the runs that have ended.
"""

from __future__ import annotations

import threading
import time
import uuid
from collections import deque
from dataclasses import replace
from functools import partial
from typing import TYPE_CHECKING

from pipscover.counting.budget import INTERRUPT, Budget
from pipscover.counting.frontier import frontier
from pipscover.counting.progress import ProgressCallback
from pipscover.counting.structural import Position, StructuralCounter
from pipscover.model import Puzzle
from pipscover.model.results import CountInterrupted, CountResult, Distinct
from pipscover.sweep.split_tasks import chunks_of, gather

if TYPE_CHECKING:
    from pipscover.sweep.cluster import DaskEngine

METHOD = "structural"
# Frontier positions per worker the cut aims at, at least: enough that the batches even out the workers'
# loads, whose positions differ in size by orders of magnitude.
POSITIONS_PER_WORKER = 16

# On a worker: each thread's counter, by thread, with the run of the count it serves; the runs that ended
# (a few: a task of an older run can no longer be waiting to start).
_counters: dict[int, tuple[str, StructuralCounter]] = {}
_ended: deque[str] = deque(maxlen=64)


def counted_positions(puzzle: Puzzle, positions: list[Position], run: str, memory: int | None) -> list[int]:
    """What one task of the count `run` computes: the exact count of each position. Raises `CountInterrupted`
    (stopped by "memory") when the worker passes `memory` bytes with its cache forgotten; cancelled by its count
    (Ctrl-C, the deadline), it stops at its counter's next progress report (`cluster.stop_if_cancelled`)."""
    from pipscover.sweep.cluster import stop_if_cancelled

    thread = threading.get_ident()
    kept = _counters.get(thread)
    if kept is None or kept[0] != run:
        kept = _counters[thread] = (run, StructuralCounter(puzzle))
    budget = Budget(time.monotonic(), None, memory, stop_if_cancelled)
    try:
        return [kept[1].count_from(position, budget) for position in positions]
    finally:
        if run in _ended:  # the count ended while this task ran: nobody will drop its counter later
            _counters.pop(thread, None)


def forget_counters(run: str) -> None:
    """Drop this worker's counters and their caches (run on every worker when the split count `run` ends)."""
    _ended.append(run)
    _counters.clear()


def count_structural_split(puzzle: Puzzle, engine: DaskEngine, deadline: float | None, memory: int | None,
                           start: float, on_progress: ProgressCallback | None = None) -> CountResult:
    """The placement count by the structural counter, the positions below its cut counted on `engine`'s
    cluster; stopped, a lower bound (not exact). Ctrl-C raises `CountInterrupted` with the lower bound."""
    budget = Budget(start, deadline, memory)
    try:
        cut = frontier(StructuralCounter(puzzle), POSITIONS_PER_WORKER * max(engine.workers, 1), budget)
    except CountInterrupted as stop:
        if stop.result.stopped_by == INTERRUPT:
            raise
        return replace(stop.result, backend=engine.backend())
    positions = list(cut.positions)
    batches = [positions[chunk.start:chunk.stop] for chunk in chunks_of(len(positions))]
    run = uuid.uuid4().hex

    def found(counts: dict[int, list[int]]) -> int:
        return cut.closed + sum(cut.positions[position] * count for index, batch_counts in counts.items()
                                for position, count in zip(batches[index], batch_counts))

    try:
        counts, stopped_by = gather(engine, METHOD, counted_positions, [(puzzle, batch, run) for batch in batches],
                                    memory, deadline, start, on_progress, found) if batches else ({}, None)
    finally:
        engine.run_on_workers(partial(forget_counters, run))
    return CountResult(found(counts), stopped_by is None, Distinct.PLACEMENTS, METHOD, engine.backend(),
                       time.monotonic() - start, stopped_by)
