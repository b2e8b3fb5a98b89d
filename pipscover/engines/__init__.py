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

__all__ = ["ALIASES", "Backend", "DEFAULT_BACKEND", "REGISTRY", "get_backend"]


def get_backend(name: str) -> Backend:
    """The backend called `name` (or one of its aliases)."""
    key = ALIASES.get(name, name)
    if key not in REGISTRY:
        known = ", ".join(sorted([*REGISTRY, *ALIASES]))
        raise PipsError(f"unknown backend {name!r}; choose one of: {known}")
    module, factory, argument = REGISTRY[key]
    make = getattr(import_module(module), factory)
    return make() if argument is None else make(argument)
