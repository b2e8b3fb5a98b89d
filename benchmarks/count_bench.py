"""The counting benchmark: puzzles that pipscover itself makes, counted by `pipscover count` (auto), OR-Tools
CP-SAT and Ganak in the same run, each in a process of its own, with its time and its peak memory.

The puzzles are made by seed, so anyone gets the same ones: `generate` (unique, 20-50 dominoes here; pass
--large for 60-100, minutes each to make), `generate --no-unique` (10-24 dominoes), `planted` boards (up to 8 x 8), and
`reduce` (POSITIVE 1-IN-3-SAT satisfiable and not, SUBSET SUM). They are written to --puzzles once and reused.

- pipscover: `count(puzzle)` with the default memory cap (2 GiB), time from the loaded puzzle to the count;
- CP-SAT: the model of `pipscover.engines.cpsat` (one Boolean per placement, identical dominoes counted once),
  every solution enumerated by one worker and only counted in the callback;
- Ganak: `pyganak` on the CNF `pipscover encode` writes, projected on the placement variables (as
  `pipscover count --method ganak` runs it, without a memory cap).
- a second opinion from pipscover itself: another kind of method (`count --method dlx`, a listing, when
  `auto` answered with the structural counter; `--method structural` when another method answered).
Every count is compared with the others that finished and with the count recorded in
`benchmarks/recorded_counts.json` (the long counts that two methods or configurations agreed on, which no rival
checks in a run): a disagreement is printed and marked in the table, and "checked by" names every method whose
count it is ("recorded" for the recorded one).

    python benchmarks/count_bench.py --timeout 60 --out benchmarks/results
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
from itertools import product
from pathlib import Path

METHODS = ("pipscover", "cpsat", "ganak")
RECORDED = Path(__file__).parent / "recorded_counts.json"


def recorded_counts() -> dict[str, str]:
    """The recorded counts by puzzle name (`recorded_counts.json`), as decimal strings."""
    return json.loads(RECORDED.read_text())


def suite(large: bool) -> list[tuple[str, dict]]:
    """(name, how to make it) for every puzzle of the benchmark."""
    made: list[tuple[str, dict]] = []
    unique = [(20, "rect"), (30, "rect"), (30, "nyt"), (40, "rect"), (40, "nyt"), (50, "rect")]
    if large:
        unique += [(60, "rect"), (80, "rect"), (100, "rect")]
    made += [(f"unique-{n}-{shape}-s1", {"kind": "generate", "n": n, "shape": shape, "unique": True})
             for n, shape in unique]
    made += [(f"no-unique-{n}-s1", {"kind": "generate", "n": n, "shape": "nyt", "unique": False})
             for n in (10, 12, 14, 16, 18, 20, 22, 24)]
    made += [(f"planted-{size}-s1", {"kind": "planted", "size": size})
             for size in ("4x4", "4x6", "6x6", "2x12", "6x8", "4x12", "8x8")]
    made += [(f"one-in-three-{answer}-{variables}v", {"kind": "one-in-three", "variables": variables,
                                                      "satisfiable": answer == "sat"})
             for answer in ("sat", "unsat") for variables in (9, 12)]
    made += [(f"subset-sum-{answer}-{size}", {"kind": "subset-sum", "size": size, "satisfiable": answer == "sat"})
             for answer in ("sat", "unsat") for size in (10, 14)]
    return made


def make(name: str, recipe: dict, folder: Path) -> Path:
    """The puzzle file, made once."""
    from pipscover.formats.nyt import puzzle_to_nyt

    path = folder / f"{name}.json"
    if path.exists():
        return path
    kind = recipe["kind"]
    solution = None
    if kind == "generate":
        from pipscover.generate.generator import generate

        made = generate(recipe["n"], shape=recipe["shape"], seed=1, unique=recipe["unique"])
        puzzle, solution = made.puzzle, made.solution
    elif kind == "planted":
        from pipscover.generate.planted import PlantedSpec, planted

        rows, columns = map(int, recipe["size"].split("x"))
        puzzle, solution = planted(PlantedSpec(rows, columns, seed=1))
    elif kind == "one-in-three":
        from pipscover.hardness import reduce_one_in_three

        puzzle, _ = reduce_one_in_three(_one_in_three(recipe["variables"], recipe["satisfiable"]))
    else:
        from pipscover.hardness.subset_sum import SubsetSumInstance, reduce_subset_sum

        rng = random.Random(recipe["size"])
        numbers = tuple(rng.randrange(1, 200) * 2 for _ in range(recipe["size"]))  # even: an odd target fails
        target = sum(rng.sample(numbers, len(numbers) // 2)) if recipe["satisfiable"] else sum(numbers) // 2 | 1
        puzzle, _ = reduce_subset_sum(SubsetSumInstance(numbers, target))
    folder.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(puzzle_to_nyt(puzzle, solution)))
    return path


def _one_in_three(variables: int, satisfiable: bool):
    """The first seeded random instance (clauses = variables) whose answer, by brute force, is the one asked."""
    from pipscover.hardness import OneInThreeInstance

    for seed in range(1000):
        rng = random.Random(seed)
        clauses = tuple(tuple(sorted(rng.sample(range(1, variables + 1), 3))) for _ in range(variables))
        instance = OneInThreeInstance(variables, clauses, f"random seed {seed}")
        answer = any(instance.satisfied_by(dict(enumerate(bits, start=1)))
                     for bits in product((False, True), repeat=variables))
        if answer == satisfiable:
            return instance
    raise RuntimeError("no instance found")


def measure(method: str, path: Path) -> dict:
    """In the measuring process: one count of one puzzle by one method."""
    from pipscover import load_one

    puzzle = load_one(path)
    start = time.perf_counter()
    if method.startswith("pipscover"):  # pipscover (auto), or pipscover:METHOD
        from pipscover.counting import count

        result = count(puzzle, method=method.partition(":")[2] or "auto")
        found, exact, answered = result.count, result.exact, result.method
    elif method == "cpsat":
        found, exact, answered = _cpsat(puzzle), True, "cpsat"
    else:
        found, exact, answered = _ganak(puzzle), True, "ganak"
    return {"count": str(found), "exact": exact, "seconds": time.perf_counter() - start, "answered": answered}


def _cpsat(puzzle) -> int:
    from ortools.sat.python import cp_model

    from pipscover.engines.cpsat import _model

    model, _, _ = _model(puzzle, cp_model)
    solver = cp_model.CpSolver()
    solver.parameters.enumerate_all_solutions = True
    solver.parameters.num_workers = 1
    found = [0]

    class Counter(cp_model.CpSolverSolutionCallback):
        def on_solution_callback(self) -> None:
            found[0] += 1

    solver.solve(model, Counter())
    return found[0]


def _ganak(puzzle) -> int:
    """Ganak on the CNF `pipscover encode` writes, projected on the placements (`pipscover.counting.ganak`)."""
    from pipscover.counting.ganak import count_by_ganak

    return count_by_ganak(puzzle, memory_cap=None).count


def run(method: str, path: Path, timeout: float) -> dict:
    """One measurement in a process of its own (killed with its workers at the timeout), with its peak memory."""
    from pipscover.runtime.deadlines import deadline_after, has_passed

    with tempfile.TemporaryFile("w+") as out:
        process = subprocess.Popen([sys.executable, __file__, "--measure", method, str(path)], stdout=out,
                                   stderr=subprocess.DEVNULL, start_new_session=True)
        deadline = deadline_after(timeout)
        while True:
            pid, status, usage = os.wait4(process.pid, os.WNOHANG)
            if pid:
                break
            if has_passed(deadline):
                os.killpg(process.pid, signal.SIGKILL)
                _, status, usage = os.wait4(process.pid, 0)
                return {"count": "", "exact": False, "seconds": None, "answered": "timeout",
                        "peak_mb": usage.ru_maxrss // 1024}
            time.sleep(0.02)
        process.returncode = 0  # reaped here
        out.seek(0)
        text = out.read().strip()
    if not text:
        return {"count": "", "exact": False, "seconds": None, "answered": "failed", "peak_mb": usage.ru_maxrss // 1024}
    return {**json.loads(text), "peak_mb": usage.ru_maxrss // 1024}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--measure", nargs=2, metavar=("METHOD", "FILE"), help=argparse.SUPPRESS)
    parser.add_argument("--puzzles", type=Path, default=Path(__file__).parent / "count_puzzles")
    parser.add_argument("--out", type=Path, default=Path(__file__).parent / "results")
    parser.add_argument("--timeout", type=float, default=60.0)
    parser.add_argument("--large", action="store_true", help="also unique puzzles of 60-100 dominoes")
    parser.add_argument("--only", help="only the puzzles whose name contains this")
    args = parser.parse_args(argv)
    if args.measure:
        print(json.dumps(measure(args.measure[0], Path(args.measure[1]))))
        return
    sys.set_int_max_str_digits(0)
    recorded = recorded_counts()
    rows = []
    for name, recipe in suite(args.large):
        if args.only and args.only not in name:
            continue
        path = make(name, recipe, args.puzzles)
        row: dict = {"puzzle": name}
        for method in METHODS:
            measured = run(method, path, args.timeout)
            row[f"{method}_count"] = measured["count"]
            row[f"{method}_exact"] = measured["exact"]
            row[f"{method}_seconds"] = measured["seconds"]
            row[f"{method}_peak_mb"] = measured["peak_mb"]
            if method == "pipscover":
                row["answered_by"] = measured["answered"]
        row["second_method"] = second = second_method(row["answered_by"])
        measured = run(f"pipscover:{second}", path, args.timeout) if second else {}
        row["second_count"] = measured.get("count", "")
        row["second_exact"] = measured.get("exact", False)
        row["second_seconds"] = measured.get("seconds")
        finished = {method: row[f"{method}_count"] for method in (*METHODS, "second")
                    if row[f"{method}_exact"] and row[f"{method}_count"]}
        if finished and name in recorded:
            finished["recorded"] = recorded[name]
        row["checked_by"] = " ".join(second if method == "second" else method for method in finished)
        row["agree"] = len(set(finished.values())) <= 1
        if not row["agree"]:
            print(f"DISAGREEMENT on {name}: {row}", file=sys.stderr)
        print(json.dumps(row), flush=True)
        rows.append(row)
    args.out.mkdir(parents=True, exist_ok=True)
    with open(args.out / "count_bench.csv", "w", newline="") as file:
        writer = csv.DictWriter(file, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    (args.out / "count_bench.md").write_text(table(rows, args.timeout))
    plot(rows, args.out / "count_bench.png", args.timeout)


def second_method(answered_by: str) -> str | None:
    """pipscover's own second opinion: listing by dlx when the structural counter answered, the structural
    counter when another method did (a lister, inclusion-exclusion); none when `auto` found no count in time."""
    if not answered_by.startswith("auto:"):
        return None
    return "dlx" if answered_by == "auto:structural" else "structural"


def table(rows: list[dict], timeout: float) -> str:
    """The Markdown table: each method's time (or > timeout), pipscover's ratio to the faster rival."""
    lines = [("| puzzle | solutions | pipscover (method) | CP-SAT | Ganak | ratio | peak MB | second opinion "
             "| checked by |"),
             "|---|---|---|---|---|---|---|---|---|"]

    def shown(row: dict, method: str) -> str:
        seconds = row[f"{method}_seconds"]
        return f"> {timeout:.0f} s" if seconds is None else f"{seconds:.2f} s"

    for row in rows:
        second = f"{row['second_method']} {shown(row, 'second')}" if row["second_method"] else "-"
        rivals = [row[f"{method}_seconds"] for method in ("cpsat", "ganak") if row[f"{method}_seconds"] is not None]
        ours = row["pipscover_seconds"]
        faster = min(rivals) if rivals else None
        ratio = ("-" if ours is None or faster is None else f"{ours / faster:.2f}") if rivals else "(both > limit)"
        count = next((row[f"{m}_count"] for m in (*METHODS, "second") if row[f"{m}_exact"] and row[f"{m}_count"]),
                     "?")
        agreement = (row["checked_by"].replace("pipscover", "auto").replace(" ", ", ") or "none") + (
            "" if row["agree"] else " DISAGREE")
        lines.append(f"| {row['puzzle']} | {_short(count)} | {shown(row, 'pipscover')} ({row['answered_by']}) | "
                     f"{shown(row, 'cpsat')} | {shown(row, 'ganak')} | {ratio} | {row['pipscover_peak_mb']} | "
                     f"{second} | {agreement} |")
    return "\n".join(lines) + "\n"


def _short(count: str) -> str:
    return count if len(count) <= 9 else f"{int(count):.3e}"


def plot(rows: list[dict], path: Path, timeout: float) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, axes = plt.subplots(figsize=(11, 4.5))
    positions = range(len(rows))
    for offset, (method, colour) in zip((-0.25, 0, 0.25), zip(METHODS, ("tab:blue", "tab:orange", "tab:green"))):
        heights = [row[f"{method}_seconds"] or timeout for row in rows]
        bars = axes.bar([x + offset for x in positions], heights, width=0.25, label=method, color=colour)
        for bar, row in zip(bars, rows):
            if row[f"{method}_seconds"] is None:
                bar.set_hatch("//")
                bar.set_alpha(0.4)
    axes.set_yscale("log")
    axes.set_ylabel("seconds (hatched: stopped at the limit)")
    axes.set_xticks(list(positions), [row["puzzle"] for row in rows], rotation=60, ha="right", fontsize=8)
    axes.legend()
    axes.set_title("Counting the puzzles pipscover makes: pipscover count (auto) vs CP-SAT vs Ganak")
    figure.tight_layout()
    figure.savefig(path, dpi=110)


if __name__ == "__main__":
    main()
