"""The Dancing Links engine on its own, and the `dlx` backend against the brute force and the NYT puzzles."""

from __future__ import annotations

import re
import time
from itertools import islice
from pathlib import Path

import pytest
from hypothesis import given, settings
from puzzle_factory import puzzles

from conftest import EXAMPLES, needs_nyt, nyt_files
from pipscover import load, load_one, problems, solve
from pipscover.engines import dancing_links, get_backend
from pipscover.engines.dancing_links import (
    CompiledSearch,
    ExactCoverProblem,
    NodeBudgetExceeded,
    _Search,
    compiled_by_default,
    compiled_links,
    covers,
    luby,
    python_links,
)
from pipscover.engines.dlx import DlxBackend, counted_solutions
from pipscover.model import Puzzle
from pipscover.model.results import SearchTimeout, Status


def all_covers(*args, **kwargs) -> list[list[int]]:
    return sorted(sorted(cover) for cover in covers(*args, **kwargs))


# Knuth's example from "Dancing Links": items a..g, six options, one exact cover (options 0, 3, 4).
KNUTH_OPTIONS = [(2, 4), (0, 3, 6), (1, 2, 5), (0, 3, 5), (1, 6), (3, 4, 6)]


def test_knuths_example_has_its_one_cover():
    assert all_covers(7, KNUTH_OPTIONS) == [[0, 3, 4]]


def test_every_cover_is_found_once():
    # Items 0..3; every way to split them into pairs or singles.
    options = [(0,), (1,), (2,), (3,), (0, 1), (2, 3), (0, 2), (1, 3)]
    found = all_covers(4, options)
    assert len(found) == len({tuple(cover) for cover in found}) == 7


def test_an_item_no_option_covers_means_no_cover():
    assert all_covers(3, [(0, 1)]) == []


def test_multiplicity_chooses_each_set_of_options_once():
    # Item 0 needed twice among three interchangeable options: 3 covers, not 6.
    assert all_covers(1, [(0,), (0,), (0,)], multiplicity=[2]) == [[0, 1], [0, 2], [1, 2]]
    assert all_covers(2, [(0,), (0,), (0, 1), (1,)], multiplicity=[2, 1]) == [[0, 1, 3], [0, 2], [1, 2]]


class Recorder:
    """A propagator that only records what the search chooses."""

    def __init__(self) -> None:
        self.chosen: list[int] = []

    def choose(self, option: int) -> list[int]:
        self.chosen.append(option)
        return []

    def unchoose(self, option: int) -> None:
        pass


def test_search_is_lazy_and_runs_once():
    # Five covers of one item; the first is yielded after one choice, not after all five (an eager search).
    problem = ExactCoverProblem(1, [(0,)] * 5)
    recorder = Recorder()
    search = problem.search(recorder)
    first = next(search)
    assert recorder.chosen == first and len(first) == 1
    assert len(list(search)) == 4 and len(recorder.chosen) == 5
    with pytest.raises(RuntimeError):
        next(problem.search())


def snapshot(problem: ExactCoverProblem) -> tuple:
    return tuple(list(links) for links in (problem.left, problem.right, problem.up, problem.down, problem.length,
                                           problem.needed, problem.gone))


class Sane(Recorder):
    """A propagator that checks the lists at every choice, and hides one option per choice to exercise that too."""

    def __init__(self, problem: ExactCoverProblem) -> None:
        super().__init__()
        self.problem = problem

    def choose(self, option: int) -> list[int]:
        assert self.problem.sanity() == []
        super().choose(option)
        return [(option + 1) % len(self.problem.options)]


@pytest.mark.parametrize("make", [
    lambda: ExactCoverProblem(7, KNUTH_OPTIONS),
    lambda: ExactCoverProblem(2, [(0,), (0,), (0, 1), (1,), (1,)], [2, 2]),
    lambda: langford(6),
])
@pytest.mark.parametrize("item_heap", [False, True])
@pytest.mark.parametrize("compiled", [False, True], ids=["python", "compiled"])
def test_every_link_is_restored_after_a_search(make, item_heap, compiled):
    problem = make()
    assert problem.sanity() == []
    before = snapshot(problem)
    list(problem.search(Sane(problem), item_heap=item_heap, compiled=compiled))
    assert snapshot(problem) == before and problem.sanity() == []


