"""Timing a backend on many puzzles in one process: what `pipscover bench` prints.

A benchmark runs one `Task` (what is timed on one puzzle, see `pipscover.bench.tasks`) on every puzzle,
`repeat` times over. A puzzle's time is the median of its runs, and the benchmark's total the median of the
per-run totals, so one slow spell of a loaded machine does not decide the figures. Puzzles are read before the
clock starts; building the formulation is part of a puzzle's time, as a user sees it.
"""

from __future__ import annotations

import os
import statistics
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from pipscover.bench.tasks import TASKS
from pipscover.counting import CountInterrupted
from pipscover.engines import DEFAULT_BACKEND, Backend, BackendName, get_backend
from pipscover.errors import PipsError, counted
from pipscover.model import Puzzle
from pipscover.model.results import SearchGaveUp, SearchTimeout
from pipscover.runtime.deadlines import deadline_after


def cpu_seconds() -> float:
    """CPU time of this process (fine-grained) and of its finished children (SAT backends with a deadline solve
    in a worker process; the kernel counts those in clock ticks only)."""
    children = os.times()
    return time.process_time() + children.children_user + children.children_system


CLOCKS: dict[str, Callable[[], float]] = {"wall": time.perf_counter, "cpu": cpu_seconds}


@dataclass(frozen=True)
class PuzzleTime:
    """One puzzle's time (the median of its runs) and the outcome of its last run."""

    puzzle: Puzzle
    seconds: float
    outcome: str


@dataclass(frozen=True)
class BenchResult:
    """The times of one task by one backend on a list of puzzles."""

    task: str
    backend: str
    clock: str
    times: tuple[PuzzleTime, ...]
    run_totals: tuple[float, ...]
    interrupted: bool = False  # Ctrl-C stopped it: the figures cover the puzzles timed until then

    @property
    def total(self) -> float:
        """The median, over the runs, of the time for all puzzles."""
        return statistics.median(self.run_totals)

    @property
    def median(self) -> float:
        return statistics.median(timing.seconds for timing in self.times)

    @property
    def worst(self) -> PuzzleTime:
        return max(self.times, key=lambda timing: timing.seconds)

    @property
    def puzzles_per_second(self) -> float:
        return len(self.times) / self.total if self.total > 0 else float("inf")

    @property
    def outcomes(self) -> dict[str, int]:
        return dict(Counter(timing.outcome for timing in self.times))

    def as_json(self) -> dict[str, Any]:
        return {
            "task": self.task,
            "backend": self.backend,
            "clock": self.clock,
            "puzzles": len(self.times),
            "repeat": len(self.run_totals),
            "seconds": self.total,  # every command's time key; here the total (the median of the runs' totals)
            "run_totals": list(self.run_totals),
            "median_puzzle_seconds": self.median,
            "worst_puzzle_seconds": self.worst.seconds,
            "worst_puzzle": self.worst.puzzle.origin.as_json(),
            "puzzles_per_second": self.puzzles_per_second,
            "outcomes": self.outcomes,
            "interrupted": self.interrupted,
            "times": [
                {"puzzle": timing.puzzle.origin.as_json(), "seconds": timing.seconds, "outcome": timing.outcome}
                for timing in self.times
            ],
        }

    def summary(self) -> str:
        """A few lines for people: total, median, worst, rate and outcomes."""
        runs = len(self.run_totals)
        total = f"total   {self.total:.3f} s"
        if runs > 1:
            total += f"  (median of {runs:,} runs: {', '.join(f'{t:.3f}' for t in self.run_totals)})"
        outcomes = ", ".join(f"{count:,} {outcome}" for outcome, count in sorted(self.outcomes.items()))
        stopped = " (stopped by Ctrl-C: the puzzles timed until then)" if self.interrupted else ""
        return "\n".join([
            (f"{counted(len(self.times), 'puzzle')}, {TASKS[self.task].description} by {self.backend} "
             f"({self.clock} clock){stopped}"),
            total,
            f"median  {self.median * 1000:.2f} ms per puzzle",
            f"worst   {self.worst.seconds * 1000:.2f} ms  {self.worst.puzzle.describe()}",
            f"rate    {self.puzzles_per_second:.1f} puzzles/s",
            f"outcome {outcomes}",
        ])


def benchmark(
    puzzles: Sequence[Puzzle],
    backend: BackendName | Backend = DEFAULT_BACKEND,
    task: str = "first",
    repeat: int = 1,
    timeout: float | None = None,
    clock: str = "wall",
    on_puzzle: Callable[[], None] | None = None,
) -> BenchResult:
    """Time `task` on every puzzle, `repeat` times over; `on_puzzle()` is called after each puzzle run.

    >>> from pipscover import load
    >>> result = benchmark(load("examples/first.txt"), "dlx", repeat=2)
    >>> len(result.run_totals), result.outcomes
    (2, {'solved': 1})
    """
    if task not in TASKS:
        raise PipsError(f"unknown benchmark task {task!r}; choose one of: {', '.join(TASKS)}")
    if clock not in CLOCKS:
        raise PipsError(f"unknown clock {clock!r}; choose one of: {', '.join(CLOCKS)}")
    if not puzzles:
        raise PipsError("no puzzles to benchmark")
    if repeat < 1:
        raise PipsError(f"repeat must be at least 1, not {repeat}")
    engine = get_backend(backend)
    run, now = TASKS[task].run, CLOCKS[clock]
    runs: list[list[float]] = []
    run_outcomes: list[list[str]] = []
    interrupted = False
    for _ in range(repeat):
        seconds: list[float] = []
        outcomes: list[str] = []
        runs.append(seconds)
        run_outcomes.append(outcomes)
        for puzzle in puzzles:
            deadline = deadline_after(timeout)
            start = now()
            try:
                outcome = run(puzzle, engine, deadline)
            except SearchGaveUp:
                outcome = "unknown"
            except SearchTimeout:
                outcome = "timeout"
            except (KeyboardInterrupt, CountInterrupted):
                interrupted = True
                break
            seconds.append(now() - start)
            outcomes.append(outcome)
            if on_puzzle is not None:
                on_puzzle()
        if interrupted:
            break
    if interrupted and len(runs) > 1:  # a run cut short would bias the medians: keep the whole runs
        runs.pop()
        run_outcomes.pop()
    if not runs[0]:
        raise KeyboardInterrupt  # stopped before a single puzzle was timed: nothing to report
    times = tuple(
        PuzzleTime(puzzle, statistics.median(run_times), outcome)
        for puzzle, run_times, outcome in zip(puzzles, zip(*runs), run_outcomes[-1])
    )
    return BenchResult(task, TASKS[task].engine(engine), clock, times, tuple(sum(seconds) for seconds in runs),
                       interrupted)
