"""`pipscover rate`: how hard a puzzle is for a person, from the hints it takes."""

from __future__ import annotations

import typer

from pipscover.cli.app import app
from pipscover.cli.common import (
    EXIT_NO,
    EXIT_OK,
    DifficultyOption,
    JsonOption,
    PuzzlesArgument,
    exit_with,
    load_puzzles,
    print_json,
    progress_bar,
)
from pipscover.hints.rating import rate


@app.command("rate")
def rate_command(puzzles: PuzzlesArgument, difficulty: DifficultyOption = None, as_json: JsonOption = False) -> None:
    """Rate puzzles easy, medium or hard from the deductions a person needs: the number of steps (which
    sets the rating), the guesses and the hardest rule used. Exit code 1 when a puzzle has no solution.

    Example: pipscover rate 2025-09-15 --json
    """
    loaded = load_puzzles(puzzles, difficulty)
    worst = EXIT_OK
    with progress_bar("rating", total=len(loaded) if len(loaded) > 1 else None) as advance:
        for puzzle in loaded:
            rating = rate(puzzle)
            advance()
            if rating.difficulty is None:
                worst = EXIT_NO
            if as_json:
                print_json(rating.as_json())
            elif rating.difficulty is None:
                typer.echo(f"{puzzle.describe()}: no solution")
            else:
                hardest = f"{rating.hardest.name} (level {rating.hardest.level})" if rating.hardest else "none"
                guesses = f"{rating.guesses} {'guess' if rating.guesses == 1 else 'guesses'}"
                typer.echo(f"{puzzle.describe()}: {rating.difficulty}: {rating.steps} steps, {guesses}, "
                           f"hardest rule {hardest}")
    exit_with(worst)
