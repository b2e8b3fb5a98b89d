"""The interface every counting method implements, and the capabilities it declares.

A counting method turns a puzzle and a `Budget` into a `CountResult`: exact, or a lower bound marked not exact
with what stopped it (`stopped_by`); Ctrl-C raises `CountInterrupted` with the lower bound. Everything else
(checking the method's name and the backend, the clock, the budget) is done once, in
`pipscover.counting.count`. What a method can do is declared in its `capabilities`, as the search backends
declare theirs (`pipscover.engines.base`), never guessed from its class or name. To add a method, copy
`pipscover/counting/template.py` into a new module, fill it in, and add one line to
`pipscover.counting.REGISTRY`.
"""

from __future__ import annotations

import copy
from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import TYPE_CHECKING

from pipscover.counting.budget import Budget
from pipscover.errors import PipsError
from pipscover.model import Puzzle
from pipscover.model.results import CountResult, Distinct

if TYPE_CHECKING:
    from pipscover.engines import BackendName

BOTH = frozenset(Distinct)


@dataclass(frozen=True)
class CountingCapabilities:
    """What a counting method can do.

    `stops` says how it keeps to its budget: `checks` (it looks at the clock and the memory as it counts, and
    returns the lower bound it has), `killed` (a call that cannot stop itself runs in a worker that the
    deadline kills: nothing is known before it answers) or `races` (it runs other methods that do either).
    `splits` says that its count is a sum of independent exact counts of sub-puzzles (the branches of a
    search), which can be counted apart and whose counts weigh the branches for sampling (issue 29).
    """

    counts: frozenset[Distinct] = BOTH  # placements, distinct pip grids, or both
    exact: bool = True  # an answer that is not stopped is the exact count
    lists: bool = False  # counts by listing the solutions one by one: `limit` stops it
    backends: bool = False  # takes a SAT backend (`count --backend`)
    stops: str = "checks"
    splits: bool = False
    requires: str | None = None  # a module it needs beyond pipscover's own (`install` says how to get it)
    install: str | None = None

    @property
    def available(self) -> bool:
        from pipscover.engines.base import installed  # (the engines' registry, not needed to count)

        return installed(self.requires)


class CountingMethod(ABC):
    """A way to count the solutions of a puzzle."""

    name: str
    description: str
    capabilities: CountingCapabilities = CountingCapabilities()
    backend: str | None = None  # the SAT solver of a method that takes one (`capabilities.backends`)

    def with_backend(self, backend: BackendName) -> CountingMethod:
        """The same method with its SAT solver named, by name or as a PySAT solver class (only when
        `capabilities.backends`)."""
        if isinstance(backend, type):  # a PySAT solver class: the count names its backend
            from pipscover.engines import backend_key

            backend = backend_key(backend)
        if not self.capabilities.backends:
            raise PipsError(f"a backend (-b {backend}) only applies to the blocking method, not to {self.name!r}")
        chosen = copy.copy(self)
        chosen.backend = backend
        return chosen

    def check(self, distinct: Distinct, limit: int | None = None) -> None:
        """Raise a one-line `PipsError` when this method cannot count `distinct` solutions, or is given a
        `limit` it would not stop at (it lists no solutions)."""
        if distinct not in self.capabilities.counts:
            raise PipsError(f"{self.name} counts {' and '.join(sorted(self.capabilities.counts))}, "
                            f"not {'distinct grids' if distinct is Distinct.GRIDS else 'placements'}")
        if limit is not None and not self.capabilities.lists:
            raise PipsError(f"a limit ({limit}) stops only the listing methods (dlx, blocking); {self.name} counts "
                            "every solution")

    @abstractmethod
    def count(self, puzzle: Puzzle, distinct: Distinct, budget: Budget) -> CountResult:
        """The number of solutions of `puzzle` (or of its distinct pip grids) within `budget`: exact, or a
        lower bound marked not exact; Ctrl-C raises `CountInterrupted` with the lower bound."""
