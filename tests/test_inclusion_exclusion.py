"""Inclusion-exclusion over the dominoes (`pipscover.counting.inclusion_exclusion`): the same counts as the
structural counter where both count, its refusals and its stops, and the count nothing else gives."""

from __future__ import annotations

import gc
import hashlib
import json
from collections import Counter
from collections.abc import Sequence
from dataclasses import replace
from math import factorial, prod
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from puzzle_factory import puzzles

from pipscover import load_one
from pipscover.counting import inclusion_exclusion
from pipscover.counting.budget import UNLIMITED, Budget
from pipscover.counting.inclusion_exclusion import (
    POINTS_LIMIT,
    Modulus,
    Points,
    build_sweep,
    copies_of,
    graph_bound,
    points_for,
    points_of,
    polynomial_at,
    sweep_total,
    with_fewest_primes,
)
from pipscover.counting.inclusion_exclusion import count as count_by_inclusion_exclusion
from pipscover.counting.region_states import RegionRules
from pipscover.counting.structural import StructuralCounter
from pipscover.counting.sweep_order import candidates, pairs_filled, ranked
from pipscover.counting.tilings import longer_side_order
from pipscover.generate.planted import PlantedSpec, planted
from pipscover.model import Puzzle, Region
from pipscover.model.geometry import neighbours
from pipscover.model.results import CountInterrupted
from pipscover.regions import RegionKind, pip_values
from pipscover.runtime.deadlines import SearchTimeout
from pipscover.runtime.limits import MemoryCapReached, TooBig

ROOT = Path(__file__).resolve().parents[1]
BENCHMARKS = ROOT / "benchmarks" / "count_puzzles"
NYT = ROOT.parent / "shared" / "puzzles" / "nyt"


# The structural counter's count of a puzzle it takes seconds to count, which the suite checks it gives
# elsewhere (tests/test_structural_core.py counts its copy examples/generated/no-unique-16-seed1.json at its
# memory cap; tests/test_count_cluster.py splits it over a cluster).
STRUCTURAL_COUNTS = {"no-unique-16-s1": 7_870_990_272}


@pytest.mark.parametrize("name", ["planted-4x4-s1", "planted-2x12-s1", "no-unique-10-s1", "no-unique-12-s1",
                                  "no-unique-16-s1", "subset-sum-sat-10", "subset-sum-unsat-10"])
def test_it_counts_as_the_structural_counter_does(name):
    puzzle = load_one(BENCHMARKS / f"{name}.json")
    structural = STRUCTURAL_COUNTS.get(name) or StructuralCounter(puzzle).count()
    assert count_by_inclusion_exclusion(puzzle) == structural


@pytest.mark.parametrize("seed", range(6))
def test_it_counts_planted_boards_with_repeated_dominoes_as_the_structural_counter_does(seed):
    puzzle, _ = planted(PlantedSpec(3, 6, seed=seed))
    assert count_by_inclusion_exclusion(puzzle) == StructuralCounter(puzzle).count()


@pytest.mark.skipif(not NYT.is_dir(), reason="the NYT archive is not beside the checkout")
def test_it_counts_nyt_puzzles_as_the_structural_counter_does():
    days = sorted(NYT.glob("*.json"))[::40]
    checked = 0
    for day in days:
        for difficulty in ("easy", "medium", "hard"):
            puzzle = load_one(day, difficulty)
            if points_of(puzzle) <= 1 << 12:  # (a few thousand sweeps: a second or less each)
                assert count_by_inclusion_exclusion(puzzle) == StructuralCounter(puzzle).count(), (day, difficulty)
                checked += 1
    assert checked >= 5


@settings(max_examples=60)
@given(puzzles(max_dominoes=6))
def test_it_counts_random_puzzles_of_up_to_six_dominoes_as_the_structural_counter_does(puzzle):
    """Puzzles a domino or more past the families that tests/test_against_brute_force.py counts it on against
    brute force. The count to match is the structural counter's, checked there against brute force on every
    family: brute force on these, listing each of up to thousands of solutions, took 4.5 s of CPU; the
    structural counter takes 0.03 s."""
    assert count_by_inclusion_exclusion(puzzle) == StructuralCounter(puzzle).count()


