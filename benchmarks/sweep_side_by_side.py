"""What two inclusion-exclusion sweeps side by side cost each other: the same chunk of a puzzle's points swept
by one process alone, then by two at once (as two stock workers sweep on a 2-core machine), alternated round
by round; each process's CPU seconds for the chunk alone (its graph built first, each process its own, as each
worker builds or receives its own). Prints each round and the median of (two at once) / (alone).

`--local` sweeps a graph whose every edge comes from the state just before (the same edges, forms and
instructions, garbage sums): what the sweep costs with every value it reads in the nearest cache, so the gap
to the real graph is what waiting on the values' reads costs (encodings/counting.md).

    nice python benchmarks/sweep_side_by_side.py --points 2048 --repeat 5
"""

from __future__ import annotations

import argparse
import multiprocessing
import statistics
import time
from array import array
from dataclasses import replace
from multiprocessing.synchronize import Barrier
from pathlib import Path

from pipscover import load_one
from pipscover.counting.inclusion_exclusion import Sweep, build_sweep, sweep_total, with_fewest_primes

PUZZLE = Path(__file__).resolve().parent / "count_puzzles" / "planted-6x6-s1.json"


def local(sweep: Sweep) -> Sweep:
    """The sweep with every edge's source the state just before its target."""
    sources = array("i", sweep.sources)
    for state in range(1, sweep.final + 1):
        for edge in range(sweep.first[state], sweep.first[state + 1]):
            sources[edge] = state - 1
    return replace(sweep, sources=sources)


def sweeper(path: Path, points: int, is_local: bool, start: Barrier, seconds: multiprocessing.Queue) -> None:
    """One process: builds the graph, waits for the others, sweeps the first `points` points: its CPU seconds."""
    puzzle = load_one(path)
    sweep = with_fewest_primes(puzzle, build_sweep(puzzle))
    sweep = local(sweep) if is_local else sweep
    start.wait()
    began = time.process_time()
    sweep_total(sweep, chunk=range(points))
    seconds.put(time.process_time() - began)


def swept_at_once(path: Path, points: int, is_local: bool, processes: int) -> list[float]:
    """Each process's CPU seconds, `processes` of them sweeping the same chunk at once."""
    context = multiprocessing.get_context("spawn")
    start, seconds = context.Barrier(processes), context.Queue()
    started = [context.Process(target=sweeper, args=(path, points, is_local, start, seconds))
               for _ in range(processes)]
    for process in started:
        process.start()
    found = [seconds.get() for _ in started]
    for process in started:
        process.join()
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--puzzle", type=Path, default=PUZZLE)
    parser.add_argument("--points", type=int, default=2048, help="the chunk: the first POINTS points")
    parser.add_argument("--repeat", type=int, default=5, help="rounds, each alone then two at once")
    parser.add_argument("--local", action="store_true", help="every edge from the state before (see the top)")
    arguments = parser.parse_args()
    ratios = []
    for round_number in range(1, arguments.repeat + 1):
        alone = swept_at_once(arguments.puzzle, arguments.points, arguments.local, 1)[0]
        pair = swept_at_once(arguments.puzzle, arguments.points, arguments.local, 2)
        ratios.append(statistics.mean(pair) / alone)
        print(f"round {round_number}: alone {alone:.2f} CPU s, two at once {pair[0]:.2f} and {pair[1]:.2f} "
              f"({ratios[-1]:.2f})", flush=True)
    print(f"median (two at once) / alone: {statistics.median(ratios):.2f} over {len(ratios)} rounds")


if __name__ == "__main__":
    main()
