"""The counting benchmark's scaling columns: each puzzle counted by `pipscover count PUZZLE -m METHOD --json
--timeout T` in three configurations, in the same run: one process, `--jobs 2` (a LocalCluster of two workers
here) and `--scheduler` on a stock cluster (a `dask scheduler` and two `dask worker tcp://...` processes with
their defaults, started here on 127.0.0.1 and stopped at the end). Each count is a process of its own (in a
session of its own, killed with its workers 30 s past the limit); the configurations alternate, their order
turning round by round. Per run: wall seconds from start to exit, CPU seconds (the process, the workers it
reaped, and the stock workers' CPU meanwhile), peak resident memory (the largest process: the client with
its reaped workers, or a stock worker, sampled every half second), the count and whether it is exact. Every
count that finished is compared with the others of its puzzle (each method and configuration): a
disagreement exits 1. One JSON line per run on stdout; with --out, the runs (runs.jsonl) and the table of
medians (table.md) in that folder. `--kill` adds, per puzzle, a stock-cluster run with one worker killed
(SIGKILL) once both workers hold a task of the count.

    nice python benchmarks/count_split_bench.py --only planted-6x6-s1,no-unique-20-s1 --timeout 300 \\
        --repeat 3 --out results-split/
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
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

import psutil
from count_bench import recorded_counts  # this folder: the scripts run from it

BIN = Path(sys.executable).parent
PUZZLES = Path(__file__).resolve().parent / "count_puzzles"
# The extended benchmark (issue 29): the next sizes, and two short counts for the split's overhead.
EXTENDED = ("planted-4x6-s1", "no-unique-16-s1", "no-unique-20-s1", "planted-6x6-s1", "no-unique-22-s1",
            "no-unique-24-s1", "planted-6x8-s1", "planted-4x12-s1", "planted-8x8-s1", "unique-60-rect-s1",
            "unique-80-rect-s1")
CONFIGURATIONS = ("one process", "--jobs 2", "stock cluster")
GRACE = 30  # seconds past --timeout before a count's process group is killed
MEMORY_CAP = 2 << 30  # `pipscover count`'s default --memory, per process


@dataclass
class StockCluster:
    """A stock scheduler and two stock workers (their defaults: a nanny, a thread per core), each in a session
    of its own."""

    address: str = ""
    started: list[subprocess.Popen] = field(default_factory=list)

    def start(self) -> StockCluster:
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            port = probe.getsockname()[1]
        self.address = f"tcp://127.0.0.1:{port}"
        self.started = [subprocess.Popen([BIN / "dask", "scheduler", "--host", "127.0.0.1", "--port", str(port),
                                          "--dashboard-address", "127.0.0.1:0"], start_new_session=True,
                                         stderr=subprocess.DEVNULL)]
        self.started += [subprocess.Popen([BIN / "dask", "worker", self.address, "--host", "127.0.0.1"],
                                          start_new_session=True, stderr=subprocess.DEVNULL) for _ in range(2)]
        from distributed import Client

        with Client(self.address, timeout=60) as client:
            client.wait_for_workers(2, timeout=120)
        return self

    def workers(self) -> list[psutil.Process]:
        """The stock workers' processes (the nannies and the workers they started)."""
        found = []
        for process in self.started[1:]:
            try:
                found += [psutil.Process(process.pid), *psutil.Process(process.pid).children(recursive=True)]
            except psutil.NoSuchProcess:
                continue
        return found

    def stop(self) -> None:
        for process in reversed(self.started):
            try:
                os.killpg(process.pid, signal.SIGTERM)
            except ProcessLookupError:
                continue
        for process in self.started:
            process.wait(timeout=60)


def _cpu_and_rss(processes: list[psutil.Process]) -> tuple[float, int]:
    cpu, rss = 0.0, 0
    for process in processes:
        try:
            times = process.cpu_times()
            cpu += times.user + times.system
            rss = max(rss, process.memory_info().rss)
        except psutil.NoSuchProcess:
            continue
    return cpu, rss


