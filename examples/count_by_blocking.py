"""Count the solutions of puzzles with a SAT solver and blocking clauses, checked against Dancing Links.

After each model, a clause over its placement variables rules out that one solution; a clause over its
pip variables rules out every solution with the same pip grid. Counting until the solver says UNSAT gives
both counts; the DLX backend, which enumerates solutions directly, gives the first one independently.

    python examples/count_by_blocking.py examples/first.txt
    python examples/count_by_blocking.py ../shared/puzzles/nyt --limit 1000 --backend cadical153
"""

from __future__ import annotations

import argparse
from pathlib import Path

from pipscover import Distinct, load, puzzle_files, solve
from pipscover.counting.blocking import count_by_blocking


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Count solutions by blocking clauses and compare with DLX.")
    parser.add_argument("puzzles", nargs="+", type=Path, help="puzzle files or folders of them")
    parser.add_argument("--backend", default="sat", help="a SAT backend (default: sat)")
    parser.add_argument("--limit", type=int, default=10_000, help="stop counting at this many (default: 10000)")
    args = parser.parse_args(argv)

    print(f"{'puzzle':<34} {'placements':>10} {'grids':>7} {'dlx':>7} {'agree':>5} {'SAT s':>7}")
    for path in puzzle_files(args.puzzles):
        for puzzle in load(path):
            placements = count_by_blocking(puzzle, args.backend, Distinct.PLACEMENTS, limit=args.limit)
            grids = count_by_blocking(puzzle, args.backend, Distinct.GRIDS, limit=args.limit)
            dlx = len(solve(puzzle, "dlx", limit=args.limit).solutions)
            shown = [f"{c.count}{'' if c.exact else '+'}" for c in (placements, grids)]
            agree = "yes" if (placements.count == dlx or not placements.exact) else "NO"
            name = f"{path.name} {puzzle.origin.difficulty or ''}"
            print(f"{name:<34} {shown[0]:>10} {shown[1]:>7} {dlx:>7} {agree:>5} {placements.seconds:>7.3f}")
    print(f"('+': stopped at --limit {args.limit})")


if __name__ == "__main__":
    main()
