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
    FormName,
    FormOption,
    JsonOption,
    PbName,
    PbOption,
    PuzzlesArgument,
    chosen_encodings,
    load_puzzles,
    output_paths,
    print_json,
    write_output,
)
from pipscover.cnf import DEFAULT_CARD, DEFAULT_FORM, DEFAULT_PB, AnyEncoding, encode
from pipscover.cnf.dimacs import write_dimacs
from pipscover.model.results import Distinct


def encoding_json(encoding: AnyEncoding) -> dict:
    """Sizes of the formula, family by family, as `encode --json` prints them."""
    chosen = encoding.encodings
    named = sum(count for _, count in encoding.blocks)
    return {
        "puzzle": encoding.puzzle.origin.as_json(),
        "encodings": {"form": chosen.form, "card": chosen.card, "pb": chosen.pb},
        "variables": encoding.num_vars,
        **{f"{name}_variables": count for name, count in encoding.blocks},
        "auxiliary_variables": encoding.num_vars - named,
        "clauses": encoding.num_clauses,
        "families": [
            {"name": family.name, "clauses": family.clauses, "auxiliary_variables": family.aux_vars}
            for family in encoding.families
        ],
    }


@app.command("encode")
def encode_command(
    puzzles: PuzzlesArgument,
    difficulty: DifficultyOption = None,
    output: Annotated[str, typer.Option(
        "--output", "-o", help="Write the DIMACS CNF here (- for stdout); several puzzles go to NAME-hard.cnf etc.",
    )] = "-",
    card: CardOption = CardName[DEFAULT_CARD],
    pb: PbOption = PbName[DEFAULT_PB],
    form: FormOption = FormName[DEFAULT_FORM],
    project: Annotated[Distinct, typer.Option(
        "--project", help="The projection set (c ind / c p show) a projected model counter counts over: "
        "placements (the solutions, as `count` counts them) or grids (distinct pip grids).",
    )] = Distinct.PLACEMENTS,
    as_json: JsonOption = False,
) -> None:
    """Write puzzles as DIMACS CNFs that stock SAT solvers and projected model counters read.

    Comment lines name the puzzle, the form and encodings and the meaning of every named variable;
    `c ind` / `c p show` lines give the projection set. A projected model count is `pipscover count`'s
    number (with --project grids, `count --distinct grids`); a plain model count is not, because the
    auxiliary variables of the encodings are free. Solve it elsewhere and read the answer back with
    `pipscover decode`.

    Example: pipscover encode 2025-09-15.json -d hard -o hard.cnf && kissat hard.cnf > hard.out
    """
    loaded = load_puzzles(puzzles, difficulty)
    for puzzle, path in zip(loaded, output_paths(output, loaded)):
        encoding = encode(puzzle, chosen_encodings(card, pb, form))
        write_output(path, write_dimacs(encoding, project))
        summary = encoding_json(encoding) | {"file": path, "project": str(project)}
        # With the CNF on stdout, the summary goes to stderr so the CNF stays clean.
        if as_json:
            if path == "-":
                sys.stderr.write(json.dumps(summary) + "\n")
            else:
                print_json(summary)
        elif path != "-":
            blocks = ", ".join(f"{count} {name}s" for name, count in encoding.blocks)
            typer.echo(
                f"{puzzle.describe()}: wrote {path}: {encoding.num_vars} variables ({blocks}), "
                f"{encoding.num_clauses} clauses ({encoding.encodings.describe()}; projection on {project})"
            )
