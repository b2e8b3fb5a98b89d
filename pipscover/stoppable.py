"""Iterators that a deadline can stop even inside one long C call: made in a forked worker that is killed.

A SAT solver's search, a PySAT encoder or the loading of millions of clauses cannot be interrupted in this
process, so with a deadline the producer runs in a forked worker process, one item per request, and the
worker is killed once the deadline passes or the caller stops early. The fork costs a few milliseconds per
call, so without a deadline the items are made here. Used by the SAT backends and by blocking-clause counting.
"""

from __future__ import annotations

import multiprocessing
import signal
import time
from collections.abc import Callable, Iterator
from typing import TypeVar

from pipscover.results import SearchTimeout

Item = TypeVar("Item")


def stoppable(produce: Callable[[], Iterator[Item]], deadline: float | None) -> Iterator[Item]:
    """The items of `produce()`; with a deadline, made in a forked worker that is killed once it passes.

    The worker makes one item per request, so a caller that stops early leaves no work running.
    Raises `SearchTimeout` once `time.monotonic()` passes `deadline`; an exception in the worker is raised here.
    """
    if deadline is None:
        return produce()
    return _in_worker(produce, deadline)


def _in_worker(produce: Callable[[], Iterator[Item]], deadline: float) -> Iterator[Item]:
    if time.monotonic() >= deadline:
        raise SearchTimeout
    context = multiprocessing.get_context("fork")
    ours, theirs = context.Pipe()
    worker = context.Process(target=_serve, args=(theirs, produce), daemon=True)
    worker.start()
    theirs.close()
    try:
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise SearchTimeout
            ours.send(True)
            if not ours.poll(remaining):
                raise SearchTimeout
            try:
                kind, item = ours.recv()
            except EOFError:
                raise RuntimeError("the worker process died without an answer (out of memory?)") from None
            if kind == "end":
                return
            if kind == "error":
                raise item
            yield item
    finally:
        worker.kill()
        worker.join()
        ours.close()


def _serve(connection, produce: Callable[[], Iterator]) -> None:
    """The worker's loop: wait for a request, answer with ("item", next item), ("end", None) or ("error", e)."""
    # Ctrl-C reaches the whole process group; the caller handles it and kills this worker, which would
    # otherwise print a second traceback.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        items = produce()
        while connection.recv():
            item = next(items, _END)
            if item is _END:
                connection.send(("end", None))
                return
            connection.send(("item", item))
    except Exception as error:  # handed to the caller, who raises it
        connection.send(("error", error))


_END = object()
