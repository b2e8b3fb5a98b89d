"""`pipscover show`: draw puzzles in the terminal, or write them as SVG, NYT JSON or text."""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated

import typer

from pipscover.cli.app import app
from pipscover.cli.common import (
    DifficultyOption,
    JsonOption,
    PuzzlesArgument,
    load_puzzles,
    output_paths,
    print_json,
    write_output,
)
from pipscover.errors import PipsError
from pipscover.formats import puzzle_to_nyt, write_text
from pipscover.model import Puzzle, Solution
from pipscover.render.svg import draw_svg
from pipscover.render.terminal import draw_puzzle, draw_solution


class Format(StrEnum):
    TERMINAL = "terminal"
    TEXT = "text"
    SVG = "svg"


@app.command("show")
def show_command(
    puzzles: PuzzlesArgument,
    difficulty: DifficultyOption = None,
    output_format: Annotated[
        Format, typer.Option("--format", "-f", help="terminal drawing, the text format, or an SVG picture.")
    ] = Format.TERMINAL,
    solution: Annotated[
        bool, typer.Option("--solution", help="Draw the published solution too, when the file has one.")
    ] = False,
    output: Annotated[str, typer.Option(
        "--output", "-o", help="Write to this file instead of stdout (SVGs of several puzzles: NAME-easy.svg etc.).",
    )] = "-",
    as_json: JsonOption = False,
) -> None:
    """Draw puzzles (with --json: each as an NYT puzzle object with its origin).

    Example: pipscover show examples/first.txt --format svg -o first.svg
    """
    loaded = load_puzzles(puzzles, difficulty)
    if as_json:
        for puzzle in loaded:
            print_json({"puzzle": puzzle.origin.as_json(), **puzzle_to_nyt(puzzle, puzzle.published_solution)})
        return
    if output_format is Format.SVG:  # one picture per puzzle: NAME-easy.svg, ... for a day file
        for puzzle, path in zip(loaded, output_paths(output, loaded)):
            write_output(path, draw_svg(puzzle, _published(puzzle, solution)))
        return
    parts = []
    for puzzle in loaded:
        shown = _published(puzzle, solution)
        if output_format is Format.TEXT:
            parts.append(write_text(puzzle))
        else:
            drawing = draw_solution(puzzle, shown) if shown else draw_puzzle(puzzle)
            parts.append(f"{puzzle.describe()}\n{drawing}\n")
    write_output(output, "\n".join(parts))


def _published(puzzle: Puzzle, wanted: bool) -> Solution | None:
    """The solution to draw: the file's published one when asked for (an error when it has none)."""
    if not wanted:
        return None
    if puzzle.published_solution is None:
        raise PipsError(f"{puzzle.describe()}: the file has no published solution to draw")
    return puzzle.published_solution
