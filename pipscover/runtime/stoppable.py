"""Iterators that a deadline can stop even inside one long C call: made in a forked worker that is killed.

A SAT solver's search, a PySAT encoder or the loading of millions of clauses cannot be interrupted in this
process, so with a deadline the producer runs in a forked worker process, one item per request, and the
worker is killed once the deadline passes or the caller stops early. The fork costs a few milliseconds per
call, so without a deadline the items are made here. Used by the SAT backends and by blocking-clause counting;
`race` runs several producers at once (the counting race, `auto`'s racers), and `in_parallel` runs tasks a
few at a time in such workers (`count --jobs`).

Workers are forked with `os.fork`, not `multiprocessing.Process`, which refuses to start children in a
daemonic process: the worker processes of a stock Dask cluster are daemonic, and run these iterators too. On
Linux a worker is killed by the kernel when the thread that forked it dies (a Dask worker killed mid-job
leaves no search running); elsewhere it ends at its next answer, when the pipe is found closed.
"""

from __future__ import annotations

import gc
import os
import signal
import sys
import time
from collections.abc import Callable, Generator, Iterator, Mapping, Sequence
from contextlib import suppress
from functools import cache, partial
from typing import TYPE_CHECKING, Any, NamedTuple, NoReturn, TypeVar

from pipscover.runtime.deadlines import SearchTimeout, has_passed

if TYPE_CHECKING:  # multiprocessing loads when a worker starts, not with every command that might start one
    from multiprocessing.connection import Connection

LONGEST_WAIT = 3600.0  # seconds per wait for the worker: a far deadline (--timeout 1e308) must not overflow poll()

PR_SET_PDEATHSIG = 1  # prctl(2): the signal a process gets when the thread that forked it ends

Item = TypeVar("Item")


class _Worker(NamedTuple):
    """A forked worker process and this process's end of its pipe."""

    pid: int
    connection: Connection


def stoppable(produce: Callable[[], Iterator[Item]], deadline: float | None) -> Generator[Item, None, None]:
    """The items of `produce()`; with a deadline, made in a forked worker that is killed once it passes.

    The worker makes one item per request, so a caller that stops early (or closes the generator) leaves no
    work running. Raises `SearchTimeout` once `time.monotonic()` passes `deadline`; an exception in the worker
    is raised here.
    """
    yield from produce() if deadline is None else _in_worker(produce, deadline)


def race(producers: Mapping[str, Callable[[], Iterator[Item]]], deadline: float | None = None,
         on_winner: Callable[[str], None] | None = None,
         on_drop: Callable[[str, Exception], None] | None = None,
         interrupt_grace: float = 0.0,
         on_report: Callable[[str, Any], None] | None = None) -> Generator[Item, None, None]:
    """The items of whichever producer answers first (an item or its end); `on_winner(name)` learns which.

    Every producer runs in its own forked worker; once one answers, the others are killed, and the winner
    goes on making one item per request. A producer whose worker fails (an error, or death, e.g. out of
    memory) drops out of the race unless it is the last (`on_drop(name, error)` learns of it). Every worker
    is killed when the iterator ends, is closed, passes `deadline` (`SearchTimeout`) or is interrupted
    (Ctrl-C), so none is left behind. With an `interrupt_grace`, Ctrl-C before the first answer is passed on
    to the workers (as a KeyboardInterrupt in each), and what each of them raises within that many seconds
    goes to `on_drop` before the KeyboardInterrupt is raised here: a counter's partial count, say. What a
    producer sends with `report` before the first answer goes to `on_report(name, what)`: its progress.
    """
    if has_passed(deadline):
        raise SearchTimeout
    workers: dict[str, _Worker] = {}
    try:
        for name, produce in producers.items():
            workers[name] = _fork(partial(_serve, produce=produce))
        for worker in workers.values():
            worker.connection.send(True)
        try:
            name, answer = _first_answer(workers, deadline, on_drop, on_report)
        except KeyboardInterrupt:
            if interrupt_grace and on_drop is not None:
                _interrupt(workers, interrupt_grace, on_drop)
            raise
        for loser in [other for other in workers if other != name]:
            _stop(workers.pop(loser))
        if on_winner is not None:
            on_winner(name)
        kind, item = answer
        while kind == "item":
            yield item
            ours = workers[name].connection
            ours.send(True)
            kind = "report"
            while kind == "report":
                _wait([ours], deadline)
                kind, item = _answer(ours)
    finally:
        for worker in workers.values():
            _stop(worker)


