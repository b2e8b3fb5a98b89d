"""`pipscover check`: say whether a proposed solution solves a puzzle, and exactly what is wrong if not."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from pipscover.check import problems
from pipscover.cli.app import app
from pipscover.cli.common import EXIT_NO, EXIT_OK, DifficultyOption, JsonOption, PuzzleArgument, exit_with, load_single, print_json
from pipscover.errors import PipsError
from pipscover.formats import read_text_file
from pipscover.formats.solution import read_solutions


@app.command("check")
def check_command(
    puzzle_file: PuzzleArgument,
    solution_file: Annotated[
        Path, typer.Argument(help="`solve --json` output, or an NYT solution; - for stdin.", show_default=False)
    ],
    difficulty: DifficultyOption = None,
    as_json: JsonOption = False,
) -> None:
    """Check solutions against a puzzle. Exit code 0 when all are valid, 1 when one is not.

    Example: pipscover solve examples/first.txt --json | pipscover check examples/first.txt -
    """
    puzzle = load_single(puzzle_file, difficulty)
    proposed = read_solutions(read_text_file(solution_file), str(solution_file), puzzle)
    if not proposed:
        raise PipsError(f"{solution_file}: holds no solution to check")
    found = [problems(puzzle, solution) for solution in proposed]
    if as_json:
        print_json({"puzzle": puzzle.origin.as_json(), "valid": not any(found), "problems": found})
    else:
        for index, listed in enumerate(found):
            name = f"{puzzle.describe()}: solution {index + 1}" if len(found) > 1 else puzzle.describe()
            typer.echo(f"{name}: {'valid' if not listed else 'INVALID'}")
            for problem in listed:
                typer.echo(f"  - {problem}")
    exit_with(EXIT_NO if any(found) else EXIT_OK)
