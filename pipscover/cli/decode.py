"""`pipscover decode`: turn a SAT solver's answer to an encoded puzzle back into a checked solution."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Annotated

import typer

from pipscover.cli.app import app
from pipscover.cli.common import (
    DifficultyOption,
    JsonOption,
    SatCardOption,
    SatFormOption,
    SatPbOption,
    exit_code,
    exit_with,
    load_single,
    print_json,
    solve_json,
)
from pipscover.cnf import DEFAULT_CARD, DEFAULT_FORM, DEFAULT_PB, Encodings, encode
from pipscover.cnf.dimacs import decode_model, read_header, read_model
from pipscover.errors import PipsError
from pipscover.formats import read_text_file
from pipscover.model.results import SolveResult, Status

BACKEND_NAME = "dimacs"  # the `backend` of the JSON: the answer came from a solver outside pipscover


@app.command("decode")
def decode_command(
    source: Annotated[str, typer.Argument(
        help="The CNF `pipscover encode` wrote (its header names the puzzle and encodings), or the puzzle file.",
        show_default=False,
    )],
    model_file: Annotated[
        str, typer.Argument(help="The solver's output (`s`/`v` lines or bare literals); - for stdin.", show_default=False)
    ],
    difficulty: DifficultyOption = None,
    card: SatCardOption = None,
    pb: SatPbOption = None,
    form: SatFormOption = None,
    as_json: JsonOption = False,
) -> None:
    """Read a SAT solver's output for `pipscover encode`'s CNF, check the solution and draw it.

    Given the CNF, the puzzle, -d, --encoding, --card and --pb come from its header (options override them);
    given the puzzle file, give the same -d and options as to `encode`. Exit code 0 for a solution, 1 when
    the solver says unsatisfiable, 3 when it says unknown, 2 when the model does not fit the encoding.

    Example: pipscover encode p.json -d hard -o p.cnf; picosat p.cnf > p.out; pipscover decode p.cnf p.out
    """
    start = time.monotonic()
    header = read_header(read_text_file(source), source)
    if header is None:
        puzzle = load_single(Path(source), difficulty)
        encodings = Encodings(str(card or DEFAULT_CARD), str(pb or DEFAULT_PB), str(form or DEFAULT_FORM))
    else:
        if header.file is None:
            raise PipsError(f"{source}: the CNF was encoded from stdin and names no puzzle file; give the puzzle file")
        puzzle = load_single(_beside(header.file, source), difficulty or header.difficulty)
        encodings = Encodings(str(card or header.card), str(pb or header.pb), str(form or header.form))
    answer = read_model(read_text_file(model_file), model_file)
    solutions = ()
    if answer.status is Status.SOLVED:
        solutions = (decode_model(encode(puzzle, encodings), answer.literals, model_file),)
    result = SolveResult(answer.status, solutions, BACKEND_NAME, time.monotonic() - start)
    if as_json:
        print_json(solve_json(puzzle, result))
    else:
        from pipscover.render.terminal import draw_solution

        typer.echo(f"{puzzle.describe()}: {result.status} ({model_file})")
        for solution in solutions:
            typer.echo(draw_solution(puzzle, solution))
    exit_with(exit_code(result.status))


def _beside(named: str, cnf: str) -> Path:
    """The puzzle file a CNF's header names: as written, or else beside the CNF (the header keeps the path
    as it was given to `encode`, relative to where that ran)."""
    path = Path(named)
    if path.exists() or path.is_absolute():
        return path
    return Path(cnf).parent / path
