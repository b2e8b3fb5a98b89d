"""The tree stays checked: ruff and mypy (configured in pyproject.toml) find nothing, and every `type: ignore`
says why. They run here, not only in CI, so that the whole-suite run before a merge catches a new error."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# An ignore comment, with or without its error codes, must be followed on its line by a comment saying why.
IGNORE = re.compile(r"#\s*type:\s*ignore\b(?P<rest>.*)$")
REASON = re.compile(r"^(\[[^\]]*\])?\s*#\s*\S")


def _run(*command: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", *command], cwd=ROOT, capture_output=True, text=True)


def test_ruff_finds_nothing():
    done = _run("ruff", "check", "--no-fix", "--output-format", "concise", ".")
    assert done.returncode == 0, done.stdout + done.stderr


def test_mypy_finds_nothing():
    done = _run("mypy")  # incremental: a rerun reads .mypy_cache and takes a second or two
    assert done.returncode == 0, done.stdout + done.stderr


def test_every_type_ignore_gives_its_reason():
    bare = [
        f"{path.relative_to(ROOT)}:{number}: {line.strip()}"
        for folder in ("pipscover", "tests", "examples", "benchmarks")
        for path in sorted((ROOT / folder).rglob("*.py"))
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if (found := IGNORE.search(line)) and not REASON.match(found["rest"].strip())
    ]
    assert not bare, "a type: ignore without a reason on its line:\n" + "\n".join(bare)
