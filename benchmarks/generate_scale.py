"""Time `pipscover generate` as the puzzles grow: CPU seconds per seed and their median, per size and shape.

    python benchmarks/generate_scale.py                      # n = 10, 20, 40 nyt and 40, 100 rect, seeds 1-5
    python benchmarks/generate_scale.py --sizes 40:nyt --seeds 1-3 --timeout 120

Each generation runs in its own process (the CLI, as a user runs it) and is charged the CPU time that
process used, so other work on a shared machine barely moves the figures. A run stopped by `--timeout`
(wall seconds, passed to `generate --timeout`) counts as that many seconds and is marked `>`; the median
is then a lower bound.
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics
import subprocess
import sys

DEFAULT_SIZES = "10:nyt,20:nyt,40:nyt,40:rect,100:rect"


def cpu_seconds_of(command: list[str]) -> tuple[float, dict]:
    """Run `command`; the CPU seconds (user + system) it used and its JSON report."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    finished = subprocess.run(command, capture_output=True, text=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    report = json.loads(finished.stdout) if finished.stdout.strip() else {"status": f"exit {finished.returncode}"}
    return cpu, report


def seeds_of(text: str) -> list[int]:
    first, _, last = text.partition("-")
    return list(range(int(first), int(last or first) + 1))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default=DEFAULT_SIZES, help="dominoes:shape, comma-separated")
    parser.add_argument("--seeds", default="1-5", help="a seed or a range, e.g. 1-5")
    parser.add_argument("--timeout", type=float, default=900, help="wall seconds per generation")
    options = parser.parse_args()
    print("| dominoes | shape | CPU s per seed | median CPU s | counter calls (median) |")
    print("|---|---|---|---|---|")
    for size in options.sizes.split(","):
        dominoes, shape = size.split(":")
        times, calls = [], []
        for seed in seeds_of(options.seeds):
            command = [sys.executable, "-m", "pipscover", "generate", "-n", dominoes, "--shape", shape,
                       "--seed", str(seed), "--timeout", str(options.timeout), "-o", "/dev/null", "--json"]
            cpu, report = cpu_seconds_of(command)
            finished = report.get("status") == "generated"
            times.append((cpu if finished else max(cpu, options.timeout), finished))
            if finished:
                calls.append(report["counter_calls"])
        shown = ", ".join(f"{seconds:.1f}" if finished else f">{seconds:.0f}" for seconds, finished in times)
        median = statistics.median(seconds for seconds, _ in times)
        lower = "" if all(finished for _, finished in times) else ">"
        median_calls = statistics.median(calls) if calls else "-"
        print(f"| {dominoes} | {shape} | {shown} | {lower}{median:.1f} | {median_calls} |", flush=True)


if __name__ == "__main__":
    main()
