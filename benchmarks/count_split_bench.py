"""One count, three configurations, in the same run: `pipscover count` in one process, `--jobs 2` (a LocalCluster
of two workers) and `--scheduler` on a stock cluster (a `dask scheduler` and two `dask worker`s with their
defaults, started here on 127.0.0.1), alternated round by round, each a process of its own; optionally one
worker of the stock cluster killed mid-count (`--kill`). Prints one JSON line per run and the medians.

    nice python benchmarks/count_split_bench.py benchmarks/count_puzzles/planted-6x6-s1.json --rounds 2 --kill
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import socket
import statistics
import subprocess
import sys
import time
from pathlib import Path

BIN = Path(sys.executable).parent


def stock_cluster() -> tuple[str, list[subprocess.Popen]]:
    """A stock scheduler and two stock workers (their defaults: a nanny, a thread per core), in sessions of their
    own: the address and the processes."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    address = f"tcp://127.0.0.1:{port}"
    started = [subprocess.Popen([BIN / "dask", "scheduler", "--host", "127.0.0.1", "--port", str(port),
                                 "--dashboard-address", "127.0.0.1:0"], start_new_session=True,
                                stderr=subprocess.DEVNULL)]
    started += [subprocess.Popen([BIN / "dask", "worker", address, "--host", "127.0.0.1"], start_new_session=True,
                                 stderr=subprocess.DEVNULL) for _ in range(2)]
    from distributed import Client

    with Client(address, timeout=60) as client:
        client.wait_for_workers(2, timeout=120)
    return address, started


def run(puzzle: Path, extra: list[str], method: str, kill: str | None = None) -> dict:
    """One count in a process of its own: its answer, wall time and the process's peak memory."""
    command = [BIN / "pipscover", "count", puzzle, "-m", method, "--json", *extra]
    start = time.monotonic()
    process = subprocess.Popen(["/usr/bin/time", "-f", "%M", *map(str, command)], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True)
    if kill is not None:
        _kill_a_worker_mid_count(kill, process)
    output, errors = process.communicate()
    wall = time.monotonic() - start
    answer = json.loads(output) if output.strip() else {}
    return {"configuration": " ".join(extra) or "one process", "count": answer.get("count"),
            "exact": answer.get("exact"), "seconds": round(wall, 2), "client_peak_kb": errors.strip().splitlines()[-1],
            "killed_a_worker": kill is not None}


def _kill_a_worker_mid_count(address: str, count: subprocess.Popen) -> None:
    from distributed import Client

    with Client(address, timeout=60) as client:
        while count.poll() is None:
            busy = {worker: keys for worker, keys in client.processing().items()
                    if any(str(key).startswith("count-") for key in keys)}
            if len(busy) == 2:  # both at work: kill the first, mid-chunk
                time.sleep(5)
                victim = sorted(busy)[0]
                os.kill(client.run(os.getpid, workers=[victim])[victim], signal.SIGKILL)
                return
            time.sleep(0.1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("puzzles", nargs="+", type=Path)
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--method", default="inclusion-exclusion")
    parser.add_argument("--kill", action="store_true", help="also a run with a worker killed mid-count")
    arguments = parser.parse_args()
    address, started = stock_cluster()
    rows = []
    try:
        for puzzle in arguments.puzzles:
            for _ in range(arguments.rounds):
                for extra in ([], ["--jobs", "2"], ["--scheduler", address]):
                    rows.append({"puzzle": puzzle.name, **run(puzzle, extra, arguments.method)})
                    print(json.dumps(rows[-1]), flush=True)
            if arguments.kill:
                rows.append({"puzzle": puzzle.name, **run(puzzle, ["--scheduler", address], arguments.method,
                                                           kill=address)})
                print(json.dumps(rows[-1]), flush=True)
    finally:
        for process in reversed(started):
            os.killpg(process.pid, signal.SIGTERM)
    for puzzle in arguments.puzzles:
        times = {}
        for row in rows:
            if row["puzzle"] == puzzle.name and row["exact"] and not row["killed_a_worker"]:
                times.setdefault(row["configuration"].split(" tcp")[0], []).append(row["seconds"])
        medians = {name: statistics.median(values) for name, values in times.items()}
        alone = medians.pop("one process", float("nan"))
        ratios = {name: f"{value} s ({value / alone:.2f} of one process)" for name, value in medians.items()}
        print(json.dumps({"puzzle": puzzle.name, "one process": alone, **ratios}))


if __name__ == "__main__":
    main()