def test_both_searches_label_their_steps_m1_to_m9_and_the_cores_table_names_functions_that_exist():
    # Knuth's Algorithm M labels, in the twin and in the core; each row of the core's header table names the
    # functions of one step, and every one of them is defined in the file.
    source = Path(dancing_links.__file__).with_name("_dancing_links.c").read_text()
    header = source[:source.index("*/")]
    rows = re.findall(r"^ +(M\d) .*?  +(\w+(?:, \w+)*)$", header, re.MULTILINE)
    defined = set(re.findall(r"^static [^(=;]*?\b(\w+)\(", source, re.MULTILINE))
    assert [label for label, _ in rows] == [f"M{step}" for step in range(1, 10)]
    assert {name for _, names in rows for name in names.split(", ")} <= defined
    assert all(f"M{step} " in (_Search.__doc__ or "") for step in range(1, 10))


def test_the_compiled_core_is_built():
    # `pip install -e .` builds it wherever a C compiler is; the Python search is the fallback and its twin.
    assert CompiledSearch is not None and compiled_by_default()


@pytest.mark.parametrize("make", [
    lambda: (7, KNUTH_OPTIONS), lambda: (0, []), lambda: (2, [(), (1,), (0, 1), (1, 0)]),
    lambda: (18, langford(6).options),
])
def test_the_compiled_core_builds_the_lists_python_builds(make):
    items, options = make()
    assert compiled_links is not None
    assert [list(links) for links in compiled_links(items, options)] == list(python_links(items, options))


def test_an_item_out_of_range_is_refused_by_both_builders():
    for build in (compiled_links, python_links):
        with pytest.raises(IndexError):
            build(2, [(0,), (2,)])


@settings(max_examples=100)
@given(puzzle=puzzles())
def test_the_heap_and_the_scan_choose_the_same_items(puzzle):
    """Same covers in the same order, same search nodes, with and without restarts and region pruning, in
    Python and in the compiled core."""
    for restart_seed in (None, 0):
        seen = {same_search(puzzle, 50, restart_seed=restart_seed, item_heap=item_heap, compiled=compiled)
                for item_heap in (False, True) for compiled in (False, True)}
        assert len(seen) == 1


def same_search(puzzle: Puzzle, most: int, **options) -> tuple:
    """The first `most` covers of `puzzle`'s pruned search with `options`, and the nodes it took."""
    from pipscover.exactcover.pruning import pruned_exact_cover

    cover, rules = pruned_exact_cover(puzzle)
    problem = ExactCoverProblem(len(cover.items), cover.options, cover.multiplicities)
    found = tuple(tuple(chosen) for chosen in islice(problem.search(rules, **options), most))
    return found, problem.nodes


@needs_nyt
def test_the_compiled_core_and_the_heap_search_the_nyt_puzzles_as_the_python_scan_does():
    """Every 25th day (the whole archive: /work/scratch/engine/compare.py in the benchmarks page), first covers.
    (The random puzzles above are too small to catch a heap that accepts a stale entry whose key is off by
    less than one: these days catch it on 14 searches.)"""
    for file in nyt_files()[::25]:
        for puzzle in load(file):
            for restart_seed in (None, 0):
                seen = {same_search(puzzle, 20, restart_seed=restart_seed, item_heap=item_heap, compiled=compiled)
                        for item_heap in (False, True) for compiled in (False, True)}
                assert len(seen) == 1, puzzle.describe()


class Failing(Recorder):
    def choose(self, option: int) -> list[int]:
        raise ZeroDivisionError("a propagator's own error")


@pytest.mark.parametrize("compiled", [False, True], ids=["python", "compiled"])
def test_a_propagators_error_reaches_the_caller(compiled):
    with pytest.raises(ZeroDivisionError):
        list(ExactCoverProblem(7, KNUTH_OPTIONS).search(Failing(), compiled=compiled))


def test_langford_pairs_are_counted_the_same_from_the_heap():
    problem = langford(7)
    assert len(list(problem.search(item_heap=True))) == 2 * 26 and problem.nodes == langford_nodes(7)


