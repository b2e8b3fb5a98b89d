"""`pipscover reduce`: hard Pips instances from the NP-hardness reductions (`pipscover.hardness`), mapped back."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer

from pipscover.cli.app import app
from pipscover.cli.common import (
    PUZZLE_JSON,
    BackendOption,
    JsonOption,
    TimeoutOption,
    exit_code,
    exit_with,
    output_folder,
    output_format,
    print_json,
    write_output,
)
from pipscover.cli.readable import OptionsRefused
from pipscover.engines import DEFAULT_BACKEND
from pipscover.errors import brief, is_written_whole_number
from pipscover.formats import puzzle_to_nyt
from pipscover.hardness import (
    SubsetSumInstance,
    read_one_in_three,
    recover_assignment,
    recover_subset,
    reduce_one_in_three,
    reduce_subset_sum,
)
from pipscover.model import Puzzle
from pipscover.model.results import SolveResult, Status
from pipscover.solving import solve

reduce_app = typer.Typer(
    help="Make Pips puzzles from NP-hard problems (the published NP-hardness reductions); --solve maps answers back."
    "\n\nExample: pipscover reduce subset-sum --numbers 3,5,7,11 --target 15 --solve",
    no_args_is_help=True,
)
app.add_typer(reduce_app, name="reduce")

OutputOption = Annotated[
    str | None,
    typer.Option(
        "--output", "-o", callback=output_folder,
        help="Write the puzzle (NYT JSON) here; `-` for stdout (the default without --solve)."
    ),
]
SolveOption = Annotated[
    bool, typer.Option("--solve", help="Solve the puzzle and print the answer it maps back to.")
]


@reduce_app.command("one-in-three")
def one_in_three_command(
    cnf_file: Annotated[
        Path,
        typer.Argument(help="DIMACS CNF whose clauses each have three distinct positive literals.", show_default=False),
    ],
    output: OutputOption = None,
    connected: Annotated[
        bool, typer.Option("--connected", help="Join all gadgets into one board with `sum 0` connectors.")
    ] = False,
    solve_it: SolveOption = False,
    backend: BackendOption = DEFAULT_BACKEND,
    timeout: TimeoutOption = None,
    as_json: JsonOption = False,
) -> None:
    """POSITIVE 1-IN-3-SAT to Pips: only 0-0 and 1-1 dominoes, only `equals` and `sum` regions.

    With --solve: exit code 0 and the assignment (exactly one true variable per clause), 1 when there is none.

    Examples (the first writes a formula of two clauses):

      printf 'p cnf 4 2\\n1 2 3 0\\n2 3 4 0\\n' > formula.cnf

      pipscover reduce one-in-three formula.cnf -o puzzle.json --solve
    """
    instance = read_one_in_three(cnf_file)
    puzzle, mapping = reduce_one_in_three(instance, connected=connected)
    result = _write_and_solve(puzzle, output, solve_it, backend, timeout)
    if result is None:
        return
    assignment = recover_assignment(result.solutions[0], mapping) if result.solutions else None
    if as_json:
        answer = None if assignment is None else [x for x, value in sorted(assignment.items()) if value]
        print_json({**_summary(puzzle, result), "source": str(cnf_file), "true_variables": answer})
    else:
        # As SAT competition solvers answer: a status line, then the model with each variable signed.
        typer.echo(f"c {cnf_file}: {_no_answer(result) if assignment is None else 'solved through the Pips puzzle'}")
        statuses = {Status.SOLVED: "s SATISFIABLE", Status.UNSATISFIABLE: "s UNSATISFIABLE"}
        typer.echo(statuses.get(result.status, "s UNKNOWN"))
        if assignment is not None:
            typer.echo("v " + " ".join(str(x if value else -x) for x, value in sorted(assignment.items())) + " 0")
    _exit_for(result)


@reduce_app.command("subset-sum")
def subset_sum_command(
    numbers: Annotated[str, typer.Option("--numbers", help="Whole numbers >= 0, comma-separated: 3,5,7,11.")],
    target: Annotated[int, typer.Option("--target", help="The sum a subset must reach.")],
    output: OutputOption = None,
    solve_it: SolveOption = False,
    backend: BackendOption = DEFAULT_BACKEND,
    timeout: TimeoutOption = None,
    as_json: JsonOption = False,
) -> None:
    """SUBSET SUM to Pips: dominoes (a, 0) on a 2 x n board whose top row is one `sum` region.

    With --solve: exit code 0 and a subset reaching the target, 1 when there is none.

    Example: pipscover reduce subset-sum --numbers 3,5,7,11 --target 15 --solve
    """
    parts = [part.strip() for part in numbers.split(",")]
    if not all(is_written_whole_number(part) for part in parts):  # int() took '３' and '1_000'
        raise OptionsRefused(f"--numbers {brief(numbers)}: expected whole numbers separated by commas, like 3,5,7")
    values = tuple(int(part) for part in parts)
    instance = SubsetSumInstance(values, target)
    puzzle, mapping = reduce_subset_sum(instance)
    result = _write_and_solve(puzzle, output, solve_it, backend, timeout)
    if result is None:
        return
    chosen = recover_subset(result.solutions[0], mapping) if result.solutions else None
    if as_json:
        subset = None if chosen is None else [values[i] for i in chosen]
        print_json({**_summary(puzzle, result), "indices": None if chosen is None else list(chosen), "subset": subset})
    elif chosen is not None:
        typer.echo(f"{' + '.join(str(values[i]) for i in chosen) or '(empty)'} = {target}")
    else:
        typer.echo(f"no subset of {numbers} adds up to {target}: {_no_answer(result)}")
    _exit_for(result)


def _write_and_solve(puzzle: Puzzle, output: str | None, solving: bool, backend: str, timeout: float | None
                     ) -> SolveResult | None:
    """Write the puzzle (unless it is solved and no --output is given), then, with --solve, search for its
    first solution."""
    if output is not None or not solving:
        output_format(output, PUZZLE_JSON)
        write_output(output or "-", json.dumps(puzzle_to_nyt(puzzle), separators=(",", ":")) + "\n")
    return solve(puzzle, backend, limit=1, timeout=timeout) if solving else None


def _summary(puzzle: Puzzle, result: SolveResult) -> dict[str, Any]:
    return {
        "puzzle": puzzle.origin.as_json(),
        "status": str(result.status),
        "backend": result.backend,
        "seconds": round(result.seconds, 6),
        "domino_count": len(puzzle.dominoes),
        "region_count": len(puzzle.regions),
    }


def _no_answer(result: SolveResult) -> str:
    if result.status is Status.TIMEOUT:
        return f"no answer: {result.backend} timed out after {result.seconds:.1f} s"
    if result.status is Status.UNKNOWN:
        return f"no answer: {result.backend} gave up after {result.seconds:.1f} s (it cannot prove there is none)"
    return f"no answer: the reduced puzzle has no solution ({result.backend}, {result.seconds:.3f} s)"


def _exit_for(result: SolveResult) -> None:
    exit_with(exit_code(result.status))
