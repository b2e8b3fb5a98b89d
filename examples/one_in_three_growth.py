"""How solving time grows on Pips puzzles reduced from random POSITIVE 1-IN-3-SAT instances.

For each size, random instances with that many clauses (and clauses/ratio variables) are reduced to Pips
with the paper's gadgets and solved by each backend; the table gives the puzzle size and the median and
worst solving time. The source side is decided independently by brute force when it is small enough,
which also checks the reduction. (A table, to read in a terminal; `pipscover plot` draws the tables of `sweep`.)

    python examples/one_in_three_growth.py --sizes 4,8,12,16 --instances 5 --backends dlx,sat
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from itertools import product

from pipscover import Status, solve
from pipscover.hardness import OneInThreeInstance, recover_assignment, reduce_one_in_three

BRUTE_FORCE_UP_TO = 16  # variables; 2^16 assignments is still quick


def random_instance(variables: int, clauses: int, rng: random.Random) -> OneInThreeInstance:
    """Clauses of three distinct variables drawn uniformly."""
    drawn = tuple(tuple(sorted(rng.sample(range(1, variables + 1), 3))) for _ in range(clauses))
    return OneInThreeInstance(variables, drawn, f"random {variables} variables {clauses} clauses")


def satisfiable_by_brute_force(instance: OneInThreeInstance) -> bool | None:
    if instance.num_variables > BRUTE_FORCE_UP_TO:
        return None
    return any(
        instance.satisfied_by(dict(enumerate(bits, start=1)))
        for bits in product((False, True), repeat=instance.num_variables)
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Solving time on reduced 1-in-3-SAT instances as they grow.")
    parser.add_argument("--sizes", default="2,4,6,8,10", help="clause counts, comma-separated")
    parser.add_argument("--ratio", type=float, default=0.6, help="clauses per variable (default: 0.6)")
    parser.add_argument("--instances", type=int, default=5, help="random instances per size (default: 5)")
    parser.add_argument("--backends", default="dlx", help="backends, comma-separated (default: dlx)")
    parser.add_argument("--timeout", type=float, default=60.0, help="seconds per solve (default: 60)")
    parser.add_argument("--connected", action="store_true", help="use the connected layout")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)

    rng = random.Random(args.seed)
    print(
        f"{'clauses':>7} {'vars':>5} {'dominoes':>8} {'backend':<12} {'sat':>5} {'median s':>9} {'max s':>8} "
        f"{'timeouts':>8}"
    )
    for clauses in map(int, args.sizes.split(",")):
        variables = max(3, round(clauses / args.ratio))
        instances = [random_instance(variables, clauses, rng) for _ in range(args.instances)]
        reduced = [reduce_one_in_three(instance, connected=args.connected) for instance in instances]
        dominoes = statistics.median(len(puzzle.dominoes) for puzzle, _ in reduced)
        for backend in args.backends.split(","):
            seconds, satisfiable, timeouts = [], 0, 0
            for instance, (puzzle, mapping) in zip(instances, reduced):
                start = time.monotonic()
                result = solve(puzzle, backend, limit=1, timeout=args.timeout)
                seconds.append(time.monotonic() - start)
                timeouts += result.status is Status.TIMEOUT
                if result.solutions:
                    satisfiable += 1
                    assert instance.satisfied_by(recover_assignment(result.solutions[0], mapping))
                expected = satisfiable_by_brute_force(instance)
                if expected is not None and result.status is not Status.TIMEOUT:
                    assert bool(result.solutions) == expected, f"reduction disagrees on {instance}"
            print(
                f"{clauses:>7} {variables:>5} {dominoes:>8.0f} {backend:<12} {satisfiable:>2}/{len(instances):<2} "
                f"{statistics.median(seconds):>9.4f} {max(seconds):>8.3f} {timeouts:>8}"
            )


if __name__ == "__main__":
    main()
