"""`pipscover rate`: how hard a puzzle is for a person, from the hints it takes."""

from __future__ import annotations

import typer

from pipscover.cli.app import app
from pipscover.cli.common import (
    EXIT_NO,
    EXIT_OK,
    EXIT_TIMEOUT,
    DifficultyOption,
    JsonOption,
    Loaded,
    PuzzlesArgument,
    TimeoutOption,
    exit_after,
    json_text,
    load_reported,
    progress_bar,
)
from pipscover.hints.rating import Rating, rate
from pipscover.model.results import SearchTimeout


@app.command("rate")
def rate_command(puzzles: PuzzlesArgument, difficulty: DifficultyOption = None, timeout: TimeoutOption = None,
                 as_json: JsonOption = False) -> None:
    """Rate puzzles easy, medium or hard from the deductions a person needs: the number of steps (which
    sets the rating), the guesses and the hardest rule used. Exit code 1 when a puzzle has no solution.

    A puzzle file that does not read, among several or in a folder, is reported in one line and the others
    are rated; the exit code is then 1.

    --timeout bounds each rating (a large, loose board can take minutes): exit code 3 when it passed first.

    Example: pipscover rate 2025-09-15 --json
    """
    loaded, unread = load_reported(puzzles, difficulty, as_json)
    worst = EXIT_OK
    with progress_bar("rating", total=len(loaded) if len(loaded) > 1 else None) as advance:
        for item in loaded:
            said, code = _rated(item, timeout, as_json)
            advance()
            worst = max(worst, code)
            typer.echo(said)
    exit_after(worst, unread)


def _rated(item: Loaded, timeout: float | None, as_json: bool) -> tuple[str, int]:
    """A puzzle's rating as printed, and its exit code; its --timeout clock started before it was read."""
    puzzle = item.puzzle
    try:
        rating = rate(puzzle, timeout=None if timeout is None else max(0.0, timeout - item.reading))
    except SearchTimeout:
        if as_json:  # the rating's keys, unknown, and what stopped it
            unknown = {**Rating(puzzle, None, None, 0, 0).as_json(), "guesses": None, "steps": None}
            return json_text(unknown | {"stopped_by": "--timeout"}), EXIT_TIMEOUT
        return f"{puzzle.describe()}: no rating within --timeout {timeout:g} s", EXIT_TIMEOUT
    if as_json:
        return json_text(rating.as_json()), EXIT_OK if rating.difficulty else EXIT_NO
    if rating.difficulty is None:
        return f"{puzzle.describe()}: no solution", EXIT_NO
    hardest = f"{rating.hardest.name} (level {rating.hardest.level})" if rating.hardest else "none"
    guesses = f"{rating.guesses:,} {'guess' if rating.guesses == 1 else 'guesses'}"
    return (f"{puzzle.describe()}: {rating.difficulty}: {rating.steps:,} steps, {guesses}, hardest rule {hardest}",
            EXIT_OK)
