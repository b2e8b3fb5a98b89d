"""The engine rows of encodings/benchmarks.md: pipscover against a previous release and the peers.

Every row runs whole processes, alternating the contenders in each round, and reports the median wall and
CPU (user + system of the children) seconds of `--rounds` rounds. Every process is stopped after
`--cpu-limit` seconds of CPU (the kernel's RLIMIT_CPU); a contender stopped is shown as `> LIMIT` and is not
run again in that row. Contenders:

- `new`: the `pipscover` of this virtual environment (`python -m pipscover`);
- `old`: a previous release, given as the Python of another environment (`--old-python`, e.g. a venv with
  `pip install pipscover==...` or `pip install -e` of an older checkout);
- `c++`: kshitijl/pips-solver-dancing-links, given as the `mcc` binary it runs (`--mcc`) and a folder of the
  instances its generator writes, named DAY-DIFFICULTY (`--mcc-instances`), for the listing rows; for the
  per-file loop, also its generator (`--peer-main`: its main.py, run by `--peer-python`, a Python >= 3.12 as
  its pyproject asks), each puzzle as its justfile's `count-solutions` recipe does it: `main.py DAY.json -d D
  > INSTANCE`, then `mcc -v0 INSTANCE`;
- `java`: DonoG/NYTPips4Processing, given as a command line (`--java`) that lists every solution of the puzzle
  named by the two arguments appended to it, the day (YYYY-MM-DD) and the difficulty, for the listing rows.

The peers are built by whoever runs this, from their public sources, outside this repository;
encodings/benchmarks.md says which sources and what each build replaced.

    python benchmarks/engine_speed.py --nyt ../shared/puzzles/nyt --old-python OLD/bin/python \\
        --mcc PEERS/cover/bin/mcc --mcc-instances PEERS/instances --java "java -cp PEERS/classes ListAll PEERS/sketch"

The per-file loop (`pipscover count DAY.json -d D`, one process per puzzle) over the first 10 days against the
C++ peer's loop, 3 rounds:

    python benchmarks/engine_speed.py --nyt ../shared/puzzles/nyt --only loop --loop-days 10 --loop-cpu-limit 20 \\
        --mcc PEERS/cover/bin/mcc --peer-main PEERS/pips-solver-dancing-links/main.py --peer-python python3.12
"""

from __future__ import annotations

import argparse
import os
import resource
import shlex
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

# Each row: (name, what it runs); `{nyt}` is the NYT folder, `{day}` one NYT file.
FIRST_SOLUTIONS = (
    "import glob, sys; from pipscover import load; from pipscover.engines.dlx import DlxBackend; "
    "hard = [p for f in sorted(glob.glob(sys.argv[1] + '/*.json')) for p in load(f) if p.origin.difficulty == 'hard']; "
    "[next(iter(DlxBackend().solutions(p))) for p in hard]"
)


def rows(nyt: Path) -> list[tuple[str, list[str], str | None]]:
    """(row, arguments after `python`, the puzzle the peers list for it, DAY-DIFFICULTY, or None)."""
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


# One process of a loop: its command line and the file its output goes to (None: discarded).
Step = tuple[list[str], Path | None]
Times = dict[str, tuple[float, float]]  # contender: median wall and CPU seconds


def timed(command: list[str], output: Path | None = None, cpu_limit: int = 0) -> tuple[float, float, bool]:
    """Wall and CPU seconds of one run of `command`, its output discarded or written to `output`, and whether
    `cpu_limit` seconds of CPU (0: no limit) stopped it (a failure stops the benchmark). The limit is the
    kernel's (RLIMIT_CPU), not a timeout: `subprocess.run(timeout=...)` polls the child with sleeps of up to
    0.05 s, which added about 0.03 s of wall time to every 0.08 s process."""

    def limited() -> None:
        resource.setrlimit(resource.RLIMIT_CPU, (cpu_limit, cpu_limit + 1))  # SIGXCPU at the limit

    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    with open(output or os.devnull, "wb") as sink:
        done = subprocess.run(command, stdout=sink, stderr=subprocess.DEVNULL if output else None, env=ENVIRONMENT,
                              cwd=NEUTRAL_FOLDER, preexec_fn=limited if cpu_limit else None)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    # SIGXCPU at the soft limit; a process that ignores it (Java's) is killed at the hard one.
    cut = bool(cpu_limit) and (done.returncode == -signal.SIGXCPU or
                               done.returncode == -signal.SIGKILL and cpu >= cpu_limit - 1)
    if done.returncode and not cut:
        raise subprocess.CalledProcessError(done.returncode, command)
    return wall, cpu, cut


