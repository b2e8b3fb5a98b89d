"""The compiled cores (`pipscover.runtime.cores`): built by `pip install -e .` from today's sources, and a stale
one is left for its Python twin."""

from __future__ import annotations

import importlib
import os

import pytest

from pipscover.runtime.cores import digest_of, is_stale, sources_of

CORES = ["pipscover.engines._dancing_links", "pipscover.counting._structural",
         "pipscover.counting._inclusion_exclusion"]


@pytest.mark.parametrize("name", CORES)
def test_the_compiled_core_is_built_from_todays_source(name):
    # An optional build that fails keeps the previous core without a word (setup.py).
    core = importlib.import_module(name)
    assert core.source_digest == digest_of(sources_of(core)), "rebuild: pip install -e ."


@pytest.mark.parametrize("name", CORES)
def test_a_core_older_than_a_changed_source_is_left_for_the_python_twin(monkeypatch, name):
    """A checkout updated without `pip install -e .` again: the old core's functions may take other arguments
    (a TypeError traceback on every search), so the module runs its Python twin and says why. Any of the
    core's files counts: inclusion-exclusion's is built from its sweeps, its graph's build and their header."""
    core = importlib.import_module(name)
    built = os.stat(core.__file__).st_mtime
    monkeypatch.setattr(core, "source_digest", "0" * 64)  # built from other sources
    for source in sources_of(core):
        dates = source.stat()
        try:
            os.utime(source, (dates.st_atime, built - 60))
            assert not is_stale(core)  # sources older than their core are not even read
            os.utime(source, (dates.st_atime, built + 60))
            assert is_stale(core), source.name
        finally:
            os.utime(source, (dates.st_atime, dates.st_mtime))
