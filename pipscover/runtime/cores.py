"""The optional compiled cores: C extensions that `pip install` builds (setup.py) beside their Python twins.

A core is optional: without a C compiler the install still succeeds and its module runs the Python twin,
which gives the same answers by the same steps (the tests run both). Each core carries the SHA-256 of the
sources it was built from (`source_digest`), so that a core a failed build left behind (an optional build
that fails keeps the previous one without a word), or a checkout updated without `pip install -e .` again,
is noticed and left for the twin: its functions may take other arguments than the module passes.
"""

from __future__ import annotations

import importlib
import os
import sys
from pathlib import Path
from types import ModuleType


def load_core(name: str, instead: str) -> ModuleType | None:
    """The compiled core `name` (a module), or None when it is not built or is stale; a stale one is named on
    stderr with `instead`, what runs in its place."""
    try:
        core = importlib.import_module(name)
    except ImportError:  # pragma: no cover - a machine without a C compiler
        return None
    if is_stale(core):
        sys.stderr.write(f"pipscover: note: the compiled core {name} is older than its source; running {instead} "
                         "until `pip install -e .` builds it again\n")
        return None
    return core


def sources_of(core: ModuleType) -> list[Path]:
    """The files beside a compiled core that it is built from: those it names (`source_files`), else its C
    source (`_name.c` for `_name.cpython-311-....so`)."""
    built = Path(str(core.__file__))
    names = getattr(core, "source_files", built.name.partition(".")[0] + ".c").split()
    return [built.with_name(name) for name in names]


def digest_of(sources: list[Path]) -> str:
    """The SHA-256 that setup.py gives a core built from `sources`."""
    import hashlib

    return hashlib.sha256(b"".join(source.read_bytes() for source in sources)).hexdigest()


def is_stale(core: ModuleType) -> bool:
    """Whether `core` was built from other sources than those beside it. Their digest is compared only when
    one is newer than the core: hashing them costs milliseconds of start-up, file dates nothing."""
    sources, built = sources_of(core), getattr(core, "__file__", None)
    if built is None or not all(source.exists() for source in sources):
        return False
    if max(source.stat().st_mtime for source in sources) <= Path(built).stat().st_mtime:
        return False
    return bool(getattr(core, "source_digest", None) != digest_of(sources))


def compiled_by_default() -> bool:
    """Whether the compiled cores that are built run: unless `PIPSCOVER_PURE_PYTHON` is set."""
    return not os.environ.get("PIPSCOVER_PURE_PYTHON")
