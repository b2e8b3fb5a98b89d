"""Compare the cardinality and pseudo-boolean encodings of the CNF on a folder of puzzles.

For every (card, pb) pair the puzzles are encoded (clauses and variables counted) and solved to a first
solution by one SAT solver; the table gives totals and the median time per puzzle, so the encodings can be
compared on the same instances.

    python examples/compare_encodings.py ../shared/puzzles/nyt --card seqcounter,totalizer --pb best,bdd,adder
"""

from __future__ import annotations

import argparse
import statistics
from pathlib import Path

from pipscover import Status, load, puzzle_files, solve
from pipscover.cnf import Encodings, encode
from pipscover.engines import get_backend


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Compare card/PB encodings of the CNF.")
    parser.add_argument("puzzles", nargs="+", type=Path, help="puzzle files or folders of them")
    parser.add_argument(
        "--card", default="seqcounter,totalizer,sortnetwrk", help="cardinality encodings, comma-separated"
    )
    parser.add_argument("--pb", default="best,bdd,adder", help="pseudo-boolean encodings, comma-separated")
    parser.add_argument("--solver", default="sat", help="the SAT backend (default: sat)")
    parser.add_argument("--timeout", type=float, default=30.0, help="seconds per puzzle (default: 30)")
    args = parser.parse_args(argv)

    puzzles = [puzzle for path in puzzle_files(args.puzzles) for puzzle in load(path)]
    solver = get_backend(args.solver)
    print(f"{len(puzzles)} puzzles, solver {solver.name}")
    print(f"{'card':<12} {'pb':<12} {'clauses':>10} {'variables':>10} {'median s':>9} {'total s':>8} {'timeouts':>8}")
    for card in args.card.split(","):
        for pb in args.pb.split(","):
            encodings = Encodings(card, pb)
            engine = solver.with_encodings(encodings)
            clauses = variables = timeouts = 0
            seconds = []
            for puzzle in puzzles:
                encoding = encode(puzzle, encodings)
                clauses += encoding.num_clauses
                variables += encoding.num_vars
                result = solve(puzzle, engine, limit=1, timeout=args.timeout)
                timeouts += result.status is Status.TIMEOUT
                seconds.append(result.seconds)
            median = statistics.median(seconds)
            print(
                f"{card:<12} {pb:<12} {clauses:>10} {variables:>10} {median:>9.4f} {sum(seconds):>8.2f} {timeouts:>8}"
            )


if __name__ == "__main__":
    main()
