"""The whole wall timeline of one split count on a stock Dask cluster, from the `pipscover` process's start to
its exit: where the time goes that is not the sweep.

Each configuration (NAME=BIN, BIN a virtualenv's `bin` folder with its `dask` and its `python`) gets a stock
cluster of its own (`dask scheduler` and two `dask worker tcp://127.0.0.1:PORT` with their defaults, as
`cluster_task_stream.py` starts them); round by round, the configurations alternating, the puzzle is counted
on each by `pipscover count PUZZLE -m inclusion-exclusion --json --scheduler ...`, run through a few lines
that mark, in seconds since the process was launched: the interpreter up, pipscover's command line imported,
Dask's client imported, connected (with the workers' version), the first tasks sent, the answer printed, the
exit handlers done; then the process's exit, seen from here. The tracer imports Dask's client right after
the command line, where a count would import it after reading the puzzle (a few hundredths of a second of
work in between): the sum is the same. From the scheduler's task stream: each worker's first task's start
and last task's end. One JSON line per count.

    nice python benchmarks/count_timeline.py --rounds 5 old=/path/to/old/.venv/bin new=.venv/bin
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import time
from pathlib import Path
from typing import Any

from cluster_task_stream import PUZZLE, StockCluster, alternated  # this folder: the scripts run from it
from distributed import Client, get_task_stream

# Run by the configuration's python in place of its `pipscover` command.
TRACER = """
import atexit, functools, os, sys, time
launch = float(os.environ["TIMELINE_LAUNCH"])

def mark(what):
    print(f"TIMELINE {time.time() - launch:.3f} {what}", file=sys.stderr, flush=True)

def after(owner, name, what, once=False):
    function = getattr(owner, name)

    @functools.wraps(function)
    def marked(*arguments, **keywords):
        result = function(*arguments, **keywords)
        if not once or not marked.done:
            marked.done = True
            mark(what)
        return result

    marked.done = False
    setattr(owner, name, marked)

mark("python started")
atexit.register(mark, "exit handlers done")  # registered first: run last
import pipscover.cli, pipscover.cli.count
mark("command line imported")
import distributed
from pipscover.sweep import cluster
mark("Dask imported")
after(cluster, "_connect", "connected")
after(distributed.Client, "map", "first tasks sent", once=True)
after(pipscover.cli.count, "print_json", "answer printed")
sys.argv = ["pipscover", *sys.argv[1:]]
pipscover.cli.main()
"""


def count_once(cluster: StockCluster, puzzle: Path) -> dict[str, Any]:
    """One count on `cluster`: the marks of its process, and each worker's first start and last end."""
    with Client(cluster.address, timeout=60) as client, get_task_stream(client) as stream:
        launch = time.time()
        done = subprocess.run([cluster.bin / "python", "-c", TRACER, "count", puzzle, "-m", "inclusion-exclusion",
                               "--json", "--scheduler", cluster.address],
                              env={**os.environ, "TIMELINE_LAUNCH": repr(launch)}, capture_output=True, text=True,
                              check=True)
        exited = time.time() - launch
        time.sleep(0.5)  # the task stream's last entries
    marks = {}
    for line in done.stderr.splitlines():
        if line.startswith("TIMELINE "):
            _, seconds, what = line.split(" ", 2)
            marks[what] = float(seconds)
    marks["exited"] = round(exited, 3)
    spans: dict[str, list[tuple[float, float]]] = {}
    for task in stream.data:
        for span in task["startstops"]:
            if str(task["key"]).startswith("count-") and span["action"] == "compute" and span["start"] >= launch:
                spans.setdefault(task["worker"], []).append((span["start"] - launch, span["stop"] - launch))
    workers = {"first task started": sorted(round(min(b for b, _ in w), 3) for w in spans.values()),
               "last task ended": sorted(round(max(s for _, s in w), 3) for w in spans.values())}
    return {"name": cluster.name, **marks, **workers, "count": json.loads(done.stdout)["count"],
            "load": round(os.getloadavg()[0], 1)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("configurations", nargs="+", metavar="NAME=BIN")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--puzzle", type=Path, default=PUZZLE)
    options = parser.parse_args()
    alternated(options.configurations, options.rounds, options.puzzle.resolve(), count_once)


if __name__ == "__main__":
    main()
