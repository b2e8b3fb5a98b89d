"""The registry of search backends, loaded on first use so that the CLI starts fast."""

from __future__ import annotations

from importlib import import_module

from pipscover.backends.base import Backend
from pipscover.errors import PipsError

# name -> (module, attribute): the attribute is a Backend instance or a zero-argument Backend class.
REGISTRY: dict[str, tuple[str, str]] = {
    "dlx": ("pipscover.backends.dlx", "DlxBackend"),
}
ALIASES: dict[str, str] = {}
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
