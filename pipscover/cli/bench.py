"""`pipscover bench`: time a backend on many puzzles in one process (median, worst, total, puzzles/s)."""

from __future__ import annotations

from typing import Annotated

import typer

from pipscover.backends import DEFAULT_BACKEND
from pipscover.bench import CLOCKS, TASKS, benchmark
from pipscover.cli.app import app
from pipscover.cli.common import DifficultyOption, PuzzlesArgument, TimeoutOption, load_puzzles, print_json, progress_bar
from pipscover.cli.solve import BackendOption


@app.command("bench")
def bench_command(
    puzzles: PuzzlesArgument,
    difficulty: DifficultyOption = None,
    backend: BackendOption = DEFAULT_BACKEND,
    task: Annotated[
        str, typer.Option("--task", help=f"What is timed: {', '.join(f'{t.name} ({t.description})' for t in TASKS.values())}.")
    ] = "first",
    repeat: Annotated[
        int, typer.Option("--repeat", "-r", min=1, help="Run every puzzle this many times; report medians.")
    ] = 1,
    timeout: TimeoutOption = None,
    clock: Annotated[
        str, typer.Option("--clock", help=f"Which clock: {' or '.join(CLOCKS)} (cpu is steadier on a busy machine).")
    ] = "wall",
    as_json: Annotated[bool, typer.Option("--json", help="Print the figures and every puzzle's time as JSON.")] = False,
) -> None:
    """Time the first solution of every puzzle and print the median, worst and total time.

    Puzzles are read before timing starts. With --repeat N, a puzzle's time is the median of its N runs.

    The total is the median of the N per-run totals.

    Example: pipscover bench /path/to/nyt -d hard --repeat 3
    """
    loaded = load_puzzles(puzzles, difficulty)
    with progress_bar("benchmarking", total=len(loaded) * repeat) as advance:
        result = benchmark(loaded, backend, task, repeat, timeout, clock, on_puzzle=advance)
    if as_json:
        print_json(result.as_json())
    else:
        typer.echo(result.summary())
