"""`pipscover bench`: time backends on many puzzles in one process (median, worst, total, puzzles/s)."""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated

import typer

from pipscover.bench import CLOCKS, TASKS, benchmark
from pipscover.cli.app import app
from pipscover.cli.cnf_options import CardName, FormName, PbName
from pipscover.cli.common import (
    BACKEND_NAMES,
    EXIT_INTERRUPTED,
    EXIT_OK,
    DifficultyOption,
    PuzzlesArgument,
    TimeoutOption,
    exit_after,
    load_unread,
    print_json,
    progress_bar,
)
from pipscover.engines import DEFAULT_BACKEND

TASK_HELP = ", ".join(f"{task.name} ({task.description})" for task in TASKS.values())
# Choices built from the tables they offer (mypy sees enums without members: defaults are looked up by value).
TaskName = StrEnum("TaskName", {name: name for name in TASKS})  # type: ignore[misc]  # members from TASKS
ClockName = StrEnum("ClockName", {name: name for name in CLOCKS})  # type: ignore[misc]  # members from CLOCKS
DEFAULT_TASK, DEFAULT_CLOCK = TaskName("first"), ClockName("wall")
DEFAULT_TIMEOUT = 60.0  # seconds per puzzle: a benchmark never runs unbounded on one hard puzzle


@app.command("bench")
def bench_command(
    puzzles: PuzzlesArgument,
    difficulty: DifficultyOption = None,
    backends: Annotated[
        list[str] | None,
        typer.Option("--backend", "-b",
                     help=f"Backend to time; repeat to compare several (see `pipscover backends`). {BACKEND_NAMES}"),
    ] = None,
    cards: Annotated[
        list[CardName] | None, typer.Option("--card", help="Cardinality encoding for SAT backends; repeat to compare.")
    ] = None,
    pbs: Annotated[
        list[PbName] | None, typer.Option("--pb", help="Pseudo-boolean encoding for SAT backends; repeat to compare.")
    ] = None,
    forms: Annotated[
        list[FormName] | None,
        typer.Option("--encoding", help="CNF form for SAT backends (placements, compact, auto); repeat to compare."),
    ] = None,
    task: Annotated[TaskName, typer.Option("--task", help=f"What is timed: {TASK_HELP}.")] = DEFAULT_TASK,
    repeat: Annotated[
        int, typer.Option("--repeat", "-r", min=1, help="Run every puzzle this many times; report medians.")
    ] = 1,
    timeout: TimeoutOption = DEFAULT_TIMEOUT,
    clock: Annotated[
        ClockName, typer.Option("--clock", help="Which clock (cpu is steadier on a busy machine).")
    ] = DEFAULT_CLOCK,
    as_json: Annotated[
        bool, typer.Option("--json", help="Print each configuration's figures and puzzle times as one JSON line.")
    ] = False,
) -> None:
    """Time the first solution (or --task) of every puzzle; print the median, worst and total time.

    Puzzles are read before timing starts. With --repeat N, a puzzle's time is the median of its N runs, and the
    total the median of the N per-run totals. Several -b (or --card/--pb/--encoding) print a comparison table.

    Ctrl-C stops it and prints the figures of the puzzles timed so far (exit code 130). A file that does not
    read, among several or in a folder, is reported in one line (--json: listed under "unread") and the others
    timed; the exit code is then 1, also when none read (nothing is timed).

    Example: pipscover bench /path/to/nyt -d hard --repeat 3
    """
    task_name, clock_name = str(task), str(clock)
    timed, unread = load_unread(puzzles, difficulty)
    loaded = [item.puzzle for item in timed]
    not_read = {"unread": [item.as_json() for item in unread]}  # --json prints one summary: the files go in it
    if not as_json:
        for item in unread:
            typer.echo(item.describe())
    if unread and not loaded:  # exit code 1 as count's, where it was 2: the command line was right, the files not
        if as_json:
            print_json({"puzzles": 0} | not_read)
        else:
            typer.echo(f"nothing to time: none of the {len(unread):,} puzzle files read")
        exit_after(EXIT_OK, unread=True)
        return
    names = backends or [DEFAULT_BACKEND]
    if len(names) == 1 and not cards and not pbs and not forms:
        with progress_bar("benchmarking", total=len(loaded) * repeat) as advance:
            result = benchmark(loaded, names[0], task_name, repeat, timeout, clock_name, on_puzzle=advance)
        if as_json:
            print_json(result.as_json() | not_read)
        else:
            typer.echo(result.summary())
        exit_after(EXIT_INTERRUPTED if result.interrupted else EXIT_OK, bool(unread))
        return
    from pipscover.bench.compare import compare, configurations, format_rows, stopped_note, table_heading

    chosen = configurations(names, cards or (), pbs or (), forms or ())
    with progress_bar("benchmarking", total=len(loaded) * repeat * len(chosen)) as advance:
        rows = compare(loaded, chosen, task_name, repeat, timeout, clock_name, on_puzzle=advance)
    interrupted = any(row.result.interrupted for row in rows)
    if as_json:
        for row in rows:
            print_json(row.as_json() | not_read)
    else:
        typer.echo(table_heading(len(loaded), task_name, clock_name, repeat))
        typer.echo(format_rows(rows))
        if interrupted:
            typer.echo(stopped_note(rows, len(chosen), len(loaded)))
    exit_after(EXIT_INTERRUPTED if interrupted else EXIT_OK, bool(unread))
