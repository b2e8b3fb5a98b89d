"""The interface every search backend implements.

A backend knows how to list the solutions of a puzzle; everything else (limits, timing, statuses,
checking) is done once, in `pipscover.solving`. To add a backend, write one module with a subclass of
`Backend` and add one line to `pipscover.backends.REGISTRY`.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterator

from pipscover.model import Puzzle, Solution


class Backend(ABC):
    """A search engine for Pips puzzles."""

    name: str
    description: str

    @abstractmethod
    def solutions(self, puzzle: Puzzle, deadline: float | None = None) -> Iterator[Solution]:
        """Every solution of `puzzle` exactly once, lazily.

        `deadline` is a `time.monotonic()` value; past it the iterator raises `SearchTimeout`.
        """
