"""`pipscover generate`: NYT-style puzzles around a hidden solution, proved unique by the counter."""

from __future__ import annotations

import json
import random
import sys
import time
from pathlib import Path
from typing import Annotated

import typer

from pipscover.cli.app import app
from pipscover.cli.common import (
    EXIT_TIMEOUT,
    PUZZLE_JSON,
    error_line,
    output_format,
    print_json,
    progress_bar,
    seconds,
    write_output,
)
from pipscover.errors import PipsError
from pipscover.formats import puzzle_to_nyt
from pipscover.generate.generator import MAX_RESTARTS, GeneratedPuzzle, Shape, generate
from pipscover.model import Difficulty, Puzzle
from pipscover.model.results import SearchGaveUp, SearchTimeout

MAX_PIP = 10**9  # beyond it, the pseudo-boolean encodings of the counter's SAT fallback cannot write the sums

# A request that finds nothing gives up after this long: 200 hidden solutions of a large unique puzzle take many
# minutes, and a person waits for one puzzle a minute or two.
GENERATE_TIMEOUT = 120.0


@app.command("generate")
def generate_command(
    dominoes: Annotated[int, typer.Option(
        "--dominoes", "-n", min=1, help="How many dominoes: up to 1000 for a unique puzzle (the proof grows fast), "
        "2000 with --no-unique, any with --no-unique --shape rect.",
    )] = 8,
    max_pip: Annotated[int, typer.Option("--max-pip", min=0, max=MAX_PIP, help="The largest pip (6 in the NYT).")] = 6,
    shape: Annotated[
        Shape, typer.Option("--shape", help="nyt: compact blob; rect: rectangle; random: straggly blob.")
    ] = Shape.NYT,
    seed: Annotated[
        int | None, typer.Option("--seed", help="Same seed, same puzzle (default: a random seed, reported).")
    ] = None,
    unique: Annotated[
        bool, typer.Option("--unique/--no-unique", help="Tighten regions until the counter proves one solution.")
    ] = True,
    difficulty: Annotated[
        Difficulty | None,
        typer.Option(
            "--difficulty", help="A unique puzzle that `pipscover rate` rates so (NYT-calibrated)."
        ),
    ] = None,
    output: Annotated[str, typer.Option("--output", "-o", help="Write the puzzle (NYT JSON) here.")] = "-",
    timeout: Annotated[float | None, typer.Option(
        "--timeout", callback=seconds, help="Give up after this many seconds (inf: no limit).",
    )] = GENERATE_TIMEOUT,
    as_json: Annotated[bool, typer.Option("--json", help="Print the report as one JSON object.")] = False,
    certified: Annotated[bool, typer.Option(
        "--certify", help="Also write NAME.cnf and NAME.drat beside -o NAME.json: its certificate "
        "(`pipscover certify`), which anyone can check.",
    )] = False,
) -> None:
    """Make a puzzle (an NYT puzzle object with its `solution`) and report how many regions it needed.

    The report goes to stderr when the puzzle goes to stdout. Exit code 3 when --timeout passes first, or
    when no puzzle came of 200 hidden solutions (then it says what the NYT's puzzles of that difficulty hold);
    no puzzle is written, and with --json the report has status timeout or unknown.

    Example:

      pipscover generate -n 10 --shape rect --seed 42 --difficulty hard -o p.json
    """
    output_format(output, PUZZLE_JSON)
    if certified and output == "-":
        raise PipsError("generate --certify: the certificate goes beside the puzzle; give -o NAME.json")
    if seed is None:
        seed = random.SystemRandom().randrange(2**31)
    began = time.monotonic()
    try:
        with progress_bar("generate", total=MAX_RESTARTS) as update:
            def attempted(tried: int, rated: Difficulty | None) -> None:
                last = "" if rated is None else f", the last rated {rated}"
                update(completed=tried, description=f"generate: {tried} hidden solutions tried{last}")

            made = generate(dominoes, max_pip, shape, seed, unique, difficulty, timeout, on_attempt=attempted)
    except SearchGaveUp as stop:  # a search that found nothing: not bad input, and not a time limit either
        if as_json:
            print_json({"status": "unknown", "seed": seed, "domino_count": dominoes, "shape": str(shape),
                        "reason": str(stop), "seconds": round(time.monotonic() - began, 6)})
        else:
            error_line(str(stop))
        raise typer.Exit(EXIT_TIMEOUT) from None
    except SearchTimeout:
        if as_json:
            print_json({"status": "timeout", "seed": seed, "domino_count": dominoes, "shape": str(shape),
                        "seconds": round(time.monotonic() - began, 6)})
        else:
            error_line(f"generate: no puzzle within --timeout {timeout:g} s (seed {seed})")
        raise typer.Exit(EXIT_TIMEOUT) from None
    write_output(output, json.dumps(puzzle_to_nyt(made.puzzle, made.solution), separators=(",", ":")) + "\n")
    report = {
        "status": "generated",
        "puzzle": made.puzzle.origin.as_json() | {"file": None if output == "-" else output},
        "seed": seed,
        "domino_count": dominoes,
        "shape": str(shape),
        "unique": made.unique,
        "region_count": len(made.puzzle.regions),
        "constrained_regions": made.constrained_regions,
        "extra_nodes": made.extra_nodes,
        "difficulty": None if made.difficulty is None else str(made.difficulty),
        "counter_calls": made.counter_calls,
        "restarts": made.restarts,
        "seconds": round(made.seconds, 6),
    }
    certificate = _certificate(made.puzzle, output) if certified else None
    if certificate is not None:
        report["certificate"] = certificate
    if as_json and output != "-":
        print_json(report)
        return
    text = json.dumps(report) if as_json else _summary(made, seed, certificate)
    (sys.stderr if output == "-" else sys.stdout).write(text + "\n")


def _summary(made: GeneratedPuzzle, seed: int, certificate: dict[str, str | None] | None) -> str:
    """The report as one line for people."""
    return (
        f"seed {seed}: {len(made.puzzle.dominoes)} dominoes, {len(made.puzzle.regions)} regions "
        f"({made.constrained_regions} with a rule), "
        f"{'unique' if made.unique else 'uniqueness not checked'}"
        + (f", rated {made.difficulty} (pipscover rate)" if made.unique else "")
        + f"; {made.counter_calls} counter calls, "
        f"{made.restarts} restarts, {made.seconds:.3f} s"
        + (f"; certificate: {certificate['claim']}, in {certificate['cnf']}" if certificate else "")
    )


def _certificate(puzzle: Puzzle, output: str) -> dict[str, str | None]:
    """Certify the puzzle written to `output` into NAME.cnf and NAME.drat beside it: what the report says."""
    from pipscover.cli.certify import certificate_json, write_certificate

    path = str(Path(output).with_suffix(".cnf"))
    written = certificate_json(write_certificate(puzzle, path), path)
    return {key: written[key] for key in ("claim", "cnf", "proof")}
