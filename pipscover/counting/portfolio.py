"""A race of counting methods in forked workers: the first exact count wins and the others are killed.

The counting methods have opposite strengths (the structural counter on astronomically many solutions,
listing by SAT with blocking clauses on few; `encodings/counting.md`), and which one a puzzle wants shows only
once they run. Racing them on the machine's two cores costs at most about twice the faster one, and a method
that thrashes costs nothing more. The workers are those of `pipscover.runtime.stoppable.race` (forked so that
they also start in a daemonic pool worker, killed with everything they forked, Ctrl-C left to the caller).
A racer that stops before its count is exact (its memory cap, its deadline) gives way: it drops out, and the
largest lower bound of those that gave way is the answer only when no racer finishes; its `stopped_by` is
what ended the whole count, the deadline or the stop of the last racer to give way, whichever racer
found the bound (a racer that hit its memory share early says nothing of why the count ended). Ctrl-C is passed on to
the racers, and the largest lower bound they had found is raised with it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import replace
from functools import partial

from pipscover.counting.budget import INTERRUPT, TIMEOUT
from pipscover.counting.progress import ProgressCallback
from pipscover.model.results import CountInterrupted, CountResult, SearchTimeout
from pipscover.runtime.stoppable import race, report

GRACE = 1.0  # seconds past the deadline a racer has to send its lower bound before all are killed

Racer = Callable[[], CountResult]


class GaveWay(Exception):
    """A racer stopped before its count was exact; `result` is its lower bound."""

    def __init__(self, result: CountResult) -> None:
        super().__init__(result)
        self.result = result


def racer_progress(found: int, fraction: float | None) -> None:
    """The `on_progress` of a racer: its progress, sent to the `race_counts` that runs it (from a worker
    process, a few times a second)."""
    report((found, fraction))


def race_counts(racers: Mapping[str, Racer], deadline: float | None,
                on_progress: ProgressCallback | None = None) -> CountResult | None:
    """The first exact count any racer returns; else the largest lower bound of the racers that gave way (None
    when none did before the deadline and its grace passed: a racer that cannot stop itself, a SAT solver in a
    C call, is killed then). The error of the last racer to fail is raised. Ctrl-C stops every racer: the
    largest lower bound that they give within `GRACE` seconds is raised as `CountInterrupted` (else the
    KeyboardInterrupt itself), and every worker is killed. The racers' progress (`racer_progress`) goes to
    `on_progress` as the most any racer has found and the largest share any has done."""
    bounds: list[CountResult] = []
    progress: dict[str, tuple[int, float | None]] = {}

    def gave_way(_name: str, error: Exception) -> None:
        if isinstance(error, GaveWay | CountInterrupted):
            bounds.append(error.result)

    def reported(name: str, news: tuple[int, float | None]) -> None:
        progress[name] = news
        if on_progress is not None:
            shares = [share for _, share in progress.values() if share is not None]
            on_progress(max(found for found, _ in progress.values()), max(shares, default=None))

    producers = {name: partial(_exact_or_give_way, racer) for name, racer in racers.items()}
    try:
        return next(race(producers, None if deadline is None else deadline + GRACE, on_drop=gave_way,
                         interrupt_grace=GRACE, on_report=reported))
    except KeyboardInterrupt:
        if not bounds:
            raise
        best = max(bounds, key=lambda bound: bound.count)
        raise CountInterrupted(replace(best, stopped_by=INTERRUPT)) from None
    except GaveWay as stop:  # every racer gave way: the last one's stop ended the count
        bounds.append(stop.result)
        ended_by = stop.result.stopped_by
    except SearchTimeout:  # the deadline ended the count (the racers still running were killed)
        ended_by = TIMEOUT
    largest = max(bounds, key=lambda bound: bound.count, default=None)
    return None if largest is None else replace(largest, stopped_by=ended_by)


def _exact_or_give_way(racer: Racer) -> Iterator[CountResult]:
    """In the worker: the racer's count as the one item `race` hands over, if it is exact."""
    result = racer()
    if not result.exact:
        raise GaveWay(result)
    yield result
