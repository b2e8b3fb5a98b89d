"""The structural count cut below its first levels (`pipscover.counting.frontier`) and counted from a position
(`StructuralCounter.count_from`): the frontier's positions times their paths, plus what closed above the cut,
are the whole count, and the compiled core counts a position as its Python twin does."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from puzzle_factory import puzzles

from conftest import needs_nyt, nyt_files
from pipscover.counting.frontier import frontier
from pipscover.counting.structural import ORDERS, StructuralCounter
from pipscover.formats import load, load_one
from pipscover.model import Puzzle

BENCHMARK = Path(__file__).resolve().parents[1] / "benchmarks" / "count_puzzles"
QUICK = ["no-unique-12-s1", "planted-4x4-s1", "subset-sum-sat-10", "unique-20-rect-s1"]


def split_total(puzzle: Puzzle, deepest: int, compiled: bool = False, order: str = "ways",
                one_worker: bool = False) -> int:
    """The count as a split count adds it: the frontier at most `deepest` dominoes down, each position counted
    on its own (by a counter of its own, as a task on a fresh worker), or with `one_worker` one after another
    by one counter, as a worker's thread counts its tasks (keeping its cache from position to position)."""
    cut = frontier(StructuralCounter(puzzle, order, compiled=False), 1 << 30, deepest=deepest)
    worker = StructuralCounter(puzzle, order, compiled=compiled)
    return cut.total({position: (worker if one_worker else StructuralCounter(puzzle, order, compiled=compiled))
                      .count_from(position) for position in cut.positions})


@given(puzzles(max_dominoes=5), st.integers(0, 5), st.sampled_from(ORDERS), st.booleans())
def test_the_frontier_times_its_paths_is_the_count_at_every_cut(puzzle, deepest, order, compiled):
    assert split_total(puzzle, deepest, compiled, order) == StructuralCounter(puzzle, order, compiled=False).count()


@pytest.mark.parametrize("name", QUICK)
def test_a_split_count_of_a_benchmark_puzzle_is_its_count(name):
    """Up to 1,527 positions, counted as one worker counts them (a counter of its own for each, as in the test
    above, took 5 s of CPU on subset-sum-sat-10, each repeating the subproblems the others had counted)."""
    puzzle = load_one(BENCHMARK / f"{name}.json")
    whole = StructuralCounter(puzzle).count()
    assert split_total(puzzle, 3, compiled=True, one_worker=True) == whole
    cut = frontier(StructuralCounter(puzzle), 32)
    assert len(cut.positions) >= 32 or not cut.positions
    assert all(paths >= 1 for paths in cut.positions.values())


@needs_nyt
def test_split_counts_of_nyt_puzzles_are_their_counts():
    for file in nyt_files()[::25]:
        for puzzle in load(file):
            assert split_total(puzzle, 2, compiled=True) == StructuralCounter(puzzle).count(), puzzle.describe()


@pytest.mark.parametrize("name", QUICK)
def test_the_compiled_core_counts_a_position_as_python_does(name):
    puzzle = load_one(BENCHMARK / f"{name}.json")
    cut = frontier(StructuralCounter(puzzle, compiled=False), 16)
    python, compiled = StructuralCounter(puzzle, compiled=False), StructuralCounter(puzzle, compiled=True)
    for position in list(cut.positions)[:12]:
        assert python.count_from(position) == compiled.count_from(position)
        assert python.nodes == compiled.nodes  # the same search, node for node
    # and counting from the root again, after positions, is the count
    assert python.count() == compiled.count() == StructuralCounter(puzzle).count_from(python.root())


def test_a_position_that_does_not_fit_the_puzzle_is_refused_by_the_core():
    counter = StructuralCounter(load_one(BENCHMARK / "planted-4x4-s1.json"), compiled=True)
    with pytest.raises(ValueError, match="every region's state"):
        counter.count_from(counter.root()._replace(states=()))
