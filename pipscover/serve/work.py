"""Where the page's heavy questions (hints, checks, reveals, counts) run: in processes of their own, apart from
the event loop and the threads that serve the page's files and light questions, so those never wait behind them.

At most `WORKERS` run at once and `WAITING` more wait; past that a question is refused at once (`Full`: a
503 with Retry-After) rather than queued for longer than its deadline. A question asked again while it is
worked on (the same puzzle and position, as a reloaded page asks it) waits for the same answer rather than
taking a place of its own: a page reloaded eight times on a large puzzle once filled every place with its
own minute-long counts, and the server answered nothing else until they ended. Each question runs in a fresh
process forked from a server process that has the library loaded already (`PRELOAD`: a few milliseconds), so
the memory a large count takes goes back when it ends, and no state is shared between questions. A question
nobody waits for any more (cancelled: the page's server cancels it when its client goes) has its process
killed and gives its place up (a named one, `ASKED_AGAIN` seconds later): a closed tab's count held its
place for up to its minute. Deadlines are given as `time.monotonic()` instants counted from the request's
arrival: time spent waiting counts.

The processes are started one per question here, not by a `ProcessPoolExecutor`: a pool cannot end one of its
questions without breaking the others, and its `shutdown(wait=False)` raced the thread that replaces a worker
after each question (`max_tasks_per_child`), which then printed a TypeError as the server stopped (CPython
issue 119592, unfixed in 3.11).
"""

from __future__ import annotations

import asyncio
import multiprocessing
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from typing import Any, TypeVar

from pipscover.errors import PipsError

Answer = TypeVar("Answer")
WORKERS = 2  # questions running at once (one per core of a small machine)
WAITING = 6  # questions waiting for a worker; more are refused
RETRY_AFTER = 2  # seconds a refused page is asked to wait
# Seconds a named question goes on after its last asker has gone: a page reloaded asks its questions again
# within a second, and waits for the count under way (or takes its answer) rather than starting it over.
ASKED_AGAIN = 2.0
# What the questions use, imported once by the process the workers are forked from: the library imports the
# counters, the solvers and pysat's encoders on first use, which in a fresh process per question was 40-90 ms
# of a question's 50-150 ms of CPU on the page's own puzzles. (tests/test_serve.py checks that a question
# imports nothing more.)
PRELOAD = ["pipscover.serve.play", "pipscover.counting.auto", "pipscover.counting.structural",
           "pipscover.counting.grids", "pipscover.engines.auto", "pipscover.engines.sat_enumeration",
           "pipscover.cnf.placements", "pysat.card", "pysat.pb"]


class Full(PipsError):
    """Too many heavy questions at once (HTTP 503 with Retry-After)."""


STOPPING = "the server is stopping"


