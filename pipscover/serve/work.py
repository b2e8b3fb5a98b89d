"""Where the page's heavy questions (hints, checks, reveals, counts) run: in worker processes, apart from the
event loop and the threads that serve the page's files and light questions, so those never wait behind them.

At most `WORKERS` run at once and `WAITING` more wait; past that a question is refused at once (`Full`: a
503 with Retry-After) rather than queued for longer than its deadline. A question asked again while it is
worked on (the same puzzle and position, as a reloaded page asks it) waits for the same answer rather than
taking a place of its own: a page reloaded eight times on a large puzzle once filled every place with its
own minute-long counts, and the server answered nothing else until they ended. Each question runs in a fresh process
forked from a server process that has the library loaded already (`PRELOAD`: a few milliseconds), so the memory a
large count takes goes back when it ends, and no state is shared between questions. Deadlines are given as
`time.monotonic()` instants counted from the request's arrival: time spent waiting counts.
"""

from __future__ import annotations

import asyncio
import multiprocessing
from collections.abc import Callable, Hashable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

from pipscover.errors import PipsError

Answer = TypeVar("Answer")
WORKERS = 2  # questions running at once (one per core of a small machine)
WAITING = 6  # questions waiting for a worker; more are refused
RETRY_AFTER = 2  # seconds a refused page is asked to wait
# What the questions use, imported once by the process the workers are forked from: the library imports the
# counters, the solvers and pysat's encoders on first use, which in a fresh process per question was 40-90 ms
# of a question's 50-150 ms of CPU on the page's own puzzles. (tests/test_serve.py checks that a question
# imports nothing more.)
PRELOAD = ["pipscover.serve.play", "pipscover.counting.auto", "pipscover.counting.structural",
           "pipscover.counting.grids", "pipscover.engines.auto", "pipscover.engines.sat_enumeration",
           "pipscover.cnf.placements", "pysat.card", "pysat.pb"]


class Full(PipsError):
    """Too many heavy questions at once (HTTP 503 with Retry-After)."""


class Work:
    """The worker processes and the count of questions running or waiting (only the event loop changes it)."""

    def __init__(self, workers: int = WORKERS, waiting: int = WAITING) -> None:
        self.workers, self.limit, self.pending = workers, workers + waiting, 0
        self._pool, self._closed = self._start(), False
        self._asked: dict[Hashable, asyncio.Future[Any]] = {}  # the questions being worked on, by name

    def _start(self) -> ProcessPoolExecutor:
        context = multiprocessing.get_context("forkserver")
        context.set_forkserver_preload(PRELOAD)
        return ProcessPoolExecutor(self.workers, mp_context=context, max_tasks_per_child=1)

    async def run(self, function: Callable[..., Answer], *arguments: Any, asked: Hashable = None) -> Answer:
        """`function(*arguments)` in a worker; `Full` when too many questions are running or waiting. `asked`
        names the question: while one of that name is worked on, a second waits for its answer."""
        if asked is None:
            return await self._run(function, *arguments)
        answer = self._asked.get(asked)
        if answer is None:
            answer = self._asked[asked] = asyncio.ensure_future(self._run(function, *arguments))
            answer.add_done_callback(lambda done: self._forget(asked, done))
        return await asyncio.shield(answer)  # a client gone does not cancel the answer others wait for

    def _forget(self, asked: Hashable, done: asyncio.Future[Any]) -> None:
        del self._asked[asked]
        if not done.cancelled():
            done.exception()  # retrieved here: an answer every asker left is not an unhandled error

    async def _run(self, function: Callable[..., Answer], *arguments: Any) -> Answer:
        if self._closed:
            raise Full("the server is stopping")
        if self.pending >= self.limit:
            raise Full(f"{self.pending} questions are being worked on; ask again in {RETRY_AFTER} s")
        self.pending += 1
        try:
            future = self._pool.submit(function, *arguments)
            return await asyncio.wrap_future(future)
        except BrokenProcessPool:  # a worker was killed: the pool takes no more work, a new one does
            if self._closed:
                raise Full("the server is stopping") from None
            self._pool = self._start()
            raise Full(f"a worker stopped (out of memory?); ask again in {RETRY_AFTER} s") from None
        except asyncio.CancelledError:  # a question still waiting is cancelled by `close`, not by its client
            if self._closed and future.cancelled():
                raise Full("the server is stopping") from None
            raise
        finally:
            self.pending -= 1

    def close(self) -> None:
        """Take no more questions and end the ones being worked on: a count would otherwise go on in its
        process, after the server has stopped, until its deadline.

        The pool's own table of processes is read after its shutdown, not copied before: a worker that ends
        its question starts its replacement (one question per process), and one started after the copy could
        take a question already handed to the workers and count on, past the server."""
        self._closed = True
        processes = self._pool._processes  # the pool adds to this table until its shutdown, and never after
        self._pool.shutdown(wait=False, cancel_futures=True)
        for process in list((processes or {}).values()):
            process.terminate()
