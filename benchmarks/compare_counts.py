"""Two checkouts of pipscover count the same puzzles: every count, node count and method choice must agree.

For a change to the counters that should change nothing they return: each interpreter (a checkout's venv)
counts every puzzle in a process of its own, by `count` (auto, the method it picked), by the structural
counter in both search orders (compiled core, with its search nodes) and, with `--twin`, by its Python twin;
the lines that differ are printed, and the exit code is 1 when any does.

    python benchmarks/compare_counts.py /work/wt-base/.venv/bin/python .venv/bin/python \\
        /work/shared/puzzles/nyt/*.json benchmarks/count_puzzles/planted-4x4-s1.json --twin
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys


def measure(paths: list[str], twin: bool, grids: bool, structural: bool) -> None:
    """In the worker: one JSON line per puzzle, with what the interpreter's pipscover counts."""
    from pipscover import load
    from pipscover.counting import count
    from pipscover.counting.structural import StructuralCounter

    for path in paths:
        for puzzle in load(path):
            answer = count(puzzle)
            row: dict[str, object] = {"puzzle": puzzle.describe(), "auto": [answer.count, answer.exact, answer.method]}
            runs = [("ways", True), ("sweep", True)] if structural else []
            runs += [("ways", False), ("sweep", False)] if twin else []
            for order, compiled in runs:
                counter = StructuralCounter(puzzle, order, compiled=compiled)
                row[f"{order}-{'core' if compiled else 'twin'}"] = [counter.count(), counter.nodes]
            if grids:
                row["grids"] = count(puzzle, "grids", method="structural").count
            print(json.dumps(row), flush=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("old")
    parser.add_argument("new")
    parser.add_argument("puzzles", nargs="+")
    parser.add_argument("--twin", action="store_true", help="also the Python twin of the structural counter")
    parser.add_argument("--grids", action="store_true", help="also the structural count of distinct grids")
    parser.add_argument("--auto-only", action="store_true",
                        help="only `count` (auto): the structural counter alone takes minutes on unique puzzles")
    options = parser.parse_args()
    flags = [flag for flag, on in (("--twin", options.twin), ("--grids", options.grids),
                                   ("--auto-only", options.auto_only)) if on]
    rows = []
    for python in (options.old, options.new):
        ran = subprocess.run([python, __file__, "--measure", *flags, *options.puzzles], capture_output=True,
                             text=True, check=True, cwd="/")
        rows.append([json.loads(line) for line in ran.stdout.splitlines()])
    differ = 0
    for old, new in zip(*rows, strict=True):
        if old != new:
            differ += 1
            print(f"old {old}\nnew {new}")
    print(f"{len(rows[0])} puzzles, {differ} differ")
    return 1 if differ else 0


if __name__ == "__main__":
    if sys.argv[1:2] == ["--measure"]:
        arguments = sys.argv[2:]
        measure([a for a in arguments if not a.startswith("--")], "--twin" in arguments, "--grids" in arguments,
                "--auto-only" not in arguments)
    else:
        sys.exit(main())
