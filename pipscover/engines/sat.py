"""SAT backends: the CNF of `pipscover.cnf` solved by any SAT solver PySAT ships, with blocking clauses.

Every solver is run the same way (`pipscover.engines.sat_enumeration.models`): find a model, report it, add a clause
that rules it out, repeat.
`--timeout` must bound the whole call, so with a deadline the encoding and the solving both run in a forked
worker process that is killed when time is up (`pipscover.runtime.stoppable`): one PySAT encoder call can run for half
a minute (a large `sum` region under Pindakaas, a large bound under the sequential counter) and neither it,
nor loading millions of clauses into a solver, nor a CaDiCaL, Lingeling or Kissat search can be interrupted in
this process.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import partial

from pipscover.cnf import Encodings, encode
from pipscover.engines.base import Backend, Capabilities
from pipscover.engines.sat_enumeration import models
from pipscover.engines.sat_solvers import SOLVERS
from pipscover.model import Puzzle, Solution
from pipscover.runtime.stoppable import stoppable


class SatBackend(Backend):
    """One PySAT solver on the CNF encoding; `encodings` chooses how cardinality and sums are written."""

    capabilities = Capabilities(counter="blocking", encodings=True)

    def __init__(self, solver: str, encodings: Encodings = Encodings()) -> None:
        self.solver = SOLVERS[solver]
        self.encodings = encodings
        self.name = solver
        self.description = f"SAT: {self.solver.description}"

    def with_encodings(self, encodings: Encodings) -> SatBackend:
        """The same solver on a differently written CNF."""
        return SatBackend(self.solver.name, encodings)

    def solutions(self, puzzle: Puzzle, deadline: float | None = None) -> Iterator[Solution]:
        return stoppable(partial(self._solutions, puzzle), deadline)

    def _solutions(self, puzzle: Puzzle) -> Iterator[Solution]:
        encoding = encode(puzzle, self.encodings)
        for model in models(encoding.cnf.clauses, self.solver.name, encoding.placement_blocker):
            yield encoding.solution(model)
