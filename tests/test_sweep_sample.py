"""Uniform samples and per-cell marginals from the inclusion-exclusion sweep's graph
(`pipscover.counting.sweep_sample`, `pipscover.counting.sweep_marginals`), judged by full enumeration (brute
force), the structural walk, the independent checker, and the compiled core against its Python twin."""

from __future__ import annotations

from array import array
from collections import Counter
from dataclasses import replace
from pathlib import Path
from random import Random

import pytest
from brute_force import brute_force_solutions
from hypothesis import given, settings
from puzzle_factory import puzzles
from test_sampling import P_VALUE_FLOOR, SMALL, chisquare_pvalue

from pipscover import load_one, marginals, sample
from pipscover.counting.completions import WALK_BUDGET, Completions, draws
from pipscover.counting.inclusion_exclusion import (
    EdgeLayings,
    Modulus,
    Points,
    Sweep,
    build_keyed_sweep,
    build_sweep,
    copies_of,
    laying_totals,
    paired,
    sweep_total,
    sweep_totals,
)
from pipscover.counting.search import NodeBudgetSpent
from pipscover.counting.structural import StructuralCounter
from pipscover.counting.sweep_marginals import marginals_by_sweep
from pipscover.counting.sweep_sample import SweepSampler, keyed_graph
from pipscover.model import Puzzle
from pipscover.model.check import is_valid
from pipscover.regions import pip_values

BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks" / "count_puzzles"


@pytest.mark.parametrize("puzzle", SMALL[:4], ids=lambda puzzle: f"{len(puzzle.dominoes)} dominoes")
def test_its_draws_are_uniform_over_the_solutions(puzzle):
    solutions = brute_force_solutions(puzzle)
    sampler, rng = SweepSampler(puzzle), Random(11)
    drawn = Counter(sampler.sample(rng) for _ in range(30 * len(solutions)))
    assert set(drawn) <= solutions and sampler.total() == len(solutions)
    assert chisquare_pvalue([drawn[solution] for solution in sorted(solutions, key=lambda s: s.placements)]) \
        > P_VALUE_FLOOR


def test_the_chi_square_test_sees_a_walk_that_ignores_the_counts():
    """Its power here: the same draws, but each step's choice taken uniformly among those with any count, fail
    the test that the weighted ones pass."""
    puzzle = SMALL[1]
    solutions = sorted(brute_force_solutions(puzzle), key=lambda s: s.placements)
    sampler = SweepSampler(puzzle)
    rng = Random(2)
    weighted = Counter(sampler.sample(rng) for _ in range(3000))
    assert chisquare_pvalue([weighted[solution] for solution in solutions]) > P_VALUE_FLOOR
    unweighted = Counter(_naive_draw(sampler, rng) for _ in range(3000))
    assert chisquare_pvalue([unweighted[solution] for solution in solutions]) < P_VALUE_FLOOR


def _naive_draw(sampler: SweepSampler, rng: Random):
    """A draw that picks each step's choice uniformly among those with any count (what a walk that ignores
    the counts does)."""
    path, state, left = [], sampler.built.sweep.final, sampler.copies
    while state:
        source, kind, times, _ = rng.choice([choice for choice in sampler._step(state, left)[0] if choice[3]])
        path.append((source, state, kind, times))
        state, left = source, left if kind < 0 else left[:kind] + (left[kind] - 1,) + left[kind + 1:]
    return sampler._solution(reversed(path), rng)


@pytest.mark.parametrize("name", ["no-unique-12-s1", "planted-4x4-s1"])
def test_the_second_steps_swept_a_kind_at_a_time_are_each_ones_own(name):
    """Once a kind starts two draws, the second steps from every source of the first step by that kind are
    swept together (`_sweep_second`): each state's choices and own count are what a sweep of it alone gives,
    so the draws are those of a sampler that sweeps every step alone (the same picks from the same counts)."""
    puzzle = load_one(BENCHMARKS / f"{name}.json")
    sampler = SweepSampler(puzzle)
    first, _ = sampler._step(sampler.built.sweep.final, sampler.copies)
    kind = Counter(kind for _, kind, _, _ in first).most_common(1)[0][0]
    left = sampler.copies[:kind] + (sampler.copies[kind] - 1,) + sampler.copies[kind + 1:]
    states = sorted({source for source, laid, _, _ in first if laid == kind})
    assert len(states) > 1
    assert sampler._swept(states, left) == [sampler._swept([state], left)[0] for state in states]
    rng = Random(5)
    assert all(is_valid(puzzle, sampler.sample(rng)) for _ in range(40)) and sampler.second


