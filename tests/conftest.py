"""Shared fixtures: the real NYT puzzles beside the checkout, skipped where they are absent."""

from __future__ import annotations

from pathlib import Path

import pytest

NYT_FOLDER = Path(__file__).resolve().parents[2] / "shared" / "puzzles" / "nyt"
EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def nyt_files() -> list[Path]:
    """Every NYT day file beside the checkout, or none."""
    return sorted(NYT_FOLDER.glob("*.json")) if NYT_FOLDER.is_dir() else []


needs_nyt = pytest.mark.skipif(not nyt_files(), reason=f"no NYT puzzles in {NYT_FOLDER}")
