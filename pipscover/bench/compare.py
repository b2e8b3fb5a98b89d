"""Backends and CNF encodings side by side on the same puzzles: the comparison `pipscover bench` can print.

Each configuration (a backend and, for a SAT backend, a cardinality and a pseudo-boolean encoding) is
timed by `pipscover.bench.benchmark` on the same puzzles with the same task; a row gives its median,
worst and total time and, for SAT, the median size of its formulas. Any backend can take part (dlx too).

    >>> from pipscover import load
    >>> rows = compare(load("examples/first.txt"), configurations(["dlx", "minisat22"], cards=["totalizer"]))
    >>> [row.configuration.label for row in rows]
    ['dlx', 'minisat22 encoding=auto card=totalizer pb=best']
"""

from __future__ import annotations

import statistics
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace

from pipscover.bench.tasks import TASKS
from pipscover.bench.timing import BenchResult, benchmark
from pipscover.cnf import Encodings, encode
from pipscover.engines import get_backend
from pipscover.errors import PipsError, counted
from pipscover.model import Puzzle


@dataclass(frozen=True)
class Configuration:
    """What is timed: a backend, with the CNF encodings when it is a SAT backend."""

    backend: str
    encodings: Encodings | None = None

    @property
    def label(self) -> str:
        return self.backend if self.encodings is None else f"{self.backend} {self.encodings.describe()}"

    def engine(self):
        engine = get_backend(self.backend)
        return engine if self.encodings is None else engine.with_encodings(self.encodings)


@dataclass(frozen=True)
class ComparisonRow:
    """One configuration's benchmark, with the median number of variables and clauses of its CNFs."""

    configuration: Configuration
    result: BenchResult
    variables: int | None
    clauses: int | None

    def as_json(self) -> dict:
        encodings = self.configuration.encodings
        return self.result.as_json() | {
            "card": encodings.card if encodings else None,
            "pb": encodings.pb if encodings else None,
            "encoding": encodings.form if encodings else None,
            "median_variables": self.variables,
            "median_clauses": self.clauses,
        }


def configurations(
    backends: Iterable[str], cards: Sequence[str] = (), pbs: Sequence[str] = (), forms: Sequence[str] = ()
) -> list[Configuration]:
    """Every backend; each SAT backend with every form x card x pb asked for (its own when none are). Encodings
    asked for that no backend here writes are refused, not ignored."""
    engines = [get_backend(name) for name in backends]
    if (cards or pbs or forms) and not any(engine.capabilities.encodings for engine in engines):
        timed = ", ".join(engine.name for engine in engines)
        raise PipsError(f"--card, --pb and --encoding choose how a CNF is written; no backend timed here ({timed}) "
                        "writes one")
    found = []
    for engine in engines:
        if not engine.capabilities.encodings:
            found.append(Configuration(engine.name))
            continue
        for form in forms or [engine.encodings.form]:
            for card in cards or [engine.encodings.card]:
                for pb in pbs or [engine.encodings.pb]:
                    found.append(Configuration(engine.name, Encodings(card, pb, form)))
    return found


def compare(
    puzzles: Sequence[Puzzle],
    chosen: Sequence[Configuration],
    task: str = "first",
    repeat: int = 1,
    timeout: float | None = None,
    clock: str = "wall",
    on_puzzle: Callable[[], None] | None = None,
) -> list[ComparisonRow]:
    """Benchmark every configuration on the same puzzles; rows in the order of `chosen`."""
    rows: list[ComparisonRow] = []
    for configuration in chosen:
        try:
            result = benchmark(puzzles, configuration.engine(), task, repeat, timeout, clock, on_puzzle)
        except KeyboardInterrupt:  # before this configuration timed a puzzle: the rows so far are the answer
            if not rows:
                raise
            rows[-1] = replace(rows[-1], result=replace(rows[-1].result, interrupted=True))
            break
        variables = clauses = None
        if result.interrupted:  # Ctrl-C: report what was timed, skip the rest
            rows.append(ComparisonRow(configuration, result, variables, clauses))
            break
        if configuration.encodings is not None:
            sizes = [encode(puzzle, configuration.encodings) for puzzle in puzzles]
            variables = round(statistics.median(encoding.num_vars for encoding in sizes))
            clauses = round(statistics.median(encoding.num_clauses for encoding in sizes))
        rows.append(ComparisonRow(configuration, result, variables, clauses))
    return rows


def table_heading(puzzles: int, task: str, clock: str, repeat: int) -> str:
    """The line above a table: what was timed, on how many puzzles, how often."""
    return f"{counted(puzzles, 'puzzle')}, {TASKS[task].description}, {clock} clock, {counted(repeat, 'run')}"


def stopped_note(rows: Sequence[ComparisonRow], configurations: int, puzzles: int) -> str:
    """The line under a table that Ctrl-C cut short: the configurations it covers, and the puzzles the last one
    timed when it did not time them all (the table alone read as a whole comparison)."""
    timed = len(rows[-1].result.times)
    last = f"; {rows[-1].configuration.label} on {timed:,} of {puzzles:,} puzzles" if timed < puzzles else ""
    return f"stopped by Ctrl-C: {len(rows):,} of {configurations:,} configurations timed{last}"


def format_rows(rows: Sequence[ComparisonRow]) -> str:
    """A plain table, fastest median first; times in milliseconds except the total."""
    width = max(len("configuration"), *(len(row.configuration.label) for row in rows))
    lines = [f"{'configuration':<{width}} {'median ms':>10} {'worst ms':>10} {'total s':>9} {'vars':>7} {'clauses':>8}"]
    for row in sorted(rows, key=lambda row: row.result.median):
        result = row.result
        lines.append(
            f"{row.configuration.label:<{width}} {result.median * 1000:>10.2f} {result.worst.seconds * 1000:>10.1f} "
            f"{result.total:>9.3f} {_or_dash(row.variables):>7} {_or_dash(row.clauses):>8}"
        )
    return "\n".join(lines)


def _or_dash(value: int | None) -> str:
    return "-" if value is None else f"{value:,}"
