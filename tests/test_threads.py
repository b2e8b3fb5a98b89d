"""The library's entry points called from several threads at once, as `pipscover serve`'s worker threads
and a user's own threads do: the same answers as one at a time, and nothing raised from inside PySAT (its
shared variable pool once raised "list modified during sort")."""

from __future__ import annotations

import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from conftest import EXAMPLES
from pipscover import count, load_one, solve
from pipscover.hints import hint

THREADS = 8


@contextmanager
def switching_often() -> Iterator[None]:
    """Threads switched every microsecond: a race shows in a second instead of once in a thousand runs."""
    before = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        yield
    finally:
        sys.setswitchinterval(before)


def at_once(call: Callable[[], object], rounds: int) -> list[object]:
    """`call()` `rounds` times in each of `THREADS` threads at once; every answer, or the first error raised."""
    answers: list[object] = []
    errors: list[BaseException] = []

    def run() -> None:
        try:
            for _ in range(rounds):
                answers.append(call())
        except Exception as error:  # noqa: BLE001  # the test reports it below
            errors.append(error)

    threads = [threading.Thread(target=run) for _ in range(THREADS)]
    with switching_often():
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    assert errors == [], errors[0]
    return answers


def test_hints_solves_and_counts_run_in_several_threads_at_once():
    puzzle = load_one(EXAMPLES / "first.txt")
    expected = (hint(puzzle).reason, solve(puzzle).solutions[0], count(puzzle).count, count(puzzle, "grids").count)
    answers = at_once(lambda: (hint(puzzle).reason, solve(puzzle).solutions[0], count(puzzle).count,
                               count(puzzle, "grids").count), rounds=5)
    assert set(answers) == {expected}


def test_the_shared_variable_pool_keeps_one_interval_however_many_formulas_are_built():
    """PySAT appended an interval per formula and sorted them all again each time: a process that built many
    formulas (a server, this suite: 2,281 intervals after the brute-force file) sorted more for each one."""
    from pysat.formula import CNF, Formula

    puzzle = load_one(EXAMPLES / "first.txt")
    for size in (100, 50, 200, 30, 150):
        solve(puzzle, "glucose4")
        CNF(from_clauses=[[size, -1]])
    occupied = Formula.export_vpool()._occupied
    assert len(occupied) <= 1 and all(low == 1 and high >= 200 for low, high in occupied)
