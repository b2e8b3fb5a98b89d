"""What both splits of one count share (`pipscover.sweep.split_count`, `pipscover.sweep.split_structural`):
the work cut into chunks, and one loop that gathers the tasks' results from the cluster, one per task however
often it ran, and stops on the deadline, a worker past its memory cap or Ctrl-C."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from pipscover.counting.budget import INTERRUPT
from pipscover.counting.progress import ProgressCallback
from pipscover.errors import PipsError
from pipscover.model.results import CountInterrupted, CountResult, Distinct
from pipscover.runtime.deadlines import has_passed

if TYPE_CHECKING:
    from pipscover.sweep.cluster import DaskEngine

# Chunks of the work: planted 6 x 6's points in chunks of about a second each, so that a task cancelled or
# lost costs little and the chunks spread evenly over the workers.
CHUNKS = 64


def chunks_of(points: int, chunks: int = CHUNKS) -> list[range]:
    """`points` cut into at most `chunks` consecutive ranges of sizes that differ by at most one."""
    chunks = min(chunks, points)
    return [range(points * i // chunks, points * (i + 1) // chunks) for i in range(chunks)]


def gather(engine: DaskEngine, method: str, task: Callable[..., Any], arguments: list[tuple], memory: int | None,
           deadline: float | None, start: float, on_progress: ProgressCallback | None,
           bound: Callable[[dict[int, Any]], int]) -> tuple[dict[int, Any], str | None]:
    """`task(*arguments[i], memory=memory)` for each i on `engine`'s cluster, no more at once than it has cores:
    the result of each (one per task, however often it ran), and None, or what stopped them first ("timeout",
    "memory"; the tasks left are cancelled). `bound(results so far)` is the count the progress shows. Ctrl-C
    raises `CountInterrupted` with that bound, not exact."""
    results: dict[int, Any] = {}
    labels = [f"{index}-of-{len(arguments)}" for index in range(len(arguments))]
    try:
        for finished in engine.tasks(f"count-{method}", task, arguments, labels, per_core=True,
                                     memory=memory):
            if finished is None:  # a poll: the clock, the progress
                if has_passed(deadline):
                    return results, "timeout"
                if on_progress is not None:
                    on_progress(bound(results), len(results) / len(arguments))
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