@settings(max_examples=40, deadline=None)
@given(puzzles(max_dominoes=6))
def test_it_counts_and_draws_valid_solutions_of_random_puzzles(puzzle):
    solutions = StructuralCounter(puzzle).count()
    sampler = SweepSampler(puzzle)
    assert sampler.total() == solutions
    if solutions:
        rng = Random(0)
        assert all(is_valid(puzzle, sampler.sample(rng)) for _ in range(5))


@pytest.mark.parametrize("name", ["no-unique-14-s1", "planted-4x6-s1"])
def test_sample_draws_from_the_sweep_past_the_walk_budget_and_every_draw_is_valid(name):
    """These have more subproblems than `WALK_BUDGET` (planted 4 x 6: 167,911, 2.8 s to count them), so
    `sample` draws from the sweep's graph."""
    puzzle = load_one(BENCHMARKS / f"{name}.json")
    walk = Completions(puzzle, budget=WALK_BUDGET)
    with pytest.raises(NodeBudgetSpent):
        walk.total()
    drawn = sample(puzzle, 6, seed=4)
    assert all(is_valid(puzzle, solution) for solution in drawn) and len(drawn) == 6


def test_small_puzzles_are_still_drawn_from_their_subproblems():
    """Below the budget the walk's draws are a fraction of a millisecond each: the same draws as before."""
    puzzle = SMALL[-1]
    rng = Random(42)
    walk = Completions(puzzle)
    assert sample(puzzle, 5, seed=42) == [walk.sample(rng) for _ in range(5)]
    assert next(draws(puzzle, 42)) == sample(puzzle, 1, seed=42)[0]


@pytest.mark.parametrize("puzzle", [SMALL[-1], load_one(BENCHMARKS / "planted-4x4-s1.json")],
                         ids=["6 dominoes", "planted 4 x 4"])
def test_the_core_and_its_twin_draw_the_same_solutions(puzzle):
    """The same seed draws the same solutions on any machine, a compiled core or none."""
    draws_of = [[sampler.sample(rng) for _ in range(4)]
                for sampler, rng in ((SweepSampler(puzzle, compiled=True), Random(7)),
                                     (SweepSampler(puzzle, compiled=False), Random(7)))]
    assert draws_of[0] == draws_of[1]


def test_a_steps_sweep_keeps_the_states_that_lead_to_its_choices():
    """Each step sweeps only the states on a path to one of its choices' sources (networkx's ancestors of the
    graph, the sources themselves included), in sweep order: the others add nothing to a choice's count."""
    import networkx as nx

    from pipscover.counting.sweep_sample import _ancestors

    sweep = keyed_graph(load_one(BENCHMARKS / "planted-4x6-s1.json")).sweep
    graph = nx.DiGraph((sweep.sources[e], state) for state in range(1, sweep.final + 1)
                       for e in range(sweep.first[state], sweep.first[state + 1]))
    rng = Random(3)
    for state in (sweep.final, *rng.sample(range(1, sweep.final), 20)):
        sources = sorted({sweep.sources[e] for e in range(sweep.first[state], sweep.first[state + 1])})
        expected = set(sources).union(*(nx.ancestors(graph, source) for source in sources))
        assert _ancestors(sweep, state, sources) == sorted(expected)


@pytest.mark.parametrize("name", ["planted-4x4-s1", "no-unique-10-s1", "one-in-three-sat-9v"])
def test_the_keyed_build_is_the_build_and_both_builds_key_alike(name):
    puzzle = load_one(BENCHMARKS / f"{name}.json")
    compiled, twin = build_keyed_sweep(puzzle, compiled=True), build_keyed_sweep(puzzle, compiled=False)
    assert compiled.sweep == twin.sweep == build_sweep(puzzle)
    assert compiled.keys == twin.keys
    width = 1 + compiled.board.words + len(compiled.tables)
    assert len(compiled.keys) == width * (compiled.sweep.final + 1)
    assert compiled.keys[:width].tolist() == [0] * width  # the empty board: line 0, nothing ahead, every pair 0
    assert compiled.keys[-width] == len(puzzle.cells)  # the covered board, on the last line


