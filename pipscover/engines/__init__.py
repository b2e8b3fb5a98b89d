"""The registry of search backends, loaded on first use so that the CLI starts fast."""

from __future__ import annotations

from importlib import import_module

from pipscover.engines.base import Backend
from pipscover.engines.sat_solvers import SOLVERS
from pipscover.errors import PipsError

# name -> (module, factory, argument): the backend is `factory()`, or `factory(argument)` when one is given,
# made from the module on first use.
REGISTRY: dict[str, tuple[str, str, str | None]] = {
    "auto": ("pipscover.engines.auto", "AutoBackend", None),
    "dlx": ("pipscover.engines.dlx", "DlxBackend", None),
    "local": ("pipscover.engines.local", "LocalBackend", None),
    "cpsat": ("pipscover.engines.cpsat", "CpSatBackend", None),
    **{name: ("pipscover.engines.sat", "SatBackend", name) for name in SOLVERS},
}
ALIASES: dict[str, str] = {
    # SAT: the family names mean the newest (CaDiCaL) or the usual (Glucose 4.1, MiniSat 2.2) version.
    "cadical": "cadical300", "glucose": "glucose4", "kissat": "kissat404", "minisat": "minisat22",
    "sat": "minisat22",  # the fastest SAT backend on the NYT archive (pipscover bench)
}
DEFAULT_BACKEND = "auto"
# What names a backend: one of ours or an alias, a name PySAT gives its solvers ("g4", "cd19"), or a PySAT
# solver class (`pysat.solvers.Glucose4`), as a PySAT user would hand it.
BackendName = str | type

__all__ = ["ALIASES", "Backend", "BackendName", "DEFAULT_BACKEND", "REGISTRY", "backend_key", "get_backend"]


def get_backend(name: BackendName | Backend) -> Backend:
    """The backend that `name` names (see `BackendName`); a `Backend` is itself.

    >>> from pysat.solvers import Glucose4
    >>> get_backend(Glucose4).name, get_backend("g4").name
    ('glucose4', 'glucose4')
    """
    if isinstance(name, Backend):
        return name
    module, factory, argument = REGISTRY[backend_key(name)]
    make = getattr(import_module(module), factory)
    return make() if argument is None else make(argument)


def backend_key(name: BackendName) -> str:
    """The registry's name of the backend that `name` names, in any case ("Glucose4" as PySAT spells it), or
    `PipsError` naming the choices."""
    if type(name).__module__ == "pysat.solvers":  # a solver made, not a kind of solver
        kind = type(getattr(name, "solver", None) or name).__name__  # Solver(name="g4") holds a Glucose4
        raise PipsError(f"a PySAT solver object is not a backend: pipscover makes its own solver of the puzzle's "
                        f"CNF; pass its class (pysat.solvers.{kind}) or its name")
    given = name.__name__ if isinstance(name, type) else name  # pysat.solvers.Cadical195: "cadical195"
    given = given.lower() if isinstance(given, str) else given
    key = ALIASES.get(given, given) if isinstance(given, str) else ""
    if key not in REGISTRY and isinstance(given, str):
        from pysat.solvers import SolverNames  # only for a name not ours: PySAT takes a moment to import

        key = next((full for full, names in vars(SolverNames).items() if isinstance(names, tuple) and given in names),
                   key)
    if key not in REGISTRY:
        known = ", ".join(sorted([*REGISTRY, *ALIASES]))
        raise PipsError(f"unknown backend {name!r}; choose one of: {known}")
    return key
