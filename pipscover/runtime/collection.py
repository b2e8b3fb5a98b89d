"""Fewer garbage collections while results pile up, and none at the process's exit.

Listing keeps every solution it finds: tens of thousands of small tuples and dicts, none of them in a cycle.
CPython's collector runs a young-generation pass every 700 net allocations and walks what survives again and
again; listing the 74,880 solutions of an open 2 x 6 board and writing them as JSON spent two thirds of its
CPU there (4.1 s of CPU; 1.4 s with the threshold below; 1.3 s with no collection at all). Raising the first
threshold keeps cycles collected, only less often.

At its exit the interpreter collects garbage again while it tears its modules down, walking every object
still alive: after a count on a Dask cluster (some 60,000 objects, Dask's modules) that held the process
0.1-0.2 s past its answer, for nothing anyone reads (`encodings/benchmarks.md`).
"""

from __future__ import annotations

import atexit
import gc
from collections.abc import Iterator
from contextlib import contextmanager

YOUNG_THRESHOLD = 100_000  # net allocations between young collections (CPython's default: 700)


@contextmanager
def fewer_collections() -> Iterator[None]:
    """Inside the block, collect garbage once per `YOUNG_THRESHOLD` allocations; as before afterwards.

    >>> before = gc.get_threshold()
    >>> with fewer_collections():
    ...     gc.get_threshold()[0] == max(before[0], YOUNG_THRESHOLD)
    True
    >>> gc.get_threshold() == before
    True
    """
    previous = gc.get_threshold()
    gc.set_threshold(max(previous[0], YOUNG_THRESHOLD), *previous[1:])
    try:
        yield
    finally:
        gc.set_threshold(*previous)


def no_collections_at_exit() -> None:
    """Freeze every object at the interpreter's exit (after the other exit handlers), so that its last
    collections skip them: what the modules hold is still freed as they are torn down, and cycles are left to
    the operating system, as Python leaves any object alive at exit. Registered once however often called."""
    atexit.unregister(gc.freeze)
    atexit.register(gc.freeze)