@settings(max_examples=40, deadline=None)
@given(puzzles(max_dominoes=6))
def test_every_order_of_the_cells_counts_as_the_structural_counter_does(puzzle):
    """Each candidate order (lines and diagonals from each corner; a cell's later neighbours may be above or
    to its left) is a sweep of the same polynomial: the same count, and both builds the same graph."""
    solutions = StructuralCounter(puzzle).count()
    for order in candidates(puzzle.cells):
        sweep = build_sweep(puzzle, order=order, compiled=True)
        assert _digest(sweep) == _digest(build_sweep(puzzle, order=order, compiled=False))
        assert Modulus.of_points(sweep.points).count(sweep_total(sweep)) == solutions, order


def test_the_sweep_keeps_the_order_of_fewest_edges_it_built():
    """no-unique-24's board runs corner to corner: 2,358,133 edges along its longer side, 69,715 along its
    columns from the other corner (with 2^23 points, about 180 s of CPU rather than 6,000)."""
    puzzle = load_one(BENCHMARKS / "no-unique-24-s1.json")
    assert len(build_sweep(puzzle, order=longer_side_order(puzzle.cells)).sources) == 2_358_133
    rules, pips = RegionRules(puzzle), len(pip_values(puzzle.dominoes))
    pairs = [pairs_filled(table, pips, size) for table, size in
             zip(inclusion_exclusion._step_tables(rules, pips), rules.sizes)]
    tried = ranked(puzzle.cells, puzzle.region_index, pairs)[:inclusion_exclusion.ORDERS_TRIED]
    fewest = min(len(build_sweep(puzzle, order=order).sources) for order in tried)
    assert len(build_sweep(puzzle).sources) == fewest == 69_715


@pytest.mark.parametrize("name", ["no-unique-20-s1", "no-unique-22-s1", "planted-6x6-s1"])
def test_the_long_counts_are_the_recorded_ones(name):
    """Counts that only this method gives, each recorded once two forms or configurations agreed on it
    (benchmarks/recorded_counts.json): 1, 7 and 2.4 s of CPU here in the orders their builds choose, where
    along the longer side no-unique-22 took 93 s."""
    recorded = json.loads((ROOT / "benchmarks" / "recorded_counts.json").read_text())[name]
    assert count_by_inclusion_exclusion(load_one(BENCHMARKS / f"{name}.json")) == int(recorded)


def test_the_candidate_orders_are_distinct_and_lay_each_domino_from_its_first_cell():
    strip = [(0, c) for c in range(5)]
    assert candidates(strip) == [strip, strip[::-1]]
    square = [(r, c) for r in range(3) for c in range(3)]
    orders = candidates(square)
    assert len(orders) == 16 and all(sorted(order) == square for order in orders)
    for order in orders:
        place = {cell: i for i, cell in enumerate(order)}
        assert all(sum(place.get(other, -1) > place[cell] for other in neighbours(cell)) <= 2 for cell in order)


@given(puzzles(max_dominoes=6))
def test_the_graphs_bound_holds_on_random_puzzles(puzzle):
    """P(m) / prod m_t^m_t is at least the count, and P(1), every labelled tiling the graph allows, too. (The
    count is the structural counter's, which tests/test_against_brute_force.py checks against brute force on
    every family: brute force, checking each of up to thousands of solutions, took 2.4 s of CPU here.)"""
    sweep, solutions = build_sweep(puzzle), StructuralCounter(puzzle).count()
    assert graph_bound(puzzle, sweep) >= solutions <= polynomial_at(sweep, [1] * len(copies_of(puzzle)))
    assert with_fewest_primes(puzzle, sweep).points.modulus > solutions


def test_the_graphs_bound_takes_fewer_primes_where_the_regions_bind():
    """no-unique-10's tilings times arrangements pass 2^30 (two primes); its graph's bound, 2^26.7, does not,
    and its count by one prime is the structural counter's."""
    puzzle = load_one(BENCHMARKS / "no-unique-10-s1.json")
    sweep = build_sweep(puzzle)
    assert (points_for(puzzle).lanes, with_fewest_primes(puzzle, sweep).points.lanes) == (2, 1)
    assert count_by_inclusion_exclusion(puzzle) == StructuralCounter(puzzle).count() < graph_bound(puzzle, sweep)


