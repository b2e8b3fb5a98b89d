"""Room on Python's stack for a recursion as deep as its puzzle is large.

Why: a search written as recursion may go one level per cell or per domino, past Python's default limit of
1,000 levels: the structural counter's search and its completions, and networkx's Hopcroft-Karp matching
(which ended `pipscover solve` on a 2 x 2,000 strip in a RecursionError). Since Python 3.11 a call from
Python to Python takes no room on the C stack, so a higher limit is safe.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def room_for(depth: int) -> Iterator[None]:
    """Python's recursion limit raised to allow `depth` more levels (never lowered), and restored after.

    >>> with room_for(5_000):
    ...     sys.getrecursionlimit() >= 5_000
    True
    """
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, depth + 1000))
    try:
        yield
    finally:
        sys.setrecursionlimit(limit)
