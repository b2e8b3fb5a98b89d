"""The counting portfolio: `auto` races methods so that a bad choice costs little, every method keeps within
its memory cap while it counts, and Ganak (a stock model counter) stops at its own. (Ganak's counts of
placements and of grids are judged against brute force on every family of tests/test_against_brute_force.py.)

The puzzles of examples/generated/ were made by `pipscover generate` (the seed is in each name), since making
a unique puzzle of 30 or 50 dominoes takes a minute or more.
"""

from __future__ import annotations

import gc
import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from collections.abc import Iterator
from dataclasses import replace
from functools import partial
from pathlib import Path

import pytest

from conftest import EXAMPLES
from pipscover import load_one
from pipscover.counting import count, portfolio
from pipscover.counting.portfolio import race_counts
from pipscover.model.results import CountInterrupted, CountResult, Distinct
from pipscover.runtime.stoppable import race, report

GENERATED = EXAMPLES / "generated"
BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks" / "count_puzzles"


def test_auto_counts_a_unique_generated_puzzle_by_listing_and_says_so():
    """The structural counter thrashes on it (minutes); blocking clauses in the race prove it unique."""
    result = count(load_one(GENERATED / "unique-30-rect-seed1.json"))
    assert (result.count, result.exact) == (1, True)
    assert result.method in ("auto:blocking", "auto:dlx")


def test_auto_counts_many_solutions_without_listing_them():
    """7,870,990,272 solutions: the race is of the two structural search orders and inclusion-exclusion
    (which answers in about 0.4 s), never of a listing."""
    result = count(load_one(GENERATED / "no-unique-16-seed1.json"), timeout=0.5)
    assert result.method in ("auto:structural", "auto:structural-sweep", "auto:inclusion-exclusion")
    assert result.exact or result.stopped_by == "timeout"


def test_on_a_rectangle_the_fewest_ways_order_never_wins_the_race():
    """58,725,029,952 solutions on a planted 4 x 6 board: 162,699 search nodes in the sweep order, 1,041,064 by
    fewest ways (0.2 s against 1.3 s in the compiled core), and 0.15 s by inclusion-exclusion (1,728 sweeps):
    either of those two wins. (On the planted 3 x 8 board of examples/generated, 3,913 against 42,463 nodes,
    the two structural racers finish a few milliseconds apart: any wins.)"""
    result = count(load_one(BENCHMARKS / "planted-4x6-s1.json"))
    assert (result.count, result.exact) == (58_725_029_952, True)
    assert result.method in ("auto:structural-sweep", "auto:inclusion-exclusion")


@pytest.mark.parametrize("room_mib", [4, 20])
def test_a_count_stays_within_its_memory_cap_under_a_hard_address_space_limit(room_mib):
    """The process may map little more than it holds at the start: without the cap, the structural counter's
    caches (hundreds of megabytes on this puzzle uncapped) would end it with a MemoryError. With a cap of 20 MiB
    more than it holds, its cache forgets and the count finishes exact; with 4 MiB more, it stops at the cap
    and says so."""
    script = textwrap.dedent(f"""
        import resource, sys
        import pipscover.counting.structural, pipscover.cli
        pages = [int(word) for word in open("/proc/self/statm").read().split()]
        mapped, held = pages[0] * resource.getpagesize(), pages[1] * resource.getpagesize()
        resource.setrlimit(resource.RLIMIT_AS, (mapped + 150 * 2**20, resource.RLIM_INFINITY))
        sys.argv = ["pipscover", "count", {str(GENERATED / "no-unique-16-seed1.json")!r}, "--json",
                    "-m", "structural", "--memory", str(held + {room_mib} * 2**20)]
        pipscover.cli.main()
    """)
    ran = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert "MemoryError" not in ran.stderr, ran.stderr[-2000:]
    answer = json.loads(ran.stdout)
    if room_mib == 20:
        assert ran.returncode == 0 and (answer["count"], answer["exact"]) == (7_870_990_272, True)
    else:
        assert ran.returncode == 3, ran.stderr[-2000:]
        assert answer["exact"] is False and answer["stopped_by"] == "--memory" and answer["count"] > 0


def test_ganak_stops_at_its_memory_cap_with_a_lower_bound_marked_so():
    """In a fresh `pipscover count`, as a user runs it: Ganak's worker, forked, may also fill the address space
    its parent had mapped and left empty (the free room of its heaps, one per thread that allocated), which the
    cap cannot take back (`RLIMIT_AS` limits new mappings). A test worker that has run many tests maps hundreds
    of megabytes more than it holds (500 MB after 16 threads allocated 20 MB each): forked from one, Ganak
    counted for 27 s before it reached the cap, against 0.6 s from a fresh process."""
    done = subprocess.run([sys.executable, "-m", "pipscover", "count", GENERATED / "no-unique-16-seed1.json",
                           "-m", "ganak", "--memory", "1M", "--json"], capture_output=True, text=True, timeout=120)
    answer = json.loads(done.stdout)
    assert done.returncode == 3, done.stderr
    assert (answer["count"], answer["exact"], answer["stopped_by"]) == (0, False, "--memory")


