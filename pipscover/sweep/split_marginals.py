"""Per-cell marginals split over a Dask cluster: `pipscover count PUZZLE --marginals --jobs N` (a LocalCluster)
or `--scheduler tcp://HOST:PORT`, as the count itself is split (`pipscover.sweep.split_count`).

The marginals past the walk's budget are inclusion-exclusion's sums over the count's points, a sum per laying
(`pipscover.counting.sweep_marginals`), and each point adds to them independently of the others: the points
are cut into chunks as a split count's are, one task each. A task returns its chunk's sum per laying modulo the
primes' product, with the layings as its worker numbered them (each worker builds the graph and reads its
layings back once, and keeps them for its next chunks); the client checks that every task numbered them
alike, adds the chunks' sums per laying and reads the marginals from them as one process does, so they are the
same exact integers. A task is pure, so one whose worker dies runs again elsewhere, and the client keeps one
result per chunk. Stopped (the deadline, Ctrl-C, a worker past `--memory`), a part of the signed sums bounds
nothing: the marginals are not given, and the tasks not finished are cancelled.
"""

from __future__ import annotations

import threading
import time
from dataclasses import replace
from typing import TYPE_CHECKING, NamedTuple

from pipscover.counting.completions import marginals_past_the_walk
from pipscover.counting.inclusion_exclusion import BuiltSweep, Modulus, laying_totals, points_of
from pipscover.counting.progress import ProgressCallback
from pipscover.counting.sweep_marginals import LaidGraph, laid_graph, laid_marginals, marginal_rows
from pipscover.counting.sweep_sample import keyed_graph
from pipscover.errors import PipsError
from pipscover.model import Cell, Puzzle
from pipscover.model.results import CountInterrupted, CountResult, Distinct, Marginals
from pipscover.regions import pip_values
from pipscover.runtime.deadlines import SearchTimeout, has_passed
from pipscover.runtime.limits import MemoryCapReached, check_memory
from pipscover.sweep.address import check_scheduler
from pipscover.sweep.split_count import LOCAL_BUILD_SECONDS, LOCAL_SWEEP_WORK
from pipscover.sweep.split_tasks import gather, shrinking_chunks

if TYPE_CHECKING:
    from pipscover.sweep.cluster import DaskEngine

METHOD = "marginals"
# The sums' work (points x edges) kept here: about a count's sweep of `LOCAL_SWEEP_WORK`, which the sums take
# four times (planted 6 x 6: 7 s against 1.9), less a worker's own build and read-back. Measured (--jobs 2, a
# LocalCluster, against one process, wall): planted 4 x 6 (864 x 9,917) 1.9 s against 0.9 s, so it stays
# here; no-unique-20 (524,288 x 4,622) 5.2 s against 6.2 s, so it is split.
LOCAL_MARGINALS_WORK = LOCAL_SWEEP_WORK // 4

_laid: dict[Puzzle, LaidGraph] = {}  # on a worker: the last puzzle's graph and layings, for its next chunks
_laying = threading.Lock()  # the threads of one worker build them once


class ChunkSums(NamedTuple):
    """One task's answer: the primes its graph takes (lanes), the layings as its worker numbered them and the
    board's cells by line (which the layings name), and the chunk's sum per laying."""

    lanes: int
    layings: list[tuple[int, int, int, int, int]]
    cells: tuple[Cell, ...]
    totals: list[int]


def marginal_chunk(puzzle: Puzzle, begin: int, end: int, memory: int | None = None) -> ChunkSums:
    """What one task computes: the sums per laying over the points numbered `begin` to `end - 1`, on the graph
    and layings this worker reads back once. Raises `CountInterrupted` (stopped by "memory") when the worker
    holds more than `memory` bytes; cancelled by its count, it stops within a fifth of a second, as a split
    count's task does (`cluster.stop_if_cancelled`)."""
    from pipscover.sweep.cluster import stop_if_cancelled

    try:
        with _laying:
            laid = _laid.get(puzzle)
            if laid is None:
                _laid.clear()
                laid = _laid[puzzle] = laid_graph(puzzle, memory_cap=memory)
        check_memory(memory)
        totals = laying_totals(laid.built.sweep, laid.made, on_progress=stop_if_cancelled, memory_cap=memory,
                               chunk=range(begin, end))
    except MemoryCapReached:
        raise CountInterrupted(CountResult(0, False, Distinct.PLACEMENTS, METHOD, None, 0.0, "memory")) from None
    return ChunkSums(laid.built.sweep.points.lanes, laid.layings, tuple(laid.built.board.cells), totals)


