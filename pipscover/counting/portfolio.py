"""A race of counting methods in forked workers: the first exact count wins and the others are killed.

The counting methods have opposite strengths (the structural counter on astronomically many solutions,
listing by SAT with blocking clauses on few; `encodings/counting.md`), and which one a puzzle wants shows only
once they run. Racing them on the machine's two cores costs at most about twice the faster one, and a method
that thrashes costs nothing more. Each worker stops itself at the deadline or at its memory cap and sends its
lower bound; a worker that fails (an error, or killed for its memory) drops out. Each worker leads its own
process group, so killing it also kills the worker it may have forked (the blocking counter's SAT solver).
"""

from __future__ import annotations

import multiprocessing
import signal
import time
from collections.abc import Callable, Mapping
from multiprocessing.connection import Connection, wait
from multiprocessing.context import ForkProcess
from typing import cast

from pipscover.model.results import CountResult

GRACE = 1.0  # seconds past the deadline a worker has to send its lower bound before it is killed

Racer = Callable[[], CountResult]


def race_counts(racers: Mapping[str, Racer], deadline: float | None) -> CountResult | None:
    """The first exact count any racer returns; else the largest lower bound sent (None: none sent).

    A racer's exception (one a user can act on, such as a guard's refusal) is raised when no racer counts.
    Ctrl-C kills every worker and is raised here.
    """
    context = multiprocessing.get_context("fork")
    running: dict[Connection, ForkProcess] = {}
    best: CountResult | None = None
    failure: BaseException | None = None
    try:
        for racer in racers.values():
            ours, theirs = context.Pipe(duplex=False)
            # Not a daemon, which may not fork: a method may run a C call in a killable worker of its own.
            worker = context.Process(target=_run, args=(theirs, racer))
            running[ours] = worker
            # Ctrl-C waits while the worker starts: it is then known here (and killed), and it ignores Ctrl-C.
            signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
            try:
                worker.start()
            finally:
                signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
            theirs.close()
        while running:
            wait_for = None if deadline is None else max(deadline + GRACE - time.monotonic(), 0.0)
            ready = wait(list(running), wait_for)
            if not ready:
                break  # past the deadline and its grace: what was sent is all there is
            for connection in cast(list[Connection], ready):
                answer = _answer(connection)
                _stop(running.pop(connection), connection)
                if isinstance(answer, CountResult):
                    if answer.exact:
                        return answer
                    if best is None or answer.count > best.count:
                        best = answer
                elif isinstance(answer, BaseException) and failure is None:
                    failure = answer
    finally:
        for connection, worker in running.items():
            _stop(worker, connection)
    if best is None and failure is not None:
        raise failure
    return best


def _run(connection: Connection, racer: Racer) -> None:
    """The worker: Ctrl-C left to the caller, then one answer (a result or an error)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    try:
        answer: object = racer()
    except Exception as error:  # noqa: BLE001 - handed to the caller, who raises it if no racer counts
        answer = error
    connection.send(answer)


def _answer(connection: Connection) -> object:
    """What a worker sent; None when it died without a word (killed, e.g. by the system out of memory)."""
    try:
        return connection.recv()
    except (EOFError, OSError):
        return None


def _stop(worker: ForkProcess, connection: Connection) -> None:
    """Kill a worker and reap it (one that never started has nothing to kill)."""
    if worker.pid is not None:
        worker.kill()
        worker.join()
    connection.close()
