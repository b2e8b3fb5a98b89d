"""One memory-bound computation per processor of this machine, whichever process of it runs them.

A split count's tasks (`pipscover.sweep.split_count`) run on Dask workers that we do not start: a stock
`dask worker` runs a thread per processor, so two stock workers on a 2-processor machine run four sweeps at
once. Inclusion-exclusion's sweep streams its graph and its states' values through the processor's caches
each pass: four of them time-sliced on two processors evict each other's, and cost more CPU for the same
points than two (encodings/counting.md, "One count on a Dask cluster"). `processor_slot()` holds one of the
machine's slots (as many as the processors this process may run on) while the sweep runs, so that at most
that many sweep at once on a machine, in however many worker processes; the other tasks wait their turn
without spending CPU.

A slot is a socket bound to a name in Linux's abstract namespace (`\\0pipscover-slot-N`): one process
of the machine can hold a name at a time, the kernel frees it when its holder closes it or dies (a worker
killed mid-count frees its slot), and it leaves no file behind. A computation waiting for a slot sleeps in
`select` on connections to the holders, which the kernel resets when a holder closes. Where there is no
abstract namespace (not Linux), every computation runs at once, as without slots.
"""

from __future__ import annotations

import errno
import os
import select
import socket
import sys
from collections.abc import Iterator
from contextlib import contextmanager

SLOT_NAME = "pipscover-slot"


@contextmanager
def processor_slot(slots: int | None = None, name: str = SLOT_NAME) -> Iterator[None]:
    """Holds one of the machine's `slots` (default: the processors this process may run on) named `name` while
    the block runs, waiting for one to be free; with no abstract namespace here, holds nothing."""
    held = _wait_for_slot(slots or len(os.sched_getaffinity(0)), name) if sys.platform.startswith("linux") else None
    try:
        yield
    finally:
        if held is not None:
            held.close()


def free_slot(slots: int, name: str = SLOT_NAME) -> socket.socket | None:
    """A socket holding the first of `slots` slots named `name` that no process of this machine holds, or None
    when all are held. The holder listens, so that a computation waiting for a slot can hear it close."""
    for slot in range(slots):
        holder = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            holder.bind(_address(name, slot))
        except OSError as error:
            holder.close()
            if error.errno != errno.EADDRINUSE:
                raise
            continue
        holder.listen(socket.SOMAXCONN)
        return holder
    return None


def _wait_for_slot(slots: int, name: str) -> socket.socket:
    """A free slot, waited for without spending CPU: connected to each holder (never accepted), this thread
    sleeps until one of them closes, which resets its connections, then tries again. (Polling instead woke
    each waiting thread hundreds of times a second, and cost more CPU than the slots saved.)"""
    while (held := free_slot(slots, name)) is None:
        waits = []
        try:
            for slot in range(slots):
                waiting = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                waits.append(waiting)
                waiting.connect(_address(name, slot))  # refused: that slot was freed meanwhile
            select.select(waits, [], [])
        except ConnectionRefusedError:
            pass
        finally:
            for waiting in waits:
                waiting.close()
    return held


def _address(name: str, slot: int) -> str:
    return f"\0{name}-{slot}"
