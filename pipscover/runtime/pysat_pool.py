"""PySAT keeps one variable pool for all the formulas of a process (`Formula._vpool`): every `CNF` built,
ours and those `CardEnc` and `PBEnc` return, marks its variables in it (`IDPool.occupy`), and `IDPool` is not
safe across threads. Two threads building formulas at once ended in "list modified during sort" inside
PySAT (a hint of `pipscover serve` under 20 questions at once). `thread_safe_formulas()` puts a pool whose
changes hold a lock in its place, once; the library calls it before it builds a formula.

That pool also keeps its occupied intervals merged. PySAT's own appends `[1, nv]` for every formula and sorts
the whole list again each time, so a process that builds many formulas (a server, a count by blocking clauses,
the test suite) kept thousands of intervals and spent more and more of each formula sorting them. The merged
intervals cover the same variables, so the pool hands out the same new ones.
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
        _occupied: list[list[int]]

        def occupy(self, start: int, stop: int) -> None:
            if stop < start:
                return
            with self.lock:
                self._occupied = merged([*self._occupied, [start, stop]])

        def id(self, obj: Any = None) -> int:
            with self.lock:
                return super().id(obj)

    with _attached:
        if not _done:
            Formula.attach_vpool(LockedPool(), context="default")
            _done = True


def merged(intervals: list[list[int]]) -> list[list[int]]:
    """Inclusive intervals, sorted, those that overlap or touch made one: the same integers, covered once.

    >>> merged([[1, 121], [1, 66], [200, 210], [122, 130], [300, 300]])
    [[1, 130], [200, 210], [300, 300]]
    """
    joined: list[list[int]] = []
    for low, high in sorted(intervals):
        if joined and low <= joined[-1][1] + 1:
            joined[-1][1] = max(joined[-1][1], high)
        else:
            joined.append([low, high])
    return joined
