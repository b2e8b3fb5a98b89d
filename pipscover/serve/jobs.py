"""Puzzles being generated for the page: each in a thread of its own, bounded by the generator's timeout,
asked about by id until it is done (the page shows the time so far as its progress)."""

from __future__ import annotations

import itertools
import threading
import time
from dataclasses import dataclass, field, replace
from typing import Any

from pipscover.errors import PipsError, shown
from pipscover.generate.generator import GeneratedPuzzle, generate
from pipscover.model.results import SearchTimeout
from pipscover.serve.play import view

SECONDS = 120.0  # the generator's timeout for one puzzle
RUNNING = 2  # at most this many at once (one per core of a small machine)
KEPT = 20  # finished jobs remembered for the page to collect
SIZES = range(2, 41)  # dominoes the page may ask for (40 takes about 20 s)


@dataclass
class Job:
    dominoes: int
    difficulty: str | None
    seed: int
    started: float = field(default_factory=time.monotonic)
    finished: float | None = None
    result: dict[str, Any] | None = None
    error: str | None = None

    def as_json(self) -> dict[str, Any]:
        status = "running" if self.finished is None else "failed" if self.error else "done"
        seconds = (self.finished or time.monotonic()) - self.started
        document: dict[str, Any] = {"status": status, "seconds": round(seconds, 1), "dominoes": self.dominoes,
                                    "difficulty": self.difficulty, "seed": self.seed, "limit": SECONDS}
        if self.error:
            document["error"] = self.error
        if self.result:
            document["puzzle"] = self.result
        return document


class Jobs:
    """The generator's jobs by id; thread-safe."""

    def __init__(self) -> None:
        self._jobs: dict[str, Job] = {}
        self._lock = threading.Lock()
        self._ids = itertools.count(1)

    def start(self, dominoes: int, difficulty: str | None, seed: int) -> str:
        """Start making a puzzle; `PipsError` when the size is not offered or too many are being made."""
        if dominoes not in SIZES:
            raise PipsError(f"dominoes must be from {SIZES.start} to {SIZES.stop - 1}, not {shown(dominoes)}")
        with self._lock:
            if sum(job.finished is None for job in self._jobs.values()) >= RUNNING:
                raise Busy(f"{RUNNING} puzzles are being made already; wait for one to finish")
            done = [name for name, job in self._jobs.items() if job.finished is not None]
            for name in done[: max(0, len(done) - KEPT + 1)]:
                del self._jobs[name]
            name = str(next(self._ids))
            job = self._jobs[name] = Job(dominoes, difficulty, seed)
        threading.Thread(target=self._run, args=(job,), name=f"generate-{name}", daemon=True).start()
        return name

    def status(self, name: str) -> dict[str, Any] | None:
        with self._lock:
            job = self._jobs.get(name)
            return None if job is None else job.as_json()

    @staticmethod
    def _run(job: Job) -> None:
        try:
            made = generate(dominoes=job.dominoes, seed=job.seed, difficulty=job.difficulty, timeout=SECONDS)
            job.result = made_view(made)
        except SearchTimeout:
            job.error = f"No puzzle was found within {SECONDS:g} s; try fewer dominoes or another difficulty."
        except PipsError as error:  # the page's words: no command's name before it, a full stop after it
            said = str(error).removeprefix("generate: ")
            job.error = said if said.endswith(".") else said + "."
        finally:
            job.finished = time.monotonic()


def made_view(made: GeneratedPuzzle) -> dict[str, Any]:
    """A new puzzle for the page: the difficulty asked (its origin's; None: any) beside the one it rated, in its
    title and its fields. Titled "(easy)" alone, as a day is, it read as the player's choice when any had been
    asked, and the page moved its day's difficulty buttons to it."""
    puzzle, rated = made.puzzle, made.difficulty
    asked = puzzle.origin.difficulty
    name = replace(puzzle.origin, difficulty=None).describe()
    title = f"{name} (rated {rated}, as asked)" if asked else f"{name} (rated {rated}; any difficulty asked)"
    return {**view(puzzle), "title": title, "asked": asked, "rating": rated}


class Busy(PipsError):
    """Too many jobs at once: the page should wait (HTTP 429)."""
