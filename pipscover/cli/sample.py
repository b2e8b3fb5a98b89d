"""`pipscover sample`: solutions drawn uniformly at random from the exact counts, reproducibly by seed.

The draws are printed as they come, never held: `-n` may be any number. `--json` prints the `solve --json`
object of each puzzle on one line, its `solutions` array written a draw at a time, then its `status`,
`seconds` and `stopped_by`: what stopped the draws, as `count --json` names it (--timeout, --memory, Ctrl-C; null
when all were drawn), since the status `timeout` is --memory's too. A run stopped by a limit or Ctrl-C keeps
the draws made before, as `solve` does. `count` is the population: the exact number of solutions (placements) the
draws are weighted by, as `count --json` writes it (null when a limit stopped the count), and the text's headline
says it; with --distinct grids too, whose draws are kept among those solutions' grids (counting the grids
themselves took 50 times as long as drawing a few: 26 s against 0.5 s on planted 4 x 4)."""

from __future__ import annotations

import sys
import time
from abc import ABC, abstractmethod
from collections.abc import Iterator
from contextlib import AbstractContextManager, nullcontext
from itertools import islice
from typing import Annotated, Any

import typer

from pipscover.cli.app import app
from pipscover.cli.common import (
    DifficultyOption,
    JsonOption,
    Loaded,
    PuzzlesArgument,
    TimeoutOption,
    exit_after,
    exit_code,
    json_text,
    load_reported,
    memory_size,
    progress_bar,
    seed_value,
)
from pipscover.errors import NoSolution, counted
from pipscover.model import Solution
from pipscover.model.results import Distinct, SearchTimeout, Status, reachable
from pipscover.runtime.deadlines import deadline_after
from pipscover.runtime.limits import MEMORY_LIMIT, MemoryCapReached, parse_size


@app.command("sample")
def sample_command(
    puzzles: PuzzlesArgument,
    difficulty: DifficultyOption = None,
    number: Annotated[int, typer.Option("--number", "-n", min=1, help="How many solutions to draw.")] = 1,
    seed: Annotated[int, typer.Option(
        "--seed", callback=seed_value, help="The seed: the same seed draws the same solutions.")] = 0,
    distinct: Annotated[Distinct, typer.Option(
        "--distinct", help="placements: each solution equally likely; grids: each distinct pip grid.",
    )] = Distinct.PLACEMENTS,
    timeout: TimeoutOption = None,
    memory: Annotated[str, typer.Option(
        "--memory", callback=memory_size, help="The most memory the counts may hold (e.g. 2G).")]
    = f"{MEMORY_LIMIT // 2**30}G",
    as_json: JsonOption = False,
) -> None:
    """Draw solutions uniformly at random (with replacement), each choice weighted by the exact number of
    solutions below it; the same --seed draws the same solutions on any machine.

    Each is printed as it is drawn, after a headline that says how many solutions they are drawn from (--json:
    the solve --json object, its solutions written as they come, count: those solutions, as count --json says
    it, and stopped_by: the limit that stopped the draws, or null).
    A puzzle file that does not read, among several or in a folder, is reported in one line and the others
    are sampled.
    Exit code 0 when every puzzle has solutions, 1 when one has none or a file did not read, 3 when a time or
    memory limit stopped it, 130 on Ctrl-C (the draws made so far printed).

    Example: pipscover sample 2025-09-15 -d hard -n 5 --seed 7 --json
    """
    from pipscover.counting.completions import draws

    cap = parse_size(memory)
    loaded, unread = load_reported(puzzles, difficulty, as_json)
    worst = 0
    # A terminal stdout under the bar is written a line at a time, and a JSON object is one line: not there.
    bar: AbstractContextManager[Any] = nullcontext() if as_json and sys.stdout.isatty() else progress_bar("sampling")
    with bar:
        for item in loaded:
            start = item.clock_start()
            shown = _JsonDraws(item, seed, distinct) if as_json else _TextDraws(item, number, seed, distinct)
            drawn = islice(draws(item.puzzle, seed, distinct, deadline_after(timeout, start), cap, shown.counted),
                           reachable(number))
            status = shown.print_all(drawn)
            shown.close(status, time.monotonic() - start)
            worst = max(worst, exit_code(status))
            if status is Status.INTERRUPTED:
                break
    exit_after(worst, unread)


