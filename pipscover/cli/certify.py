"""`pipscover certify`: a puzzle's claim (unique, unsatisfiable) as a DIMACS file and a DRAT proof that anyone can
check, and `--check`, which checks one with a checker that shares no code with the solver."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Annotated, Any

import typer

from pipscover.cli.app import app
from pipscover.cli.common import (
    EXIT_NO,
    EXIT_OK,
    DifficultyOption,
    JsonOption,
    exit_after,
    exit_with,
    load_reported,
    output_folder,
    output_paths,
    print_json,
    write_output,
)
from pipscover.cli.readable import OptionsRefused
from pipscover.formats import read_text_file
from pipscover.model import Puzzle
from pipscover.solving.certificates import Certificate, Checked, certify, check

WHAT_IS_PROVED = {"unique": "has exactly one solution", "unsatisfiable": "has no solution"}


@app.command("certify")
def certify_command(
    files: Annotated[list[Path], typer.Argument(
        help="The puzzle (a file, a folder or an NYT day); with --check, the certificate NAME.cnf and its "
        "proof (default NAME.drat).", show_default=False, metavar="PUZZLE...",
    )],
    difficulty: DifficultyOption = None,
    output: Annotated[str | None, typer.Option(
        "--output", "-o", callback=output_folder,
        help="Write the certificate to NAME.cnf and its proof to NAME.drat (several puzzles: "
        "NAME-hard.cnf etc.).", show_default=False,
    )] = None,
    checking: Annotated[bool, typer.Option(
        "--check", help="Check the certificate NAME.cnf [NAME.drat] instead of making one.",
    )] = False,
    as_json: JsonOption = False,
) -> None:
    """Prove a puzzle's answer to anyone: write a DIMACS file and a DRAT proof that it has no model.

    Unique: NAME.cnf is `encode`'s DIMACS of the puzzle plus one clause that excludes the solution found,
    and NAME.drat proves that no model is left (exit 0, the solution shown). Unsatisfiable: NAME.cnf is
    `encode`'s DIMACS alone, with its proof (exit 0). Not unique: two solutions shown, nothing written
    (exit 1). --check checks a certificate: that the CNF is the puzzle's in its header plus at most that
    one clause, and that the proof refutes it (by the dratify package, and drat-trim when on the PATH);
    exit 0 accepted, 1 rejected (encodings/certificates.md). A puzzle file that does not read, among several or
    in a folder, is reported in one line and the others certified; the exit code is then 1.

    Examples:

      pipscover certify 2025-09-15 -d easy -o easy.cnf

      pipscover certify --check easy.cnf easy.drat
    """
    if checking:
        if output is not None or difficulty is not None:
            raise OptionsRefused("--check takes the certificate's files only (no -o, no -d)")
        exit_with(_check(files, as_json))
        return
    if output is None or Path(output).suffix != ".cnf":
        raise OptionsRefused("give the certificate's name with -o NAME.cnf (its proof goes to NAME.drat)")
    timed, unread = load_reported(files, difficulty, as_json)
    loaded = [item.puzzle for item in timed]
    codes = [_certify(puzzle, path, as_json) for puzzle, path in zip(loaded, output_paths(output, loaded))]
    exit_after(max(codes, default=EXIT_OK), unread)


def write_certificate(puzzle: Puzzle, path: str) -> Certificate:
    """Certify `puzzle` and, when the claim is proved, write NAME.cnf and NAME.drat (`path` is NAME.cnf)."""
    made = certify(puzzle)
    if made.proof is not None:
        write_output(path, made.cnf)
        write_output(str(Path(path).with_suffix(".drat")), made.proof)
    return made


def certificate_json(made: Certificate, path: str) -> dict[str, Any]:
    """`{"puzzle", "claim", "solutions", "cnf", "proof", "seconds"}`, the files None when nothing was written."""
    return {
        "puzzle": made.puzzle.origin.as_json(),
        "claim": made.claim,
        "solutions": [solution.as_json() for solution in made.solutions],
        "cnf": path if made.proved else None,
        "proof": str(Path(path).with_suffix(".drat")) if made.proved else None,
        "seconds": round(made.seconds, 6),
    }


def _certify(puzzle: Puzzle, path: str, as_json: bool) -> int:
    from pipscover.render.terminal import draw_solution

    made = write_certificate(puzzle, path)
    if as_json:
        print_json(certificate_json(made, path))
    elif made.proved:
        proof = Path(path).with_suffix(".drat")
        typer.echo(f"{puzzle.describe()}: {made.claim}: it {WHAT_IS_PROVED[made.claim]}; wrote {path} and "
                   f"{proof} ({proof.stat().st_size:,} bytes of DRAT proof), {made.seconds:.3f} s")
    else:
        typer.echo(f"{puzzle.describe()}: not unique: two solutions, so no certificate")
    if not as_json:
        for solution in made.solutions:
            typer.echo(draw_solution(puzzle, solution))
    return 0 if made.proved else EXIT_NO


def _check(files: list[Path], as_json: bool) -> int:
    if len(files) not in (1, 2):
        raise OptionsRefused(f"--check: give the certificate NAME.cnf and its proof, not {len(files)} files")
    if files[0].suffix == ".drat" and files[-1].suffix == ".cnf":  # was "not a certificate: a file without ..."
        raise OptionsRefused(f"--check: give the certificate {files[-1]} first, then its proof {files[0]}")
    cnf = str(files[0])
    proof = str(files[1] if len(files) == 2 else files[0].with_suffix(".drat"))
    start = time.monotonic()
    checked = check(read_text_file(cnf), read_text_file(proof), cnf)
    if as_json:
        print_json(_checked_json(checked, cnf, proof) | {"seconds": round(time.monotonic() - start, 6)})
    elif checked.accepted:
        others = "" if checked.verdicts["drat-trim"] else "; drat-trim is not on the PATH"
        typer.echo(f"{cnf}: accepted: {proof} proves that {checked.puzzle.describe()} "
                   f"{WHAT_IS_PROVED[checked.claim]} (checked by {_checkers(checked)}{others})")
    else:
        typer.echo(f"{cnf}: rejected: {checked.reason}")
    return 0 if checked.accepted else EXIT_NO


def _checkers(checked: Checked) -> str:
    return " and ".join(name for name, verdict in checked.verdicts.items() if verdict is True)


def _checked_json(checked: Checked, cnf: str, proof: str) -> dict[str, Any]:
    return {
        "puzzle": checked.puzzle.origin.as_json(),
        "cnf": cnf,
        "proof": proof,
        "claim": checked.claim,
        "accepted": checked.accepted,
        "solutions": [solution.as_json() for solution in checked.solutions],
        "checkers": {name: "accepted" if verdict is True else "not installed" if verdict is None else verdict
                     for name, verdict in checked.verdicts.items()},
    }
