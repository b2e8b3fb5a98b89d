"""The structural counter's compiled core (`_structural.c`) against its Python twin: the same counts, the same
search nodes, the same lower bounds when stopped, on the NYT archive, the counting benchmark's quick puzzles
and counts past 128 bits. (tests/test_against_brute_force.py runs both on every family of small puzzles.)"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from conftest import EXAMPLES, needs_nyt, nyt_files
from pipscover.counting.budget import UNLIMITED, Budget
from pipscover.counting.structural import CHECK_EVERY, ORDERS, StructuralCounter
from pipscover.formats import load, load_one
from pipscover.model import Puzzle
from pipscover.model.results import CountInterrupted

BENCHMARK = Path(__file__).resolve().parents[1] / "benchmarks" / "count_puzzles"
GENERATED = EXAMPLES / "generated"
QUICK = ["no-unique-10-s1", "no-unique-12-s1", "planted-4x4-s1", "subset-sum-sat-10", "subset-sum-unsat-10",
         "unique-20-rect-s1"]


def both(puzzle: Puzzle, order: str, budget: Budget = UNLIMITED,
         node_limit: int | None = None) -> list[tuple[int, bool, str | None, int]]:
    """(count, exact, what stopped it, search nodes) of the Python search and of the compiled core."""
    found = []
    for compiled in (False, True):
        counter = StructuralCounter(puzzle, order, compiled=compiled)
        try:
            found.append((counter.count(budget, node_limit), True, None, counter.nodes))
        except CountInterrupted as stop:
            found.append((stop.result.count, stop.result.exact, stop.result.stopped_by, counter.nodes))
    return found


def test_the_compiled_core_is_the_default():
    assert StructuralCounter(load_one(BENCHMARK / "planted-4x4-s1.json")).compiled


@needs_nyt
@pytest.mark.parametrize("order", ORDERS)
def test_the_compiled_core_counts_the_nyt_puzzles_as_python_does(order):
    """Every tenth day of the archive (105 puzzles), among them the two of every fifth day whose searches are
    longest (2026-04-20's, 16,688 nodes in the sweep order, and 2025-12-01's): the other half of every fifth
    day, which this took before, added puzzles of a few hundred nodes each and a quarter of the CPU."""
    for file in nyt_files()[5::10]:
        for puzzle in load(file):
            python, compiled = both(puzzle, order)
            assert python == compiled, puzzle.describe()


@pytest.mark.parametrize("name", QUICK)
@pytest.mark.parametrize("order", ORDERS)
def test_the_compiled_core_counts_the_benchmark_puzzles_as_python_does(name, order):
    python, compiled = both(load_one(BENCHMARK / f"{name}.json"), order)
    assert python == compiled


@pytest.mark.parametrize("order", ORDERS)
def test_a_count_stopped_by_its_node_budget_is_the_same_lower_bound_and_goes_on_with_its_caches(order):
    puzzle = load_one(BENCHMARK / "no-unique-12-s1.json")
    python, compiled = both(puzzle, order, node_limit=3000)
    assert python == compiled and python[2] == "nodes" and 0 < python[0] < 11_243_520
    again = []
    for twin in (False, True):  # `auto` counts on in a forked worker that inherits the caches
        counter = StructuralCounter(puzzle, order, compiled=twin)
        with pytest.raises(CountInterrupted):
            counter.count(node_limit=3000)
        again.append((counter.count(), counter.nodes))
    assert again[0] == again[1] and again[0][0] == 11_243_520


def test_a_deadline_stops_both_at_the_same_node():
    puzzle = load_one(BENCHMARK / "no-unique-12-s1.json")
    python, compiled = both(puzzle, "ways", Budget(start=0.0, deadline=0.0))
    assert python == compiled and python[2:] == ("timeout", CHECK_EVERY)


@pytest.mark.parametrize(("budget", "why"), [(Budget(start=0.0, deadline=0.0), "timeout"),
                                             (Budget(start=0.0, memory=1), "memory")])
def test_the_closed_form_stops_both_at_the_deadline_and_the_memory_cap(budget, why):
    """An open board is one closed form from the root, its tilings counted over 2^(its shorter side) states a
    cell: an open 24 x 24 board ran 9.5 minutes, whatever its deadline and memory cap, until it was killed.
    Here 12 x 12 (4,096 states) is stopped in the closed form, with nothing counted, by both searches alike."""
    cells = [(r, c) for r in range(12) for c in range(12)]
    puzzle = Puzzle.build([("empty", cells, None)], [(0, 1), (1, 2), (2, 2)] * 24)
    python, compiled = both(puzzle, "ways", budget)
    assert python == compiled == (0, False, why, 1)


def test_ctrl_c_in_a_progress_report_gives_the_same_lower_bound(monkeypatch):
    monkeypatch.setattr("pipscover.counting.progress.PROGRESS_EVERY", 0.0)  # every report, not every 0.2 s
    puzzle = load_one(BENCHMARK / "planted-4x4-s1.json")
    reports: list[list[tuple[int, float | None]]] = []
    bounds = []
    for compiled in (False, True):
        seen: list[tuple[int, float | None]] = []
        reports.append(seen)

        def interrupt(found, fraction, seen=seen):
            seen.append((found, fraction))
            if len(seen) == 40:
                raise KeyboardInterrupt

        with pytest.raises(CountInterrupted) as stopped:
            StructuralCounter(puzzle, compiled=compiled).count(UNLIMITED.heard_by(interrupt))
        bounds.append((stopped.value.result.count, stopped.value.result.stopped_by))
    assert reports[0] == reports[1] and len(reports[0]) == 40
    assert bounds[0] == bounds[1] and bounds[0][1] == "interrupt"


def test_a_memory_cap_stops_the_compiled_core_with_a_lower_bound():
    puzzle = load_one(BENCHMARK / "no-unique-12-s1.json")
    with pytest.raises(CountInterrupted) as stopped:
        StructuralCounter(puzzle, compiled=True).count(Budget(start=0.0, memory=1))
    assert stopped.value.result.stopped_by == "memory" and stopped.value.result.count < 11_243_520


def test_counts_past_128_bits_are_exact(monkeypatch):
    """A 2 x 36 board, 36 distinct dominoes: one 2-cell sum region keeps the root from its closed form, and each
    branch's closed form is near 36! * 2^36 (more than 2^160): the sums overflow 128 bits, the progress reports
    carry such sums, and the cached counts past 2^63 are Python ints, read back by a second count."""
    monkeypatch.setattr("pipscover.counting.progress.PROGRESS_EVERY", 0.0)  # every report, not every 0.2 s
    cells = [(r, c) for c in range(36) for r in range(2)]
    dominoes = [(a, b) for a in range(10) for b in range(a, 10)][:36]
    puzzle = Puzzle.build([("sum", cells[:2], 9), ("empty", cells[2:], None)], dominoes)
    counts, reports = [], []
    for compiled in (False, True):
        counter = StructuralCounter(puzzle, compiled=compiled)
        seen: list[tuple[int, float | None]] = []
        reports.append(seen)
        listening = UNLIMITED.heard_by(lambda found, fraction, seen=seen: seen.append((found, fraction)))
        counts.append((counter.count(listening), counter.nodes, counter.count(), counter.nodes))
    assert counts[0] == counts[1] and counts[0][0] > 2**160 and counts[0][3] == 0
    assert reports[0] == reports[1] and reports[0][-1] == (counts[0][0], 1.0) and len(reports[0]) > 2


def test_more_than_64_distinct_pips_stay_with_the_python_search():
    cells = [(r, c) for c in range(33) for r in range(2)]
    puzzle = Puzzle.build([("sum", cells[:2], 1), ("empty", cells[2:], None)], [(2 * i, 2 * i + 1) for i in range(33)])
    assert not StructuralCounter(puzzle).compiled


def test_at_its_memory_cap_the_compiled_core_forgets_cached_counts_and_stays_exact():
    """Its cache may not grow past the cap: it forgets the counts of the subproblems with the fewest cells left
    (at least half of them) and goes on, recounting what it needs again. Here the cap leaves room for a
    fraction of the 573,072 entries (12 MB with the table's spare slots) the count would cache, and its
    memos and Python's region supplies stay within it too. The cap is on the whole process, so the
    count runs in a process of its own: in a test worker, what other tests left (threads, freed memory the
    allocator keeps) moves the resident size: in CI this count once finished without forgetting, and in a
    full local run it once stopped at its cap. The cap is 14 MiB past what the process holds at the start: at
    12 it stopped at its cap in two of five full runs on the Xeon (never alone); at 14 and 16 it forgets
    295,000 and 342,000 counts, and only at 18 none."""
    script = (
        "from pipscover.counting.budget import Budget\n"
        "from pipscover.counting.structural import StructuralCounter\n"
        "from pipscover.formats import load_one\n"
        "from pipscover.runtime.limits import resident_bytes\n"
        f"counter = StructuralCounter(load_one({str(GENERATED / 'no-unique-16-seed1.json')!r}), compiled=True)\n"
        "found = counter.count(Budget(start=0.0, memory=resident_bytes() + 14 * 2**20))\n"
        "print(found, counter._core.forgotten, counter.nodes)\n"
    )
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    found, forgotten, nodes = map(int, run.stdout.split())
    assert found == 7_870_990_272 and forgotten > 0 and nodes > 573_072


def test_progress_comes_from_deep_levels_so_the_count_found_moves_early(monkeypatch):
    """A board whose first branches are long: reports come as deep branches finish (a planted 10 x 10 showed
    `0 so far` for a whole count when only the first 4 levels reported), the same in both searches."""
    monkeypatch.setattr("pipscover.counting.progress.PROGRESS_EVERY", 0.0)  # every report, not every 0.2 s
    puzzle = load_one(BENCHMARK / "planted-4x4-s1.json")
    reports = []
    for compiled in (False, True):
        seen: list[tuple[int, float | None]] = []
        listening = UNLIMITED.heard_by(lambda found, share, seen=seen: seen.append((found, share)))
        StructuralCounter(puzzle, compiled=compiled).count(listening)
        reports.append(seen)
    assert reports[0] == reports[1]
    assert reports[0][0][1] < 1 / 10**6  # the first report is from a branch far down the search