class _Draws(ABC):
    """How one puzzle's draws are printed, each as it comes."""

    def __init__(self, item: Loaded) -> None:
        self.puzzle = item.puzzle
        self.printed = 0
        self.stopped_by: str | None = None  # what stopped the draws, as the command line names it
        self.count: int | None = None  # the solutions drawn from, once counted

    def counted(self, solutions: int) -> None:
        """Hear the number of solutions the draws are weighted by (`draws`' `on_count`)."""
        self.count = solutions

    def print_all(self, drawn: Iterator[Solution]) -> Status:
        """Print every draw; how the drawing ended."""
        try:
            while True:
                try:
                    solution = next(drawn)
                except StopIteration:
                    return Status.SOLVED
                except NoSolution:  # (from the first draw)
                    return Status.UNSATISFIABLE
                except (SearchTimeout, MemoryCapReached) as stop:
                    self.stopped_by = "--memory" if isinstance(stop, MemoryCapReached) else "--timeout"
                    return Status.TIMEOUT
                self.show(solution)
                self.printed += 1
        except KeyboardInterrupt:
            self.stopped_by = "Ctrl-C"
            return Status.INTERRUPTED

    @abstractmethod
    def show(self, solution: Solution) -> None:
        """Print one draw."""

    @abstractmethod
    def close(self, status: Status, seconds: float) -> None:
        """Print what follows the draws, now that the drawing ended with `status` after `seconds`."""


class _JsonDraws(_Draws):
    """The `solve --json` object, its `solutions` array streamed: the head now, each draw, then the tail."""

    def __init__(self, item: Loaded, seed: int, distinct: Distinct) -> None:
        super().__init__(item)
        head = {"puzzle": self.puzzle.origin.as_json(), "backend": "sample", "seed": seed, "distinct": str(distinct)}
        sys.stdout.write(json_text(head)[:-1] + ', "solutions": [')

    def show(self, solution: Solution) -> None:
        sys.stdout.write((", " if self.printed else "") + json_text(solution.as_json()))

    def close(self, status: Status, seconds: float) -> None:
        sys.stdout.write(f'], "count": {json_text(self.count)}, "status": {json_text(str(status))}, '
                         f'"seconds": {round(seconds, 6)}, '
                         f'"stopped_by": {json_text(self.stopped_by)}}}\n')
        sys.stdout.flush()


class _TextDraws(_Draws):
    """A headline once the first draw is made, as before any draw was printed as it came, then each drawing;
    a run stopped says so in one more line (in one line when it stopped before the first draw)."""

    def __init__(self, item: Loaded, number: int, seed: int, distinct: Distinct) -> None:
        super().__init__(item)
        self.number, self.how = number, f"({distinct}, seed {seed})"
        self.among = "among the pip grids of " if distinct is Distinct.GRIDS else "of "

    @property
    def population(self) -> str:
        """What the draws are drawn from: `of 29,028 solutions`, `among the pip grids of 29,028 solutions`."""
        return self.among + counted(self.count or 0, "solution")

    def show(self, solution: Solution) -> None:
        from pipscover.render.terminal import draw_solution

        if not self.printed:
            typer.echo(f"{self.puzzle.describe()}: {self.number:,} drawn uniformly {self.how} {self.population}")
        typer.echo(draw_solution(self.puzzle, solution))

    def close(self, status: Status, seconds: float) -> None:
        if status is Status.SOLVED:
            return
        if status is Status.UNSATISFIABLE:
            typer.echo(f"{self.puzzle.describe()}: no solution to draw")
            return
        done = (f"after {self.printed:,} of {self.number:,} draws" if self.printed
                else "before the draws were done (nothing drawn)")
        typer.echo(f"{self.puzzle.describe()}: stopped by {self.stopped_by} {done}")


