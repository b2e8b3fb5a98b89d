"""Deadlines: when work must stop, and how often a hot loop looks at the clock.

A deadline is a `time.monotonic()` value (`deadline_after`), None for none; past it, work raises
`SearchTimeout`. A loop of cheap steps (a counter's search nodes, local search's moves, the generator's
annealing moves) looks at the clock once every `CLOCK_EVERY` steps, `step % CLOCK_EVERY == 0 and
has_passed(deadline)` written inline so that the other steps pay one modulo, not a call: a few
milliseconds apart at most. (Dancing Links looks every 256 nodes, `dancing_links.DEADLINE_CHECK_INTERVAL`,
because its node budget is read at the same points and the generator's answers depend on where it stops.)

    >>> deadline_after(float("inf")) is None, has_passed(None), has_passed(deadline_after(0.0, start=0.0))
    (True, False, True)
"""

from __future__ import annotations

import math
import numbers
import time
import warnings
from typing import cast

from pipscover.errors import PipsError, shown

CLOCK_EVERY = 1024  # cheap steps between two looks at the clock


class SearchTimeout(Exception):
    """Raised inside an engine when its deadline passes; `solve` and the counters turn it into a status
    (`pipscover.model.results`, where callers usually import it from). `sample` and `marginals` raise it to
    their caller, whose `print(error)` printed an empty line: raised bare, it says what it is."""

    def __str__(self) -> str:
        return super().__str__() or "stopped by the timeout"


def timeout_problem(timeout: object, least: float = 0.0) -> str | None:
    """What makes `timeout` no time limit, or None when it is one: a number of seconds >= `least` (the option's
    own least: fetch's 0.001), inf meaning none. The command line's --timeout and the library's `timeout=` are
    refused by it alike: the library took -1 as a deadline already passed (an inexact count), -inf as no limit.

    >>> timeout_problem(10), timeout_problem(float("inf")), timeout_problem(-1)
    (None, None, 'a number of seconds >= 0')
    """
    number = not isinstance(timeout, bool) and isinstance(timeout, numbers.Real)
    if not (number and cast(float, timeout) >= least):  # nan too
        return f"a number of seconds >= {least:g}"
    return None


def deadline_after(timeout: float | None, start: float | None = None) -> float | None:
    """The `time.monotonic()` value `timeout` seconds after `start` (now); None for no limit or an infinite one.
    A timeout that is no number of seconds >= 0 (`timeout_problem`) is a `PipsError`: nan made a deadline no clock
    passes, so no limit, and -1 one already passed.

    >>> deadline_after(-1)
    Traceback (most recent call last):
    ...
    pipscover.errors.PipsError: timeout must be a number of seconds >= 0 (None or inf: no limit), not -1
    """
    seconds = checked_timeout(timeout)
    if seconds is None or math.isinf(seconds):
        return None
    return (time.monotonic() if start is None else start) + seconds


def checked_timeout(timeout: float | None) -> float | None:
    """`timeout` as the library takes it (None: no limit), or a `PipsError` saying what it must be
    (`timeout_problem`): where no deadline is made at once, as a sweep's `Settings` (nan and -1 made rows of
    status error and timeout), as where one is (`deadline_after`).

    >>> checked_timeout(float("-inf"))
    Traceback (most recent call last):
    ...
    pipscover.errors.PipsError: timeout must be a number of seconds >= 0 (None or inf: no limit), not -inf
    """
    problem = None if timeout is None else timeout_problem(timeout)
    if problem is not None:
        raise PipsError(f"timeout must be {problem} (None or inf: no limit), not {shown(timeout)}")
    return timeout


def deadline_of(timeout: float | None, deadline: float | None, name: str) -> float | None:
    """The deadline `timeout` seconds from now, as `solve` and `count` take it; `deadline`, the old keyword of
    `hint`, `rate` and `sample` (a `time.monotonic()` value), still works, with a `DeprecationWarning`.

    >>> import warnings
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     deadline_of(None, 5.0, "hint"), str(caught[0].message)
    (5.0, 'hint(deadline=...) is deprecated: pass timeout=SECONDS, as solve and count take it')
    """
    if deadline is None:
        return deadline_after(timeout)
    warnings.warn(f"{name}(deadline=...) is deprecated: pass timeout=SECONDS, as solve and count take it",
                  DeprecationWarning, stacklevel=3)
    return deadline


def has_passed(deadline: float | None) -> bool:
    """Whether the time is up (at the start of a run: reading the puzzle took it all, so nothing is built)."""
    return deadline is not None and time.monotonic() >= deadline
