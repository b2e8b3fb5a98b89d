"""The interface every search backend implements, and the capabilities it declares.

A backend knows how to list the solutions of a puzzle; everything else (limits, timing, statuses,
checking) is done once, in `pipscover.solving`. What a backend can do is declared in its `capabilities`
(as CPMpy's solvers declare what they support and PySAT lists its solvers in a table), never guessed
from its class or its name. To add a backend, copy `pipscover/engines/template.py` into a new module, fill
it in, and add one line to `pipscover.engines.REGISTRY`.
"""

from __future__ import annotations

import copy
from abc import ABC, abstractmethod
from collections.abc import Iterator
from dataclasses import dataclass
from importlib.util import find_spec
from typing import TYPE_CHECKING

from pipscover.errors import PipsError
from pipscover.model import Puzzle, Solution

if TYPE_CHECKING:
    from pipscover.cnf import Encodings


@dataclass(frozen=True)
class Capabilities:
    """What a backend can do.

    `counter` names the `pipscover.counting` method that counts for it without going through `solutions`:
    `blocking` (blocking clauses over its CNF: SAT solvers), `auto` (count's own choice between dlx listing and
    the structural counters, which share the dlx backend's region rules), or None (count by listing its
    solutions).
    """

    enumerates: bool = True  # lists every solution, each once (`solve --all`)
    complete: bool = True  # proves that a puzzle has no solution (else it may give up: status `unknown`)
    timeout: bool = True  # stops at a deadline (`--timeout`)
    counter: str | None = None
    encodings: bool = False  # solves a CNF it writes, so `--card` / `--pb` / `--encoding` choose how (`with_encodings`)
    seeded: bool = False  # its search is drawn from a seed (`--seed`, `with_seed`: dlx's restarts, local search)
    requires: str | None = None  # a module it needs beyond pipscover's own dependencies
    install: str | None = None  # the command that installs `requires`

    @property
    def available(self) -> bool:
        """Whether what it needs is installed (looked up, not imported, so listing backends stays fast)."""
        return installed(self.requires)


def installed(module: str | None) -> bool:
    """Whether `module` (None: nothing) can be imported, looked up without importing it."""
    if module is None:
        return True
    try:
        return find_spec(module) is not None
    except (ImportError, ValueError):  # a broken or blocked install
        return False


class Backend(ABC):
    """A search engine for Pips puzzles."""

    name: str
    description: str
    capabilities: Capabilities = Capabilities()
    encodings: Encodings  # how its CNF is written: set by the backends that write one (`capabilities.encodings`)
    seed = 0  # where a randomised search starts (dlx's restarts, local search's walks); other engines have none

    def with_seed(self, seed: int) -> Backend:
        """The same backend with its randomised search drawn from `seed` (an engine without one ignores it)."""
        seeded = copy.copy(self)
        seeded.seed = seed
        return seeded

    def answered_by(self) -> str:
        """The engine that made the solutions of the last `solutions` call (a backend that hands puzzles to
        other engines, such as `auto`, names the one it chose)."""
        return self.name

    @abstractmethod
    def solutions(self, puzzle: Puzzle, deadline: float | None = None) -> Iterator[Solution]:
        """Every solution of `puzzle` exactly once, lazily.

        `deadline` is a `time.monotonic()` value; past it the iterator raises `SearchTimeout`.
        """

    def with_encodings(self, encodings: Encodings) -> Backend:
        """The same backend writing its CNF with other encodings (only when `capabilities.encodings`)."""
        raise PipsError(
            f"--card, --pb and --encoding choose how a CNF is written; backend {self.name!r} does not use one"
        )

    def require(self) -> None:
        """Raise a one-line `PipsError` saying what to install when the backend is not available."""
        if not self.capabilities.available:
            raise PipsError(f"the {self.name} backend needs {self.capabilities.requires}: {self.capabilities.install}")
