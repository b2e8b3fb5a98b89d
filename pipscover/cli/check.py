"""`pipscover check`: say whether a proposed solution solves a puzzle, and exactly what is wrong if not."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from pipscover.cli.app import app
from pipscover.cli.common import (
    EXIT_NO,
    EXIT_OK,
    DifficultyOption,
    JsonOption,
    PuzzleArgument,
    exit_with,
    load_named,
    print_json,
)
from pipscover.errors import PipsError
from pipscover.formats import read_text_file
from pipscover.formats.solution import names_puzzles, read_solutions
from pipscover.model.check import problems

UNCOVERED_SHOWN = 6  # cells named in a "not covered" line; --json names them all


@app.command("check")
def check_command(
    puzzle_file: PuzzleArgument,
    solution_file: Annotated[
        Path, typer.Argument(help="`solve --json` output, or an NYT solution; - for stdin.", show_default=False)
    ],
    difficulty: DifficultyOption = None,
    as_json: JsonOption = False,
) -> None:
    """Check solutions against puzzles. Exit code 0 when all are valid, 1 when one is not.

    A day file checks all three puzzles (or the one -d names) against `solve --json`'s lines for them, or
    against the published solutions of a day file.

    Of the cells a solution leaves uncovered, the first few are named (--json: all of them).

    Examples:

      pipscover solve examples/first.txt --json > solved.json

      pipscover check examples/first.txt solved.json

      pipscover solve 2025-09-15 --json | pipscover check 2025-09-15 -
    """
    puzzles = load_named(puzzle_file, difficulty)
    text = read_text_file(solution_file)
    if len(puzzles) > 1 and not names_puzzles(text, str(solution_file)):
        raise PipsError(f"{puzzle_file}: holds {len(puzzles)} puzzles and {solution_file} does not say which its "
                        "solution is for; choose one with -d easy|medium|hard")
    invalid, checked = False, 0
    for puzzle in puzzles:
        proposed = read_solutions(text, str(solution_file), puzzle)
        if not proposed:
            if len(puzzles) == 1:
                raise PipsError(f"{solution_file}: holds no solution to check for {puzzle.describe()}")
            continue  # the solutions given are for the day's other puzzles
        checked += 1
        shown = None if as_json else UNCOVERED_SHOWN
        found = [problems(puzzle, solution, most_cells=shown) for solution in proposed]
        invalid = invalid or any(found)
        if as_json:
            print_json({"puzzle": puzzle.origin.as_json(), "valid": not any(found), "problems": found})
            continue
        for index, listed in enumerate(found):
            name = f"{puzzle.describe()}: solution {index + 1}" if len(found) > 1 else puzzle.describe()
            typer.echo(f"{name}: {'valid' if not listed else 'INVALID'}")
            for problem in listed:
                typer.echo(f"  - {problem}")
    if not checked:
        raise PipsError(f"{solution_file}: holds no solution for any puzzle of {puzzle_file}")
    exit_with(EXIT_NO if invalid else EXIT_OK)
