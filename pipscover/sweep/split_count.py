"""One count split over a Dask cluster: `pipscover count PUZZLE --scheduler tcp://HOST:PORT` (or `--jobs N`,
a LocalCluster of N workers), on the cluster handling of `pipscover.sweep.cluster`.

Inclusion-exclusion's sum runs over prod (m_t + 1) points, each point one sweep that depends on no other:
the points are cut into chunks that shrink as the sum proceeds (`split_tasks.shrinking_chunks`: few tasks,
and a short tail; each worker holds one waiting its turn, `cluster.in_turn`), one Dask task each, and a task
returns its chunk's signed sum modulo its primes' product (`inclusion_exclusion.sweep_total`), on the fewest
primes the graph allows, as one process takes them. The client adds the chunks' sums, as one process adds
its points, and recovers the count once (`Modulus`), so the split count is the same number, exact under the
same bound. A task is pure (the puzzle and its chunk in, its primes and sum out): a task whose worker dies is
run again by the scheduler on another worker, and the client keeps one result per chunk, so nothing is
counted twice. The sweep's graph that `auto` built here is sent to every worker once (Dask's scatter, to
each worker, so that one restarted after a kill fetches it from another); else each worker process builds it
once and keeps it for its next chunks.

The structural counter splits too (`-m structural`), below a cut of its first levels
(`pipscover.sweep.split_structural`). `auto` keeps short counts local: it spends the structural counter's
work budget (`STRUCTURAL_WORK_BUDGET`) in this process first, then builds the sweep's graph here (within
`LOCAL_BUILD_SECONDS`) and sweeps it here too when its work (points x edges) is below `LOCAL_SWEEP_WORK`;
it splits only what is longer (measured in `encodings/counting.md`). Stopped (the deadline, Ctrl-C, a
worker past `--memory`), inclusion-exclusion's split count knows no lower bound but 0: a part of Ryser's
signed sum bounds nothing. Its answer says so (`exact: false`), and the tasks not finished are cancelled (a
running one stops itself: `cluster.stop_if_cancelled`), so a --scheduler's cluster is left as it was.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import replace
from functools import partial
from typing import TYPE_CHECKING, NamedTuple

from pipscover.counting.inclusion_exclusion import (
    Modulus,
    Sweep,
    build_sweep,
    points_of,
    sweep_total,
    with_fewest_primes,
)
from pipscover.counting.progress import ProgressCallback
from pipscover.errors import PipsError
from pipscover.model import Puzzle
from pipscover.model.results import CountInterrupted, CountResult, Distinct
from pipscover.runtime.deadlines import SearchTimeout, has_passed
from pipscover.runtime.limits import MemoryCapReached, TooBig, check_memory
from pipscover.sweep.address import check_scheduler
from pipscover.sweep.split_tasks import gather, shrinking_chunks

if TYPE_CHECKING:
    from pipscover.sweep.cluster import DaskEngine

SPLIT_METHODS = ("auto", "inclusion-exclusion", "structural")
METHOD = "inclusion-exclusion"
# Sweep work (points x edges) that one process does in about one and a half seconds (0.3-0.4 ns an edge and a
# point in the core's passes of sixteen: no-unique-24, planted 6 x 6 and no-unique-22 measured): no more than
# a split's own cost (Dask's import and connection, the tasks' round trips), so `auto` does it here. Measured
# (2026-11-29, the counting benchmark's three configurations): no-unique-20 (524,288 x 4,622) took 1.4 s in
# one process and on a stock cluster alike, 1.7 s with --jobs 2, so it stays here; planted 6 x 6
# (41,472 x 153,161) 2.5 s against 2.0 on the cluster, so it is split.
LOCAL_SWEEP_WORK = 1 << 32
# How long `auto` builds the graph here to weigh its sweep: a graph not built by then makes a long count.
LOCAL_BUILD_SECONDS = 5.0
STRUCTURAL = "structural"

_built: dict[Puzzle, Sweep] = {}  # on a worker: the sweep of the last puzzle, for its next chunks
_building = threading.Lock()  # the threads of one worker build it once


def swept_chunk(puzzle: Puzzle, begin: int, end: int, sweep: Sweep | None = None,
                memory: int | None = None) -> tuple[int, int]:
    """What one task computes: the signed sum of the points numbered `begin` to `end - 1`, modulo the product
    of its primes, and how many primes (lanes) that is; on the puzzle's `sweep` when the client sent it, else
    on the one this worker builds once, with the fewest primes its graph allows (as one process takes them:
    every worker takes the same). Raises `CountInterrupted` when the worker holds more than `memory` bytes
    (while it builds the sweep, and before it sweeps: the sweeps themselves allocate nothing). Cancelled by its
    count (Ctrl-C, the deadline), it stops within a fifth of a second (`cluster.stop_if_cancelled`)."""
    from pipscover.sweep.cluster import stop_if_cancelled

    try:
        if sweep is None:
            with _building:
                sweep = _built.get(puzzle)
                if sweep is None:
                    _built.clear()
                    sweep = _built[puzzle] = with_fewest_primes(puzzle, build_sweep(puzzle, memory_cap=memory))
        check_memory(memory)
    except MemoryCapReached:
        raise CountInterrupted(_result(0, False, time.monotonic(), None, "memory")) from None
    return sweep.points.lanes, sweep_total(sweep, chunk=range(begin, end), on_progress=stop_if_cancelled)


def count_split(puzzle: Puzzle, engine: DaskEngine, deadline: float | None, memory: int | None, start: float,
                on_progress: ProgressCallback | None = None, modulus: Modulus | None = None,
                sweep: Sweep | None = None) -> CountResult:
    """The placement count by inclusion-exclusion, its points in chunks on `engine`'s cluster; `TooBig` when
    the method does not take the puzzle on. `modulus` and `sweep`: the puzzle's, when the caller has them (a
    sweep built here is sent to every worker once, rather than built again by each). Ctrl-C raises
    `CountInterrupted` (0, not exact)."""
    modulus = modulus or Modulus.of(puzzle)
    sent = None if sweep is None else engine.scatter(sweep)
    chunks = shrinking_chunks(points_of(puzzle), engine.slots)
    sums, stopped_by = gather(engine, METHOD, swept_chunk,
                              [(puzzle, chunk.start, chunk.stop, sent) for chunk in chunks],
                              memory, deadline, start, on_progress, lambda sums: 0, [len(chunk) for chunk in chunks])
    if stopped_by is not None:
        return _result(0, False, start, engine.backend(), stopped_by)
    (lanes,) = {lanes for lanes, _ in sums.values()}  # the graph decides them, the same on every worker
    return _result(replace(modulus, lanes=lanes).count(sum(total for _, total in sums.values())), True, start,
                   engine.backend())


def count_on_cluster(puzzle: Puzzle, method: str, scheduler: str | None, workers: int, deadline: float | None,
                     memory: int | None, start: float, on_progress: ProgressCallback | None = None) -> CountResult:
    """`method`'s count of `puzzle` (placements), split over the cluster at `scheduler` or a LocalCluster of
    `workers`: by inclusion-exclusion, or by the structural counter (`pipscover.sweep.split_structural`).
    `auto` counts locally what its structural budget finishes, or what inclusion-exclusion does not take on
    (auto's race there beats the structural split: `encodings/counting.md`), and splits the rest by
    inclusion-exclusion."""
    if method not in SPLIT_METHODS:
        raise PipsError(f"--scheduler and --jobs split a count by {split_methods()}, not {method}")
    check_scheduler(scheduler)
    from pipscover.sweep.split_structural import count_structural_split

    split: Callable[..., CountResult] = count_structural_split if method == STRUCTURAL else count_split
    if method == "auto":
        local = _local_auto(puzzle, deadline, memory, start, on_progress)
        if isinstance(local, CountResult):
            return local
        split = partial(count_split, modulus=local.modulus, sweep=local.sweep)
    from pipscover.sweep.cluster import DaskEngine

    try:
        with DaskEngine(scheduler, workers, deadline) as engine:
            result = split(puzzle, engine, deadline, memory, start, on_progress)
    except SearchTimeout:  # in a LocalCluster's start
        result = _result(0, False, start, None, "timeout", method=STRUCTURAL if method == STRUCTURAL else METHOD)
    except CountInterrupted as stop:  # Ctrl-C's bound named as the answer would be (it said "inclusion-exclusion")
        if method == "auto":
            stop.result = _named_auto(stop.result)
        raise
    return result if method != "auto" else _named_auto(result)


def split_methods() -> str:
    """The methods that split a count, as a sentence names them."""
    return f"{', '.join(SPLIT_METHODS[:-1])} or {SPLIT_METHODS[-1]}"


class _Split(NamedTuple):
    """What auto's start here leaves to the split: the count's modulus, and its sweep when built here."""

    modulus: Modulus
    sweep: Sweep | None


def _local_auto(puzzle: Puzzle, deadline: float | None, memory: int | None, start: float,
                on_progress: ProgressCallback | None) -> CountResult | _Split:
    """Auto's count in this process when it is short (the structural budget finishes it, or a short sweep:
    `_short_sweep`) or cannot be split (inclusion-exclusion refuses the puzzle); else what the split needs."""
    from pipscover.counting import count
    from pipscover.counting.auto import LIST_FROM_DOMINOES, STRUCTURAL_WORK_BUDGET
    from pipscover.counting.budget import INTERRUPT, NODE_BUDGET, Budget
    from pipscover.counting.structural import StructuralCounter

    def whole() -> CountResult:
        return count(puzzle, timeout=None if deadline is None else deadline - start, start=start,
                     memory=memory, on_progress=on_progress)

    if len(puzzle.dominoes) < LIST_FROM_DOMINOES:
        return whole()
    try:
        modulus = Modulus.of(puzzle)
    except TooBig:
        return whole()
    try:
        found = StructuralCounter(puzzle).count(Budget(start, deadline, memory),
                                                STRUCTURAL_WORK_BUDGET // len(puzzle.cells))
    except CountInterrupted as stop:
        if stop.result.stopped_by == NODE_BUDGET:
            return _short_sweep(puzzle, modulus, deadline, memory, start)
        if stop.result.stopped_by == INTERRUPT:
            raise
        return _named_auto(CountResult(stop.result.count, False, Distinct.PLACEMENTS, "structural", None,
                                       time.monotonic() - start, stop.result.stopped_by))
    return _named_auto(_result(found, True, start, None, method="structural"))


def _short_sweep(puzzle: Puzzle, modulus: Modulus, deadline: float | None, memory: int | None,
                 start: float) -> CountResult | _Split:
    """Inclusion-exclusion's count in this process when its sweep is short (`LOCAL_SWEEP_WORK`); else the
    split, with the sweep when it was built here (within `LOCAL_BUILD_SECONDS` and the memory cap)."""
    build_by = time.monotonic() + LOCAL_BUILD_SECONDS
    try:
        sweep = build_sweep(puzzle, build_by if deadline is None else min(deadline, build_by), memory)
    except (SearchTimeout, MemoryCapReached):
        if has_passed(deadline):
            return _named_auto(_result(0, False, start, None, "timeout"))
        return _Split(modulus, None)
    sweep = with_fewest_primes(puzzle, sweep)  # as each worker would take them
    modulus = Modulus.of_points(sweep.points)
    if sweep.points.count * len(sweep.sources) > LOCAL_SWEEP_WORK:
        return _Split(modulus, sweep)
    try:
        total = sweep_total(sweep, deadline, memory_cap=memory)
    except SearchTimeout:
        return _named_auto(_result(0, False, start, None, "timeout"))
    except MemoryCapReached:
        return _named_auto(_result(0, False, start, None, "memory"))
    return _named_auto(_result(modulus.count(total), True, start, None))


def _named_auto(result: CountResult) -> CountResult:
    return replace(result, method=f"auto:{result.method}")


def _result(found: int, exact: bool, start: float, backend: str | None, stopped_by: str | None = None,
            method: str = METHOD) -> CountResult:
    return CountResult(found, exact, Distinct.PLACEMENTS, method, backend, time.monotonic() - start, stopped_by)