def test_no_unique_22_sweeps_with_three_primes_not_four():
    """Its count, 32,276,110,275,963,904 (2^54.8, benchmarks/recorded_counts.json, by both forms), below its
    graph's bound, 2^83.1, below three primes' product (2^90); tilings times arrangements, 2^93.6, took four."""
    puzzle = load_one(BENCHMARKS / "no-unique-22-s1.json")
    sweep = build_sweep(puzzle)
    recorded = int(json.loads((ROOT / "benchmarks" / "recorded_counts.json").read_text())["no-unique-22-s1"])
    assert recorded <= graph_bound(puzzle, sweep) < 2**84
    assert (points_for(puzzle).lanes, with_fewest_primes(puzzle, sweep).points.lanes) == (4, 3)


@pytest.mark.parametrize("lanes", [1, 4, 6])
@pytest.mark.parametrize("paired", [False, True])
def test_the_compiled_sweeps_and_the_python_twin_sum_the_same(paired, lanes):
    """The same residues modulo each prime, in both forms, from the core's AVX-512 and AVX2 passes, its plain
    loop and the twin, over a chunk that is no whole number of the core's batches of eight or sixteen points."""
    puzzle = load_one(BENCHMARKS / "planted-4x4-s1.json")
    sweep = replace(build_sweep(puzzle), points=Points.of(copies_of(puzzle), paired, lanes))
    chunk = range(3, sweep.points.count - 2)
    sums = {sweep_total(sweep, compiled=True, chunk=chunk, vectors=vectors) for vectors in (512, 256, 0)}
    assert sums == {sweep_total(sweep, compiled=False, chunk=chunk)}


def test_the_passes_that_ask_ahead_sum_as_the_plain_loop():
    """Planted 6 x 6's ring of values (32,768 states, 6 MB at six primes) is past any core's L2, so the vector
    passes ask for each source's values ahead (into the padding past the last edge too): the same residues
    as the plain loop, which never asks, over a chunk of 40 points."""
    puzzle = load_one(BENCHMARKS / "planted-6x6-s1.json")
    sweep = replace(build_sweep(puzzle), points=Points.of(copies_of(puzzle), True, 6))
    assert len({sweep_total(sweep, compiled=True, chunk=range(40), vectors=vectors) for vectors in (512, 256, 0)}) == 1


def test_the_core_orders_a_graph_once_for_its_chunks_and_forgets_it_with_the_graph():
    """A split count's worker sweeps one graph chunk after chunk: the core's ordered copy is made at the first
    chunk and taken again at the next (a sweep at other points shares the graph's arrays), and dropped when
    the graph's arrays are."""
    puzzle = load_one(BENCHMARKS / "planted-4x4-s1.json")
    sweep = build_sweep(puzzle)
    sweep_total(sweep, compiled=True, chunk=range(16))
    made = inclusion_exclusion._last_ordered[0].graph
    sweep_total(replace(sweep, points=Points.of(copies_of(puzzle), False, 2)), compiled=True, chunk=range(16, 32))
    assert inclusion_exclusion._last_ordered[0].graph is made
    del sweep
    gc.collect()
    assert not inclusion_exclusion._last_ordered


@pytest.mark.parametrize("name", ["planted-4x4-s1", "no-unique-10-s1", "subset-sum-sat-10", "planted-2x12-s1"])
def test_glynns_half_sum_and_rysers_sum_give_the_same_count(name):
    """Glynn's form sweeps half the points (a pair of opposite points gives equal terms), and the count takes
    it; both forms recover the count the structural counter gives."""
    puzzle = load_one(BENCHMARKS / f"{name}.json")
    sweep = build_sweep(puzzle)
    ryser, glynn = (Points.of(copies_of(puzzle), paired, sweep.points.lanes) for paired in (False, True))
    assert sweep.points == glynn and points_of(puzzle) * 2 == ryser.count == prod(
        m + 1 for m in puzzle.domino_counts.values())
    counts = {Modulus.of_points(points).count(sweep_total(replace(sweep, points=points)))
              for points in (ryser, glynn)}
    assert counts == {StructuralCounter(puzzle).count()}


def _open_board(copies: Sequence[int]) -> Puzzle:
    """An open 2 x n board (n the dominoes) and `copies` of the dominoes 0-1, 0-2, 1-2, ...: its count is F(n + 1)
    tilings times n! / prod(m_t!) ways to lay the copies on the tiles times 2^n ways to turn them."""
    kinds = [(a, b) for a in range(7) for b in range(a + 1, 7)]
    dominoes = tuple(domino for domino, m in zip(kinds, copies) for _ in range(m))
    return Puzzle((Region(RegionKind.EMPTY, tuple((r, c) for r in range(2) for c in range(len(dominoes)))),), dominoes)


