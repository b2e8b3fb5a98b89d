"""SAT backends: the CNF of `pipscover.cnf` solved by any SAT solver PySAT ships, with blocking clauses.

Every solver is run the same way: find a model, report it, add a clause that rules it out, repeat.
`--timeout` must stop every solver cleanly, so a SAT call with a deadline runs where it can be stopped:
solvers whose PySAT binding can be interrupted promptly run in this process under a timer that calls
`interrupt()`; the others (CaDiCaL, Lingeling, Kissat, and Glucose 4.1, which can notice an interrupt over a
second late) run in a forked worker process that is killed when time is up.
Kissat cannot take clauses after a call, so it gets a fresh solver, with the blocking clauses so far, per call.
"""

from __future__ import annotations

import multiprocessing
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from pysat.solvers import Solver

from pipscover.backends.base import Backend
from pipscover.cnf import Encodings, encode
from pipscover.model import Puzzle, Solution
from pipscover.results import SearchTimeout

Model = list[int]
Blocker = Callable[[Model], list[int]]


@dataclass(frozen=True)
class SatSolver:
    """A PySAT solver and what its binding can do."""

    name: str
    description: str
    interruptible: bool = True  # False: `interrupt()` is missing, or comes too late (Glucose 4.1: over a second)
    incremental: bool = True


SOLVERS = {
    solver.name: solver
    for solver in (
        SatSolver("cadical103", "CaDiCaL 1.0.3 (Biere)", interruptible=False),
        SatSolver("cadical153", "CaDiCaL 1.5.3 (Biere)", interruptible=False),
        SatSolver("cadical195", "CaDiCaL 1.9.5 (Biere)", interruptible=False),
        SatSolver("cadical300", "CaDiCaL 3.0.0 (Biere), the newest CaDiCaL in PySAT", interruptible=False),
        SatSolver("ergo", "Ergo, as bundled with PySAT 1.9"),
        SatSolver("gluecard3", "Gluecard 3: Glucose 3.0 with Minicard's native cardinality constraints"),
        SatSolver("gluecard4", "Gluecard 4: Glucose 4.1 with Minicard's native cardinality constraints",
                  interruptible=False),
        SatSolver("glucose3", "Glucose 3.0 (Audemard, Simon)"),
        SatSolver("glucose4", "Glucose 4.1 (Audemard, Simon)", interruptible=False),
        SatSolver("glucose42", "Glucose 4.2.1 (Audemard, Simon)"),
        SatSolver("kissat404", "Kissat 4.0.4 (Biere); not incremental, so a fresh solver per solution",
                  interruptible=False, incremental=False),
        SatSolver("lingeling", "Lingeling bbc-9230380-160707 (Biere)", interruptible=False),
        SatSolver("maplechrono", "MapleLCMDistChronoBT, SAT competition 2018"),
        SatSolver("maplecm", "MapleCM, SAT competition 2018"),
        SatSolver("maplesat", "Maplesat (MapleCOMSPS_LRB)"),
        SatSolver("mergesat3", "MergeSat 3.0 (Manthey)"),
        SatSolver("minicard", "Minicard 1.2 (Liffiton)"),
        SatSolver("minisat22", "MiniSat 2.2 (Eén, Sörensson)"),
        SatSolver("minisatep", "MiniSat with IPASIR-UP external propagators"),
    )
}


class SatBackend(Backend):
    """One PySAT solver on the CNF reduction; `encodings` chooses how cardinality and sums are written."""

    def __init__(self, solver: str, encodings: Encodings = Encodings()) -> None:
        self.solver = SOLVERS[solver]
        self.encodings = encodings
        self.name = solver
        self.description = f"SAT: {self.solver.description}"

    def with_encodings(self, encodings: Encodings) -> SatBackend:
        """The same solver on a differently written CNF."""
        return SatBackend(self.solver.name, encodings)

    def solutions(self, puzzle: Puzzle, deadline: float | None = None) -> Iterator[Solution]:
        encoding = encode(puzzle, self.encodings)
        for model in models(encoding.cnf.clauses, self.solver.name, encoding.placement_blocker, deadline):
            yield encoding.solution(model)


def models(clauses: list[list[int]], solver: str, block: Blocker, deadline: float | None = None) -> Iterator[Model]:
    """The models of a CNF, each followed by the clause `block(model)`, until none is left.

    Raises `SearchTimeout` once `time.monotonic()` passes `deadline`.

    >>> sorted(models([[1, 2]], "minisat22", lambda model: [-lit for lit in model]))
    [[-1, 2], [1, -2], [1, 2]]
    """
    about = SOLVERS[solver]
    if deadline is not None and not about.interruptible:
        yield from _models_in_worker(clauses, about, block, deadline)
    else:
        yield from _models_here(clauses, about, block, deadline)


def _models_here(clauses: list[list[int]], about: SatSolver, block: Blocker, deadline: float | None) -> Iterator[Model]:
    blockers: list[list[int]] = []
    solver = Solver(name=about.name, bootstrap_with=clauses)
    try:
        while True:
            if deadline is None:
                satisfiable = solver.solve()
            else:
                satisfiable = _solve_before(solver, deadline)
            if not satisfiable:
                return
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


def _solve_before(solver: Solver, deadline: float) -> bool:
    """One SAT call that a timer interrupts at `deadline`."""
    remaining = deadline - time.monotonic()
    if remaining <= 0:
        raise SearchTimeout
    timer = threading.Timer(remaining, solver.interrupt)
    timer.start()
    try:
        satisfiable = solver.solve_limited(expect_interrupt=True)
    finally:
        timer.cancel()
    if satisfiable is None:
        raise SearchTimeout
    return satisfiable


def _models_in_worker(clauses: list[list[int]], about: SatSolver, block: Blocker, deadline: float) -> Iterator[Model]:
    """`_models_here` in a forked process, one model per request, killed if an answer comes too late."""
    context = multiprocessing.get_context("fork")
    ours, theirs = context.Pipe()
    worker = context.Process(target=_serve_models, args=(theirs, clauses, about, block), daemon=True)
    worker.start()
    theirs.close()
    try:
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise SearchTimeout
            ours.send(True)
            if not ours.poll(remaining):
                raise SearchTimeout
            model = ours.recv()
            if model is None:
                return
            yield model
    finally:
        worker.kill()
        worker.join()
        ours.close()


def _serve_models(connection, clauses: list[list[int]], about: SatSolver, block: Blocker) -> None:
    """The worker's loop: wait for a request, answer with the next model, or None when there is none."""
    found = _models_here(clauses, about, block, None)
    while connection.recv():
        model = next(found, None)
        connection.send(model)
        if model is None:
            return


# The registry points at these: one backend per solver, named as PySAT names it.
cadical103 = SatBackend("cadical103")
cadical153 = SatBackend("cadical153")
cadical195 = SatBackend("cadical195")
cadical300 = SatBackend("cadical300")
ergo = SatBackend("ergo")
gluecard3 = SatBackend("gluecard3")
gluecard4 = SatBackend("gluecard4")
glucose3 = SatBackend("glucose3")
glucose4 = SatBackend("glucose4")
glucose42 = SatBackend("glucose42")
kissat404 = SatBackend("kissat404")
lingeling = SatBackend("lingeling")
maplechrono = SatBackend("maplechrono")
maplecm = SatBackend("maplecm")
maplesat = SatBackend("maplesat")
mergesat3 = SatBackend("mergesat3")
minicard = SatBackend("minicard")
minisat22 = SatBackend("minisat22")
minisatep = SatBackend("minisatep")
