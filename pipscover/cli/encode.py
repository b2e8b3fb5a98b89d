"""`pipscover encode`: write a puzzle as DIMACS CNF or as OPB, with comments that say what every variable means
and carry the puzzle itself, so that `decode` reads a solver's answer back anywhere."""

from __future__ import annotations

from functools import partial
from typing import Annotated

import typer

from pipscover.cli.app import app
from pipscover.cli.cnf_options import CardName, CardOption, FormName, FormOption, PbName, PbOption, chosen_encodings
from pipscover.cli.common import (
    EXIT_OK,
    DifficultyOption,
    JsonOption,
    PuzzlesArgument,
    exit_after,
    load_reported,
    output_folder,
    output_format,
    output_paths,
    print_json,
    write_output,
    wrote,
)
from pipscover.cli.readable import OptionsRefused
from pipscover.cnf import DEFAULT_CARD, DEFAULT_FORM, DEFAULT_PB, AnyEncoding, encode
from pipscover.cnf.dimacs import write_dimacs
from pipscover.cnf.opb import PbEncoding, encode_opb, write_opb
from pipscover.model.results import Distinct

# What `-o NAME.SUFFIX` writes; a name with another suffix takes --dimacs/--opb, DIMACS by default.
FORMATS = {".cnf": "dimacs", ".dimacs": "dimacs", ".opb": "opb"}


def encoding_json(encoding: AnyEncoding | PbEncoding) -> dict:
    """Sizes of the formula, family by family, as `encode --json` prints them."""
    if isinstance(encoding, PbEncoding):
        return {
            "puzzle": encoding.puzzle.origin.as_json(),
            "format": "opb",
            "variables": encoding.num_vars,
            **{f"{name}_variables": count for name, count in encoding.blocks},
            "constraints": len(encoding.constraints),
            "families": [{"name": family.name, "constraints": family.clauses} for family in encoding.families],
        }
    chosen = encoding.encodings
    named = sum(count for _, count in encoding.blocks)
    return {
        "puzzle": encoding.puzzle.origin.as_json(),
        "format": "dimacs",
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


# The CNF options and the value that OPB, which writes the placement and value variables as linear
# constraints with no auxiliary ones, is alike to: any other value is refused, not ignored.
OPB_ALIKE = {
    "card": {DEFAULT_CARD}, "pb": {DEFAULT_PB}, "encoding": {DEFAULT_FORM, "placements"},
    "project": {str(Distinct.PLACEMENTS)},
}


def _refuse_cnf_options(**given: object) -> None:
    """Refuse a CNF option that OPB has no use for, in one line, rather than write the file without it."""
    for option, value in given.items():
        if str(value) not in OPB_ALIKE[option]:
            raise OptionsRefused(f"--{option} {value} applies to DIMACS only: --opb writes the placement and "
                                 "value variables as linear constraints (no compact form, no auxiliary variables, "
                                 "a model count that counts placements)")


@app.command("encode")
def encode_command(
    puzzles: PuzzlesArgument,
    difficulty: DifficultyOption = None,
    output: Annotated[str, typer.Option(
        "--output", "-o", callback=output_folder,
        help="Write the file here (- for stdout); several puzzles go to NAME-hard.cnf etc. "
        "NAME.opb is OPB, NAME.cnf DIMACS.",
    )] = "-",
    dimacs: Annotated[bool | None, typer.Option(
        "--dimacs/--opb", help="DIMACS CNF for SAT solvers and model counters (the default), or OPB: linear "
        "constraints for pseudo-Boolean solvers (encodings/opb.md; --encoding, --card, --pb and --project "
        "grids are DIMACS's).", show_default=False,
    )] = None,
    card: CardOption = CardName[DEFAULT_CARD],
    pb: PbOption = PbName[DEFAULT_PB],
    form: FormOption = FormName[DEFAULT_FORM],
    project: Annotated[Distinct, typer.Option(
        "--project", help="The projection set (c ind / c p show) a projected model counter counts over: "
        "placements (the solutions, as `count` counts them) or grids (distinct pip grids).",
    )] = Distinct.PLACEMENTS,
    as_json: JsonOption = False,
) -> None:
    """Write puzzles as DIMACS CNFs for stock SAT solvers and projected model counters, or as OPB for
    pseudo-Boolean solvers.

    Comment lines carry the puzzle itself (with its SHA-256), the form and encodings and the meaning of
    every named variable, so `pipscover decode FILE ANSWER` works in any folder. In DIMACS, `c ind` /
    `c p show` lines give the projection set: a projected model count is `pipscover count`'s number (with
    --project grids, `count --distinct grids`); a plain model count is not, because the auxiliary variables
    of the encodings are free. OPB has none: its model count is `pipscover count`'s number (clasp -n 0).

    A file that does not read, among several or in a folder, is reported in one line (on stderr, with the
    --json summaries, when the CNF goes to stdout) and the others written; the exit code is then 1.

    Examples:

      pipscover encode 2025-09-15 -d hard -o hard.cnf && cadical hard.cnf > h.out

      pipscover encode 2025-09-15 -d hard --opb -o h.opb && clasp h.opb > h.out
    """
    file_format = output_format(output, FORMATS, None if dimacs is None else "dimacs" if dimacs else "opb", "dimacs")
    if file_format == "opb":
        _refuse_cnf_options(card=card, pb=pb, encoding=form, project=project)
    # A CNF on stdout takes stdout whole: what is said of the puzzles goes to stderr, so the CNF stays clean.
    timed, unread = load_reported(puzzles, difficulty, as_json, err=output == "-", refuse=partial(output_paths, output))
    loaded = [item.puzzle for item in timed]
    for puzzle, path in zip(loaded, output_paths(output, loaded)):
        encoding: AnyEncoding | PbEncoding
        if file_format == "opb":
            encoding = opb = encode_opb(puzzle)
            write_output(path, write_opb(opb))
            summary = encoding_json(encoding) | {"file": path}
        else:
            encoding = cnf = encode(puzzle, chosen_encodings(card, pb, form))
            write_output(path, write_dimacs(cnf, project))
            summary = encoding_json(encoding) | {"file": path, "project": str(project)}
        if as_json:
            print_json(summary, err=path == "-")
        elif path != "-":
            blocks = ", ".join(f"{count:,} {name}s" for name, count in encoding.blocks)
            if isinstance(encoding, PbEncoding):
                size = f"{len(encoding.constraints):,} linear constraints (OPB)"
            else:
                size = f"{encoding.num_clauses:,} clauses ({encoding.describe()}; projection on {project})"
            typer.echo(wrote(puzzle.describe(), path, f"{encoding.num_vars:,} variables ({blocks}), {size}"))
    exit_after(EXIT_OK, unread)