def _open_board_count(copies: Sequence[int]) -> int:
    n = sum(copies)
    tilings, after = 1, 1  # F(1), F(2): a 2 x n board has F(n + 1) domino tilings
    for _ in range(n - 1):
        tilings, after = after, tilings + after
    return after * factorial(n) // prod(map(factorial, copies)) * 2**n


def test_glynns_form_is_taken_whatever_power_of_two_its_sum_holds():
    """Glynn's sum is 2^(n - 1) times more than Ryser's: with 40 copies of a domino and one other, 2^78 in all,
    which sums modulo 2^128 could not divide out of a count of 2^74; modulo primes the power of two is
    divided out like the rest, so Glynn's half (41 sweeps) counts it."""
    puzzle = _open_board((40, 1))
    assert points_of(puzzle) == 41
    assert count_by_inclusion_exclusion(puzzle) == _open_board_count((40, 1)) == StructuralCounter(puzzle).count()


@pytest.mark.parametrize(("copies", "paired"), [((8, 8, 8), False), ((7, 8, 9), True), ((10, 12, 12), False),
                                                ((11, 11, 12), True)],
                         ids=["ryser-2^73", "glynn-2^74", "ryser-2^107", "glynn-2^107"])
def test_a_count_past_64_bits_is_exact_as_a_formula_gives_it(copies, paired):
    """Open 2 x 24 and 2 x 34 boards (`_open_board`), 1.2 * 10^22 and 2.4 * 10^32 solutions (past 2^64 and
    2^100), in Ryser's form (all copies even: 729 and 1,859 sweeps) and Glynn's half (360 and 936 sweeps,
    whose sums are 2^41 and 2^59 times the count, as planted 6 x 6's is 2^21 times its count). The core and
    the Python twin give the same residues."""
    puzzle = _open_board(copies)
    sweep = build_sweep(puzzle)
    assert sweep.points == Points.of(list(copies), paired, sweep.points.lanes)
    assert sweep_total(sweep, compiled=True) == sweep_total(sweep, compiled=False)
    expected = _open_board_count(copies)
    assert count_by_inclusion_exclusion(puzzle) == expected > 2 ** (64 if sum(copies) < 30 else 100)
    assert graph_bound(puzzle, sweep) >= expected


def test_a_count_past_2_to_the_128_is_exact_where_its_bound_fits_the_primes():
    """79 copies of a domino and one other on an open 2 x 80 board: 2^141 solutions, past what sums modulo
    2^128 held (the old core refused it), below the six primes' product (2^180): 80 sweeps."""
    puzzle = _open_board((79, 1))
    sweep = build_sweep(puzzle)
    assert sweep.points.lanes == with_fewest_primes(puzzle, sweep).points.lanes == 5
    assert graph_bound(puzzle, sweep) >= _open_board_count((79, 1))
    assert count_by_inclusion_exclusion(puzzle) == _open_board_count((79, 1)) > 2**140


def test_it_counts_a_planted_board_in_glynns_form():
    """Planted 4 x 6 (12 dominoes, three of them twice): 864 sweeps (Glynn's half of 1,728) of a graph of
    14,227 edges, the count the structural counter gives (half a second in its sweep order). Planted 6 x 6 (41,472
    sweeps of 650,795 edges, a minute or more of CPU), whose count nothing else gives, is left to
    benchmarks/count_bench.py, which checks it against benchmarks/recorded_counts.json: 22,044,623,880,419,946,864,
    the answer Ryser's form gave before Glynn's (encodings/counting.md, encodings/benchmarks.md)."""
    puzzle = load_one(BENCHMARKS / "planted-4x6-s1.json")
    assert points_of(puzzle) == 864
    assert count_by_inclusion_exclusion(puzzle) == StructuralCounter(puzzle, "sweep").count() == 58_725_029_952