class Work:
    """The questions' processes and the count of questions running or waiting (only the event loop changes
    them)."""

    def __init__(self, workers: int = WORKERS, waiting: int = WAITING) -> None:
        self.workers, self.limit, self.pending = workers, workers + waiting, 0
        self._context = multiprocessing.get_context("forkserver")
        self._context.set_forkserver_preload(PRELOAD)
        self._places = asyncio.Semaphore(workers)
        self._running: set[BaseProcess] = set()  # the processes of the questions being worked on
        self._spares: list[tuple[BaseProcess, Connection]] = []  # processes waiting for a question (`_replenish`)
        self._closed = False
        self._asked: dict[Hashable, _Asked] = {}  # the questions being worked on, by name
        self._starting: asyncio.Future[None] | None = None  # the fork server and first spare (`start`)

    def start(self) -> None:
        """Start the fork server, which imports `PRELOAD` (0.2-0.5 s), and the first spare process, in a thread,
        as the server starts: left to the first question, it held the event loop, and every answer with it,
        while the page's first requests were coming in."""
        self._starting = asyncio.ensure_future(self._first_spare())

    async def _first_spare(self) -> None:
        try:
            spare = await asyncio.to_thread(self._start)
        finally:
            self._starting = None
        if self._closed:
            _kill(spare[0])
            spare[1].close()
        else:
            self._spares.append(spare)

    async def run(self, function: Callable[..., Answer], *arguments: Any, asked: Hashable = None) -> Answer:
        """`function(*arguments)` in a process of its own; `Full` when too many questions are running or
        waiting. `asked` names the question: while one of that name is worked on, a second waits for its
        answer; cancelled by all who asked it (their clients gone), it is cancelled `ASKED_AGAIN` seconds later,
        unless asked again meanwhile, and its place is free."""
        if asked is None:
            return await self._run(function, *arguments)
        shared = self._asked.get(asked)
        if shared is None:
            shared = self._asked[asked] = _Asked(asyncio.ensure_future(self._run(function, *arguments)))
        shared.askers += 1
        try:
            return await asyncio.shield(shared.answer)  # one asker gone does not cancel the answer others wait for
        finally:
            shared.askers -= 1
            if not shared.askers:
                if shared.answer.done():
                    del self._asked[asked]
                else:  # nobody waits for it any more, unless it is asked again soon
                    asyncio.get_running_loop().call_later(ASKED_AGAIN, self._abandon, asked, shared)

    def _abandon(self, asked: Hashable, shared: _Asked) -> None:
        """Forget the question, and cancel it, unless it has been asked again since its last asker left."""
        if not shared.askers and self._asked.get(asked) is shared:
            del self._asked[asked]
            shared.answer.cancel()

    async def _run(self, function: Callable[..., Answer], *arguments: Any) -> Answer:
        if self._closed:
            raise Full(STOPPING)
        if self.pending >= self.limit:
            raise Full(f"{self.pending} questions are being worked on; ask again in {RETRY_AFTER} s")
        self.pending += 1
        try:
            async with self._places:
                if self._closed:  # (while it waited for a place)
                    raise Full(STOPPING)
                return await self._in_process(function, arguments)
        finally:
            self.pending -= 1

    async def _in_process(self, function: Callable[..., Answer], arguments: tuple[Any, ...]) -> Answer:
        """`function(*arguments)` in a process of its own (a spare if there is one), which is killed once it has
        answered, or when the question is cancelled or the server stops."""
        if self._starting is not None:  # (shielded: a question cancelled does not cancel the start)
            await asyncio.shield(self._starting)
        process, connection = self._spares.pop(0) if self._spares else self._start()  # the oldest: the readiest
        self._running.add(process)
        asyncio.get_running_loop().call_soon(self._replenish)
        try:
            connection.send((function, arguments))
            await _readable(connection)
            answered, answer = connection.recv()
        except (EOFError, OSError):  # the process ended without an answer (killed): its pipe closed or reset
            if self._closed:
                raise Full(STOPPING) from None
            raise Full(f"a worker stopped (out of memory?); ask again in {RETRY_AFTER} s") from None
        finally:
            self._running.discard(process)
            connection.close()
            _end(process, then=self._replenish)  # (an answered question's process is ending of itself)
        if not answered:
            raise answer
        return answer

    def _start(self) -> tuple[BaseProcess, Connection]:
        """A new process waiting for its question, and the server's end of its pipe."""
        ours, theirs = self._context.Pipe()
        process = self._context.Process(target=_answer, args=(theirs,), name="question")
        process.start()
        theirs.close()  # (the process has its own): the pipe ends when the process does
        return process, ours

    def _replenish(self) -> None:
        """Spare processes, started for the questions to come, one for each place free: a process forked from
        the preloaded one takes 30-60 ms to be ready for its question, and a hint takes 5 ms to answer."""
        while not self._closed and len(self._spares) + len(self._running) < self.workers:
            self._spares.append(self._start())

    def close(self) -> None:
        """Take no more questions and end the ones being worked on (each is answered `Full`) and the spare
        processes: a count would otherwise go on in its process, after the server has stopped, until its
        deadline."""
        self._closed = True
        for process in [*self._running, *(spare for spare, _ in self._spares)]:
            _kill(process)


@dataclass
class _Asked:
    """A question being worked on, and how many wait for its answer."""

    answer: asyncio.Future[Any]
    askers: int = 0


def _answer(connection: Connection) -> None:
    """A question's process: wait for its question, (function, arguments), and send back (True, its answer) or
    (False, the error it raised). A server gone before asking (its end of the pipe closed) asks nothing."""
    try:
        function, arguments = connection.recv()
    except EOFError:
        return
    try:
        answer = (True, function(*arguments))
    except Exception as error:  # noqa: BLE001 - raised by the server, as the question's answer
        answer = (False, error)
    connection.send(answer)


def _kill(process: BaseProcess) -> None:
    """Kill the process unless it has ended (its number may then be another process's)."""
    if process.is_alive():
        process.kill()


def _end(process: BaseProcess, then: Callable[[], None]) -> None:
    """Kill the process, and once it has ended let go of it and call `then`, without waiting for that here:
    the answer is sent meanwhile (waiting for it here added 20-30 ms to every answer, and starting the next
    spare process before the answer 2 ms)."""
    _kill(process)
    loop = asyncio.get_running_loop()

    def ended() -> None:
        loop.remove_reader(process.sentinel)
        process.join()
        process.close()
        then()

    loop.add_reader(process.sentinel, ended)


async def _readable(source: Connection) -> None:
    """Until the pipe's end `source` has something to read, or its writer has ended."""
    loop = asyncio.get_running_loop()
    ready: asyncio.Future[None] = loop.create_future()

    def readable() -> None:  # (called again at each turn of the loop until the reader is removed)
        if not ready.done():
            ready.set_result(None)

    loop.add_reader(source, readable)
    try:
        await ready
    finally:
        loop.remove_reader(source)