def _first_answer(workers: dict[str, _Worker], deadline: float | None,
                  on_drop: Callable[[str, Exception], None] | None,
                  on_report: Callable[[str, Any], None] | None) -> tuple[str, tuple[str, Any]]:
    """The first worker to answer, and its answer (`race`); a worker that fails drops out unless it is the last
    (whose error is raised), and reports go to `on_report` on the way."""
    while True:
        ready = _wait([worker.connection for worker in workers.values()], deadline)
        name = next(name for name, worker in workers.items() if worker.connection is ready[0])
        try:
            answer = _answer(ready[0])
        except Exception as error:
            if len(workers) == 1:
                raise
            _stop(workers.pop(name))
            if on_drop is not None:
                on_drop(name, error)
            continue
        if answer[0] != "report":
            return name, answer
        if on_report is not None:
            on_report(name, answer[1])


def in_parallel(tasks: Sequence[Callable[[], Item]], jobs: int) -> Generator[Item, None, None]:
    """The results of `tasks` in the order given, run by `jobs` forked workers, each taking the next task
    as it finishes one (so a slow task holds up one worker, not the others).

    A task's error is raised here when its turn comes (after the results before it). Every worker is killed
    when the iterator ends, is closed or is interrupted (Ctrl-C, which the workers ignore), so none is left
    behind and none prints a traceback.
    """
    workers = [_fork(partial(_run_tasks, tasks=tasks)) for _ in range(min(jobs, len(tasks)))]
    idle, busy = list(workers), {}
    finished: dict[int, tuple[bool, Any]] = {}  # by task: (failed, its result or error)
    started = handed = 0
    try:
        while handed < len(tasks):
            while idle and started < len(tasks):
                worker = idle.pop()
                worker.connection.send(started)
                busy[worker.connection] = (worker, started)
                started += 1
            if handed not in finished:
                for connection in _wait(list(busy), None):
                    worker, index = busy.pop(connection)
                    finished[index] = _outcome(connection)
                    idle.append(worker)
                continue
            failed, result = finished.pop(handed)
            handed += 1
            if failed:
                raise result
            yield result
    finally:
        for worker in workers:
            _stop(worker)


def _outcome(connection: Connection) -> tuple[bool, Any]:
    """A task's answer as (failed, its result or error)."""
    try:
        return False, _answer(connection)[1]
    except Exception as error:  # noqa: BLE001 - raised in the task's turn
        return True, error


def _in_worker(produce: Callable[[], Iterator[Item]], deadline: float) -> Generator[Item, None, None]:
    return race({"worker": produce}, deadline)


def _interrupt(workers: Mapping[str, _Worker], grace: float, on_drop: Callable[[str, Exception], None]) -> None:
    """Interrupt every worker (SIGUSR1, which a worker takes as Ctrl-C) and hand what each raises within
    `grace` seconds to `on_drop`; a worker still in a long C call then is left to be killed. A report sent
    before the worker saw the signal may still be in the pipe: it is passed over, and what follows it read."""
    for worker in workers.values():
        with suppress(ProcessLookupError):
            os.kill(worker.pid, signal.SIGUSR1)
    waiting = dict(workers)
    until = time.monotonic() + grace
    with suppress(SearchTimeout):
        while waiting:
            for connection in _wait([worker.connection for worker in waiting.values()], until):
                name = next(name for name, worker in waiting.items() if worker.connection is connection)
                try:
                    kind, _ = _answer(connection)
                except Exception as error:  # noqa: BLE001 - what the worker stopped with
                    del waiting[name]
                    on_drop(name, error)
                    continue
                if kind != "report":  # an answer rather than an error: nothing to hand on
                    del waiting[name]


def _wait(connections: list, deadline: float | None) -> list:
    """The connections ready to read, once one is; raises `SearchTimeout` when `deadline` passes first.
    Waits in slices of at most `LONGEST_WAIT`, so that a far deadline (--timeout 1e308) cannot overflow."""
    from multiprocessing.connection import wait

    while True:
        remaining = _remaining(deadline)
        ready = wait(connections, None if remaining is None else min(remaining, LONGEST_WAIT))
        if ready:
            return ready


def _remaining(deadline: float | None) -> float | None:
    """Seconds left before `deadline` (None: no limit); raises `SearchTimeout` when none are."""
    if deadline is None:
        return None
    remaining = deadline - time.monotonic()
    if remaining <= 0:
        raise SearchTimeout
    return remaining