def loop_puzzles(nyt: Path, days: str) -> list[tuple[Path, str]]:
    """(day file, difficulty) of every puzzle of the first `days` days ("all": the whole folder)."""
    files = sorted(nyt.glob("*.json"))
    return [(file, difficulty) for file in (files if days == "all" else files[:int(days)])
            for difficulty in ("easy", "medium", "hard")]


def our_loop(python: str, puzzles: list[tuple[Path, str]]) -> list[list[Step]]:
    """`pipscover count FILE -d D`, one process per puzzle."""
    return [[([python, "-m", "pipscover", "count", str(file), "-d", difficulty], None)]
            for file, difficulty in puzzles]


def peer_loop(python: str, main_py: str, mcc: str, puzzles: list[tuple[Path, str]],
              instances: Path) -> list[list[Step]]:
    """The C++ peer's `just count-solutions DATE D` for each puzzle: its generator writes the instance, mcc counts
    its solutions (its log on stderr is discarded, as its justfile's `-v0` asks)."""
    loop: list[list[Step]] = []
    for file, difficulty in puzzles:
        instance = instances / f"{file.stem}-{difficulty}"
        loop.append([([python, main_py, str(file), "-d", difficulty], instance),
                     ([mcc, "-v0", str(instance)], None)])
    return loop


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--nyt", type=Path, required=True, help="the folder of NYT day files")
    parser.add_argument("--old-python", help="the Python of an environment with a previous release")
    parser.add_argument("--mcc", help="the C++ peer's mcc binary")
    parser.add_argument("--mcc-instances", type=Path, help="the C++ peer's generated-mcc-instances folder")
    parser.add_argument("--peer-main", help="the C++ peer's generator, its main.py (for the per-file loop)")
    parser.add_argument("--peer-python", default=sys.executable, help="the Python that runs --peer-main (>= 3.12)")
    parser.add_argument("--java", help="the Java peer: a command line that lists every solution of DAY DIFFICULTY")
    parser.add_argument("--cpu-limit", type=int, default=120,
                        help="stop a row's process after this many seconds of CPU (its time: a lower bound)")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--loop-days", default="0", help="also time a per-file loop over this many days (or all)")
    parser.add_argument("--loop-cpu-limit", type=int, default=60,
                        help="stop a loop's process after this many seconds of CPU (its loop's time: a lower bound)")
    parser.add_argument("--only", help="run only the rows whose name contains this")
    options = parser.parse_args()
    options.nyt = options.nyt.resolve()  # the processes run elsewhere (NEUTRAL_FOLDER)
    if options.mcc_instances:
        options.mcc_instances = options.mcc_instances.resolve()
    if options.mcc:
        options.mcc = os.path.abspath(options.mcc)
    if options.peer_main:
        options.peer_main = os.path.abspath(options.peer_main)
    if options.old_python:  # not resolved: a virtual environment's python is a link that must stay one
        options.old_python = os.path.abspath(options.old_python)
    pythons = {"new": sys.executable, **({"old": options.old_python} if options.old_python else {})}
    table = []
    for name, arguments, puzzle in rows(options.nyt):
        if options.only and options.only not in name:
            continue
        commands = {label: [python, *arguments] for label, python in pythons.items()}
        commands.update(peer_commands(options, puzzle))
        table.append((name, measure(commands, options.rounds, options.cpu_limit)))
    loop_row = "per-file loop: count each puzzle in its own process"
    if options.loop_days != "0" and (not options.only or options.only in loop_row):
        puzzles = loop_puzzles(options.nyt, options.loop_days)
        loops = {label: our_loop(python, puzzles) for label, python in pythons.items()}
        with tempfile.TemporaryDirectory() as instances:
            if options.mcc and options.peer_main:
                loops["c++"] = peer_loop(options.peer_python, options.peer_main, options.mcc, puzzles, Path(instances))
            whole, cut, rest = measure_loops(loops, options.rounds, options.loop_cpu_limit)
        table.append((f"{loop_row} ({len(puzzles)} processes)", whole))
        if cut:
            names = ", ".join(f"{puzzles[index][0].stem} {puzzles[index][1]}" for index in sorted(cut))
            print(f"stopped at {options.loop_cpu_limit} s of CPU (their loops' times are lower bounds): {names}")
            table.append((f"the same without the {len(cut)} cut", rest))
    print_table(table, [*pythons, "c++", "java"], options.cpu_limit)


