"""The compiled Dancing Links core against its Python twin on every NYT puzzle: the first covers (in order)
and the node count, with and without restarts. Prints the searches that differ (none should).

    python benchmarks/engine_twins.py ../shared/puzzles/nyt 100
"""

import sys
from itertools import islice
from pathlib import Path

from pipscover import load
from pipscover.engines.dancing_links import ExactCoverProblem
from pipscover.exactcover.pruning import pruned_exact_cover


def search(puzzle, most: int, restart_seed: int | None, compiled: bool) -> tuple[list[list[int]], int]:
    """The first `most` covers of the pruned search and the nodes it took."""
    cover, rules = pruned_exact_cover(puzzle)
    problem = ExactCoverProblem(len(cover.items), cover.options, cover.multiplicities)
    found = list(islice(problem.search(rules, restart_seed=restart_seed, compiled=compiled), most))
    return found, problem.nodes


def main() -> None:
    folder, most = Path(sys.argv[1]), int(sys.argv[2]) if len(sys.argv) > 2 else 100
    searches = differ = 0
    for file in sorted(folder.glob("*.json")):
        for puzzle in load(file):
            for restart_seed in (None, 0):
                searches += 1
                if search(puzzle, most, restart_seed, False) != search(puzzle, most, restart_seed, True):
                    differ += 1
                    print("differs:", puzzle.describe(), "restart seed", restart_seed)
    print(f"{searches} searches (first {most} covers and their nodes), {differ} differ")


if __name__ == "__main__":
    main()
