"""`pipscover decode`: turn a SAT or PB solver's answer to an encoded puzzle back into a checked solution."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Annotated

import typer

from pipscover.cli.app import app
from pipscover.cli.cnf_options import CardName, FormName, PbName
from pipscover.cli.common import (
    DifficultyOption,
    JsonOption,
    exit_code,
    exit_with,
    load_single,
    print_json,
    print_solved,
    progress_bar,
    solve_json,
)
from pipscover.cnf import DEFAULT_CARD, DEFAULT_FORM, DEFAULT_PB, AnyEncoding, Encodings, encode
from pipscover.cnf.dimacs import SolverAnswer, read_model
from pipscover.cnf.opb import PbEncoding, encode_opb
from pipscover.errors import PipsError, counted
from pipscover.formats import read_text_file
from pipscover.formats.fetch import day_file
from pipscover.formats.header import Header, read_header
from pipscover.model import Difficulty, Puzzle, Solution
from pipscover.model.results import SolveResult, Status

BACKEND_NAME = "dimacs"  # the `backend` of the JSON: the answer came from a solver outside pipscover


@app.command("decode")
def decode_command(
    source: Annotated[str, typer.Argument(
        help="The file `pipscover encode` wrote (its header holds the puzzle and encodings), or the puzzle "
        "(a file or an NYT day).", show_default=False,
    )],
    model_file: Annotated[str, typer.Argument(
        help="The solver's output (`s`/`v` lines, `v x1 -x2` from a PB solver, or bare literals); - for stdin. "
        "Every model it lists (clasp -n 0 --quiet=0, picosat --all) is decoded.",
        show_default=False,
    )],
    difficulty: DifficultyOption = None,
    dimacs: Annotated[bool | None, typer.Option(
        "--dimacs/--opb", help="Given the puzzle: the answer is to its DIMACS CNF (the default) or its OPB form.",
        show_default=False,
    )] = None,
    card: Annotated[CardName | None, typer.Option(
        "--card", help="The PySAT cardinality encoding the file was written with (default: its header's, else auto).",
    )] = None,
    pb: Annotated[PbName | None, typer.Option(
        "--pb", help="The PySAT pseudo-boolean encoding it was written with (default: its header's, else best).",
    )] = None,
    form: Annotated[FormName | None, typer.Option(
        "--encoding", help="Its CNF form, placements or compact (default: its header's, else auto: by size).",
    )] = None,
    as_json: JsonOption = False,
) -> None:
    """Read a SAT or PB solver's output for `pipscover encode`'s file, check the solution and draw it.

    Given the encoded file, the puzzle, -d, the format and the encodings come from its header (an --encoding,
    --card or --pb that contradicts it is refused), in any folder or on any machine. Given the puzzle, give
    the same -d and options as to `encode`. An output that lists several models (picosat --all, or
    clasp -n 0 --quiet=0: without it clasp shows only an OPB's last model) gives every solution, drawn one
    after another (--json: the list "solutions", one a model in the output's order, "models" and
    "distinct_solutions": a solver that does not project lists a solution once per value of the auxiliary
    variables). Exit code 0 for a solution, 1 when the solver says
    unsatisfiable, 3 when it says unknown, 2 when a model does not fit the encoding, 130 on Ctrl-C (after
    printing the solutions decoded so far).

    Example:

      pipscover encode 2025-09-15 -d hard -o p.cnf; picosat p.cnf > p.out

      pipscover decode p.cnf p.out
    """
    start = time.monotonic()
    chosen = None if dimacs is None else "dimacs" if dimacs else "opb"
    header = read_header(read_text_file(day_file(Path(source))), source)
    encodings = Encodings(str(card or DEFAULT_CARD), str(pb or DEFAULT_PB), str(form or DEFAULT_FORM))
    if header is None:
        puzzle, file_format = load_single(Path(source), difficulty), chosen or "dimacs"
    else:
        if chosen is not None and chosen != header.format:
            raise PipsError(f"{source}: holds {header.format}, and --{chosen} was given; leave the option out")
        _refuse_other_encodings(header, source, card=card, pb=pb, encoding=form)
        puzzle, file_format = _header_puzzle(header, source, difficulty), header.format
        encodings = Encodings(header.card, header.pb, header.form)
    try:
        answer: SolverAnswer | None = read_model(read_text_file(model_file), model_file)
    except KeyboardInterrupt:  # (a solver's output piped in, the solver still running)
        answer = None
    status, solutions = Status.INTERRUPTED if answer is None else answer.status, []
    try:
        if answer is not None and answer.status is Status.SOLVED:
            encoding: AnyEncoding | PbEncoding = (encode_opb(puzzle) if file_format == "opb"
                                                  else encode(puzzle, encodings))
            with progress_bar("decoding", total=len(answer.models)) as advance:
                for model in answer.models:
                    solutions.append(_decoded(encoding, model, model_file))
                    advance()
    except KeyboardInterrupt:  # the solutions decoded so far are printed, as `solve` prints those it found
        status = Status.INTERRUPTED
    result = SolveResult(status, tuple(solutions), BACKEND_NAME, time.monotonic() - start)
    models = None if answer is None else len(answer.models)
    if as_json:  # (the solutions one a model, in the answer's order: a model's solution is found by its place)
        print_json(solve_json(puzzle, result) | {"models": models, "distinct_solutions": len(set(solutions))})
    else:
        print_solved(puzzle, result, f"{puzzle.describe()}: {_said(result, models)} ({model_file})", False)
    exit_with(exit_code(result.status))


def _said(result: SolveResult, models: int | None) -> str:
    """The status line's words: the status, with how many models were decoded when there were several or
    Ctrl-C stopped the decode (`models` None: before the answer was read).

    >>> from pipscover.model.results import SolveResult, Status
    >>> _said(SolveResult(Status.SOLVED, ("one", "two"), BACKEND_NAME, 0.1), 2)
    'solved, 2 models'
    >>> _said(SolveResult(Status.INTERRUPTED, ("one",), BACKEND_NAME, 0.1), 148)
    'stopped by Ctrl-C; 1 of 148 models decoded so far'

    Models that repeat a solution are said to (`picosat --all` of a CNF whose auxiliary variables are free
    lists each solution once per value of them: 252 models of one solution read as 252 solutions).
    """
    if models is None:
        return "stopped by Ctrl-C while reading the solver's answer; nothing decoded"
    if result.status is Status.INTERRUPTED:
        return f"stopped by Ctrl-C; {len(result.solutions):,} of {models:,} models decoded so far"
    if len(result.solutions) <= 1:
        return str(result.status)
    distinct = len(set(result.solutions))  # a Solution compares by its tiling and pip grid
    if distinct == len(result.solutions):
        return f"{result.status}, {models:,} models"
    return (f"{result.status}, {models:,} models of {counted(distinct, 'distinct solution')} (the rest repeat "
            "one with other values of the auxiliary variables)")


def _refuse_other_encodings(header: Header, source: str, **given: object) -> None:
    """Refuse an --encoding, --card or --pb that contradicts the header: the model is of the CNF the header
    describes, so another encoding would read its variables wrongly ("cell [0, 2] is covered twice")."""
    held = {"card": header.card, "pb": header.pb, "encoding": header.form}
    for option, value in given.items():
        if value is not None and str(value) != held[option] and (option, str(value)) != ("encoding", "auto"):
            raise PipsError(f"{source}: was encoded with --{option} {held[option]}, and --{option} {value} "
                            "was given; leave the option out (the header names it)")


def _decoded(encoding: AnyEncoding | PbEncoding, model: tuple[int, ...], model_file: str) -> Solution:
    """The checked solution of one model. A model that is no solution and whose size is not the encoding's
    is one of another form or encoding of the puzzle: say so rather than "cell [0, 2] is covered twice"."""
    try:
        return encoding.decode(model, model_file)
    except PipsError:
        size = max(abs(literal) for literal in model)
        if size == encoding.num_vars:
            raise
        raise PipsError(f"{model_file}: the model has {size} variables, but {encoding.puzzle.describe()} "
                        f"encoded as {encoding.describe()} has {encoding.num_vars}; decode with the file `encode` "
                        "wrote (its header names the encoding), or give encode's --encoding, --card and --pb") from None


def _header_puzzle(header: Header, source: str, difficulty: Difficulty | None) -> Puzzle:
    """The puzzle a header holds, or, in files written before it held one, the puzzle file it names."""
    if header.puzzle is not None:
        if difficulty is not None and difficulty != header.difficulty:
            raise PipsError(f"{source}: encodes {header.puzzle.describe()}, not the {difficulty} puzzle")
        return header.puzzle
    if header.file is None:
        raise PipsError(f"{source}: was encoded from stdin and names no puzzle file; give the puzzle file")
    return load_single(_beside(header.file, source), difficulty or header.difficulty)


def _beside(named: str, cnf: str) -> Path:
    """The puzzle file an old header names: as written, or else beside the CNF (such a header keeps the path
    as it was given to `encode`, relative to where that ran)."""
    path = Path(named)
    if path.exists() or path.is_absolute():
        return path
    return Path(cnf).parent / path
