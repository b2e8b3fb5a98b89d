"""`pipscover generate`: NYT-style puzzles around a hidden solution, proved unique by the counter."""

from __future__ import annotations

import json
import random
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any

import typer

from pipscover.cli.app import app
from pipscover.cli.common import (
    EXIT_TIMEOUT,
    PUZZLE_JSON,
    error_line,
    json_text,
    max_pip_option,
    output_folder,
    output_format,
    progress_bar,
    seconds,
    seed_value,
    write_output,
    wrote,
)
from pipscover.errors import PipsError, counted
from pipscover.formats import puzzle_to_nyt
from pipscover.generate.generator import MAX_RESTARTS, GeneratedPuzzle, Shape, generate
from pipscover.model import Difficulty, Puzzle
from pipscover.model.results import SearchGaveUp, SearchTimeout

# A request that finds nothing gives up after this long: 200 hidden solutions of a large unique puzzle take many
# minutes, and a person waits for one puzzle a minute or two.
GENERATE_TIMEOUT = 120.0


@app.command("generate")
def generate_command(
    dominoes: Annotated[int, typer.Option(
        "--dominoes", "-n", min=1, help="How many dominoes: up to 1000 for a unique puzzle (the proof grows fast), "
        "2000 with --no-unique, any with --no-unique --shape rect.",
    )] = 8,
    max_pip: Annotated[int, max_pip_option("The largest pip (6 in the NYT).")] = 6,
    shape: Annotated[
        Shape, typer.Option("--shape", help="nyt: compact blob; rect: rectangle; random: straggly blob.")
    ] = Shape.NYT,
    seed: Annotated[
        int | None, typer.Option("--seed", callback=seed_value,
                                 help="Same seed, same puzzle (default: a random seed, reported).")
    ] = None,
    any_count: Annotated[bool, typer.Option(
        "--no-unique", help="Any number of solutions: skip tightening the regions until the counter proves one.",
    )] = False,
    difficulty: Annotated[
        Difficulty | None,
        typer.Option(
            "--difficulty", help="A unique puzzle that `pipscover rate` rates so (NYT-calibrated)."
        ),
    ] = None,
    output: Annotated[str, typer.Option(
        "--output", "-o", callback=output_folder,
        help="Write the puzzle (NYT JSON) here; - (stdout) sends the report to stderr.",
    )] = "-",
    timeout: Annotated[float | None, typer.Option(
        "--timeout", callback=seconds, help="Give up after this many seconds (inf: no limit).",
    )] = GENERATE_TIMEOUT,
    as_json: Annotated[bool, typer.Option(
        "--json", help="Print the report as one JSON object (on stderr under -o -, the puzzle on stdout).",
    )] = False,
    certified: Annotated[bool, typer.Option(
        "--certify", help="Also write NAME.cnf and NAME.drat beside -o NAME.json: its certificate "
        "(`pipscover certify`), which anyone can check.",
    )] = False,
) -> None:
    """Make a puzzle (an NYT puzzle object with its `solution`) and report how many regions it needed.

    With -o - (the default) stdout holds the puzzle alone and the report, --json's too, goes to stderr:
    `generate --json > p.json 2> report.json` keeps them apart. Exit code 3 when --timeout passes first, or
    when no puzzle came of 200 hidden solutions (then it says what the NYT's puzzles of that difficulty hold);
    no puzzle is written, and with --json the report has status timeout or unknown.

    Example:

      pipscover generate -n 10 --shape rect --seed 42 --difficulty hard -o p.json
    """
    output_format(output, PUZZLE_JSON)
    if certified and output == "-":
        raise PipsError("generate --certify: the certificate goes beside the puzzle; give -o NAME.json")
    request = Request(dominoes, max_pip, shape, random.SystemRandom().randrange(2**31) if seed is None else seed,
                      not any_count, difficulty, timeout)
    made = _generate_or_stop(request, as_json, output)
    write_output(output, json.dumps(puzzle_to_nyt(made.puzzle, made.solution), separators=(",", ":")) + "\n")
    certificate = _certificate(made.puzzle, output) if certified else None
    report = _report(made, request, output, certificate)
    _tell(json_text(report) if as_json else _summary(made, request.seed, output, certificate), output)


def _tell(report: str, output: str) -> None:
    """The report on stdout, or on stderr when the puzzle went to stdout (-o -): a script reading stdout
    gets the puzzle alone, or nothing when none was made."""
    stream = sys.stderr if output == "-" else sys.stdout
    stream.write(report + "\n")
    stream.flush()


