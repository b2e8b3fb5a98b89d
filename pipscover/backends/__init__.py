"""The registry of search backends, loaded on first use so that the CLI starts fast."""

from __future__ import annotations

from importlib import import_module

from pipscover.backends.base import Backend
from pipscover.errors import PipsError

# name -> (module, attribute): the attribute is a Backend instance or a zero-argument Backend class.
REGISTRY: dict[str, tuple[str, str]] = {
    "dlx": ("pipscover.backends.dlx", "DlxBackend"),
    "cpsat": ("pipscover.backends.cpsat", "CpSatBackend"),
    "cadical103": ("pipscover.backends.sat", "cadical103"),
    "cadical153": ("pipscover.backends.sat", "cadical153"),
    "cadical195": ("pipscover.backends.sat", "cadical195"),
    "cadical300": ("pipscover.backends.sat", "cadical300"),
    "ergo": ("pipscover.backends.sat", "ergo"),
    "gluecard3": ("pipscover.backends.sat", "gluecard3"),
    "gluecard4": ("pipscover.backends.sat", "gluecard4"),
    "glucose3": ("pipscover.backends.sat", "glucose3"),
    "glucose4": ("pipscover.backends.sat", "glucose4"),
    "glucose42": ("pipscover.backends.sat", "glucose42"),
    "kissat404": ("pipscover.backends.sat", "kissat404"),
    "lingeling": ("pipscover.backends.sat", "lingeling"),
    "maplechrono": ("pipscover.backends.sat", "maplechrono"),
    "maplecm": ("pipscover.backends.sat", "maplecm"),
    "maplesat": ("pipscover.backends.sat", "maplesat"),
    "mergesat3": ("pipscover.backends.sat", "mergesat3"),
    "minicard": ("pipscover.backends.sat", "minicard"),
    "minisat22": ("pipscover.backends.sat", "minisat22"),
    "minisatep": ("pipscover.backends.sat", "minisatep"),
}
ALIASES: dict[str, str] = {
    # SAT: the family names mean the newest (CaDiCaL) or the usual (Glucose 4.1, MiniSat 2.2) version.
    "cadical": "cadical300", "glucose": "glucose4", "kissat": "kissat404", "minisat": "minisat22",
    "sat": "minisat22",  # the fastest SAT backend on the NYT archive (pipscover bench)
}
DEFAULT_BACKEND = "dlx"

__all__ = ["ALIASES", "Backend", "DEFAULT_BACKEND", "REGISTRY", "get_backend"]


def get_backend(name: str) -> Backend:
    """The backend called `name` (or one of its aliases)."""
    key = ALIASES.get(name, name)
    if key not in REGISTRY:
        known = ", ".join(sorted([*REGISTRY, *ALIASES]))
        raise PipsError(f"unknown backend {name!r}; choose one of: {known}")
    module, attribute = REGISTRY[key]
    found = getattr(import_module(module), attribute)
    return found() if isinstance(found, type) else found
