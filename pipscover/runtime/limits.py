"""Resource guards: estimate what a run is about to build and refuse it, in one line, when it cannot fit.

Engines call `guard` before they allocate, with their own estimate of what they build: a placements CNF of
100,000 dominoes, a structural count past its closed form on a 2 x 50,000 board or pips near 10^30 must end
with a `PipsError` that says why, not with a machine that swaps until it dies (while 100,000 identical
dominoes on an open 2 x 100,000 board fit and are solved and counted in seconds). Memory is
refused beyond `MEMORY_LIMIT` always; a search whose estimated length passes `STEP_LIMIT` is refused only
when no time limit bounds it (`--timeout` lets a user try anyway, and stops it).

An estimate cannot foresee a cache: a counter's caches grow with what its search meets. So the counters also
look at what their process holds while they run (`check_memory`, every few thousand search nodes) and stop
once it passes their cap (`pipscover count --memory`, default `MEMORY_LIMIT`), with a lower bound, or give way
to another method.
"""

from __future__ import annotations

import os
import resource
import sys
from typing import Protocol, TypeVar

from pipscover.errors import PipsError, brief, is_whole_number, shown

MEMORY_LIMIT = 2 * 2**30  # bytes one structure may take (a list of clauses, a DLX matrix, a counter's cache)
STEP_LIMIT = 10**10  # elementary steps (about 25 ns each in pure Python: minutes) a run without --timeout may take
BYTES_PER_CLAUSE = 150  # a short clause as a Python list of ints
PB_WEIGHT_LIMIT = 2**62  # PySAT's pseudo-boolean encoders take 64-bit weights and bounds
# Entries of each small cache beside a counter's own (closed forms, pip supplies): those are keyed by what a
# count meets about once per cached subproblem, so unbounded they would grow outside the memory cap's reach.
REMEMBERED = 4096
K = TypeVar("K")
V = TypeVar("V")


class TooBig(PipsError):
    """A guard's refusal: the puzzle is valid, but this engine cannot take it (another one may)."""


class Described(Protocol):
    """What a refusal names: anything that can say what it is (a `Puzzle` says where it came from). A protocol,
    so that this module, below the model, imports nothing from it."""

    def describe(self) -> str: ...


def guard(subject: Described, what: str, needs_bytes: int = 0, steps: int = 0, deadline: float | None = None
          ) -> None:
    """Raise `TooBig`, naming `subject`, when `what` would need more than `MEMORY_LIMIT` bytes, or more than
    `STEP_LIMIT` steps with no deadline.

    >>> class Board:
    ...     def describe(self) -> str:
    ...         return "puzzle"
    >>> guard(Board(), "the dlx search", needs_bytes=10**12)
    Traceback (most recent call last):
    ...
    pipscover.runtime.limits.TooBig: puzzle: the dlx search would need about 931 GiB of memory (the limit is 2 GiB)
    >>> guard(Board(), "the dlx search", needs_bytes=2**31 + 2**28)
    Traceback (most recent call last):
    ...
    pipscover.runtime.limits.TooBig: puzzle: the dlx search would need about 2.2 GiB of memory (the limit is 2 GiB)
    """
    if needs_bytes > MEMORY_LIMIT:
        amount = "far more than 10^18 GiB"  # (a float division overflowed past 10^308)
        if needs_bytes < 2**90:
            gib = needs_bytes / 2**30  # a tenth where whole GiB would round to the limit itself ("about 2 GiB")
            amount = f"about {gib:,.{1 if gib < 10 else 0}f} GiB"
        raise TooBig(f"{brief(subject.describe(), 200)}: {what} would need {amount} of memory (the limit is "
                     f"{MEMORY_LIMIT // 2**30} GiB)")
    if deadline is None and steps > STEP_LIMIT:
        raise TooBig(f"{subject.describe()}: {what} would take about {steps:.0e} steps (hours); "
                     "give --timeout to try it anyway")


class Remembered(dict[K, V]):
    """A cache of at most `REMEMBERED` entries: when full, it forgets them all (less bookkeeping than forgetting
    the oldest, and no reference cycle, as `functools.lru_cache` on a method makes)."""

    def remember(self, key: K, value: V) -> V:
        if len(self) >= REMEMBERED:
            self.clear()
        self[key] = value
        return value


class MemoryCapReached(Exception):
    """A method's process holds more than its memory cap: the method stops (another one may take over).
    Raised bare, it says what it is, as `SearchTimeout` does (`sample` and `marginals` raise it to their caller)."""

    def __str__(self) -> str:
        return super().__str__() or "stopped by the memory cap"


def resident_bytes() -> int:
    """The memory this process holds now (Linux: its resident set), or the most it has held (elsewhere).

    >>> 0 < resident_bytes() < 2**40
    True
    """
    try:
        with open("/proc/self/statm", "rb") as statm:
            return int(statm.read().split()[1]) * _PAGE
    except OSError:  # no /proc: the peak, in bytes on macOS and KiB elsewhere
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        return peak if sys.platform == "darwin" else peak * 1024


def check_memory(cap: int | None) -> None:
    """Raise `MemoryCapReached` when this process holds more than `cap` bytes (None: no cap)."""
    if cap is not None and resident_bytes() > cap:
        raise MemoryCapReached


def parse_size(text: str) -> int:
    """Bytes from a size as a user writes it: a number with an optional K, M, G or T (powers of 1024).

    >>> parse_size("2G"), parse_size("512M"), parse_size("1000")
    (2147483648, 536870912, 1000)
    """
    units = {"K": 2**10, "M": 2**20, "G": 2**30, "T": 2**40}
    cleaned = text.strip().upper().removesuffix("IB").removesuffix("B")
    factor = units.get(cleaned[-1:], 1)
    number = cleaned[:-1] if cleaned[-1:] in units else cleaned
    try:
        if not number.isascii():  # float() takes '２' (fullwidth) and '٢'
            raise ValueError
        size = int(float(number) * factor)
    except (ValueError, OverflowError):
        raise PipsError(f"not a memory size: {text!r} (write e.g. 2G, 512M)") from None
    checked_memory(size)
    return size


def checked_memory(cap: int | None) -> int | None:
    """A memory cap in bytes (None: no cap), or `PipsError` naming it: `count(puzzle, memory=-5)` was taken, and
    a cap no process keeps under stops every count at once (the command line's `--memory` refused it).

    >>> checked_memory(-5)
    Traceback (most recent call last):
    ...
    pipscover.errors.PipsError: memory must be a positive whole number of bytes (or None for no cap), not -5
    """
    if cap is None:
        return None
    if not is_whole_number(cap) or cap <= 0:
        raise PipsError(f"memory must be a positive whole number of bytes (or None for no cap), not {shown(cap)}")
    return cap


_PAGE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096
