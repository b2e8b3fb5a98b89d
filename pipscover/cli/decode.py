"""`pipscover decode`: turn a SAT solver's answer to an encoded puzzle back into a checked solution."""

from __future__ import annotations

import time
from typing import Annotated

import typer

from pipscover.cli.app import app
from pipscover.cli.common import (
    DifficultyOption,
    JsonOption,
    PuzzleArgument,
    exit_code,
    exit_with,
    load_single,
    print_json,
    solve_json,
)
from pipscover.cli.common import CardName, CardOption, PbName, PbOption, chosen_encodings
from pipscover.cnf import DEFAULT_CARD, DEFAULT_PB, encode
from pipscover.cnf.dimacs import decode_model, read_model
from pipscover.formats import read_text_file
from pipscover.results import SolveResult, Status

BACKEND_NAME = "dimacs"  # the `backend` of the JSON: the answer came from a solver outside pipscover


@app.command("decode")
def decode_command(
    puzzle_file: PuzzleArgument,
    model_file: Annotated[
        str, typer.Argument(help="The solver's output (`s`/`v` lines or bare literals); - for stdin.", show_default=False)
    ],
    difficulty: DifficultyOption = None,
    card: CardOption = CardName[DEFAULT_CARD],
    pb: PbOption = PbName[DEFAULT_PB],
    as_json: JsonOption = False,
) -> None:
    """Read a SAT solver's output for `pipscover encode`'s CNF, check the solution and draw it.

    Give the same puzzle, -d, --card and --pb as to `encode`. Exit code 0 for a solution, 1 when the
    solver says unsatisfiable, 3 when it says unknown, 2 when the model does not fit the encoding.

    Example: pipscover encode p.json -d hard --dimacs p.cnf; picosat p.cnf > p.out; pipscover decode p.json -d hard p.out
    """
    start = time.monotonic()
    puzzle = load_single(puzzle_file, difficulty)
    text = read_text_file(model_file)
    answer = read_model(text, model_file)
    solutions = ()
    if answer.status is Status.SOLVED:
        encoding = encode(puzzle, chosen_encodings(card, pb))
        solutions = (decode_model(encoding, answer.literals, model_file),)
    result = SolveResult(answer.status, solutions, BACKEND_NAME, time.monotonic() - start)
    if as_json:
        print_json(solve_json(puzzle, result))
    else:
        from pipscover.render.terminal import draw_solution

        typer.echo(f"{puzzle.describe()}: {result.status} ({model_file})")
        for solution in solutions:
            typer.echo(draw_solution(puzzle, solution))
    exit_with(exit_code(result.status))


