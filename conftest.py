"""What the doctests need: the repository root as the working folder (they read examples/), and a clean skip
where an optional dependency they run is not installed."""

from importlib.util import find_spec
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent
PACKAGE = ROOT / "pipscover"
# Modules whose examples run an optional dependency, and that dependency.
OPTIONAL = {"pipscover.engines.cpsat": "ortools"}


def _installed(module: str) -> bool:
    try:
        return find_spec(module) is not None
    except (ImportError, ValueError):
        return False


def pytest_ignore_collect(collection_path: Path) -> bool | None:
    """A module of the package with no example in its text is not imported to look for one: each xdist worker
    collects every file, and the sweep's Dask module alone took 1.5 s of CPU a worker to import."""
    if collection_path.suffix == ".py" and PACKAGE in collection_path.parents:
        return ">>>" not in collection_path.read_text(encoding="utf-8") or None
    return None


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if isinstance(item, pytest.DoctestItem):
            needed = OPTIONAL.get(item.dtest.globs["__name__"])
            if needed and not _installed(needed):
                item.add_marker(pytest.mark.skip(reason=f"needs {needed}, which is not installed"))


@pytest.fixture(autouse=True)
def _doctests_in_the_repository(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    if isinstance(request.node, pytest.DoctestItem):
        monkeypatch.chdir(ROOT)