@pytest.mark.parametrize("vectors", [512, 256, 0])
def test_sums_at_the_last_states_are_each_one_sums(vectors):
    """`sweep_totals` at the last k states, in one sweep, against a sweep of the graph cut after each."""
    puzzle = load_one(BENCHMARKS / "planted-4x6-s1.json")
    sweep = build_sweep(puzzle)
    points = Points.of(copies_of(puzzle), paired(copies_of(puzzle)), 2)
    sweep = replace(sweep, points=points)
    outputs = 5
    together = sweep_totals(sweep, outputs, vectors=vectors)
    twin = sweep_totals(sweep, outputs, compiled=False, chunk=range(40))
    assert twin == sweep_totals(sweep, outputs, chunk=range(40), vectors=vectors)
    for index, state in enumerate(range(sweep.final - outputs + 1, sweep.final + 1)):
        cut = type(sweep)(points, sweep.forms, sweep.first[:state + 2], sweep.sources[:sweep.first[state + 1]],
                          sweep.edge_forms[:sweep.first[state + 1]], state)
        assert together[index] == sweep_total(cut, vectors=vectors)
    assert Modulus.of_points(points).count(together[-1]) == StructuralCounter(puzzle).count()


def test_a_line_longer_than_one_int_of_a_key_is_read_back():
    """A row of 31 cells with one below its first, swept row by row: that cell is 31 ahead of the first, past
    the 30 cells one int of a key holds (`AHEAD_BITS`), so the keys take two ints, and the layings that reach
    it are read back across them."""
    row = [(0, column) for column in range(31)]
    dominoes = [(a, b) for a in range(7) for b in range(a, 7)][:16]
    puzzle = Puzzle.build([("empty", row[:16], None), ("sum", [*row[16:], (1, 0)], 20)], dominoes)
    sampler = SweepSampler(puzzle, order=[*row, (1, 0)])
    assert sampler.built.board.words == 2
    assert sampler.built.keys == SweepSampler(puzzle, order=[*row, (1, 0)], compiled=False).built.keys
    assert sampler.total() == StructuralCounter(puzzle).count()
    rng = Random(1)
    drawn = [sampler.sample(rng) for _ in range(20)]
    assert all(is_valid(puzzle, solution) for solution in drawn)
    assert any({(0, 0), (1, 0)} == set(placement.cells) for solution in drawn for placement in solution.placements)


@pytest.mark.parametrize("puzzle", SMALL, ids=lambda puzzle: f"{len(puzzle.dominoes)} dominoes")
def test_its_marginals_are_those_of_full_enumeration(puzzle):
    expected = {cell: [0] * (max(pip for domino in puzzle.dominoes for pip in domino) + 1) for cell in puzzle.cells}
    for solution in brute_force_solutions(puzzle):
        for cell, pip in solution.grid.items():
            expected[cell][pip] += 1
    assert marginals_by_sweep(puzzle) == expected == marginals_by_sweep(puzzle, compiled=False)


@settings(max_examples=40, deadline=None)
@given(puzzles(max_dominoes=6))
def test_its_marginals_of_random_puzzles_are_the_walks(puzzle):
    assert marginals_by_sweep(puzzle) == Completions(puzzle).marginals()


def test_marginals_past_the_walk_budget_come_from_the_sweep_and_agree_with_the_walk():
    """no-unique-14 has 101,071 subproblems: `marginals` takes the sweep's graph, and gives the walk's."""
    puzzle = load_one(BENCHMARKS / "no-unique-14-s1.json")
    found = marginals(puzzle)
    assert found.counts == Completions(puzzle).marginals()
    assert all(sum(row) == found.total for row in found.counts.values())


def _laid(name: str) -> tuple[Sweep, EdgeLayings]:
    """A benchmark puzzle's sweep and its layings, as `laying_totals` takes them."""
    from pipscover.counting.sweep_marginals import _layings_of

    puzzle = load_one(BENCHMARKS / name)
    built = keyed_graph(puzzle)
    return built.sweep, _layings_of(built, len(pip_values(puzzle.dominoes)), None, None)[0]


