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

from pipscover.engines.sat_solvers import SOLVERS, SatSolver
from pipscover.model.results import SearchTimeout
from pipscover.runtime.deadlines import has_passed
from pipscover.runtime.stoppable import stoppable

Model = list[int]
Blocker = Callable[[Model], list[int]]
# A slice of 2,000 conflicts takes 0.05-0.2 s, so a question asked by `ask_by_deadline` passes its deadline
# by at most that.
CONFLICTS_PER_SLICE = 2_000


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
            abandon(solver)
            raise KeyboardInterrupt from None
        raise


_ABANDONED: list[object] = []  # the solvers that a Ctrl-C interrupted, kept unfreed until the process ends


def abandon(solver: Solver) -> None:
    """Never free `solver` again: PySAT left its search by a long jump out of the solver's C++ code, and
    freeing what that left behind can corrupt the heap (`solve -b cadical195 --all` stopped by Ctrl-C aborted,
    "corrupted double-linked list", once in 12 runs here and in none of 214 more). Its `delete()` does nothing
    from here on, nor does its finalizer; its memory goes with the process, which is about to end."""
    inner = solver.solver
    if inner is None:
        return
    solver.solver = None  # the wrapper's delete() and finalizer then leave it alone
    handles = {name: value for name, value in vars(inner).items() if type(value).__name__ == "PyCapsule"}
    for name in handles:  # the inner solver's own delete() frees what its handle points to
        setattr(inner, name, None)
    _ABANDONED.append((inner, handles))


class Undecided(Exception):
    """A question that ran out of its conflict budget."""


def ask_by_deadline(
    solver: Solver, deadline: float | None, assumptions: Sequence[int] = (), conflicts: int | None = None
) -> bool:
    """`ask`, in slices of `CONFLICTS_PER_SLICE` conflicts with `deadline` checked between two
    (`SearchTimeout`), for solvers PySAT cannot interrupt (CaDiCaL 1.9.5); `Undecided` past `conflicts`
    conflicts in all. The slices depend only on conflicts, so the answer never depends on the clock."""
    spent = 0
    while True:
        if has_passed(deadline):
            raise SearchTimeout
        if conflicts is not None and spent >= conflicts:
            raise Undecided
        budget = CONFLICTS_PER_SLICE if conflicts is None else min(CONFLICTS_PER_SLICE, conflicts - spent)
        answer = ask(solver, assumptions, budget)
        if answer is not None:
            return answer
        spent += budget
