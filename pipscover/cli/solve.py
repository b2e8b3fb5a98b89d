"""`pipscover solve`: find one, several or all solutions of puzzles with any backend."""

from __future__ import annotations

from functools import partial
from typing import Annotated

import typer

from pipscover.cli.app import app
from pipscover.cli.cnf_options import SatCardOption, SatFormOption, SatPbOption, backend_with_encodings
from pipscover.cli.common import (
    PICTURE,
    BackendOption,
    DifficultyOption,
    JsonOption,
    LimitOption,
    PuzzlesArgument,
    SeedOption,
    TimeoutOption,
    exit_after,
    exit_code,
    load_reported,
    output_format,
    picture_option,
    picture_paths,
    print_solved,
    progress_bar,
    solutions_wanted,
    write_output,
)
from pipscover.engines import DEFAULT_BACKEND, get_backend
from pipscover.model.results import SolveResult, Status
from pipscover.solving import configured, solve


@app.command("solve")
def solve_command(
    puzzles: PuzzlesArgument,
    difficulty: DifficultyOption = None,
    backend: BackendOption = DEFAULT_BACKEND,
    card: SatCardOption = None,
    pb: SatPbOption = None,
    form: SatFormOption = None,
    every: Annotated[bool, typer.Option("--all", help="Find every solution.")] = False,
    limit: LimitOption = None,
    seed: SeedOption = None,
    timeout: TimeoutOption = None,
    output: Annotated[str | None, picture_option("each puzzle's first solution")] = None,
    as_json: JsonOption = False,
) -> None:
    """Solve puzzles and draw their solutions.

    A puzzle file that does not read, among several or in a folder, is reported in one line and the others
    are solved.
    Exit code 0 when every puzzle is solved, 1 when one has no solution or a file did not read, 3 when one
    timed out, 130 on Ctrl-C (after printing the solutions found so far).

    Example: pipscover solve examples/first.txt --all -b cadical --card totalizer
    """
    wanted = solutions_wanted(every, limit)
    if output is not None:
        output_format(output, PICTURE)
    engine = configured(backend_with_encodings(backend, card, pb, form), wanted, timeout, seed)
    # A picture on stdout takes stdout whole, as encode's CNF does: the answers go to stderr.
    on_stderr = output == "-"
    timed, unread = load_reported(puzzles, difficulty, as_json, on_stderr, refuse=partial(picture_paths, output))
    loaded = [item.puzzle for item in timed]
    pictures = picture_paths(output, loaded)
    lists_all = get_backend(engine).capabilities.enumerates
    worst = 0
    with progress_bar("solving", total=len(loaded) if len(loaded) > 1 else None) as advance:
        for item, picture in zip(timed, pictures):
            puzzle = item.puzzle
            result = solve(puzzle, engine, limit=wanted, timeout=timeout, start=item.clock_start())
            advance()
            drawn = picture if result.solutions else None
            if drawn is not None:
                from pipscover.render.svg import draw_svg  # only for -o

                write_output(drawn, draw_svg(puzzle, result.solutions[0]))
            worst = max(worst, exit_code(result.status))
            said = describe_result(result, wanted, lists_all)
            print_solved(puzzle, result, f"{puzzle.describe()}: {said}", as_json, drawn, on_stderr)
            if result.status is Status.INTERRUPTED:
                break
    exit_after(worst, unread)


def describe_result(result: SolveResult, wanted: int | None, lists_all: bool = True) -> str:
    """What a search found, saying whether the solutions shown are all there are, and what would say so: `--all`
    only where the backend `lists_all` (local search refuses it), a complete backend where it gave up.

    >>> from pipscover.model.results import SolveResult, Status
    >>> found = SolveResult(Status.SOLVED, ("one",), "dlx", 0.01)
    >>> describe_result(found, 1).split("; ")  # doctest: +NORMALIZE_WHITESPACE
    ['solved by dlx in 0.010 s',
     '1 solution shown, maybe not the only one (--all lists every solution, pipscover count counts them)']
    """
    found = len(result.solutions)
    noun = "solution" if found == 1 else "solutions"
    how = f"by {result.backend} in {result.seconds:.3f} s"
    if result.status is Status.UNSATISFIABLE:
        return f"no solution ({result.status}) {how}"
    if result.status is Status.UNKNOWN:
        return f"unknown {how}: it gave up, which proves nothing either way (-b dlx or -b auto answers)"
    if result.status is not Status.SOLVED:
        why = "stopped by Ctrl-C" if result.status is Status.INTERRUPTED else str(result.status)
        return f"{why} {how}; {found:,} {noun} found so far"
    if wanted is not None and found == wanted:
        shown = (f"the first {found:,} solutions shown, maybe not all" if found > 1 else
                 "1 solution shown, maybe not the only one")
        listing = "--all lists every solution, " if lists_all else ""
        return f"solved {how}; {shown} ({listing}pipscover count counts them)"
    every = "the only solution" if found == 1 else f"all {found:,} solutions"
    return f"solved {how}; {every}"