@pytest.mark.parametrize("name", ["planted-4x6-s1", "no-unique-14-s1"])
def test_the_layings_sums_in_avx512_and_avx2_are_the_plain_loops(name: str):
    sweep, layings = _laid(f"{name}.json")
    plain = laying_totals(sweep, layings, vectors=0)
    assert any(plain)
    for vectors in (512, 256):
        assert laying_totals(sweep, layings, vectors=vectors) == plain


def test_the_layings_sums_of_the_core_are_its_twins():
    sweep, layings = _laid("planted-4x4-s1.json")
    assert laying_totals(sweep, layings, compiled=True) == laying_totals(sweep, layings, compiled=False)


@pytest.mark.parametrize("compiled", [True, False])
def test_the_layings_sums_over_chunks_of_the_points_add_up_to_the_whole(compiled):
    """A split's tasks each sum a chunk of the points (`pipscover.sweep.split_marginals`)."""
    sweep, layings = _laid("planted-4x4-s1.json")
    cuts = [0, 1, 17, sweep.points.count // 2, sweep.points.count]
    parts = [laying_totals(sweep, layings, compiled=compiled, chunk=range(a, b)) for a, b in zip(cuts, cuts[1:])]
    whole = laying_totals(sweep, layings, compiled=compiled)
    assert [sum(sums) % sweep.points.modulus for sums in zip(*parts)] == whole


def test_the_edges_that_make_the_same_layings_share_a_group():
    """The core adds an edge's terms to its group's sums once, not to each laying's: on planted 4 x 6 the
    groups are far fewer than the edges that lay, and no two groups make the same layings."""
    sweep, layings = _laid("planted-4x6-s1.json")
    groups = len(layings.group_start) - 1
    made = {tuple(layings.group_layings[layings.group_start[g]:layings.group_start[g + 1]]) for g in range(groups)}
    assert len(made) == groups
    assert 10 * groups < sum(group >= 0 for group in layings.edge_groups)


def test_the_core_refuses_layings_that_are_not_its_graphs():
    """`through` reads the groups as C ints: a group out of range, starts that do not add up, or a laying or a
    kind out of range, are a ValueError, not a read past an array."""
    sweep, layings = _laid("planted-4x4-s1.json")
    groups, start, into, kinds = layings
    for broken in [layings._replace(edge_groups=groups[:-1]),
                   layings._replace(edge_groups=array("i", [len(start) - 1] * len(groups))),
                   layings._replace(edge_groups=array("i", [-2] * len(groups))),
                   layings._replace(group_start=start[:-1]), layings._replace(group_layings=into[:-1]),
                   layings._replace(group_layings=array("i", [len(kinds)] * len(into))),
                   layings._replace(kinds=array("i", [len(sweep.points.weights)] * len(kinds)))]:
        with pytest.raises(ValueError, match="through: edge_groups"):
            laying_totals(sweep, broken, compiled=True)


def test_the_marginals_refuse_what_their_sums_would_pass_the_cap_with_before_they_make_them():
    """The sums are estimated once the layings are read back, before they are made: given a cap with room for
    half of them (planted 6 x 6: every state's values forward and backward, about 11 MB, and the groups' held
    sums), the read-back refuses, before any sum (the sums' own looks at the memory would refuse later)."""
    from pipscover.counting import sweep_marginals
    from pipscover.runtime.limits import MemoryCapReached, resident_bytes

    puzzle = load_one(BENCHMARKS / "planted-6x6-s1.json")
    built = keyed_graph(puzzle)
    laid = sweep_marginals.laid_graph(puzzle, built=built)
    needed = sweep_marginals._bytes_needed(built, laid.made)
    assert needed > 8 << 20
    with pytest.raises(MemoryCapReached):
        sweep_marginals.laid_graph(puzzle, memory_cap=resident_bytes() + needed // 2, built=built)


def test_the_marginals_bar_names_the_work_the_sweep_does():
    """Past the walk's budget the bar's share is the points swept (reported with nothing found), which it named
    "walking the levels forward", the walk's second half."""
    from pipscover.cli.count import _marginals_work

    assert _marginals_work(0, None) == "counting every subproblem"
    assert _marginals_work(5, 0.5) == "walking the levels forward"
    assert _marginals_work(0, 0.5) == "sweeping the points forward and back"