def test_listing_distinct_grids_stops_at_its_memory_cap(run_cli, tmp_path):
    """`-m dlx --distinct grids` keeps every grid it has seen: it ignored --memory (on the NYT hard puzzle of
    2025-09-15, 1.7 GB after ten minutes with the default 2G cap, 200 MB at 60 s with --memory 100M). Under a
    cap this process already passes, it stops at its first look, a thousand grids in, and says so."""
    cells = [[r, c] for r in range(2) for c in range(6)]
    (tmp_path / "open.json").write_text(json.dumps({"dominoes": [[a % 4, a % 3] for a in range(6)],
                                                    "regions": [{"indices": cells, "type": "empty"}]}))
    done = run_cli("count", tmp_path / "open.json", "-m", "dlx", "--distinct", "grids", "--memory", "1M", "--json")
    answer = json.loads(done.out)
    assert done.code == 3 and done.err == ""
    assert (answer["count"], answer["exact"], answer["stopped_by"]) == (1000, False, "--memory")


def test_ganak_proves_a_small_puzzle_has_no_solution_at_once(tmp_path):
    """Ganak spent 27 s of CPU on this 4-domino puzzle's CNF (no model); a SAT call now answers first."""
    (tmp_path / "none.txt").write_text(
        "9\n........\n...#A...\n.......A\n.......A\nA.......\nA.......\n........\n.......A\n.......#\n"
        "1\nA SUM 12\n4\n2 0\n3 2\n3 0\n3 0\n")
    result = count(load_one(tmp_path / "none.txt"), method="ganak", timeout=10)
    assert (result.count, result.exact) == (0, True)


def _exact() -> CountResult:
    return CountResult(7, True, Distinct.PLACEMENTS, "second", None, 0.0)


def _bound() -> CountResult:
    return CountResult(5, False, Distinct.PLACEMENTS, "first", None, 0.0, "memory")


def _refusal() -> CountResult:
    raise ValueError("too big for me")


def test_in_a_race_a_lower_bound_gives_way_to_an_exact_count():
    assert race_counts({"first": _bound, "second": _exact}, None) == _exact()


def test_a_race_that_no_racer_finishes_gives_the_lower_bound_of_the_last():
    assert race_counts({"only": _bound}, None) == _bound()


def _slow() -> CountResult:
    time.sleep(30)  # a SAT solver that cannot stop itself: killed when the deadline's grace passes
    return _exact()


def test_a_race_past_its_deadline_keeps_the_lower_bound_of_a_racer_that_gave_way_stopped_by_the_deadline():
    """The bound is the racer's that hit its memory cap, but the deadline ended the count: it said "memory"."""
    assert race_counts({"first": _bound, "slow": _slow}, time.monotonic() + 0.5) == replace(_bound(),
                                                                                          stopped_by="timeout")


def _larger_bound() -> CountResult:
    return replace(_bound(), count=6, method="second")


def test_a_race_whose_racers_all_reach_their_memory_cap_says_so_with_the_largest_bound():
    assert race_counts({"first": _bound, "second": _larger_bound}, None) == _larger_bound()


def test_auto_says_the_deadline_stopped_a_race_in_which_one_racer_reached_its_memory_share_at_once(run_cli, tmp_path):
    """Under a cap this process already passes, the structural racer stops at its first look; the blocking racer
    is still writing and solving the CNF of a 2 x 200 board (more than 40 s here) when the deadline kills it.
    The count said `--memory`, the structural racer's stop (as the NYT hard puzzle of 2025-09-15 did after 61 s
    of `--distinct grids --memory 100M --timeout 60`)."""
    cells = [[r, c] for r in range(2) for c in range(200)]
    (tmp_path / "open.json").write_text(json.dumps({"dominoes": [[a % 7, a * 3 % 7] for a in range(200)],
                                                    "regions": [{"indices": cells, "type": "empty"}]}))
    done = run_cli("count", tmp_path / "open.json", "--distinct", "grids", "--memory", "1M", "--timeout", "2",
                   "--json")
    answer = json.loads(done.out)
    assert done.code == 3 and done.err == ""
    assert (answer["exact"], answer["method"], answer["stopped_by"]) == (False, "auto:structural", "--timeout")


def test_a_race_in_which_every_racer_fails_raises_the_failure():
    with pytest.raises(ValueError, match="too big for me"):
        race_counts({"only": _refusal}, None)