def langford_nodes(n: int) -> int:
    problem = langford(n)
    list(problem.search(item_heap=False))
    return problem.nodes


def test_every_link_of_a_pips_search_is_restored():
    solutions, problem = counted_solutions(load_one(EXAMPLES / "first.txt"))
    before = snapshot(problem)
    assert len(list(solutions)) == 1
    assert snapshot(problem) == before and problem.sanity() == []


def test_sanity_finds_a_broken_link():
    problem = ExactCoverProblem(7, KNUTH_OPTIONS)
    problem.length[1] += 1
    assert problem.sanity() == ["item 0: the header counts 3 nodes, the list has 2"]


# Well-known exact cover problems with published counts, beside the Pips ones.


def langford(n: int, mirror_images: bool = True) -> ExactCoverProblem:
    """Langford pairs: place two copies of each of 1..n in 2n slots so the copies of k have k slots between them.

    Items 0..n-1 are the numbers, n..3n-1 the slots. Without `mirror_images`, number n - [n even] may only start
    in the first half, which keeps one of each pair of mirror-image solutions (Knuth, TAOCP 7.2.2.1)."""
    options = []
    odd = n - (n % 2 == 0)
    for k in range(1, n + 1):
        for first in range(2 * n - k - 1):
            if not mirror_images and k == odd and first > n - k / 2 - 1:
                continue
            options.append((k - 1, n + first, n + first + k + 1))
    return ExactCoverProblem(3 * n, options)


def test_langford_pairs_for_n_8():
    # 150 solutions (OEIS A014552: 0, 0, 1, 1, 0, 0, 26, 150, ...); the exact cover also lists each mirror image.
    assert len(list(langford(8, mirror_images=False).search())) == 150
    assert len(list(langford(8).search())) == 300


def test_eight_queens():
    # 92 solutions (OEIS A000170). The engine has no secondary items, so each diagonal, which a queen may leave
    # empty, gets a slack option covering it alone: every placement of queens completes in exactly one way.
    rows, columns, sums, differences = 0, 8, 16, 31
    options = [(rows + r, columns + c, sums + r + c, differences + r - c + 7) for r in range(8) for c in range(8)]
    options += [(diagonal,) for diagonal in range(sums, differences + 15)]
    assert len(list(ExactCoverProblem(46, options).search())) == 92


class Veto:
    """A propagator that forbids option 0 and hides option 1 once anything is chosen."""

    def __init__(self) -> None:
        self.chosen: list[int] = []

    def choose(self, option: int) -> list[int] | None:
        self.chosen.append(option)
        return None if option == 0 else [1]

    def unchoose(self, option: int) -> None:
        assert self.chosen.pop() == option


def test_propagator_vetoes_and_hides_options():
    # Items 0, 1: covers {0: (0, 1)}, {2: (0,), 1: (1,)}, {2, 3: (1,)}; the veto leaves only {2, 3}.
    veto = Veto()
    assert all_covers(2, [(0, 1), (1,), (0,), (1,)], propagator=veto) == [[2, 3]]
    assert veto.chosen == []


@pytest.mark.parametrize("compiled", [False, True], ids=["python", "compiled"])
def test_deadline_in_the_past_raises_search_timeout(compiled):
    with pytest.raises(SearchTimeout):
        next(ExactCoverProblem(1, [(0,)]).search(deadline=time.monotonic() - 1, compiled=compiled))


# The backend.


@needs_nyt
def test_dlx_solves_every_nyt_puzzle():
    backend = get_backend("dlx")
    for file in nyt_files():
        for puzzle in load(file):
            solution = next(iter(backend.solutions(puzzle)), None)
            assert solution is not None, f"{puzzle.describe()}: no solution found"
            assert problems(puzzle, solution) == [], puzzle.describe()


def free_board() -> Puzzle:
    """A 2 x 4 board with no rules and four different dominoes: hundreds of solutions."""
    cells = [(row, col) for row in (0, 1) for col in range(4)]
    return Puzzle.build([("empty", cells, None)], [(0, 1), (2, 3), (4, 5), (6, 6)])


