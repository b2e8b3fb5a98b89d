"""`pipscover hint`: the next deduction a player can make, or the whole chain, with the rule and why."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from pipscover.cli.app import app
from pipscover.cli.common import (
    EXIT_INTERRUPTED,
    EXIT_NO,
    EXIT_OK,
    PICTURE,
    DifficultyOption,
    JsonOption,
    PuzzlesArgument,
    exit_after,
    load_reported,
    named_file,
    output_format,
    picture_option,
    picture_paths,
    print_json,
    progress_bar,
    write_output,
    wrote,
)
from pipscover.cli.readable import OptionsRefused
from pipscover.formats import read_text_file
from pipscover.formats.solution import read_position
from pipscover.hints import GUESS, NO_SOLUTION, WRONG, Chain, Step, hint_chain
from pipscover.model import Placement, Puzzle, Solution
from pipscover.render.svg import draw_svg
from pipscover.render.terminal import draw_puzzle, draw_solution


@app.command("hint")
def hint_command(
    puzzles: PuzzlesArgument,
    difficulty: DifficultyOption = None,
    every: Annotated[
        bool, typer.Option("--all", help="Every step until the puzzle is solved or a guess is needed; "
                                    "the board shows the last.")
    ] = False,
    given: Annotated[
        Path | None,
        typer.Option("--given", help="A JSON file of the dominoes placed so far, shaped as shown above (hints go "
                     "on from there; a domino no solution keeps is named as wrong)."),
    ] = None,
    output: Annotated[str | None, picture_option(
        "the board with the step's cells highlighted (--all: the last step)")] = None,
    as_json: JsonOption = False,
) -> None:
    """Give the next deduction a player can make: the rule, and a sentence saying why.

    Rules go from easy (forced tiling, region arithmetic) to hard (what if); see encodings/hints.md.
    With --given, hints start from the dominoes placed so far, listed in a JSON file as

      [{"domino": [0, 5], "cells": [[0, 0], [0, 1]]}, ...]

    or in any form check reads (one solution of solve --json, say).

    Exit code 1 when the rules prove a puzzle has no solution, or a given domino is wrong, or a file among
    several (or in a folder) did not read: it is reported in one line and the others hinted. Ctrl-C stops it
    and keeps the steps found so far, printed as they come (exit code 130).

    Examples:

      pipscover hint 2025-09-15 -d hard --all

      pipscover hint 2025-09-15 -d hard --given placed.json

      pipscover hint 2025-09-15 -o step.svg   (writes step-easy.svg, ...-hard.svg)
    """
    if output is not None:
        output_format(output, PICTURE)
    def refuse(read: list[Puzzle]) -> None:
        if given is not None and len(read) > 1:
            raise OptionsRefused(f"{len(read)} puzzles given; --given is for one (choose with -d)")
        picture_paths(output, read)

    position = read_text_file(given) if given is not None else None  # refused before, and without, the puzzles
    # A picture on stdout takes stdout whole, as encode's CNF does: the steps go to stderr.
    on_stderr = output == "-"
    timed, unread = load_reported(puzzles, difficulty, as_json, on_stderr, refuse=refuse)
    loaded = [item.puzzle for item in timed]
    placed = read_position(position, str(given), loaded[0]) if position is not None and loaded else ()
    pictures = picture_paths(output, loaded)
    worst = EXIT_OK
    with progress_bar("hinting", total=len(loaded) if len(loaded) > 1 else None) as advance:
        for puzzle, picture in zip(loaded, pictures):
            chain = _hinted(puzzle, every, placed, as_json, on_stderr)
            if chain is None:
                worst = EXIT_INTERRUPTED
                break
            advance()
            if chain.steps and chain.steps[-1].rule in (NO_SOLUTION, WRONG):
                worst = EXIT_NO
            if picture is not None:
                last = chain.steps[-1] if chain.steps else None
                write_output(picture, draw_svg(puzzle, Solution(placed) if placed else None,
                                               highlight=last.cells if last else (),
                                               caption=f"{last.rule.name}: {last.reason}" if last else ""))
            if as_json:
                print_json(chain.as_json() | named_file(picture), on_stderr)
            else:
                typer.echo(_ending(chain, every, placed), err=on_stderr)
                if named_file(picture):
                    typer.echo(wrote(puzzle.describe(), str(picture)))
    exit_after(worst, unread)


def _hinted(puzzle: Puzzle, every: bool, placed: tuple[Placement, ...], as_json: bool, err: bool) -> Chain | None:
    """A puzzle's chain, its steps printed as they come (but for --json; to stderr with `err`); None when Ctrl-C
    stopped it, after the steps found so far (the whole chain of a large board takes minutes) and a line saying
    so."""
    found: list[Step] = []
    if not as_json:
        typer.echo(f"{puzzle.describe()}:", err=err)
    try:
        return hint_chain(puzzle, limit=None if every else 1, placed=placed,
                          on_step=found.append if as_json else lambda step: _print_step(found, step, err))
    except KeyboardInterrupt:
        if as_json:
            print_json(Chain(puzzle, tuple(found), False).as_json() | {"stopped_by": "Ctrl-C"}, err)
        else:
            typer.echo(f"  stopped by Ctrl-C after {len(found):,} step{'' if len(found) == 1 else 's'}", err=err)
        return None


def _print_step(found: list[Step], step: Step, err: bool) -> None:
    """One step of the chain printed, numbered."""
    found.append(step)
    typer.echo(f"{len(found):>4,}. {step.rule.name}: {step.reason}", err=err)


def _ending(chain: Chain, every: bool, placed: tuple[Placement, ...] = ()) -> str:
    """What follows the steps: how the chain ends, then the board with the (last) step's cells shaded, beside
    the dominoes placed so far when there are some."""
    lines = []
    if not chain.steps:
        lines.append("  nothing to do: every cell is known")
    if every and chain.complete:
        lines.append(f"  solved in {len(chain.steps):,} steps, without a guess")
    elif every and chain.steps and chain.steps[-1].rule is GUESS:
        lines.append(f"  stuck after {len(chain.deductions):,} steps: a guess is needed")
    if chain.steps:
        highlight = chain.steps[-1].cells
        lines.append(draw_solution(chain.puzzle, Solution(placed), highlight) if placed
                     else draw_puzzle(chain.puzzle, highlight=highlight))
    return "\n".join(lines)