def _structural_count_of_many() -> CountResult:
    """A structural count of 7,870,990,272 solutions (about 10 s), as auto's racers run it."""
    from pipscover.counting.budget import Budget
    from pipscover.counting.methods import continue_structurally
    from pipscover.counting.portfolio import racer_progress
    from pipscover.counting.structural import StructuralCounter

    counter = StructuralCounter(load_one(GENERATED / "no-unique-16-seed1.json"))
    return continue_structurally(counter, Budget.of(memory=None, on_progress=racer_progress))


def test_ctrl_c_in_a_race_raises_the_largest_lower_bound_the_racers_found(monkeypatch):
    """Ctrl-C reaches this process (the racers ignore it): it is passed on to them, and what they had counted
    comes back, rather than a bound of 0 known here. It is pressed once a racer has reported solutions found
    (so it is in its search, whatever the machine's load), and the racers have a minute, not a second, to send
    their bounds (under a load of 7 on two cores, the counting racer once took more than a second)."""
    monkeypatch.setattr(portfolio, "GRACE", 60.0)  # (both answer at once: the slow racer's sleep is interrupted)

    def press_ctrl_c_once_found(found: int, _share: float | None) -> None:
        if found and not pressed:
            pressed.append(found)
            os.kill(os.getpid(), signal.SIGINT)

    pressed: list[int] = []
    # Python's own Ctrl-C handler: a pytest-xdist worker leaves SIGINT at its default action, which would end it.
    handler = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        race_counts({"first": _structural_count_of_many, "slow": _slow}, None, press_ctrl_c_once_found)
    except CountInterrupted as stop:
        result = stop.result
    except KeyboardInterrupt:  # (caught, or pytest would end this worker's session)
        pytest.fail("Ctrl-C came back without the racers' lower bound")
    finally:
        signal.signal(signal.SIGINT, handler)
    assert result.count >= pressed[0] and not result.exact and result.stopped_by == "interrupt"


def test_a_ctrl_c_raised_as_a_worker_is_forked_leaves_the_signals_as_they_were(monkeypatch):
    """`_fork` blocks Ctrl-C and the racers' interrupt (SIGUSR1) while the worker is born. A Ctrl-C raised
    there left this thread blocking both for good (only an OSError gave the mask back): every worker forked
    after it inherited the block and never heard the interrupt passed on, so a race's Ctrl-C lost the racers'
    lower bounds."""
    from pipscover.runtime import stoppable

    def pressed() -> int:
        raise KeyboardInterrupt

    before = signal.pthread_sigmask(signal.SIG_BLOCK, ())
    monkeypatch.setattr(stoppable.os, "fork", pressed)
    with pytest.raises(KeyboardInterrupt):
        stoppable._fork(lambda connection: None)
    assert signal.pthread_sigmask(signal.SIG_BLOCK, ()) == before


def _reports_then_waits(sent: int) -> Iterator[int]:
    """A racer whose two reports are both in the pipe (`sent` says so) before it waits to be interrupted."""
    report(1)
    report(2)
    try:  # (the interrupt may come as soon as the byte is written)
        os.write(sent, b"x")
        time.sleep(120)
    except KeyboardInterrupt:
        raise LookupError("stopped after 2") from None
    yield 0


def test_ctrl_c_in_a_race_still_hears_a_racer_whose_report_was_in_the_pipe():
    """Ctrl-C pressed while the racers' reports are read (the progress bar's callback): a report the racer
    sent before it saw the signal is in the pipe before what it stops with. That report used to be taken
    as the racer's last word, and its lower bound was lost (CI, loaded, once: "Ctrl-C came back without the
    racers' lower bound")."""
    read, sent = os.pipe()
    dropped: list[tuple[str, Exception]] = []

    def ctrl_c_once_both_are_sent(_name: str, _what: object) -> None:
        os.read(read, 1)  # the second report is in the pipe now
        raise KeyboardInterrupt

    try:
        with pytest.raises(KeyboardInterrupt):
            next(race({"racer": partial(_reports_then_waits, sent)}, on_drop=lambda *drop: dropped.append(drop),
                      interrupt_grace=60, on_report=ctrl_c_once_both_are_sent))
    finally:
        os.close(read)
        os.close(sent)
    assert [(name, str(error)) for name, error in dropped] == [("racer", "stopped after 2")]


