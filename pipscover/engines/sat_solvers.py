"""The SAT solvers PySAT ships that work here, as plain data: the registry lists them without importing PySAT."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class SatSolver:
    """A PySAT solver and what its binding can do."""

    name: str
    description: str
    incremental: bool = True


SOLVERS = {
    solver.name: solver
    for solver in (
        SatSolver("cadical103", "CaDiCaL 1.0.3 (Biere)"),
        SatSolver("cadical153", "CaDiCaL 1.5.3 (Biere)"),
        SatSolver("cadical195", "CaDiCaL 1.9.5 (Biere)"),
        SatSolver("cadical300", "CaDiCaL 3.0.0 (Biere), the newest CaDiCaL in PySAT"),
        SatSolver("ergo", "Ergo, as bundled with PySAT 1.9"),
        SatSolver("gluecard3", "Gluecard 3: Glucose 3.0 with Minicard's native cardinality constraints"),
        SatSolver("gluecard4", "Gluecard 4: Glucose 4.1 with Minicard's native cardinality constraints"),
        SatSolver("glucose3", "Glucose 3.0 (Audemard, Simon)"),
        SatSolver("glucose4", "Glucose 4.1 (Audemard, Simon)"),
        SatSolver("glucose42", "Glucose 4.2.1 (Audemard, Simon)"),
        SatSolver("kissat404", "Kissat 4.0.4 (Biere); not incremental, so a fresh solver per solution",
                  incremental=False),
        SatSolver("lingeling", "Lingeling bbc-9230380-160707 (Biere)"),
        SatSolver("maplechrono", "MapleLCMDistChronoBT, SAT competition 2018"),
        SatSolver("maplecm", "MapleCM, SAT competition 2018"),
        SatSolver("maplesat", "Maplesat (MapleCOMSPS_LRB)"),
        SatSolver("mergesat3", "MergeSat 3.0 (Manthey)"),
        SatSolver("minicard", "Minicard 1.2 (Liffiton)"),
        SatSolver("minisat22", "MiniSat 2.2 (Eén, Sörensson)"),
        SatSolver("minisatep", "MiniSat with IPASIR-UP external propagators"),
    )
}