@dataclass(frozen=True)
class Request:
    """What was asked for, with the seed chosen."""

    dominoes: int
    max_pip: int
    shape: Shape
    seed: int
    unique: bool
    difficulty: Difficulty | None
    timeout: float | None

    def stopped(self, status: str, began: float) -> dict[str, Any]:
        """The JSON report of a request that gave no puzzle."""
        return {"status": status, "seed": self.seed, "domino_count": self.dominoes, "shape": str(self.shape),
                "seconds": round(time.monotonic() - began, 6)}


def _generate_or_stop(request: Request, as_json: bool, output: str) -> GeneratedPuzzle:
    """The puzzle, made under a progress bar on a terminal; a search that found nothing, or ran out of time,
    is reported and exits 3."""
    began = time.monotonic()
    try:
        with progress_bar("generate: 0 hidden solutions tried", total=MAX_RESTARTS) as update:
            def attempted(tried: int, rated: Difficulty | None) -> None:
                last = "" if rated is None else f", the last rated {rated}"
                update(completed=tried, description=f"generate: {tried} hidden solutions tried{last}")

            return generate(request.dominoes, request.max_pip, request.shape, request.seed, request.unique,
                            request.difficulty, request.timeout, on_attempt=attempted)
    except SearchGaveUp as stop:  # a search that found nothing: not bad input, and not a time limit either
        if as_json:
            _tell(json_text(request.stopped("unknown", began) | {"reason": str(stop)}), output)
        else:
            error_line(str(stop))
    except SearchTimeout:
        if as_json:
            _tell(json_text(request.stopped("timeout", began)), output)
        else:
            error_line(f"generate: no puzzle within --timeout {request.timeout:g} s (seed {request.seed})")
    raise typer.Exit(EXIT_TIMEOUT)


def _report(made: GeneratedPuzzle, request: Request, output: str,
            certificate: dict[str, str | None] | None) -> dict[str, Any]:
    """The JSON report of a puzzle made: `rating` is what `pipscover rate` rates it (null when not unique), as
    the page's API names it; `difficulty` holds it too, its name before `rating`, beside `puzzle`'s difficulty,
    the one asked for."""
    rating = None if made.difficulty is None else str(made.difficulty)
    report = {
        "status": "generated",
        "puzzle": made.puzzle.origin.as_json() | {"file": None if output == "-" else output},
        "seed": request.seed,
        "domino_count": request.dominoes,
        "shape": str(request.shape),
        "unique": made.unique,
        "region_count": len(made.puzzle.regions),
        "constrained_regions": made.constrained_regions,
        "extra_nodes": made.extra_nodes,
        "difficulty": rating,
        "rating": rating,
        "counter_calls": made.counter_calls,
        "restarts": made.restarts,
        "seconds": round(made.seconds, 6),
    }
    return report if certificate is None else report | {"certificate": certificate}


def _summary(made: GeneratedPuzzle, seed: int, output: str, certificate: dict[str, str | None] | None) -> str:
    """The report as one line for people, naming the file written as `encode` does (none on stdout, -o -)."""
    details = (
        f"{counted(len(made.puzzle.dominoes), 'domino', 'dominoes')}, {counted(len(made.puzzle.regions), 'region')} "
        f"({made.constrained_regions:,} with a rule), "
        f"{'unique' if made.unique else 'uniqueness not checked'}"
        + (f", rated {made.difficulty} (pipscover rate)" if made.unique else "")
        + f"; {counted(made.counter_calls, 'counter call')}, "
        f"{counted(made.restarts, 'restart')}, {made.seconds:.3f} s"
        + (f"; certificate: {certificate['claim']}, in {certificate['cnf']}" if certificate else "")
    )
    return f"seed {seed}: {details}" if output == "-" else wrote(f"seed {seed}", output, details)


def _certificate(puzzle: Puzzle, output: str) -> dict[str, str | None]:
    """Certify the puzzle written to `output` into NAME.cnf and NAME.drat beside it: what the report says."""
    from pipscover.cli.certify import certificate_json, write_certificate

    path = str(Path(output).with_suffix(".cnf"))
    written = certificate_json(write_certificate(puzzle, path), path)
    return {key: written[key] for key in ("claim", "cnf", "proof")}