def test_it_refuses_dominoes_that_need_too_many_sweeps_in_one_line():
    distinct = [(a, b) for a in range(7) for b in range(a, 7)][:26]  # 2^25 sweeps in Glynn's form
    cells = [(0, c) for c in range(52)]
    puzzle = Puzzle((Region(RegionKind.EMPTY, tuple(cells)),), tuple(distinct))
    assert points_of(puzzle) > POINTS_LIMIT
    with pytest.raises(TooBig, match="sweeps"):
        count_by_inclusion_exclusion(puzzle)


def test_it_refuses_a_count_that_may_pass_its_modulus():
    """60 copies of each of two dominoes on an open 2 x 120 board: its bound, 2^319, passes the six primes'
    product (2^180)."""
    dominoes = ((0, 1),) * 60 + ((2, 3),) * 60
    cells = [(r, c) for r in range(2) for c in range(120)]
    puzzle = Puzzle((Region(RegionKind.EMPTY, tuple(cells)),), dominoes)
    with pytest.raises(TooBig, match="2\\^"):
        count_by_inclusion_exclusion(puzzle)


def test_a_deadline_stops_it_with_nothing_counted():
    with pytest.raises(CountInterrupted) as stop:
        count_by_inclusion_exclusion(load_one(BENCHMARKS / "planted-6x6-s1.json"), Budget(start=0.0, deadline=0.0))
    assert (stop.value.result.count, stop.value.result.exact, stop.value.result.stopped_by) == (0, False, "timeout")


def test_the_command_line_counts_by_it_and_refuses_grids_in_one_line(run_cli):
    puzzle = BENCHMARKS / "planted-4x4-s1.json"
    ran = run_cli("count", puzzle, "-m", "inclusion-exclusion", "--json")
    assert ran.code == 0, ran.err
    answer = json.loads(ran.out)
    assert (answer["count"], answer["exact"], answer["method"]) == (14_962_316, True, "inclusion-exclusion")
    ran = run_cli("count", puzzle, "-m", "inclusion-exclusion", "--distinct", "grids")
    assert ran.code == 2 and len(ran.err.strip().splitlines()) == 1, ran.err
    assert "placements" in ran.err


def test_its_progress_is_the_share_of_the_sweeps_done(monkeypatch):
    """A report at every look at the clock here (every 16 sweeps in the core; every PROGRESS_EVERY seconds
    otherwise), with nothing found until the last sweep: the count is only known then."""
    monkeypatch.setattr(inclusion_exclusion, "PROGRESS_EVERY", 0.0)
    reports: list[tuple[int, float | None]] = []
    puzzle = load_one(BENCHMARKS / "planted-2x12-s1.json")  # 1,152 sweeps (Glynn's half of 2,304)
    assert count_by_inclusion_exclusion(puzzle, UNLIMITED.heard_by(lambda found, share: reports.append((found, share))))
    shares = [share for found, share in reports if found == 0 and share is not None]
    assert len(shares) == len(reports) >= points_of(puzzle) // 16 - 1 and shares == sorted(shares)
    assert all(0 <= share < 1 for share in shares)


@settings(max_examples=40, deadline=None)
@given(puzzles(max_dominoes=6), st.lists(st.floats(0, 1), max_size=4), st.booleans())
def test_chunks_split_anywhere_add_up_to_the_whole_sum(puzzle, cuts, compiled):
    """A split count sums its chunks' totals (sweep/split_count.py): any boundaries, in the core as in the twin."""
    sweep = build_sweep(puzzle)
    count = sweep.points.count
    bounds = sorted({0, count, *(round(cut * count) for cut in cuts)})
    chunks = [sweep_total(sweep, compiled=compiled, chunk=range(begin, end)) for begin, end in zip(bounds, bounds[1:])]
    assert sum(chunks) % sweep.points.modulus == sweep_total(sweep, compiled=compiled)


@pytest.mark.parametrize("name", ["no-unique-12-s1", "planted-4x4-s1"])
def test_no_state_is_left_whose_only_way_on_lays_nothing(name):
    """Such a state has its sources' value (weight 1), so its target takes its edges (`_skips_folded`): no
    point pays a product for it."""
    sweep = build_sweep(load_one(BENCHMARKS / f"{name}.json"))
    skip = sweep.forms.index(((-1, 1),)) if ((-1, 1),) in sweep.forms else -1
    ways_on = Counter(sweep.sources)
    assert not [e for e, form in enumerate(sweep.edge_forms) if form == skip and ways_on[sweep.sources[e]] == 1
                and sweep.sources[e] > 0]
    assert all(sweep.sources[e] < state for state in range(sweep.final + 1)
               for e in range(sweep.first[state], sweep.first[state + 1]))


