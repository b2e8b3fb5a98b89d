"""The real `pipscover serve` for the server's and the page's tests: started on a free port of 127.0.0.1 with
a cache holding one day of our own making and a mirror (a real HTTP server on 127.0.0.1) holding another,
and stopped afterwards; and a real HTTP server in front of it that holds back one of its answers (`slowed`)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from functools import partial
from http.client import HTTPConnection
from http.server import BaseHTTPRequestHandler, SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from pipscover.formats import puzzle_to_nyt
from pipscover.generate.generator import generate
from pipscover.model import Puzzle, Solution

DAY = "2025-01-02"  # in the cache
MIRRORED = "2025-01-03"  # on the mirror only: fetched when the page asks for it


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


def write_day(folder: Path, puzzles: dict[str, Made], day: str = DAY) -> Path:
    document = {"printDate": day, **{d: puzzle_to_nyt(m.puzzle, m.solution) for d, m in puzzles.items()}}
    path = folder / f"{day}.json"
    path.write_text(json.dumps(document))
    return path


class QuietHandler(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:  # no log lines in the test output
        pass


@contextmanager
def day_server(folder: Path) -> Iterator[tuple[str, dict[str, Made]]]:
    """The server with DAY in its cache and MIRRORED on its mirror (no test touches the network); yields its
    address and the puzzles of both days."""
    made = made_puzzles()
    cache, mirror = folder / "cache", folder / "mirror"
    cache.mkdir()
    (mirror / "svc" / "pips" / "v1").mkdir(parents=True)
    write_day(cache, made)
    write_day(mirror / "svc" / "pips" / "v1", made, MIRRORED)
    with ThreadingHTTPServer(("127.0.0.1", 0), partial(QuietHandler, directory=str(mirror))) as http:
        threading.Thread(target=http.serve_forever, daemon=True).start()
        try:
            with running_server(cache, f"http://127.0.0.1:{http.server_port}") as url:
                yield url, made
        finally:
            http.shutdown()


def start_server(cache: Path, base: str, *options: str) -> tuple[subprocess.Popen, str]:
    """`pipscover serve --port 0 --json [OPTIONS]` in its own process, and its address."""
    command = [sys.executable, "-m", "pipscover", "serve", "--port", "0", "--json", "--cache-dir", str(cache),
               "--base-url", base, *options]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               env={**os.environ, "PYTHONUNBUFFERED": "1"})
    line = process.stdout.readline()
    if not line:
        stop_server(process)
        raise RuntimeError(f"pipscover serve did not start: {process.stderr.read()}")
    return process, json.loads(line)["url"]


def stop_server(process: subprocess.Popen) -> None:
    """Ctrl-C, and a kill if that has not stopped it within 10 s."""
    process.send_signal(signal.SIGINT)
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


@contextmanager
def running_server(cache: Path, base: str) -> Iterator[str]:
    """The server started, its address yielded, then stopped."""
    process, url = start_server(cache, base)
    try:
        yield url
    finally:
        stop_server(process)


class PassedOn(BaseHTTPRequestHandler):
    """A request passed on to the server at `target`, and its answer sent back; the answer to `held` once
    `released` is set."""

    def __init__(self, *args: Any, target: str, held: str, released: threading.Event) -> None:
        self.target, self.held, self.released = target, held, released
        super().__init__(*args)  # (which answers the request)

    def do_GET(self) -> None:
        self.pass_on(None)

    def do_POST(self) -> None:
        self.pass_on(self.rfile.read(int(self.headers["Content-Length"])))

    def pass_on(self, body: bytes | None) -> None:
        # (only what the server reads: its guard refuses another origin's Origin, as it should)
        connection = HTTPConnection(urlsplit(self.target).netloc, timeout=60)
        headers = {} if body is None else {"Content-Type": self.headers["Content-Type"]}
        connection.request(self.command, self.path, body, headers)
        answer = connection.getresponse()
        data = answer.read()
        connection.close()
        if self.path == self.held:
            self.released.wait(timeout=60)
        self.send_response(answer.status)
        for name, value in answer.getheaders():
            if name.lower() not in ("content-length", "connection", "transfer-encoding", "date", "server"):
                self.send_header(name, value)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, format: str, *args: object) -> None:  # no log lines in the test output
        pass


@contextmanager
def slowed(url: str, path: str) -> Iterator[tuple[str, threading.Event]]:
    """A real HTTP server on 127.0.0.1 in front of the server at `url`, which answers as it does, but answers `path`
    only while the event yielded with its address is set (it is, until the test clears it)."""
    released = threading.Event()
    released.set()
    handler = partial(PassedOn, target=url, held=path, released=released)
    with ThreadingHTTPServer(("127.0.0.1", 0), handler) as http:
        threading.Thread(target=http.serve_forever, daemon=True).start()
        try:
            yield f"http://127.0.0.1:{http.server_port}/", released
        finally:
            released.set()
            http.shutdown()
