"""`pipscover solve`: find one, several or all solutions of puzzles with any backend."""

from __future__ import annotations

from typing import Annotated

import typer

from pipscover.backends import DEFAULT_BACKEND
from pipscover.cli.app import app
from pipscover.cli.common import (
    BackendOption,
    DifficultyOption,
    JsonOption,
    PuzzlesArgument,
    SatCardOption,
    SatPbOption,
    TimeoutOption,
    backend_with_encodings,
    exit_code,
    exit_with,
    load_puzzles,
    print_json,
    progress_bar,
    solve_json,
    write_output,
)
from pipscover.errors import PipsError
from pipscover.render.svg import draw_svg
from pipscover.render.terminal import draw_solution
from pipscover.solving import solve

@app.command("solve")
def solve_command(
    puzzles: PuzzlesArgument,
    difficulty: DifficultyOption = None,
    backend: BackendOption = DEFAULT_BACKEND,
    card: SatCardOption = None,
    pb: SatPbOption = None,
    every: Annotated[bool, typer.Option("--all", help="Find every solution.")] = False,
    limit: Annotated[int, typer.Option("--limit", min=1, help="Find up to this many solutions.")] = 1,
    timeout: TimeoutOption = None,
    svg: Annotated[str | None, typer.Option("--svg", help="Also write the first solution as an SVG picture.")] = None,
    as_json: JsonOption = False,
) -> None:
    """Solve puzzles and draw their solutions.

    Exit code 0 when every puzzle is solved, 1 when one has no solution, 3 when one timed out.

    Example: pipscover solve examples/first.txt --all -b cadical --card totalizer
    """
    loaded = load_puzzles(puzzles, difficulty)
    if svg is not None and len(loaded) > 1:
        raise PipsError(f"{len(loaded)} puzzles given; --svg draws one (choose with -d)")
    engine = backend_with_encodings(backend, card, pb)
    worst = 0
    with progress_bar("solving", total=len(loaded) if len(loaded) > 1 else None) as advance:
        for puzzle in loaded:
            result = solve(puzzle, engine, limit=None if every else limit, timeout=timeout)
            advance()
            if svg is not None and result.solutions:
                write_output(svg, draw_svg(puzzle, result.solutions[0]))
            worst = max(worst, exit_code(result.status))
            if as_json:
                print_json(solve_json(puzzle, result))
                continue
            found = len(result.solutions)
            noun = "solution" if found == 1 else "solutions"
            typer.echo(f"{puzzle.describe()}: {result.status}, {found} {noun} by {result.backend} in {result.seconds:.3f} s")
            for solution in result.solutions:
                typer.echo(draw_solution(puzzle, solution))
    exit_with(worst)
