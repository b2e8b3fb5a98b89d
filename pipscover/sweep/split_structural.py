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
ones counted; the client has the workers drop them when the count ends, leaving the cluster as it was.
"""

from __future__ import annotations

import threading
import time
from dataclasses import replace
from typing import TYPE_CHECKING

from pipscover.counting.budget import Budget
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

_counters: dict[int, tuple[Puzzle, StructuralCounter]] = {}  # on a worker: each thread's counter, by thread


def counted_positions(puzzle: Puzzle, positions: list[Position], memory: int | None) -> list[int]:
    """What one task computes: the exact count of each position. Raises `CountInterrupted` (stopped by
    "memory") when the worker passes `memory` bytes with its cache forgotten."""
    thread = threading.get_ident()
    kept = _counters.get(thread)
    if kept is None or kept[0] != puzzle:
        kept = _counters[thread] = (puzzle, StructuralCounter(puzzle))
    counter = kept[1]
    budget = Budget(time.monotonic(), None, memory)
    return [counter.count_from(position, budget) for position in positions]


def forget_counters() -> None:
    """Drop this worker's counters and their caches (run on every worker when a split count ends)."""
    _counters.clear()


def count_structural_split(puzzle: Puzzle, engine: DaskEngine, deadline: float | None, memory: int | None,
                           start: float, on_progress: ProgressCallback | None = None) -> CountResult:
    """The placement count by the structural counter, the positions below its cut counted on `engine`'s
    cluster; stopped, a lower bound (not exact). Ctrl-C raises `CountInterrupted` with the lower bound."""
    budget = Budget(start, deadline, memory)
    try:
        cut = frontier(StructuralCounter(puzzle), POSITIONS_PER_WORKER * max(engine.workers, 1), budget)
    except CountInterrupted as stop:
        if stop.result.stopped_by == "interrupt":
            raise
        return replace(stop.result, backend=engine.backend())
    positions = list(cut.positions)
    batches = [positions[chunk.start:chunk.stop] for chunk in chunks_of(len(positions))]

    def found(counts: dict[int, list[int]]) -> int:
        return cut.closed + sum(cut.positions[position] * count for index, batch_counts in counts.items()
                                for position, count in zip(batches[index], batch_counts))

    try:
        counts, stopped_by = gather(engine, METHOD, counted_positions, [(puzzle, batch) for batch in batches],
                                    memory, deadline, start, on_progress, found) if batches else ({}, None)
    finally:
        engine.run_on_workers(forget_counters)
    return CountResult(found(counts), stopped_by is None, Distinct.PLACEMENTS, METHOD, engine.backend(),
                       time.monotonic() - start, stopped_by)
