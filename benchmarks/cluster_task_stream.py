"""Where a split count's time goes on a stock Dask cluster, old code against new.

Each configuration (NAME=BIN, BIN a virtualenv's `bin` folder with its `dask` and its `pipscover`) gets a
stock cluster of its own: `dask scheduler` and two `dask worker tcp://127.0.0.1:PORT` with their defaults.
Round by round, the configurations alternating, the puzzle is counted on each by `pipscover count PUZZLE -m
inclusion-exclusion --json --scheduler ...`. Per count, one JSON line:
- `wall`, `client_cpu`: the command's, from its start to its exit (`/usr/bin/time`);
- from the scheduler's task stream: `idle`, each worker's time within the count not spent in a task (its span
  less the union of its tasks' compute spans); `tail`, how far apart the workers' last tasks end; `close`,
  from the last task's end to the command's exit;
- from psutil: the CPU seconds of the scheduler, of each worker's nanny, and of each worker's threads (`loop`
  is its main thread, which runs its event loop).

`--worker-env NAME VAR=VALUE` sets an environment variable for the workers of NAME's cluster alone (an
experiment, such as Dask's profiler turned off: the benchmark's clusters are stock).

    nice python benchmarks/cluster_task_stream.py --rounds 4 old=/path/to/old/.venv/bin new=.venv/bin
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import subprocess
import time
from collections.abc import Callable
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import psutil
from distributed import Client, get_task_stream

PUZZLE = Path(__file__).resolve().parent / "count_puzzles" / "planted-6x6-s1.json"


@dataclass
class StockCluster:
    """A scheduler and two default workers started from one virtualenv's `dask`."""

    name: str
    bin: Path
    address: str
    processes: list[subprocess.Popen]

    @classmethod
    def start(cls, name: str, bin: Path, worker_env: dict[str, str], stack: ExitStack) -> StockCluster:
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            port = probe.getsockname()[1]
        address = f"tcp://127.0.0.1:{port}"
        quiet = {"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL}
        processes = [subprocess.Popen([bin / "dask", "scheduler", "--host", "127.0.0.1", "--port", str(port)], **quiet)]
        stack.callback(_stop, processes)
        with Client(address, timeout=60) as client:
            processes += [subprocess.Popen([bin / "dask", "worker", address], env={**os.environ, **worker_env}, **quiet)
                          for _ in range(2)]
            client.wait_for_workers(2, timeout=120)
        return cls(name, bin, address, processes)

    def cpu(self) -> dict[str, float]:
        """CPU seconds so far: the scheduler's, each nanny's, and each worker's threads by (worker, thread)."""
        found = {"scheduler": _cpu(psutil.Process(self.processes[0].pid))}
        for number, nanny in enumerate(self.processes[1:]):
            process = psutil.Process(nanny.pid)
            found[f"nanny {number}"] = _cpu(process)
            for child in process.children(recursive=True):
                for thread in child.threads():
                    name = "loop" if thread.id == child.pid else str(thread.id)
                    found[f"worker {number} {name}"] = thread.user_time + thread.system_time
        return found


def _cpu(process: psutil.Process) -> float:
    times = process.cpu_times()
    return times.user + times.system


def _stop(processes: list[subprocess.Popen]) -> None:
    for process in reversed(processes):
        process.terminate()
        process.wait()


def covered(spans: list[tuple[float, float]]) -> float:
    """The length of the union of `spans`."""
    total, end = 0.0, float("-inf")
    for begin, stop in sorted(spans):
        total += max(stop - max(begin, end), 0.0)
        end = max(end, stop)
    return total


def count_once(cluster: StockCluster, puzzle: Path) -> dict[str, Any]:
    """One count on `cluster`, with what its task stream and psutil say of it."""
    with Client(cluster.address, timeout=60) as client, get_task_stream(client) as stream:
        before = cluster.cpu()
        began = time.time()
        done = subprocess.run(["/usr/bin/time", "-f", "%U %S", cluster.bin / "pipscover", "count", puzzle, "-m",
                               "inclusion-exclusion", "--json", "--scheduler", cluster.address],
                              capture_output=True, text=True, check=True)
        ended = time.time()
        time.sleep(0.5)  # the workers' last heartbeats
        after = cluster.cpu()
    spans: dict[str, list[tuple[float, float]]] = {}
    for task in stream.data:
        for span in task["startstops"]:
            if str(task["key"]).startswith("count-") and span["action"] == "compute" and span["start"] >= began:
                spans.setdefault(task["worker"], []).append((span["start"], span["stop"]))
    last = [max(stop for _, stop in worker) for worker in spans.values()]
    user, system = map(float, done.stderr.split()[-2:])
    return {"name": cluster.name, "wall": round(ended - began, 2), "client_cpu": round(user + system, 2),
            "idle": sorted(round(max(s for _, s in w) - min(b for b, _ in w) - covered(w), 2) for w in spans.values()),
            "tail": round(max(last) - min(last), 2), "close": round(ended - max(last), 2),
            "tasks": sum(map(len, spans.values())), "count": json.loads(done.stdout)["count"],
            "cpu": {part: round(seconds - before.get(part, 0.0), 2) for part, seconds in after.items()
                    if seconds - before.get(part, 0.0) > 0.005}}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("configurations", nargs="+", metavar="NAME=BIN")
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--puzzle", type=Path, default=PUZZLE)
    parser.add_argument("--worker-env", nargs=2, action="append", default=[], metavar=("NAME", "VAR=VALUE"))
    options = parser.parse_args()
    worker_env: dict[str, dict[str, str]] = {}
    for name, assignment in options.worker_env:
        variable, value = assignment.split("=", 1)
        worker_env.setdefault(name, {})[variable] = value
    alternated(options.configurations, options.rounds, options.puzzle.resolve(), count_once, worker_env)


def alternated(configurations: list[str], rounds: int, puzzle: Path,
               count: Callable[[StockCluster, Path], dict[str, Any]],
               worker_env: dict[str, dict[str, str]] | None = None) -> None:
    """A stock cluster per configuration (NAME=BIN), then `rounds` rounds of `count(cluster, puzzle)` on each,
    the configurations' order turning round by round: one JSON line per count."""
    with ExitStack() as stack:
        clusters = [StockCluster.start(name, Path(bin).resolve(), (worker_env or {}).get(name, {}), stack)
                    for name, bin in (each.split("=", 1) for each in configurations)]
        for number in range(rounds):
            for cluster in clusters if number % 2 == 0 else clusters[::-1]:
                print(json.dumps({"round": number, **count(cluster, puzzle)}), flush=True)


if __name__ == "__main__":
    main()
