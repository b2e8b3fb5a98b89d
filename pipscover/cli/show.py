"""`pipscover show`: draw puzzles in the terminal, or write them as SVG, NYT JSON or text."""

from __future__ import annotations

import json
from enum import StrEnum
from typing import Annotated

import typer

from pipscover.cli.app import app
from pipscover.cli.common import (
    EXIT_OK,
    DifficultyOption,
    JsonOption,
    PuzzlesArgument,
    exit_after,
    load_reported,
    named_file,
    output_folder,
    output_format,
    output_paths,
    print_json,
    write_output,
    wrote,
)
from pipscover.cli.readable import OptionsRefused
from pipscover.errors import PipsError
from pipscover.formats import puzzle_to_nyt, write_texts
from pipscover.model import Puzzle, Solution
from pipscover.render.svg import draw_svg
from pipscover.render.terminal import draw_puzzle, draw_solution


class Format(StrEnum):
    TERMINAL = "terminal"
    TEXT = "text"


# What `-o NAME.SUFFIX` writes; stdout and other names take -f (the terminal drawing by default).
FORMATS = {".svg": "svg", ".txt": "text", ".json": "json"}


@app.command("show")
def show_command(
    puzzles: PuzzlesArgument,
    difficulty: DifficultyOption = None,
    drawing: Annotated[Format | None, typer.Option(
        "--format", "-f", help="terminal: a drawing; text: the text format (a day's three puzzles, each named).",
        show_default=False,
    )] = None,
    solution: Annotated[
        bool, typer.Option("--solution", help="Draw the published solution too, when the file has one.")
    ] = False,
    output: Annotated[str, typer.Option(
        "--output", "-o", callback=output_folder,
        help="Write to this file instead of stdout: NAME.svg a picture (several puzzles: "
        "NAME-easy.svg etc.), NAME.txt the text format, NAME.json an NYT puzzle object.",
    )] = "-",
    as_json: JsonOption = False,
) -> None:
    """Draw puzzles, write them in the text format, or as SVG pictures (with --json: each as an NYT puzzle
    object with its origin).

    A day file shows its three puzzles, or the one -d names; --solution adds the published dominoes.
    A file that does not read, among several or in a folder, is reported in one line (on stderr when stdout
    takes the text format) and the others shown; the exit code is then 1.

    Examples:

      pipscover show examples/first.txt -o first.svg

      pipscover show 2025-09-15 -f text > day.txt && pipscover solve day.txt
    """
    if as_json and output == "-" and drawing is not None:  # (it printed the JSON, the format ignored)
        raise OptionsRefused(f"--json prints each puzzle as an NYT puzzle object, not -f {drawing}; drop one "
                             "(or write the other to a file with -o)")
    chosen = output_format(output, FORMATS, drawing and str(drawing), Format.TERMINAL)
    # The text format on stdout is a file to read back: a "not read" line in it would spoil it.
    text_on_stdout = chosen == Format.TEXT and output == "-" and not as_json
    if chosen == Format.TEXT and solution and (not as_json or output != "-"):
        raise OptionsRefused("the text format holds no solution; leave out --solution or draw it (-f terminal)")
    timed, unread = load_reported(puzzles, difficulty, as_json, err=text_on_stdout)
    loaded = [item.puzzle for item in timed]
    # --json alone prints the puzzles; with -o the file is written too, but never empty when none read
    written = loaded and (not as_json or output != "-")
    paths = _write(loaded, chosen, output, solution) if written else ["-"] * len(loaded)
    for puzzle, path in zip(loaded, paths):  # each file written is named: in --json as encode's are, by "file"
        if as_json:
            print_json({"puzzle": puzzle.origin.as_json(), **puzzle_to_nyt(puzzle, puzzle.published_solution),
                        **named_file(path)})
        elif path != "-":
            typer.echo(wrote(puzzle.describe(), path))
    exit_after(EXIT_OK, unread)


def _write(loaded: list[Puzzle], chosen: str, output: str, solution: bool) -> list[str]:
    """The puzzles to `output` in the `chosen` format (one file each for pictures and JSON: NAME-easy.svg...);
    the file each went to."""
    if chosen in ("svg", "json"):
        paths = output_paths(output, loaded)
        for puzzle, path in zip(loaded, paths):
            shown = _published(puzzle, solution)
            write_output(path, draw_svg(puzzle, shown) if chosen == "svg"
                         else json.dumps(puzzle_to_nyt(puzzle, shown or puzzle.published_solution)) + "\n")
        return paths
    if chosen == Format.TEXT:
        write_output(output, write_texts(loaded))
        return [output] * len(loaded)
    parts = []
    for puzzle in loaded:
        shown = _published(puzzle, solution)
        drawing_text = draw_solution(puzzle, shown) if shown else draw_puzzle(puzzle)
        parts.append(f"{puzzle.describe()}\n{drawing_text}\n")
    write_output(output, "\n".join(parts))
    return [output] * len(loaded)


def _published(puzzle: Puzzle, wanted: bool) -> Solution | None:
    """The solution to draw: the file's published one when asked for (an error when it has none)."""
    if not wanted:
        return None
    if puzzle.published_solution is None:
        raise PipsError(f"{puzzle.describe()}: the file has no published solution to draw")
    return puzzle.published_solution
