"""PySAT keeps one variable pool for all the formulas of a process (`Formula._vpool`): every `CNF` built,
ours and those `CardEnc` and `PBEnc` return, marks its variables in it (`IDPool.occupy`), and `IDPool` is not
safe across threads. Two threads building formulas at once ended in "list modified during sort" inside
PySAT (a hint of `pipscover serve` under 20 questions at once). `thread_safe_formulas()` puts a pool whose
changes hold a lock in its place, once; the library calls it before it builds a formula.
"""

from __future__ import annotations

import threading
from typing import Any

_attached = threading.Lock()
_done = False


def thread_safe_formulas() -> None:
    """Make PySAT's shared variable pool safe to use from several threads (idempotent, cheap after the first).

    >>> thread_safe_formulas()
    >>> from pysat.formula import Formula
    >>> type(Formula.export_vpool()).__name__
    'LockedPool'
    """
    global _done
    if _done:
        return
    from pysat.formula import Formula, IDPool  # lazy: loading PySAT costs every CLI command time

    class LockedPool(IDPool):
        """PySAT's IDPool, its changes one thread at a time."""

        lock = threading.RLock()

        def occupy(self, start: int, stop: int) -> None:
            with self.lock:
                super().occupy(start, stop)

        def id(self, obj: Any = None) -> int:
            with self.lock:
                return super().id(obj)

    with _attached:
        if not _done:
            Formula.attach_vpool(LockedPool(), context="default")
            _done = True
