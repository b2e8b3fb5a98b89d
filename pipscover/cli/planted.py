"""`pipscover planted`: seeded planted puzzles (solvable by construction) and the scale benchmark's set of them."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Annotated

import typer

from pipscover.cli.app import app
from pipscover.cli.common import (
    PUZZLE_JSON,
    max_pip_option,
    output_format,
    print_json,
    seed_value,
    write_output,
    wrote,
)
from pipscover.cli.readable import OptionsRefused
from pipscover.errors import counted, is_written_whole_number
from pipscover.formats import puzzle_to_nyt
from pipscover.generate.planted import SCALE_SUITE, Pips, PlantedSpec, planted


@app.command("planted")
def planted_command(
    size: Annotated[str | None, typer.Argument(
        help="The board, ROWSxCOLUMNS (e.g. 12x12, 2x300); not with --suite.", show_default=False,
    )] = None,
    pips: Annotated[Pips, typer.Option(
        "--pips", help="repeated: pips drawn independently (dominoes repeat); distinct: no domino twice.",
    )] = Pips.REPEATED,
    max_pip: Annotated[int, max_pip_option("The largest pip.")] = 6,
    seed: Annotated[int | None, typer.Option(
        "--seed", callback=seed_value,
        help="Same seed, same puzzle, on any machine (default: a random seed, reported).")] = None,
    suite: Annotated[bool, typer.Option(
        "--suite", help="Write the scale benchmark (every board and seed of SCALE_SUITE in "
                        "pipscover/generate/planted.py) into the folder given by --output.",
    )] = False,
    output: Annotated[str, typer.Option("--output", "-o", help="Write the puzzle (NYT JSON) here.")] = "-",
    as_json: Annotated[bool, typer.Option("--json", help="Print what was written as JSON lines.")] = False,
) -> None:
    """Plant a random solution on a rectangle and read ~4-cell regions of all six kinds off it.

    The puzzle (an NYT puzzle object with its planted `solution`) is solvable but not unique; it is made
    in milliseconds, for timing solvers beyond the NYT's size.

    Examples:

      pipscover planted 12x12 --pips distinct --max-pip 12 --seed 3 -o b.json

      pipscover planted --suite -o scale/

      pipscover bench scale/ -b dlx -b sat --timeout 60
    """
    output_format(output, PUZZLE_JSON)
    if suite:
        if size is not None:
            raise OptionsRefused("give a board size or --suite, not both")
        if output == "-":
            raise OptionsRefused("--suite writes one file per puzzle: name a folder with --output")
        folder = Path(output)
        folder.mkdir(parents=True, exist_ok=True)
        for spec in SCALE_SUITE:
            _write(spec, str(folder / f"{spec.name}.json"), as_json)
        return
    if size is None:
        raise OptionsRefused("give a board size such as 12x12, or --suite")
    rows, _, columns = size.lower().partition("x")
    if not (is_written_whole_number(rows) and is_written_whole_number(columns)):  # isdigit took '²', int not
        raise OptionsRefused(f"board size {size!r}: write ROWSxCOLUMNS, e.g. 12x12")
    drawn = seed is None  # as generate does: a new puzzle each time, and the seed that makes it again
    if seed is None:
        seed = random.SystemRandom().randrange(2**31)
    _write(PlantedSpec(int(rows), int(columns), pips, max_pip, seed), output, as_json)
    if drawn and not as_json:  # once made: a board refused was a second line on stderr, its name holds the seed
        typer.echo(f"seed {seed}", err=True)


def _write(spec: PlantedSpec, path: str, as_json: bool) -> None:
    """The puzzle `spec` makes to `path`; a file written is named, in a line or (--json) by "file"."""
    puzzle, solution = planted(spec)
    write_output(path, json.dumps(puzzle_to_nyt(puzzle, solution), separators=(",", ":")) + "\n")
    if path == "-":
        return
    if as_json:
        print_json({"name": spec.name, "file": path, "seed": spec.seed, "dominoes": len(puzzle.dominoes),
                    "regions": len(puzzle.regions)})
    else:
        typer.echo(wrote(spec.name, path, f"{counted(len(puzzle.dominoes), 'domino', 'dominoes')}, "
                                          f"{counted(len(puzzle.regions), 'region')}"))