def run(puzzle: Path, method: str, configuration: str, timeout: float, cluster: StockCluster,
        kill: bool = False) -> dict:
    """One count in a process of its own (under /usr/bin/time, which gives the CPU and the peak of the
    process with the workers it reaped): its answer, wall and CPU seconds, and the peak resident memory."""
    extra = {"one process": [], "--jobs 2": ["--jobs", "2"], "stock cluster": ["--scheduler", cluster.address]}
    command = ["/usr/bin/time", "-f", "TIMED %U %S %M", str(BIN / "pipscover"), "count", str(puzzle), "-m", method,
               "--json", "--timeout", str(timeout), *extra[configuration]]
    workers = cluster.workers() if configuration == "stock cluster" else []
    cpu_before, worker_peak = _cpu_and_rss(workers)
    peaks = [worker_peak]
    start = time.monotonic()
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               start_new_session=True)
    threading.Thread(target=_sample_peak, args=(workers, process, peaks), daemon=True).start()
    if kill:
        threading.Thread(target=_kill_a_worker_mid_count, args=(cluster.address, process), daemon=True).start()
    try:
        output, errors = process.communicate(timeout=timeout + GRACE)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        output, errors = process.communicate()
    wall = time.monotonic() - start
    cpu_after, _ = _cpu_and_rss(workers)
    timed = [line.split() for line in errors.splitlines() if line.startswith("TIMED ")]
    user, system, peak_kb = map(float, timed[-1][1:]) if timed else (float("nan"), float("nan"), 0.0)  # killed
    answer = json.loads(output.splitlines()[-1]) if output.strip() else {}
    said = [line for line in errors.splitlines() if line.strip() and not line.startswith(("TIMED ", "Command "))]
    return {"puzzle": puzzle.stem, "method": method, "configuration": configuration, "killed_a_worker": kill,
            "exit": process.returncode, "count": answer.get("count"), "exact": answer.get("exact"),
            "answered_by": answer.get("method"), "stopped_by": answer.get("stopped_by"),
            "wall_s": round(wall, 2),
            # A killed worker's CPU is lost with it (and its restart's counts from 0): unknown, not a difference.
            "cpu_s": None if kill else round(user + system + cpu_after - cpu_before, 2),
            "peak_mb": round(max(peak_kb / 1024, max(peaks) / 2**20)),
            "said": said[-1][:300] if said and not answer else None}


def _sample_peak(workers: list[psutil.Process], count: subprocess.Popen, peaks: list[int]) -> None:
    """The stock workers' largest resident size while the count runs, every half second."""
    while workers and count.poll() is None:
        peaks.append(_cpu_and_rss(workers)[1])
        time.sleep(0.5)


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


def measure(names: list[str], methods: list[str], timeout: float, repeat: int, kill: bool,
            cluster: StockCluster, configurations: tuple[str, ...] = CONFIGURATIONS) -> list[dict]:
    """Every run, printed as it ends: per puzzle and round, each method in each configuration, the
    configurations' order turning round by round."""
    rows = []
    for name in names:
        for number in range(repeat):
            turn = number % len(configurations)
            turned = configurations[turn:] + configurations[:turn]
            for method in methods:
                for configuration in turned:
                    rows.append(run(PUZZLES / f"{name}.json", method, configuration, timeout, cluster))
                    print(json.dumps(rows[-1]), flush=True)
        if kill:
            rows.append(run(PUZZLES / f"{name}.json", methods[0], "stock cluster", timeout, cluster, kill=True))
            print(json.dumps(rows[-1]), flush=True)
    return rows


def cross_check(rows: list[dict]) -> dict[str, list[str]]:
    """Per puzzle, the method/configuration pairs whose exact counts agree, with the count recorded in
    `benchmarks/recorded_counts.json`; exits 1 on a disagreement."""
    recorded = recorded_counts()
    agreeing: dict[str, list[str]] = {}
    for name in dict.fromkeys(row["puzzle"] for row in rows):
        counts = {(row["method"], row["configuration"]): row["count"] for row in rows
                  if row["puzzle"] == name and row["exact"]}
        if counts and name in recorded:
            counts["recorded", ""] = int(recorded[name])
        if len(set(counts.values())) > 1:
            sys.exit(f"{name}: the counts differ: {counts}")
        methods = ", ".join(sorted({method for method, _ in counts}))
        agreeing[name] = [f"{len(counts)} agree ({methods})" if len(counts) > 1 else f"1 ({methods}), unchecked"] \
            if counts else []
    return agreeing