def test_first_solution_limit_and_all():
    puzzle = free_board()
    assert solve(load_one(EXAMPLES / "first.txt"), "dlx").status is Status.SOLVED
    assert len(solve(puzzle, "dlx", limit=3).solutions) == 3
    everything = solve(puzzle, "dlx", limit=None).solutions
    # 5 tilings, 4! ways to give them dominoes, 2 orientations for each of the 3 non-doubles.
    assert len(everything) == len(set(everything)) == 5 * 24 * 8


def test_solutions_stream_lazily():
    # A 2 x 8 board with no rules and eight different dominoes has hundreds of millions of solutions: listing
    # them first would pass the node limit long before the second one is handed over.
    cells = [(row, col) for row in (0, 1) for col in range(8)]
    puzzle = Puzzle.build([("empty", cells, None)], [(a, a + 1) for a in range(8)])
    solutions, search = counted_solutions(puzzle, node_limit=1000)  # what DlxBackend.solutions returns
    first_two = list(islice(solutions, 2))
    assert len(first_two) == 2 and first_two[0] != first_two[1] and search.nodes < 100


def test_timeout_stops_an_enumeration():
    assert solve(free_board(), "dlx", limit=None, timeout=0).status is Status.TIMEOUT


def test_unsatisfiable_puzzle():
    puzzle = Puzzle.build([("sum", [(0, 0), (0, 1)], 5)], [(1, 1)])
    assert solve(puzzle, "dlx").status is Status.UNSATISFIABLE


def long_strip(length: int) -> Puzzle:
    """A 2 x `length` board, free apart from a sum region every 25 columns, with repeated dominoes."""
    grid = {(row, col): (3 * col + row) % 7 for col in range(length) for row in (0, 1)}
    dominoes = [(grid[(0, col)], grid[(1, col)]) for col in range(length)]
    regions = []
    for start in range(0, length, 25):
        columns = range(start, min(start + 25, length))
        summed = [(row, start) for row in (0, 1)]
        regions.append(("sum", summed, sum(grid[cell] for cell in summed)))
        regions.append(("empty", [(row, col) for col in columns for row in (0, 1) if col != start], None))
    return Puzzle.build(regions, dominoes)


def test_hundreds_of_dominoes_need_no_recursion():
    puzzle = long_strip(400)
    solution = next(iter(DlxBackend().solutions(puzzle)))
    assert problems(puzzle, solution) == []


def test_search_counts_its_nodes_and_stops_at_a_node_limit():
    problem = ExactCoverProblem(7, KNUTH_OPTIONS)
    assert len(list(problem.search())) == 1
    assert problem.nodes > 1
    limited = ExactCoverProblem(4, [(0,), (1,), (2,), (3,), (0, 1), (2, 3), (0, 2), (1, 3)])
    with pytest.raises(NodeBudgetExceeded):
        list(limited.search(node_limit=0))  # the first node is checked, so even a tiny search stops


def test_search_nodes_are_deterministic_and_at_least_one_path():
    from pipscover.engines.dlx import counted_solutions

    puzzle = load_one(EXAMPLES / "first.txt")

    def every_solution_nodes(node_limit: int | None = None) -> int:
        solutions, search = counted_solutions(puzzle, node_limit=node_limit)
        list(solutions)
        return search.nodes

    assert every_solution_nodes() == every_solution_nodes() >= len(puzzle.dominoes) + 1
    with pytest.raises(NodeBudgetExceeded):
        every_solution_nodes(node_limit=0)


@pytest.fixture(scope="module")
def monkeypatch_restarts():
    """Restart budgets of a fraction of a node per item: searches restart many times before a solution."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr("pipscover.engines.dancing_links.RESTART_UNIT", 0.1)
        yield


def test_luby_sequence():
    assert [luby(i) for i in range(1, 16)] == [1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8]


def test_restarts_leave_the_search_deterministic(monkeypatch_restarts):
    from pipscover.generate.planted import PlantedSpec, planted

    puzzle, _ = planted(PlantedSpec(6, 6, seed=5))
    runs = []
    for _ in range(2):
        solutions, search = counted_solutions(puzzle, restart_seed=1)
        first = next(solutions)
        runs.append((first, search.nodes))
        assert problems(puzzle, first) == []
    assert runs[0] == runs[1]
