"""Every model of a CNF, one at a time, each ruled out by a blocking clause once found.

The caller says what a blocking clause forbids (`Encoding.placement_blocker`: this one solution;
`Encoding.grid_blocker`: every solution with this pip grid), so the same loop lists solutions, counts
them and counts distinct grids. Any solver PySAT ships works; one that cannot take clauses between calls
(`SatSolver.incremental` false: Kissat) is rebuilt with the blocking clauses so far after each model.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from functools import partial

from pysat.solvers import Solver

from pipscover.backends.sat_solvers import SOLVERS, SatSolver
from pipscover.stoppable import stoppable

Model = list[int]
Blocker = Callable[[Model], list[int]]


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
        while ask(solver):
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


def ask(solver: Solver, assumptions: Sequence[int] = (), conflicts: int | None = None) -> bool | None:
    """`solver.solve(assumptions)`, where a Ctrl-C is a `KeyboardInterrupt` as everywhere else in Python;
    with `conflicts`, None when the solver gives up after that many conflicts (it can be asked again).

    PySAT catches a Ctrl-C during a solver call and raises its own error ("Caught keyboard interrupt").
    """
    try:
        if conflicts is None:
            return solver.solve(assumptions=assumptions)
        solver.conf_budget(conflicts)
        return solver.solve_limited(assumptions=assumptions)
    except Exception as error:
        if "keyboard interrupt" in str(error).lower():
            raise KeyboardInterrupt from None
        raise