def marginals_split(puzzle: Puzzle, engine: DaskEngine, modulus: Modulus, deadline: float | None,
                    memory: int | None, on_progress: ProgressCallback | None = None) -> dict[Cell, list[int]]:
    """The marginals by inclusion-exclusion (the puzzle's `modulus`), their points in chunks on `engine`'s
    cluster, as `marginals_by_sweep` gives them; `SearchTimeout` at the deadline, `MemoryCapReached` for a
    worker past `memory`, KeyboardInterrupt on Ctrl-C."""
    chunks = shrinking_chunks(points_of(puzzle), engine.slots)
    try:
        sums, stopped_by = gather(engine, METHOD, marginal_chunk, [(puzzle, c.start, c.stop) for c in chunks],
                                  memory, deadline, time.monotonic(), on_progress, lambda found: 0,
                                  [len(chunk) for chunk in chunks])
    except CountInterrupted:
        raise KeyboardInterrupt from None
    if stopped_by == "timeout":
        raise SearchTimeout()
    if stopped_by is not None:
        raise MemoryCapReached
    answers = list(sums.values())
    first = answers[0]
    if any((answer.lanes, answer.layings, answer.cells) != (first.lanes, first.layings, first.cells)
           for answer in answers):
        raise PipsError(f"{puzzle.describe()}: the workers read the graph's layings back differently "
                        "(is pipscover the same version on every worker?)")
    totals = [sum(column) for column in zip(*(answer.totals for answer in answers))]
    return marginal_rows(first.cells, pip_values(puzzle.dominoes), first.layings, replace(modulus, lanes=first.lanes),
                         totals)


def marginals_on_cluster(puzzle: Puzzle, scheduler: str | None, workers: int, deadline: float | None,
                         memory: int | None, on_progress: ProgressCallback | None = None) -> Marginals:
    """`pipscover.counting.completions.marginals`' answer with its sums split over the cluster at `scheduler`,
    or a LocalCluster of `workers`: the walk's within its budget, here (a split would cost more than it
    saves), else the split sums; the walk again, here, where inclusion-exclusion refuses the puzzle."""
    check_scheduler(scheduler)

    def split() -> dict[Cell, list[int]]:
        modulus = Modulus.of(puzzle)  # what it refuses, it refuses before a cluster starts
        built = _built_here(puzzle, deadline, memory)
        if built is not None and built.sweep.points.count * len(built.sweep.sources) <= LOCAL_MARGINALS_WORK:
            return laid_marginals(laid_graph(puzzle, deadline, memory, built=built), deadline, memory,
                                  on_progress=on_progress)
        from pipscover.sweep.cluster import DaskEngine

        with DaskEngine(scheduler, workers, deadline) as engine:
            return marginals_split(puzzle, engine, modulus, deadline, memory, on_progress)

    return marginals_past_the_walk(puzzle, deadline, memory, on_progress, split)


def _built_here(puzzle: Puzzle, deadline: float | None, memory: int | None) -> BuiltSweep | None:
    """The graph built here to weigh the sums, as auto's count weighs its sweep: None where it is not built
    within `LOCAL_BUILD_SECONDS` or the memory cap (a long build makes long sums); `SearchTimeout` past the
    deadline."""
    build_by = time.monotonic() + LOCAL_BUILD_SECONDS
    try:
        return keyed_graph(puzzle, build_by if deadline is None else min(deadline, build_by), memory)
    except (SearchTimeout, MemoryCapReached):
        if has_passed(deadline):
            raise SearchTimeout() from None
        return None
