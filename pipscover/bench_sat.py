"""Side-by-side timing of SAT backends and CNF encodings on the same puzzles (for `pipscover bench`).

Each configuration (a backend, and for SAT backends a cardinality and a pseudo-boolean encoding) solves
every puzzle `repeats` times; a puzzle's time is the median of its runs (encoding included, as a user
sees it), and a configuration is summed up by the median, worst and total of those times, with the median
size of its formulas. `first` finds one solution, `all` every solution (what `--all` and counting do).
Non-SAT backends (dlx) take part through `pipscover.solving.solve`, so they can be compared on equal terms.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from pipscover.backends import get_backend
from pipscover.backends.sat import SatBackend
from pipscover.cnf import Encodings, encode
from pipscover.model import Puzzle
from pipscover.results import Status
from pipscover.solving import solve


@dataclass(frozen=True)
class Configuration:
    """What is timed: a backend, with the CNF encodings when it is a SAT backend."""

    backend: str
    encodings: Encodings | None = None

    @property
    def label(self) -> str:
        return self.backend if self.encodings is None else f"{self.backend} {self.encodings.describe()}"


@dataclass(frozen=True)
class BenchRow:
    """One configuration's times over the puzzles, in seconds; sizes are medians over the puzzles."""

    configuration: Configuration
    puzzles: int
    median: float
    worst: float
    total: float
    timeouts: int
    variables: int | None
    clauses: int | None

    def as_json(self) -> dict:
        encodings = self.configuration.encodings
        return {
            "backend": self.configuration.backend,
            "card": encodings.card if encodings else None,
            "pb": encodings.pb if encodings else None,
            "puzzles": self.puzzles,
            "median": self.median,
            "worst": self.worst,
            "total": self.total,
            "timeouts": self.timeouts,
            "variables": self.variables,
            "clauses": self.clauses,
        }


def configurations(backends: Iterable[str], cards: Sequence[str] = (), pbs: Sequence[str] = ()) -> list[Configuration]:
    """Every backend; each SAT backend with every card x pb pair asked for (the defaults when none are)."""
    found = []
    for name in backends:
        engine = get_backend(name)
        if not isinstance(engine, SatBackend):
            found.append(Configuration(engine.name))
            continue
        for card in cards or [engine.encodings.card]:
            for pb in pbs or [engine.encodings.pb]:
                found.append(Configuration(engine.name, Encodings(card, pb)))
    return found


def compare(
    puzzles: Sequence[Puzzle],
    chosen: Sequence[Configuration],
    repeats: int = 3,
    every: bool = False,
    timeout: float | None = None,
    on_puzzle: Callable[[], None] | None = None,
) -> list[BenchRow]:
    """Time every configuration on every puzzle; rows in the order of `chosen`.

    Configurations take turns on each puzzle, so a slow spell of a loaded machine hits them alike.
    """
    times: dict[Configuration, list[float]] = {c: [] for c in chosen}
    timeouts = dict.fromkeys(chosen, 0)
    sizes: dict[Configuration, list[tuple[int, int]]] = {c: [] for c in chosen}
    for puzzle in puzzles:
        for configuration in chosen:
            engine = get_backend(configuration.backend)
            if configuration.encodings is not None:
                engine = engine.with_encodings(configuration.encodings)
                encoding = encode(puzzle, configuration.encodings)
                sizes[configuration].append((encoding.num_vars, encoding.num_clauses))
            runs = []
            for _ in range(repeats):
                start = time.perf_counter()
                result = solve(puzzle, engine, limit=None if every else 1, timeout=timeout)
                runs.append(time.perf_counter() - start)
            timeouts[configuration] += result.status is Status.TIMEOUT
            times[configuration].append(statistics.median(runs))
        if on_puzzle is not None:
            on_puzzle()
    return [
        BenchRow(
            configuration,
            len(times[configuration]),
            statistics.median(times[configuration]),
            max(times[configuration]),
            sum(times[configuration]),
            timeouts[configuration],
            round(statistics.median(v for v, _ in sizes[configuration])) if sizes[configuration] else None,
            round(statistics.median(c for _, c in sizes[configuration])) if sizes[configuration] else None,
        )
        for configuration in chosen
    ]


def format_rows(rows: Sequence[BenchRow]) -> str:
    """A plain table, fastest median first; times in milliseconds."""
    header = f"{'configuration':<44} {'median ms':>10} {'worst ms':>10} {'total s':>9} {'timeouts':>8} {'vars':>7} {'clauses':>8}"
    lines = [header]
    for row in sorted(rows, key=lambda row: row.median):
        lines.append(
            f"{row.configuration.label:<44} {row.median * 1000:>10.2f} {row.worst * 1000:>10.1f} {row.total:>9.2f} "
            f"{row.timeouts:>8} {row.variables if row.variables is not None else '-':>7} "
            f"{row.clauses if row.clauses is not None else '-':>8}"
        )
    return "\n".join(lines)
