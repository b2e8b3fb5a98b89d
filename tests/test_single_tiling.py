"""Laying the hidden dominoes with a single tiling: the open-pairs certificate, the annealing, the exact question."""

from __future__ import annotations

import random

import pytest
from brute_force import brute_force_solutions
from hypothesis import given, settings
from hypothesis import strategies as st
from puzzle_factory import puzzles

from pipscover.generate.generator import Shape, _draw_dominoes, _hidden_grid, _tiling
from pipscover.generate.single_tiling import _Layout, lay_single_tiling, other_tiling
from pipscover.model import solution_from_grid


def test_a_hidden_grid_with_another_tiling_is_laid_again_keeping_its_dominoes():
    # 1 1 2 2 / 1 1 3 3 laid in rows: the two 1-1 can also stand upright, a second tiling of the same grid.
    tiling = [((0, 0), (0, 1)), ((0, 2), (0, 3)), ((1, 0), (1, 1)), ((1, 2), (1, 3))]
    grid = {cell: 1 for pair in tiling for cell in pair} | {(0, 2): 2, (0, 3): 2, (1, 2): 3, (1, 3): 3}
    dominoes = sorted(tuple(sorted((grid[a], grid[b]))) for a, b in tiling)
    assert other_tiling(solution_from_grid(tiling, grid)) is not None
    assert lay_single_tiling(tiling, grid, random.Random(3))
    assert other_tiling(solution_from_grid(tiling, grid)) is None
    assert sorted(tuple(sorted((grid[a], grid[b]))) for a, b in tiling) == dominoes


@settings(max_examples=100)
@given(st.integers(0, 2**32), st.integers(2, 9), st.integers(0, 3))
def test_a_grid_without_open_pairs_has_no_other_tiling(seed, dominoes, max_pip):
    """The certificate is a proof: under any ranking, no open pair means no other tiling (small pips, and
    annealing cut short, make both outcomes common); the annealing's running count is right. (Bugs planted in
    what is open, which pairs are crossed and the ranking moves' count failed at 60 examples as at 300.)"""
    rng = random.Random(seed)
    tiling = _tiling(Shape.RECT, dominoes, rng)
    grid = _hidden_grid(tiling, _draw_dominoes(dominoes, max_pip, rng), rng)
    layout = _Layout(tiling, grid, rng)
    rng.shuffle(layout.order)
    layout.rank = {kind: place for place, kind in enumerate(layout.order)}
    left = layout.anneal(rng.randrange(100), None)
    assert left == layout.open_pairs()
    if left == 0:
        assert other_tiling(solution_from_grid(tiling, grid)) is None


@settings(max_examples=60)
@given(st.integers(0, 2**32), st.integers(2, 12), st.integers(1, 4))
def test_laying_keeps_the_dominoes_and_what_it_promises(seed, dominoes, max_pip):
    """With 100 annealing moves per domino rather than 1,000: as many of these small boards end with no open
    pair (43 and 44 of 60 seeds), and a grid left with open pairs is given up nine times sooner (a grid of
    only 0-1 dominoes, say, always has another tiling: the moves spent on it were most of this test's time)."""
    rng = random.Random(seed)
    tiling = _tiling(Shape.RECT, dominoes, rng)
    grid = _hidden_grid(tiling, _draw_dominoes(dominoes, max_pip, rng), rng)
    before = sorted(tuple(sorted((grid[a], grid[b]))) for a, b in tiling)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr("pipscover.generate.single_tiling.MOVES_PER_DOMINO", 100)
        single = lay_single_tiling(tiling, grid, rng)
    assert sorted(tuple(sorted((grid[a], grid[b]))) for a, b in tiling) == before
    assert single == (other_tiling(solution_from_grid(tiling, grid)) is None)


def test_a_hundred_dominoes_of_the_double_six_get_a_single_tiling():
    """Swapping dominoes where another tiling broke them never ended here; the annealing does (seed 1)."""
    rng = random.Random(1)
    tiling = _tiling(Shape.RECT, 100, rng)
    grid = _hidden_grid(tiling, _draw_dominoes(100, 6, rng), rng)
    assert lay_single_tiling(tiling, grid, rng)
    assert other_tiling(solution_from_grid(tiling, grid)) is None


@settings(max_examples=40)
@given(puzzles())
def test_other_tiling_of_the_same_grid_agrees_with_brute_force(puzzle):
    every = brute_force_solutions(puzzle)
    for hidden in sorted(every, key=lambda s: s.placements)[:2]:
        same_grid = {s for s in every if s.grid == hidden.grid and s != hidden}
        found = other_tiling(hidden)
        assert (found is None) == (not same_grid)
        assert found is None or found in same_grid