def peer_commands(options: argparse.Namespace, puzzle: str | None) -> dict[str, list[str]]:
    """The peers' command lines that list every solution of `puzzle` (DAY-DIFFICULTY), for those given."""
    if puzzle is None:
        return {}
    commands = {}
    if options.mcc and options.mcc_instances and (options.mcc_instances / puzzle).exists():
        commands["c++"] = [options.mcc, "-v0", str(options.mcc_instances / puzzle)]
    if options.java:
        day, difficulty = puzzle.rsplit("-", 1)
        commands["java"] = [*shlex.split(options.java), day, difficulty]
    return commands


def print_table(table: list[tuple[str, Times]], labels: list[str], cpu_limit: int) -> None:
    """The rows as Markdown: median wall / CPU seconds per contender, `> LIMIT` where the limit stopped one."""
    shown = [label for label in labels if any(label in found for _, found in table)]
    print("| work | " + " | ".join(f"{label} wall / CPU s" for label in shown) + " |")
    print("|---|" + "---|" * len(shown))
    for name, found in table:
        cells = ["-" if label not in found else f"> {cpu_limit} CPU" if found[label][1] < 0
                 else f"{found[label][0]:.2f} / {found[label][1]:.2f}" for label in shown]
        print(f"| {name} | " + " | ".join(cells) + " |")


def measure(commands: dict[str, list[str]], rounds: int, cpu_limit: int) -> Times:
    """Median wall and CPU of each contender, the contenders alternating in every round; a contender that the
    CPU limit stopped is not run again and gets (-1, -1)."""
    runs: dict[str, list[tuple[float, float]]] = {label: [] for label in commands}
    stopped: set[str] = set()
    for _ in range(rounds):
        for label, command in commands.items():
            if label in stopped:
                continue
            wall, cpu, cut = timed(command, cpu_limit=cpu_limit)
            print(f"{label} {wall:.2f} s wall, {cpu:.2f} s CPU{' (stopped)' if cut else ''}, "
                  f"load {os.getloadavg()[0]:.1f}: {shlex.join(command)[:100]}", file=sys.stderr, flush=True)
            if cut:
                stopped.add(label)
            runs[label].append((wall, cpu))
    return {label: (-1.0, -1.0) if label in stopped else
            (statistics.median(w for w, _ in found), statistics.median(c for _, c in found))
            for label, found in runs.items()}


def timed_steps(steps: list[Step], cpu_limit: int) -> list[tuple[float, float, bool]]:
    """`timed` for each step of one puzzle, up to the first that the limit stops (the next would read its output)."""
    times: list[tuple[float, float, bool]] = []
    for command, output in steps:
        times.append(timed(command, output, cpu_limit))
        if times[-1][2]:
            break
    return times


def measure_loops(loops: dict[str, list[list[Step]]], rounds: int, cpu_limit: int) -> tuple[Times, set[int], Times]:
    """As `measure`, each contender's time being the sum over its loop of processes, each process stopped after
    `cpu_limit` seconds of CPU: the medians, the puzzles cut in any loop, and the medians without those puzzles.
    The order of the contenders turns by one each round, so that none always runs first (the load drifts)."""
    # For each contender and round, each puzzle's wall and CPU seconds (all its steps) and whether it was cut.
    runs: dict[str, list[list[tuple[float, float, bool]]]] = {label: [] for label in loops}
    labels = list(loops)
    for round_number in range(rounds):
        for label in labels[round_number % len(labels):] + labels[:round_number % len(labels)]:
            times = [timed_steps(steps, cpu_limit) for steps in loops[label]]
            runs[label].append([(sum(step[0] for step in puzzle), sum(step[1] for step in puzzle),
                                 any(step[2] for step in puzzle)) for puzzle in times])
            cpu_by_step = " + ".join(f"{sum(puzzle[index][1] for puzzle in times if index < len(puzzle)):.1f}"
                                     for index in range(len(loops[label][0])))
            print(f"round {round_number + 1}: {label} {sum(wall for wall, _, _ in runs[label][-1]):.1f} s wall, "
                  f"{sum(cpu for _, cpu, _ in runs[label][-1]):.1f} s CPU ({cpu_by_step} by step), "
                  f"load {os.getloadavg()[0]:.1f}", file=sys.stderr, flush=True)
    cut = {index for found in runs.values() for puzzles in found for index, (_, _, was_cut) in enumerate(puzzles)
           if was_cut}

    def medians(keep: Callable[[int], bool]) -> Times:
        return {label: (statistics.median(sum(wall for index, (wall, _, _) in enumerate(puzzles) if keep(index))
                                          for puzzles in found),
                        statistics.median(sum(cpu for index, (_, cpu, _) in enumerate(puzzles) if keep(index))
                                          for puzzles in found))
                for label, found in runs.items()}

    return medians(lambda index: True), cut, medians(lambda index: index not in cut)


if __name__ == "__main__":
    main()
