"""What both splits of one count share (`pipscover.sweep.split_count`, `pipscover.sweep.split_structural`):
the work cut into chunks, and one loop that gathers the tasks' results from the cluster, one per task however
often it ran, and stops on the deadline, a worker past its memory cap or Ctrl-C."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from pipscover.counting.budget import INTERRUPT
from pipscover.counting.progress import ProgressCallback
from pipscover.errors import PipsError
from pipscover.model.results import CountInterrupted, CountResult, Distinct
from pipscover.runtime.deadlines import has_passed

if TYPE_CHECKING:
    from pipscover.sweep.cluster import DaskEngine

# Chunks of the work: the structural split's batches of positions.
CHUNKS = 64
# inclusion-exclusion's smallest chunk, a 128th of the points (planted 6 x 6's: about a seventh of a second,
# idle), so that the workers' last chunks end close together: each worker holds one chunk more than it
# sweeps, so its last two may be the last it got.
SMALLEST_CHUNK = 128
# inclusion-exclusion's largest chunk, a 16th of the points: what a worker sweeps again after a worker is
# killed (and went on sweeping after Ctrl-C, before a cancelled task stopped itself: `cluster.stop_if_cancelled`).
LARGEST_CHUNK = 16


def chunks_of(points: int, chunks: int = CHUNKS) -> list[range]:
    """`points` cut into at most `chunks` consecutive ranges of sizes that differ by at most one."""
    chunks = min(chunks, points)
    return [range(points * i // chunks, points * (i + 1) // chunks) for i in range(chunks)]


def shrinking_chunks(points: int, slots: int, chunks: int = SMALLEST_CHUNK) -> list[range]:
    """`points` cut into consecutive ranges that shrink as the sum proceeds (guided self-scheduling): each
    takes what is left shared among twice `slots` (the tasks that run at once), at most `points /
    LARGEST_CHUNK`, down to `points / chunks`, the last ones that size or less. Few chunks, so few tasks
    (each costs the scheduler, the worker and the client messages; without a task waiting its turn on the
    worker, a round trip through the scheduler and the client between one chunk and the next, tens of ms),
    and a short tail, the workers' last chunks small."""
    smallest, largest = max(points // chunks, 1), max(points // LARGEST_CHUNK, 1)
    cut: list[range] = []
    begin = 0
    while begin < points:
        end = min(begin + max(smallest, min(largest, (points - begin) // (2 * max(slots, 1)))), points)
        cut.append(range(begin, end))
        begin = end
    return cut


def gather(engine: DaskEngine, method: str, task: Callable[..., Any], arguments: list[tuple], memory: int | None,
           deadline: float | None, start: float, on_progress: ProgressCallback | None,
           bound: Callable[[dict[int, Any]], int],
           sizes: Sequence[int] | None = None) -> tuple[dict[int, Any], str | None]:
    """`task(*arguments[i], memory=memory)` for each i on `engine`'s cluster, no more at once than it has cores:
    the result of each (one per task, however often it ran), and None, or what stopped them first ("timeout",
    "memory"; the tasks left are cancelled). `bound(results so far)` is the count the progress shows, and the
    share done the tasks' `sizes` finished (default: one each). Ctrl-C raises `CountInterrupted` with that
    bound, not exact."""
    results: dict[int, Any] = {}
    sizes = sizes or [1] * len(arguments)
    labels = [f"{index}-of-{len(arguments)}" for index in range(len(arguments))]
    try:
        for finished in engine.tasks(f"count-{method}", task, arguments, labels, per_core=True,
                                     memory=memory):
            if finished is None:  # a poll: the clock, the progress
                if has_passed(deadline):
                    return results, "timeout"
                if on_progress is not None:
                    on_progress(bound(results), sum(sizes[index] for index in results) / sum(sizes))
                continue
            index, status, result = finished
            if status != "finished":
                return results, _failed(result)
            results.setdefault(index, result)
    except KeyboardInterrupt:
        raise CountInterrupted(CountResult(bound(results), False, Distinct.PLACEMENTS, method, engine.backend(),
                                           time.monotonic() - start, INTERRUPT)) from None
    return results, None


def _failed(error: BaseException) -> str:
    """A task's failure: a worker past its memory cap stops the count (what stopped it); anything else is raised."""
    if isinstance(error, CountInterrupted):
        return error.result.stopped_by or "memory"
    if isinstance(error, PipsError):
        raise error
    raise PipsError(f"a task of the split count failed on the cluster: {error!r}")
