"""Progress bars on a terminal: the answer printed while one shows starts a line of its own, and none is left."""

import os
import re
import select
import sys
import time

import typer

from pipscover.cli import common


def test_an_answer_printed_while_the_bar_shows_starts_its_own_line(monkeypatch):
    """`typer.echo` wrote past rich's stdout proxy, so the answer was glued to the bar's clock:
    `... 100/100 0:00:082025-09-15.json (hard): 1,025,428 distinct grids`."""
    master, slave = os.openpty()
    terminal = os.fdopen(slave, "w", encoding="utf-8", buffering=1)
    monkeypatch.setattr(sys, "stdout", terminal)
    monkeypatch.setattr(sys, "stderr", terminal)
    monkeypatch.delenv("CI", raising=False)
    monkeypatch.setenv("TERM", "xterm")
    monkeypatch.setattr(common, "PROGRESS_DELAY", 0.0)
    with common.progress_bar("counting", total=10):
        waited = time.monotonic()
        while sys.stdout is terminal:  # the bar takes stdout over once it shows
            assert time.monotonic() - waited < 30, "the bar never showed"
            time.sleep(0.01)
        typer.echo("the answer")
    terminal.flush()
    shown = b""
    while select.select([master], [], [], 0.2)[0]:
        shown += os.read(master, 65536)
    terminal.close()
    os.close(master)
    text = shown.decode()
    assert re.search(r"(\n|\x1b\[2K)the answer", text), text[-300:]
    assert sys.stdout is terminal
