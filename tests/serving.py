"""The real `pipscover serve` for the server's and the page's tests: started on a free port of 127.0.0.1 with
a cache holding one day of our own making, and stopped afterwards."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from pipscover.formats import puzzle_to_nyt
from pipscover.generate.generator import generate
from pipscover.model import Puzzle, Solution

DAY = "2025-01-02"


@dataclass(frozen=True)
class Made:
    """A puzzle of ours and its one solution."""

    puzzle: Puzzle
    solution: Solution


def made_puzzles() -> dict[str, Made]:
    """The day's three puzzles: small, NYT-shaped and proved to have one solution (fixed seeds)."""
    found = {}
    for difficulty, (dominoes, seed) in {"easy": (5, 3), "medium": (6, 5), "hard": (7, 8)}.items():
        made = generate(dominoes=dominoes, seed=seed)
        found[difficulty] = Made(made.puzzle, made.solution)
    return found


def write_day(folder: Path, puzzles: dict[str, Made]) -> Path:
    document = {"printDate": DAY, **{d: puzzle_to_nyt(m.puzzle, m.solution) for d, m in puzzles.items()}}
    path = folder / f"{DAY}.json"
    path.write_text(json.dumps(document))
    return path


def closed_port() -> int:
    """A port nothing listens on: a mirror there is unreachable, so no test ever touches the network."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@contextmanager
def running_server(cache: Path) -> Iterator[str]:
    """`pipscover serve --port 0 --json` in its own process; yields its address."""
    command = [sys.executable, "-m", "pipscover", "serve", "--port", "0", "--json", "--cache-dir", str(cache),
               "--base-url", f"http://127.0.0.1:{closed_port()}"]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               env={**os.environ, "PYTHONUNBUFFERED": "1"})
    try:
        line = process.stdout.readline()
        if not line:
            raise RuntimeError(f"pipscover serve did not start: {process.stderr.read()}")
        yield json.loads(line)["url"]
    finally:
        process.send_signal(signal.SIGINT)
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