def test_ctrl_c_in_a_race_is_not_lost_in_a_garbage_collector_callback_of_the_caller():
    """hypothesis (in the test suite) times this process's garbage collections with a callback, as a Dask
    worker diagnoses its own. Workers used to keep the callbacks and run them at their collections; Ctrl-C
    passed on while one ran was raised in it, where Python only prints an exception ("Exception ignored in"),
    and the racer counted on: its lower bound was lost (CI, loaded, after the file's hypothesis neighbours;
    never with the file alone). Here the callback holds the racer's collection until Ctrl-C comes."""
    read, ready = os.pipe()
    collecting: list[bool] = []  # (set in the racer's process only)
    dropped: list[tuple[str, Exception]] = []

    def collects_then_waits() -> Iterator[int]:
        report(0)
        try:
            collecting.append(True)
            gc.collect()
            os.write(ready, b"x")
            time.sleep(120)
        except KeyboardInterrupt:
            raise LookupError("stopped") from None
        yield 0

    def holds_the_racers_collection(phase: str, _info: dict) -> None:
        if collecting and phase == "start":
            os.write(ready, b"x")
            time.sleep(120)

    def ctrl_c_once_ready(_name: str, _what: object) -> None:
        os.read(read, 1)
        raise KeyboardInterrupt

    gc.callbacks.append(holds_the_racers_collection)
    try:
        with pytest.raises(KeyboardInterrupt):
            next(race({"racer": collects_then_waits}, on_drop=lambda *drop: dropped.append(drop), interrupt_grace=60,
                      on_report=ctrl_c_once_ready))
    finally:
        gc.callbacks.remove(holds_the_racers_collection)
        os.close(read)
        os.close(ready)
    assert [(name, str(error)) for name, error in dropped] == [("racer", "stopped")]


def test_the_racers_progress_reaches_the_caller_as_they_count():
    """A race's counters run in worker processes; what they have found and their share done reach
    `on_progress` here a few times a second, so the count's progress bar moves during a race. (The race is
    stopped, as Ctrl-C stops it, at the third report once solutions were found: it used to run to a deadline 2 s
    away, counting all along.)"""
    seen: list[tuple[int, float | None]] = []

    def heard(found: int, share: float | None) -> None:
        seen.append((found, share))
        if len(seen) >= 3 and found > 0:
            raise KeyboardInterrupt

    with pytest.raises((CountInterrupted, KeyboardInterrupt)):
        race_counts({"first": _structural_count_of_many}, time.monotonic() + 10, heard)
    assert len(seen) >= 3 and seen[-1][0] > 0
    assert all(share is not None and 0 <= share <= 1 for _, share in seen)


def test_few_solutions_found_in_the_structural_budget_still_race_inclusion_exclusion():
    """70,914,944 solutions, none of them in the finished branches of the structural budget, so the race is
    the one for few solutions (structural against blocking clauses, which cannot list that many). It used to
    leave inclusion-exclusion out there: the structural counter answered, in about 3 s of CPU (no-unique-20,
    the same shape, gave no answer in 300 s). Inclusion-exclusion's 8,192 sweeps take about 0.1 s."""
    result = count(load_one(GENERATED / "no-unique-14-seed3.json"))
    assert (result.count, result.exact, result.method) == (70_914_944, True, "auto:inclusion-exclusion")


def test_auto_races_no_inclusion_exclusion_that_would_refuse_the_puzzle():
    """A 1-IN-3-SAT reduction has 277,106 points, but its count's bound passes what the sums' residues hold:
    a third racer would only take a share of the memory cap from blocking clauses, which win there."""
    from pipscover.counting.auto import _inclusion_exclusion_takes

    assert not _inclusion_exclusion_takes(load_one(BENCHMARKS / "one-in-three-sat-9v.json"))
    assert _inclusion_exclusion_takes(load_one(GENERATED / "no-unique-14-seed3.json"))


def _niceness(_budget: object) -> CountResult:
    """A racer whose count is its worker's niceness."""
    return CountResult(os.nice(0), True, Distinct.PLACEMENTS, "niceness", None, 0.0)


def test_beside_inclusion_exclusion_the_other_racers_run_at_a_lower_priority():
    """Inclusion-exclusion's sweeps end in a known time: where it races, the other racers run at a lower
    priority in their workers, so that it keeps a core (three racers on two cores had two thirds of one each,
    and planted 6 x 6 took 1.5 times its sweeps' time); this process keeps its own."""
    from pipscover.counting.auto import BESIDE_THE_SWEEPS_NICENESS, _beside_the_sweeps, _placement_racers
    from pipscover.counting.structural import StructuralCounter

    ours = os.nice(0)
    raced = race_counts({"beside": partial(_beside_the_sweeps, _niceness, None)}, None)
    assert raced is not None and raced.count == min(ours + BESIDE_THE_SWEEPS_NICENESS, 19) and os.nice(0) == ours
    puzzle = load_one(GENERATED / "no-unique-14-seed3.json")
    racers = _placement_racers(puzzle, StructuralCounter(puzzle), 0)
    assert set(racers) == {"structural", "blocking", "inclusion-exclusion"}
    assert all((getattr(racer, "func", None) is _beside_the_sweeps) == (name != "inclusion-exclusion")
               for name, racer in racers.items())
