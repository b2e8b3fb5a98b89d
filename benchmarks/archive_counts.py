"""Old code against new on the NYT archive's counts, in the same run: each interpreter (a checkout's venv)
counts every puzzle through `auto` in one process, the two alternating round by round; every count must
agree. Per round, the CPU seconds of the counts alone (`time.process_time` around each `count`, the reading
and imports left out), and the new/old ratio; the medians at the end. With `--callgrind N`, also the
instructions (valgrind's callgrind, which a loaded machine does not change) of counting the N slowest
puzzles, less those of reading them.

    nice python benchmarks/archive_counts.py /work/wt-base/.venv/bin/python .venv/bin/python \\
        ../shared/puzzles/nyt --rounds 3 --callgrind 40
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path


def measure(paths: list[str], count_them: bool) -> None:
    """In the worker: one JSON line per puzzle, its count, method and CPU seconds (with `count_them` false,
    only read: callgrind's baseline). The first puzzle is counted once first in both, so that the imports a
    count makes are in the baseline."""
    import time

    from pipscover import load
    from pipscover.counting import count

    count(next(iter(load(paths[0]))))
    for path in paths:
        for puzzle in load(path):
            if not count_them:
                continue
            start = time.process_time()
            answer = count(puzzle)
            seconds = time.process_time() - start
            print(json.dumps({"puzzle": puzzle.describe(), "count": answer.count, "exact": answer.exact,
                              "method": answer.method, "seconds": seconds}), flush=True)


def counted(python: str, paths: list[str], wrapper: list[str] | None = None, count_them: bool = True) -> list[dict]:
    """What one interpreter's pipscover counts, in a process of its own."""
    command = [*(wrapper or []), python, __file__, "--worker", "count" if count_them else "read", *paths]
    output = subprocess.run(command, capture_output=True, text=True, check=True, cwd=tempfile.gettempdir()).stdout
    return [json.loads(line) for line in output.splitlines()]


def instructions(python: str, paths: list[str], count_them: bool) -> int:
    """Callgrind's instruction count of one worker."""
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder, "callgrind.out")
        counted(python, paths, ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}"], count_them)
        summary = re.search(r"^summary: (\d+)", out.read_text(), re.MULTILINE)
        if summary is None:
            sys.exit(f"callgrind wrote no summary to {out}")
        return int(summary[1])


def compare_rounds(old: str, new: str, paths: list[str], rounds: int) -> list[dict]:
    """Alternated rounds over every puzzle; the rows of the last new round (for the slowest puzzles)."""
    ratios, last = [], []
    for number in range(rounds):
        runs = {}
        for name, python in ([("old", old), ("new", new)] if number % 2 == 0 else [("new", new), ("old", old)]):
            runs[name] = counted(python, paths)
        differ = [(a, b) for a, b in zip(runs["old"], runs["new"]) if (a["puzzle"], a["count"], a["exact"])
                  != (b["puzzle"], b["count"], b["exact"])]
        if differ or len(runs["old"]) != len(runs["new"]):
            sys.exit(f"the counts differ: {differ[:3]}")
        seconds = {name: sum(row["seconds"] for row in rows) for name, rows in runs.items()}
        ratios.append(seconds["new"] / seconds["old"])
        print(json.dumps({"round": number + 1, "puzzles": len(runs["new"]), "old_cpu_s": round(seconds["old"], 3),
                          "new_cpu_s": round(seconds["new"], 3), "new/old": round(ratios[-1], 3)}), flush=True)
        last = runs["new"]
    print(json.dumps({"rounds": rounds, "median new/old": round(statistics.median(ratios), 3)}), flush=True)
    return last


def main() -> None:
    if sys.argv[1:2] == ["--worker"]:
        measure(sys.argv[3:], sys.argv[2] == "count")
        return
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter,
                                     epilog="example:\n" + __doc__.split("\n\n")[-1])
    # Made absolute, not resolved: the counts run in the temporary folder, and a virtualenv's python is a link
    # that must stay its own (resolved, it is the base interpreter, without the checkout).
    parser.add_argument("old", type=os.path.abspath, help="the old checkout's python")
    parser.add_argument("new", type=os.path.abspath, help="the new checkout's python")
    parser.add_argument("folder", type=Path, help="the NYT puzzles (*.json)")
    parser.add_argument("--rounds", type=int, default=3, help="alternated rounds over the whole archive (0: none)")
    parser.add_argument("--callgrind", type=int, default=0, metavar="N", help="callgrind on the N slowest puzzles")
    arguments = parser.parse_args()
    paths = sorted(str(path.resolve()) for path in arguments.folder.glob("*.json"))
    rows = compare_rounds(arguments.old, arguments.new, paths, arguments.rounds) if arguments.rounds else \
        counted(arguments.new, paths)
    if arguments.callgrind:
        slowest = sorted(rows, key=lambda row: -row["seconds"])[:arguments.callgrind]
        files = sorted({row["puzzle"].split(" (")[0] for row in slowest})
        spent = {name: instructions(python, files, True) - instructions(python, files, False)
                 for name, python in (("old", arguments.old), ("new", arguments.new))}
        print(json.dumps({"callgrind": f"{len(slowest)} slowest puzzles ({len(files)} files, every puzzle of each)",
                          "old_instructions": spent["old"], "new_instructions": spent["new"],
                          "new/old": round(spent["new"] / spent["old"], 4)}), flush=True)


if __name__ == "__main__":
    main()