@pytest.mark.parametrize("compiled", [True, False])
def test_a_sweep_past_the_cores_int_indices_is_refused_in_one_line(monkeypatch, compiled):
    monkeypatch.setattr(inclusion_exclusion, "INDEX_LIMIT", 100)
    with pytest.raises(TooBig, match="states or edges"):
        build_sweep(load_one(BENCHMARKS / "planted-4x4-s1.json"), compiled=compiled)


@pytest.mark.parametrize("compiled", [True, False])
def test_a_sweep_past_its_layings_is_refused_in_one_line(monkeypatch, compiled):
    monkeypatch.setattr(inclusion_exclusion, "LAYINGS_LIMIT", 1000)
    with pytest.raises(TooBig, match="passes 1,000 layings"):
        build_sweep(load_one(BENCHMARKS / "planted-4x4-s1.json"), compiled=compiled)


@pytest.mark.parametrize("compiled", [True, False])
def test_the_build_stops_at_its_deadline_and_its_memory_cap(monkeypatch, compiled):
    """Both builds look at the clock and the memory every CHECK_EVERY states (planted 4 x 6 has 3,579 kept)."""
    monkeypatch.setattr(inclusion_exclusion, "CHECK_EVERY", 64)
    puzzle = load_one(BENCHMARKS / "planted-4x6-s1.json")
    with pytest.raises(SearchTimeout):
        build_sweep(puzzle, deadline=0.0, compiled=compiled)
    with pytest.raises(MemoryCapReached):
        build_sweep(puzzle, memory_cap=1 << 20, compiled=compiled)


def _digest(sweep) -> str:
    """The graph's forms, arrays and final state, hashed: two builds agree to the bit when these do."""
    made = hashlib.sha256(repr(sweep.forms).encode())
    for numbers in (sweep.first, sweep.sources, sweep.edge_forms):
        made.update(numbers.tobytes())
    made.update(str(sweep.final).encode())
    return made.hexdigest()[:16]


# The graphs built by the Python build of 0eec062, before the compiled one (hashed by `_digest`).
OLD_GRAPHS = {"planted-4x4-s1": "e9f75f5bed6f80ce", "planted-2x12-s1": "9b7bef7843263dff",
              "no-unique-12-s1": "6cb8406e2b23968f", "no-unique-18-s1": "90b3ede713ee665a",
              "planted-4x6-s1": "ba24801f2ec6835b", "unique-20-rect-s1": "6aeef66db7f42218",
              "subset-sum-sat-10": "4785323c37acd17c", "subset-sum-unsat-10": "c3a5002add46b4dc"}


@pytest.mark.parametrize("name", OLD_GRAPHS)
def test_both_builds_make_the_graph_the_python_build_made(name):
    """The same states in the same order, the same edges and forms: the sweeps' sums (and their chunks, on a
    cluster whose workers run another build) stay the same to the bit."""
    puzzle = load_one(BENCHMARKS / f"{name}.json")
    order = longer_side_order(puzzle.cells)  # the only order 0eec062 took
    assert _digest(build_sweep(puzzle, compiled=True, order=order)) \
        == _digest(build_sweep(puzzle, compiled=False, order=order)) == OLD_GRAPHS[name]


@pytest.mark.parametrize(("name", "digest"), [("planted-6x6-s1", "e7fc42ddf8995e75"),
                                              ("no-unique-22-s1", "13cb8b89bb1ee1b1")])
def test_the_compiled_build_makes_the_long_counts_graphs_the_python_build_made(name, digest):
    """589,109 edges and 138,654 along the longer side (0eec062's Python build took about 11 s and 3 s over
    them)."""
    puzzle = load_one(BENCHMARKS / f"{name}.json")
    assert _digest(build_sweep(puzzle, compiled=True, order=longer_side_order(puzzle.cells))) == digest


@settings(max_examples=60, deadline=None)
@given(puzzles(max_dominoes=8))
def test_the_compiled_build_makes_the_twins_graph(puzzle):
    assert _digest(build_sweep(puzzle, compiled=True)) == _digest(build_sweep(puzzle, compiled=False))
