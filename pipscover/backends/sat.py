"""SAT backends: the CNF of `pipscover.cnf` solved by any SAT solver PySAT ships, with blocking clauses.

Every solver is run the same way: find a model, report it, add a clause that rules it out, repeat.
`--timeout` must bound the whole call, so with a deadline the encoding and the solving both run in a forked
worker process that is killed when time is up (`pipscover.stoppable`): one PySAT encoder call can run for half
a minute (a large `sum` region under Pindakaas, a large bound under the sequential counter) and neither it,
nor loading millions of clauses into a solver, nor a CaDiCaL, Lingeling or Kissat search can be interrupted in
this process.
Kissat cannot take clauses after a call, so it gets a fresh solver, with the blocking clauses so far, per call.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from functools import partial

from pysat.solvers import Solver

from pipscover.backends.base import Backend
from pipscover.backends.sat_solvers import SOLVERS, SatSolver
from pipscover.cnf import Encodings, encode
from pipscover.model import Puzzle, Solution
from pipscover.stoppable import stoppable

Model = list[int]
Blocker = Callable[[Model], list[int]]


class SatBackend(Backend):
    """One PySAT solver on the CNF encoding; `encodings` chooses how cardinality and sums are written."""

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


def models(clauses: list[list[int]], solver: str, block: Blocker, deadline: float | None = None) -> Iterator[Model]:
    """The models of a CNF, each followed by the clause `block(model)`, until none is left.

    Raises `SearchTimeout` once `time.monotonic()` passes `deadline`.

    >>> sorted(models([[1, 2]], "minisat22", lambda model: [-lit for lit in model]))
    [[-1, 2], [1, -2], [1, 2]]
    """
    return stoppable(partial(_models, clauses, SOLVERS[solver], block), deadline)


def _models(clauses: list[list[int]], about: SatSolver, block: Blocker) -> Iterator[Model]:
    blockers: list[list[int]] = []
    solver = Solver(name=about.name, bootstrap_with=clauses)
    try:
        while solver.solve():
            model = solver.get_model()
            yield model
            blocker = block(model)
            if about.incremental:
                solver.add_clause(blocker)
            else:
                blockers.append(blocker)
                solver.delete()
                solver = Solver(name=about.name, bootstrap_with=[*clauses, *blockers])
    finally:
        solver.delete()
