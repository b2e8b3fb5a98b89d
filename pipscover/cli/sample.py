"""`pipscover sample`: solutions drawn uniformly at random from the exact counts, reproducibly by seed."""

from __future__ import annotations

import time
from typing import Annotated

import typer

from pipscover.cli.app import app
from pipscover.cli.common import (
    EXIT_NO,
    EXIT_OK,
    EXIT_TIMEOUT,
    DifficultyOption,
    JsonOption,
    PuzzlesArgument,
    TimeoutOption,
    exit_with,
    load_timed,
    print_json,
    progress_bar,
    solve_json,
)
from pipscover.model.results import Distinct, SearchTimeout, SolveResult, Status
from pipscover.runtime.deadlines import deadline_after
from pipscover.runtime.limits import MEMORY_LIMIT, MemoryCapReached, parse_size


@app.command("sample")
def sample_command(
    puzzles: PuzzlesArgument,
    difficulty: DifficultyOption = None,
    number: Annotated[int, typer.Option("--number", "-n", min=1, help="How many solutions to draw.")] = 1,
    seed: Annotated[int, typer.Option("--seed", help="The seed: the same seed draws the same solutions.")] = 0,
    distinct: Annotated[Distinct, typer.Option(
        "--distinct", help="placements: each solution equally likely; grids: each distinct pip grid.",
    )] = Distinct.PLACEMENTS,
    timeout: TimeoutOption = None,
    memory: Annotated[str, typer.Option("--memory", help="The most memory the counts may hold (e.g. 2G).")]
    = f"{MEMORY_LIMIT // 2**30}G",
    as_json: JsonOption = False,
) -> None:
    """Draw solutions uniformly at random (with replacement), each choice weighted by the exact number of
    solutions below it; the same --seed draws the same solutions on any machine.

    Exit code 0 when every puzzle has solutions, 1 when one has none, 3 when a time or memory limit stopped it.

    Example: pipscover sample nyt/2025-09-15.json -d hard -n 5 --seed 7 --json
    """
    from pipscover.counting.completions import sample
    from pipscover.render.terminal import draw_solution

    cap = parse_size(memory)
    worst = EXIT_OK
    with progress_bar("sampling", total=None):
        for item in load_timed(puzzles, difficulty):
            start = item.clock_start()
            try:
                drawn = sample(item.puzzle, number, seed, distinct, deadline_after(timeout, start), cap)
                status = Status.SOLVED
            except ValueError:
                drawn, status = [], Status.UNSATISFIABLE
            except (SearchTimeout, MemoryCapReached):
                drawn, status = [], Status.TIMEOUT
            result = SolveResult(status, tuple(drawn), "sample", time.monotonic() - start)
            worst = max(worst, {Status.SOLVED: EXIT_OK, Status.UNSATISFIABLE: EXIT_NO}.get(status, EXIT_TIMEOUT))
            if as_json:
                print_json({**solve_json(item.puzzle, result), "seed": seed, "distinct": str(distinct)})
                continue
            typer.echo(f"{item.puzzle.describe()}: {_described(status, len(drawn), distinct, seed)}")
            for solution in drawn:
                typer.echo(draw_solution(item.puzzle, solution))
    exit_with(worst)


def _described(status: Status, drawn: int, distinct: Distinct, seed: int) -> str:
    if status is Status.SOLVED:
        return f"{drawn} drawn uniformly ({distinct}, seed {seed})"
    if status is Status.UNSATISFIABLE:
        return "no solution to draw"
    return "stopped by --timeout or --memory before the draws were done (nothing drawn)"
