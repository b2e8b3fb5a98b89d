"""The engine and start-up rows of encodings/benchmarks.md: pipscover against a previous release and the peers.

Every row runs whole processes, alternating the contenders in each round, and reports the median wall and
CPU (user + system of the children) seconds of `--rounds` rounds. Contenders:

- `new`: the `pipscover` of this virtual environment (`python -m pipscover`);
- `old`: a previous release, given as the Python of another environment (`--old-python`, e.g. a venv with
  `pip install pipscover==...` or `pip install -e` of an older checkout);
- `c++`: kshitijl/pips-solver-dancing-links (Knuth's Algorithm M), given as its `mcc` binary and the folder of
  its generated instances (`--mcc`, `--mcc-instances`), for the listing rows;
- `java`: DonoG/NYTPips4Processing, given as a command line (`--java`, run with the day and difficulty).

Peers are built by whoever runs this, from their public sources, outside this repository.

    python benchmarks/engine_speed.py --nyt ../shared/puzzles/nyt --old-python /tmp/old/bin/python \\
        --mcc /work/scratch/peers/mcc/bin/mcc --mcc-instances /work/scratch/peers/mcc/inst
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

# Each row: (name, what it runs); `{nyt}` is the NYT folder, `{day}` one NYT file.
FIRST_SOLUTIONS = (
    "import glob, sys; from pipscover import load; from pipscover.engines.dlx import DlxBackend; "
    "hard = [p for f in sorted(glob.glob(sys.argv[1] + '/*.json')) for p in load(f) if p.origin.difficulty == 'hard']; "
    "[next(iter(DlxBackend().solutions(p))) for p in hard]"
)


def rows(nyt: Path) -> list[tuple[str, list[str], str | None]]:
    """(row, arguments after `python`, the C++ peer's instance for it or None)."""
    day = str(nyt / "2025-09-15.json")
    return [
        ("pipscover --help", ["-m", "pipscover", "--help"], None),
        ("solve one NYT puzzle (2025-09-15 hard)", ["-m", "pipscover", "solve", day, "-d", "hard"], None),
        ("count 2025-09-15 hard", ["-m", "pipscover", "count", day, "-d", "hard"], None),
        ("list every solution of 2025-09-15 hard (count -m dlx)",
         ["-m", "pipscover", "count", day, "-d", "hard", "-m", "dlx"], "2025-09-15-hard"),
        ("list every solution of 2025-10-28 hard (count -m dlx)",
         ["-m", "pipscover", "count", str(nyt / "2025-10-28.json"), "-d", "hard", "-m", "dlx"], "2025-10-28-hard"),
        ("first solution of the hard puzzles (one process)", ["-c", FIRST_SOLUTIONS, str(nyt)], None),
        ("count the archive (one process)", ["-m", "pipscover", "count", str(nyt)], None),
    ]


# Start-up as users have it: Python caches the bytecode it compiles. Without the caches (an environment
# with PYTHONDONTWRITEBYTECODE set) every process compiles pipscover's sources again, about 0.05 s.
ENVIRONMENT = {name: value for name, value in os.environ.items() if name != "PYTHONDONTWRITEBYTECODE"}
# The processes run in a folder with no pipscover in it: `python -m` puts the working directory first on the
# path, so run from a checkout, every contender would import that checkout's pipscover.
NEUTRAL_FOLDER = tempfile.gettempdir()


def timed(command: list[str]) -> tuple[float, float]:
    """Wall and CPU seconds of one run of `command` (its output is discarded; a failure stops the benchmark)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(command, stdout=subprocess.DEVNULL, check=True, env=ENVIRONMENT, cwd=NEUTRAL_FOLDER)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def loop_commands(python: str, nyt: Path, days: int) -> list[list[str]]:
    """`pipscover count FILE -d D`, one process per puzzle, over the first `days` days."""
    return [[python, "-m", "pipscover", "count", str(file), "-d", difficulty]
            for file in sorted(nyt.glob("*.json"))[:days] for difficulty in ("easy", "medium", "hard")]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--nyt", type=Path, required=True, help="the folder of NYT day files")
    parser.add_argument("--old-python", help="the Python of an environment with a previous release")
    parser.add_argument("--mcc", help="the C++ peer's mcc binary")
    parser.add_argument("--mcc-instances", type=Path, help="the C++ peer's generated-mcc-instances folder")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--loop-days", type=int, default=0, help="also time a per-file loop over this many days")
    parser.add_argument("--only", help="run only the rows whose name contains this")
    options = parser.parse_args()
    options.nyt = options.nyt.resolve()  # the processes run elsewhere (NEUTRAL_FOLDER)
    if options.mcc_instances:
        options.mcc_instances = options.mcc_instances.resolve()
    if options.mcc:
        options.mcc = os.path.abspath(options.mcc)
    if options.old_python:  # not resolved: a virtual environment's python is a link that must stay one
        options.old_python = os.path.abspath(options.old_python)
    pythons = {"new": sys.executable, **({"old": options.old_python} if options.old_python else {})}
    table = []
    for name, arguments, instance in rows(options.nyt):
        if options.only and options.only not in name:
            continue
        commands = {label: [python, *arguments] for label, python in pythons.items()}
        if options.mcc and instance and options.mcc_instances and (options.mcc_instances / instance).exists():
            commands["c++"] = [options.mcc, str(options.mcc_instances / instance)]
        table.append((name, measure(commands, options.rounds)))
    if options.loop_days:
        loops = {label: loop_commands(python, options.nyt, options.loop_days) for label, python in pythons.items()}
        table.append((f"count each puzzle of {options.loop_days} days in its own process",
                      measure_loops(loops, options.rounds)))
    print("| work | " + " | ".join(f"{label} wall / CPU s" for label in [*pythons, "c++"]) + " |")
    print("|---|" + "---|" * (len(pythons) + 1))
    for name, found in table:
        cells = [f"{found[label][0]:.2f} / {found[label][1]:.2f}" if label in found else "-"
                 for label in [*pythons, "c++"]]
        print(f"| {name} | " + " | ".join(cells) + " |")


def measure(commands: dict[str, list[str]], rounds: int) -> dict[str, tuple[float, float]]:
    """Median wall and CPU of each contender, the contenders alternating in every round."""
    runs: dict[str, list[tuple[float, float]]] = {label: [] for label in commands}
    for _ in range(rounds):
        for label, command in commands.items():
            runs[label].append(timed(command))
    return {label: (statistics.median(w for w, _ in found), statistics.median(c for _, c in found))
            for label, found in runs.items()}


def measure_loops(loops: dict[str, list[list[str]]], rounds: int) -> dict[str, tuple[float, float]]:
    """As `measure`, each contender's time being the sum over its loop of processes."""
    runs: dict[str, list[tuple[float, float]]] = {label: [] for label in loops}
    for _ in range(rounds):
        for label, commands in loops.items():
            times = [timed(command) for command in commands]
            runs[label].append((sum(w for w, _ in times), sum(c for _, c in times)))
    return {label: (statistics.median(w for w, _ in found), statistics.median(c for _, c in found))
            for label, found in runs.items()}


if __name__ == "__main__":
    main()
