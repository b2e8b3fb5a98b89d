"""`pipscover encode`: write a puzzle's CNF as DIMACS, with comments that say what every variable means."""

from __future__ import annotations

import json
import sys
from typing import Annotated

import typer

from pipscover.cli.app import app
from pipscover.cli.common import (
    CardName,
    CardOption,
    DifficultyOption,
    JsonOption,
    PbName,
    PbOption,
    PuzzleArgument,
    chosen_encodings,
    load_single,
    print_json,
    write_output,
)
from pipscover.cnf import DEFAULT_CARD, DEFAULT_PB, Encoding, encode
from pipscover.cnf.dimacs import write_dimacs


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
