"""`pipscover encode`: write a puzzle's CNF as DIMACS, with comments that say what every variable means."""

from __future__ import annotations

import json
import sys
from enum import StrEnum
from typing import Annotated

import typer

from pipscover.backends import Backend, get_backend
from pipscover.cli.app import app
from pipscover.cli.common import DifficultyOption, JsonOption, PuzzleArgument, load_single, print_json, write_output
from pipscover.cnf import CARD_ENCODINGS, DEFAULT_CARD, DEFAULT_PB, PB_ENCODINGS, Encoding, Encodings, encode
from pipscover.cnf.dimacs import write_dimacs
from pipscover.errors import PipsError

CardName = StrEnum("CardName", {name: name for name in CARD_ENCODINGS})
PbName = StrEnum("PbName", {name: name for name in PB_ENCODINGS})
CardOption = Annotated[
    CardName,
    typer.Option("--card", help="PySAT cardinality encoding (auto: seqcounter for bound 1, kmtotalizer above)."),
]
PbOption = Annotated[PbName, typer.Option("--pb", help="PySAT pseudo-boolean encoding for sum, less and greater.")]
# For commands that take any backend (solve, count, bench): unset means the SAT backend's own encodings.
SatCardOption = Annotated[
    CardName | None,
    typer.Option("--card", help="SAT backends: PySAT cardinality encoding (default auto, see encodings/cnf.md)."),
]
SatPbOption = Annotated[
    PbName | None, typer.Option("--pb", help="SAT backends: PySAT pseudo-boolean encoding (default best).")
]


def chosen_encodings(card: CardName, pb: PbName) -> Encodings:
    return Encodings(str(card), str(pb))


def backend_with_encodings(backend: str, card: CardName | None, pb: PbName | None) -> str | Backend:
    """The backend `-b` names, writing its CNF with `--card`/`--pb` when they are given (SAT backends only)."""
    if card is None and pb is None:
        return backend
    # Imported here, not at the top: the SAT backends load PySAT's solvers, which no other command needs.
    from pipscover.backends.sat import SatBackend

    engine = get_backend(backend)
    if not isinstance(engine, SatBackend):
        raise PipsError(f"--card and --pb choose how a CNF is written; backend {engine.name!r} does not use one")
    return engine.with_encodings(Encodings(str(card or DEFAULT_CARD), str(pb or DEFAULT_PB)))


def encoding_json(encoding: Encoding) -> dict:
    """Sizes of the formula, family by family, as `encode --json` prints them."""
    placements, values = len(encoding.placements), len(encoding.values)
    return {
        "puzzle": encoding.puzzle.origin.as_json(),
        "encodings": {"card": encoding.encodings.card, "pb": encoding.encodings.pb},
        "variables": encoding.num_vars,
        "placement_variables": placements,
        "value_variables": values,
        "auxiliary_variables": encoding.num_vars - placements - values,
        "clauses": encoding.num_clauses,
        "families": [
            {"name": family.name, "clauses": family.clauses, "auxiliary_variables": family.aux_vars}
            for family in encoding.families
        ],
    }


@app.command("encode")
def encode_command(
    puzzle_file: PuzzleArgument,
    difficulty: DifficultyOption = None,
    dimacs: Annotated[str, typer.Option("--dimacs", help="Write the DIMACS CNF here; - for stdout.")] = "-",
    card: CardOption = CardName[DEFAULT_CARD],
    pb: PbOption = PbName[DEFAULT_PB],
    as_json: JsonOption = False,
) -> None:
    """Write a puzzle as a DIMACS CNF that stock SAT solvers and model counters read.

    Comment lines name the puzzle, the encodings and the meaning of every placement and value variable;
    `c ind` / `c p show` lines give the value variables as a projection set (distinct pip grids).
    Solve it elsewhere and read the answer back with `pipscover decode`.

    Example: pipscover encode 2025-09-15.json -d hard --dimacs hard.cnf && kissat hard.cnf > hard.out
    """
    puzzle = load_single(puzzle_file, difficulty)
    encoding = encode(puzzle, chosen_encodings(card, pb))
    write_output(dimacs, write_dimacs(encoding))
    summary = encoding_json(encoding) | {"file": dimacs}
    # With the CNF on stdout, the summary goes to stderr so the CNF stays clean.
    if as_json:
        if dimacs == "-":
            sys.stderr.write(json.dumps(summary) + "\n")
        else:
            print_json(summary)
    elif dimacs != "-":
        typer.echo(
            f"{puzzle.describe()}: wrote {dimacs}: {encoding.num_vars} variables "
            f"({len(encoding.placements)} placements, {len(encoding.values)} cell values), "
            f"{encoding.num_clauses} clauses ({encoding.encodings.describe()})"
        )