def _answer(connection) -> tuple[str, Any]:
    """A worker's answer, ("item", item), ("end", None) or ("report", what); its error is raised here."""
    try:
        kind, item = connection.recv()
    except EOFError:
        raise RuntimeError("the worker process died without an answer (out of memory?)") from None
    if kind == "error":
        raise item
    return kind, item


def _fork(serve: Callable[[Connection], None]) -> _Worker:
    """A worker process that runs `serve` on its end of the pipe; the child never returns from here."""
    from multiprocessing.connection import Pipe

    ours, theirs = Pipe()
    parent, prctl = os.getpid(), _prctl()
    # Ctrl-C reaches the whole process group, the caller handles it and kills its workers. Pressed as the
    # worker is born, it would interrupt Python's after-fork hooks there ("Exception ignored in _after_fork"):
    # it is held back until the worker ignores it (the caller gets it on the next line of its own). The mask
    # comes back whatever is raised meanwhile: a Ctrl-C pressed just before, raised in the fork, left this
    # thread blocking both signals for good, so that its later workers never heard the caller's Ctrl-C.
    mask = signal.pthread_sigmask(signal.SIG_BLOCK, ())  # (as it is)
    try:
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT, signal.SIGUSR1})
        pid = os.fork()
        if pid == 0:
            _become_worker(serve, ours, theirs, mask, parent, prctl)  # (never returns)
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, mask)
    theirs.close()
    return _Worker(pid, ours)


def _become_worker(serve: Callable[[Connection], None], ours: Connection, theirs: Connection,
                   mask: set[int | signal.Signals], parent: int, prctl: Callable[..., int] | None) -> NoReturn:
    """The forked child: `serve` on its end of the pipe, then out, never back into the caller's code."""
    try:
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        signal.signal(signal.SIGUSR1, signal.default_int_handler)  # the caller's Ctrl-C, passed on (`race`)
        # The caller's garbage collector callbacks (hypothesis times its collections, a Dask worker diagnoses
        # them) are its own bookkeeping. Run at the worker's collections, one could be where the Ctrl-C passed
        # on is raised, and an exception there is only printed ("Exception ignored in"): the worker went on.
        gc.callbacks.clear()
        # SIGINT stays blocked, not only ignored: PySAT installs its own handler for each solver call, and
        # the group's Ctrl-C would longjmp out of the worker's search (a solver deleted after that may crash).
        signal.pthread_sigmask(signal.SIG_SETMASK, {*mask, signal.SIGINT})
        ours.close()
        if prctl is not None:  # have the kernel kill this worker when the thread that forked it ends
            prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
        if prctl is None or os.getppid() == parent:  # else that thread ended before the request took effect
            serve(theirs)
    finally:
        os._exit(0)  # never back into the caller's code, its `finally` blocks or atexit handlers


@cache
def _prctl() -> Callable[..., int] | None:
    """Linux's prctl(2), loaded once in the parent (a worker should not pay for ctypes); None elsewhere."""
    if not sys.platform.startswith("linux"):
        return None
    import ctypes

    return ctypes.CDLL(None).prctl


def _stop(worker: _Worker) -> None:
    with suppress(ProcessLookupError):
        os.kill(worker.pid, signal.SIGKILL)
    os.waitpid(worker.pid, 0)
    worker.connection.close()


def report(what: Any) -> None:
    """In a worker of `race`, send `what` (progress, a few times a second at most) to the caller's `on_report`;
    nothing elsewhere."""
    if _reporting is not None:
        _reporting.send(("report", what))


_reporting: Connection | None = None  # in a worker of `race`: its end of the pipe


def _serve(connection: Connection, produce: Callable[[], Iterator]) -> None:
    """The worker's loop: wait for a request, answer with ("item", next item), ("end", None) or ("error", e)
    (and ("report", what) whenever the producer calls `report`)."""
    global _reporting
    _reporting = connection
    try:
        items = produce()
        while connection.recv():
            item = next(items, _END)
            if item is _END:
                connection.send(("end", None))
                return
            connection.send(("item", item))
    except Exception as error:  # noqa: BLE001 - handed to the caller, who raises it
        connection.send(("error", error))


def _run_tasks(connection: Connection, tasks: Sequence[Callable[[], Any]]) -> None:
    """An `in_parallel` worker's loop: wait for a task's number, answer with ("item", its result) or
    ("error", e)."""
    while True:
        task = tasks[connection.recv()]
        try:
            connection.send(("item", task()))
        except Exception as error:  # noqa: BLE001 - handed to the caller, who raises it
            connection.send(("error", error))


_END = object()