def _cell(runs: list[dict], timeout: float) -> str:
    if not runs:
        return "-"
    if runs[0]["said"]:
        return f"refused: {runs[0]['said'][:80]}"
    exact = [run for run in runs if run["exact"]]
    if not exact:
        return f"> {timeout:g} s ({statistics.median(run['cpu_s'] for run in runs):.0f} CPU s)"
    if len(exact) < len(runs):
        return f"{statistics.median(run['wall_s'] for run in exact):.1f} s ({len(exact)} of {len(runs)} in time)"
    wall = statistics.median(run["wall_s"] for run in runs)
    cpu = statistics.median(run["cpu_s"] for run in runs)
    return f"{wall:.1f} s ({cpu:.1f} CPU s, {max(run['peak_mb'] for run in runs)} MB)"


def table(rows: list[dict], timeout: float) -> str:
    """Markdown: per puzzle and method, the median wall seconds of each configuration (CPU seconds and the
    largest peak in brackets), the count, and which runs agree on it."""
    agreeing = cross_check(rows)
    lines = [f"| puzzle | method | {' | '.join(CONFIGURATIONS)} | count | checked by |", "|---" * 7 + "|"]
    for name, method in dict.fromkeys((row["puzzle"], row["method"]) for row in rows):
        runs = [row for row in rows if (row["puzzle"], row["method"]) == (name, method) and not row["killed_a_worker"]]
        counts = {row["count"] for row in runs if row["exact"]}
        cells = [_cell([row for row in runs if row["configuration"] == configuration], timeout)
                 for configuration in CONFIGURATIONS]
        count = f"{counts.pop():,}" if counts else "?"
        checked = ", ".join(agreeing[name]) or "none finished"
        lines.append(f"| {name} | {method} | {' | '.join(cells)} | {count} | {checked} |")
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split(":")[0] + ": one process, --jobs 2 and a stock "
                                     "cluster of two workers, in the same run.",
                                     formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    parser.add_argument("--only", default=",".join(EXTENDED),
                        help="comma-separated puzzle names of benchmarks/count_puzzles (default: the extended set)")
    parser.add_argument("--method", action="append", help="pipscover count's --method, repeatable (default: auto)")
    parser.add_argument("--timeout", type=float, default=300, help="seconds per count (default: 300)")
    parser.add_argument("--repeat", type=int, default=1, help="rounds per puzzle, medians reported (default: 1)")
    parser.add_argument("--out", type=Path, help="a folder for runs.jsonl and table.md")
    parser.add_argument("--kill", action="store_true", help="also a stock-cluster run with a worker killed mid-count")
    parser.add_argument("--configurations", default=",".join(CONFIGURATIONS),
                        help=f"comma-separated, of {', '.join(CONFIGURATIONS)} (default: all three)")
    arguments = parser.parse_args()
    names = arguments.only.split(",")
    configurations = tuple(arguments.configurations.split(","))
    if set(configurations) - set(CONFIGURATIONS):
        parser.error(f"--configurations: of {', '.join(CONFIGURATIONS)}")
    missing = [name for name in names if not (PUZZLES / f"{name}.json").is_file()]
    if missing:
        parser.error(f"no such puzzle in {PUZZLES}: {', '.join(missing)}")
    cluster = StockCluster().start()
    try:
        rows = measure(names, arguments.method or ["auto"], arguments.timeout, arguments.repeat, arguments.kill,
                       cluster, configurations)
    finally:
        cluster.stop()
    made = table(rows, arguments.timeout)
    print(made)
    if arguments.out:
        arguments.out.mkdir(parents=True, exist_ok=True)
        (arguments.out / "runs.jsonl").write_text("".join(json.dumps(row) + "\n" for row in rows))
        (arguments.out / "table.md").write_text(made)


if __name__ == "__main__":
    main()
