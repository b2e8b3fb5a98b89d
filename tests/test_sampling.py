"""Uniform samples and per-cell marginals from the structural counter's subproblems
(`pipscover.counting.completions`), judged by full enumeration (the brute-force solver) and the
independent checker."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import pytest
from brute_force import brute_force_grids, brute_force_solutions

from conftest import BIN, EXAMPLES
from pipscover import count, load_one, sample
from pipscover.counting.completions import Completions, carrying, marginals
from pipscover.errors import NoSolution, PipsError
from pipscover.generate.generator import generate
from pipscover.model.check import is_valid
from pipscover.model.results import SearchTimeout
from pipscover.runtime.limits import MemoryCapReached

# Generated boards of 4 to 6 dominoes with many solutions (several tilings, repeated grids among them).
SMALL = [generate(dominoes=dominoes, seed=seed, unique=False).puzzle
         for dominoes, seed in ((4, 3), (4, 5), (5, 3), (5, 5), (6, 3), (6, 4))]
P_VALUE_FLOOR = 0.001  # seeds are fixed, so a test either always passes or always fails


@pytest.mark.parametrize("puzzle", SMALL, ids=lambda puzzle: f"{len(puzzle.dominoes)} dominoes")
def test_the_walk_counts_what_the_counter_counts(puzzle):
    assert Completions(puzzle).total() == count(puzzle).count == len(brute_force_solutions(puzzle))


@pytest.mark.parametrize("puzzle", SMALL, ids=lambda puzzle: f"{len(puzzle.dominoes)} dominoes")
def test_marginals_are_those_of_full_enumeration(puzzle):
    expected: dict = {cell: Counter() for cell in puzzle.cells}
    for solution in brute_force_solutions(puzzle):
        for cell, pip in solution.grid.items():
            expected[cell][pip] += 1
    found = marginals(puzzle)
    assert {cell: dict(enumerate(row)) for cell, row in found.counts.items()} == {
        cell: {pip: counts[pip] for pip in range(len(found.counts[cell]))} for cell, counts in expected.items()}
    assert found.total == len(brute_force_solutions(puzzle))


def test_the_backbone_is_the_cells_every_solution_fixes():
    puzzle = SMALL[2]
    solutions = brute_force_solutions(puzzle)
    fixed = {cell: pip for cell, pip in next(iter(solutions)).grid.items()
             if all(solution.grid[cell] == pip for solution in solutions)}
    assert marginals(puzzle).backbone() == fixed
    unique = load_one(EXAMPLES / "first.txt")
    assert len(marginals(unique).backbone()) == len(unique.cells)  # one solution: every cell is fixed


def chisquare_pvalue(observed: list[float], expected: list[float] | None = None) -> float:
    """Pearson's chi-square test of `observed` against `expected` (equal shares if None): its p-value, from
    scipy.special's chi-square survival function, imported here. (scipy.stats' `chisquare` computes the same
    but costs 1.5 s of CPU more to import, and every xdist worker imports this file to collect it.)"""
    from scipy.special import chdtrc

    if expected is None:
        expected = [sum(observed) / len(observed)] * len(observed)
    statistic = sum((seen - wanted) ** 2 / wanted for seen, wanted in zip(observed, expected))
    return float(chdtrc(len(observed) - 1, statistic))


@pytest.mark.parametrize("puzzle", SMALL[:4], ids=lambda puzzle: f"{len(puzzle.dominoes)} dominoes")
def test_samples_are_uniform_over_the_solutions(puzzle):
    solutions = brute_force_solutions(puzzle)
    drawn = Counter(sample(puzzle, 30 * len(solutions), seed=11))
    assert set(drawn) <= solutions
    observed = [drawn[solution] for solution in sorted(solutions, key=lambda s: s.placements)]
    assert chisquare_pvalue(observed) > P_VALUE_FLOOR


def test_grid_samples_are_uniform_over_the_distinct_grids():
    puzzle = SMALL[0]  # 72 solutions, 51 grids
    grids = brute_force_grids(puzzle)
    drawn = Counter(tuple(sorted(solution.grid.items())) for solution in sample(puzzle, 30 * len(grids), 5, "grids"))
    assert set(drawn) <= set(grids)
    assert chisquare_pvalue([drawn[grid] for grid in sorted(grids)]) > P_VALUE_FLOOR


def test_a_grid_is_carried_by_as_many_solutions_as_enumeration_says():
    puzzle = SMALL[0]
    carriers = Counter(tuple(sorted(solution.grid.items())) for solution in brute_force_solutions(puzzle))
    for solution in list(brute_force_solutions(puzzle))[:10]:
        assert carrying(puzzle, solution) == carriers[tuple(sorted(solution.grid.items()))]


def _first_branches(walk: Completions, solution) -> tuple:
    """Which branch of the root a solution went down: the placement on the cell the root covers."""
    first = walk.counter.puzzle.cells[next(iter(walk.sweep))]
    return next(placement for placement in solution.placements if first in placement.cells).canonical()


def test_the_chi_square_test_sees_a_sampler_that_ignores_the_counts():
    """Its power: at the root, a sampler choosing each branch with probability N(child) / N(root) passes, one
    choosing the branches uniformly (as a naive random walk does) fails."""
    puzzle = SMALL[1]
    walk = Completions(puzzle)
    total = walk.total()
    children = [(child, walk.completions(child)) for child, _ in walk.branches(walk.root)]
    drawn = Counter(_first_branches(walk, solution) for solution in sample(puzzle, 3000, seed=2))
    # The root's branches, each named by the placement it lays, with its share of the solutions.
    shares: Counter = Counter()
    for solution in brute_force_solutions(puzzle):
        shares[_first_branches(walk, solution)] += 1
    assert sorted(shares.values()) == sorted(n for _, n in children if n) and sum(shares.values()) == total
    names = sorted(shares)
    expected = [3000 * shares[name] / total for name in names]
    assert chisquare_pvalue([drawn[name] for name in names], expected) > P_VALUE_FLOOR
    naive = [3000 / len(names)] * len(names)  # what a walk that ignores the counts would draw
    assert chisquare_pvalue(naive, expected) < P_VALUE_FLOOR


def test_every_sample_passes_the_independent_checker():
    for puzzle in [*SMALL, load_one("benchmarks/count_puzzles/planted-4x4-s1.json")]:
        assert all(is_valid(puzzle, solution) for solution in sample(puzzle, 20, seed=3))


def test_marginals_are_public_and_take_their_limits_as_count_does():
    """`marginals` was only in `pipscover.counting.completions`, and took a clock reading (`deadline`)."""
    import pipscover

    puzzle = SMALL[-1]
    assert "marginals" in dir(pipscover) and "Marginals" in dir(pipscover)
    assert pipscover.marginals(puzzle, timeout=60, memory=2**31).counts == marginals(puzzle).counts
    with pytest.raises(SearchTimeout):
        pipscover.marginals(puzzle, timeout=0)
    with pytest.raises(PipsError, match="memory must be"):
        pipscover.marginals(puzzle, memory=-5)


def test_sample_and_marginals_cap_their_memory_as_count_does():
    """Their walk keeps every count: with no cap by default, `marginals(planted 6 x 6)` from a script would
    grow without bound, where `count` stops at 2 GiB."""
    import inspect

    import pipscover

    default = inspect.signature(pipscover.count).parameters["memory"].default
    assert default is not None
    for function in (pipscover.sample, pipscover.marginals):
        assert inspect.signature(function).parameters["memory"].default == default


def test_the_same_seed_draws_the_same_samples_and_another_seed_others():
    puzzle = SMALL[-1]  # (planted 4 x 4's 14,962,316 solutions took 2 s of CPU to sample three times)
    assert sample(puzzle, 5, seed=42) == sample(puzzle, 5, seed=42)
    assert sample(puzzle, 5, seed=42) != sample(puzzle, 5, seed=43)


def test_sample_takes_the_seeds_the_command_line_takes():
    """The command line refuses a seed past 2^64 (as every --seed); `sample` took 2^70, 1.5, "abc" and True,
    each a seed of its own to `random.Random`, so a script's draws had no command line that repeats them."""
    puzzle = SMALL[-1]
    assert sample(puzzle, 2, seed=2**64 - 1) == sample(puzzle, 2, seed=2**64 - 1)
    for seed in (2**70, -(2**64), 1.5, "abc", True):
        with pytest.raises(PipsError, match="the seed must be a whole number from"):
            sample(puzzle, 1, seed=seed)


def test_sample_takes_its_limits_and_n_as_solve_and_count_do():
    """`sample` alone took `deadline=` (a clock reading) and `memory_cap=`, where every other name takes
    `timeout=` seconds and `memory=` bytes; n = -1 or 1.5 was a ValueError about islice's stop argument."""
    puzzle = SMALL[-1]
    assert sample(puzzle, 3) == sample(puzzle, 3, seed=0, timeout=60, memory=2**31)
    with pytest.raises(SearchTimeout):
        sample(puzzle, 3, timeout=0)
    for n in (-1, 1.5):
        with pytest.raises(PipsError, match="n must be a whole number of draws"):
            sample(puzzle, n)
    with pytest.warns(DeprecationWarning, match="sample.deadline=.... is deprecated"):
        sample(puzzle, 1, deadline=time.monotonic() + 60)


def test_a_limit_that_stops_sample_or_marginals_says_which_when_printed():
    """`sample(puzzle, 3, timeout=0)` raised a `SearchTimeout`, and a cap a `MemoryCapReached`, whose message
    was empty: a script's `print(error)` printed a blank line."""
    puzzle = SMALL[-1]
    for stopped in (lambda: sample(puzzle, 3, timeout=0), lambda: marginals(puzzle, timeout=0)):
        with pytest.raises(SearchTimeout, match="^stopped by the timeout$"):
            stopped()
    for stopped in (lambda: sample(puzzle, 3, memory=1), lambda: marginals(puzzle, memory=1)):
        with pytest.raises(MemoryCapReached, match="^stopped by the memory cap$"):
            stopped()


@pytest.mark.parametrize("distinct", ["placements", "grids"])
def test_a_puzzle_without_solutions_has_nothing_to_sample(distinct, tmp_path):
    """It was a bare ValueError("no solution to sample"), which a script told apart from any other ValueError by
    its message alone: now `NoSolution`, a `PipsError` (and still a `ValueError`) naming the puzzle."""
    none = tmp_path / "none.txt"
    none.write_text("1\nAA\n1\nA SUM 4\n1\n1 2\n")
    with pytest.raises(NoSolution) as refused:
        sample(load_one(none), 1, seed=0, distinct=distinct)
    assert isinstance(refused.value, PipsError) and isinstance(refused.value, ValueError)
    assert str(refused.value) == f"{none}: no solution to draw"


def test_sample_of_a_puzzle_without_solutions_says_so_in_one_line_and_exits_1(run_cli, tmp_path):
    none = tmp_path / "none.txt"
    none.write_text("1\nAA\n1\nA SUM 4\n1\n1 2\n")
    done = run_cli("sample", none, "-n", "3")
    assert (done.code, done.out, done.err) == (1, f"{none}: no solution to draw\n", "")


def test_sample_writes_its_numbers_of_draws_with_thousands_separators_as_count_does(run_cli):
    """`sample -n 10**30` said "1000000000000000000000000000000 drawn uniformly", where `count` writes every
    count as 1,000,000: now its headline and its "stopped after" line do too."""
    first = EXAMPLES / "first.txt"
    done = run_cli("sample", first, "-n", str(10**30), "--timeout", "0.3")
    said = [line.removeprefix(f"{first}: ") for line in done.out.splitlines() if line.startswith(f"{first}: ")]
    assert done.code == 3 and said[0] == f"{10**30:,} drawn uniformly (placements, seed 0) of 1 solution", said
    assert re.fullmatch(rf"stopped by --timeout after [0-9]{{1,3}}(,[0-9]{{3}})* of {10**30:,} draws", said[1]), said


def _run(*args: object) -> subprocess.CompletedProcess:
    return subprocess.run([BIN / "pipscover", *map(str, args)], capture_output=True, text=True, timeout=120)


def test_sample_prints_the_solve_json_shape_and_repeats_by_seed(run_cli):
    path = "benchmarks/count_puzzles/planted-4x4-s1.json"
    # In two processes, each with its own string hashing: a new one, and this one.
    first = _run("sample", path, "-n", "3", "--seed", "9", "--json")
    again = run_cli("sample", path, "-n", "3", "--seed", "9", "--json")
    assert first.returncode == 0, first.stderr
    answer = json.loads(first.stdout)
    assert set(answer) >= {"puzzle", "backend", "status", "solutions", "seconds"} and answer["status"] == "solved"
    assert len(answer["solutions"]) == 3 and answer["seed"] == 9
    assert answer["solutions"] == json.loads(again.out)["solutions"]
    solve = json.loads(run_cli("solve", path, "--json").out)
    assert set(solve["solutions"][0][0]) == set(answer["solutions"][0][0])  # the same placement objects


@pytest.mark.parametrize("distinct", ["placements", "grids"])
def test_sample_says_how_many_solutions_it_drew_from_as_count_does(run_cli, distinct):
    """Neither its text nor its --json said the population the draws came from: now both give the exact number
    of solutions the draws are weighted by, in --json as `count --json` names it."""
    path = "benchmarks/count_puzzles/no-unique-10-s1.json"
    counted = json.loads(run_cli("count", path, "--json").out)["count"]
    answer = json.loads(run_cli("sample", path, "-n", "2", "--distinct", distinct, "--json").out)
    assert answer["count"] == counted == 29_028 and isinstance(answer["count"], int)
    among = "among the pip grids of" if distinct == "grids" else "of"
    headline = run_cli("sample", path, "-n", "2", "--distinct", distinct).out.splitlines()[0]
    assert headline == f"{path}: 2 drawn uniformly ({distinct}, seed 0) {among} 29,028 solutions"


def test_sample_json_counts_no_solutions_as_0_and_an_unfinished_count_as_null(run_cli, tmp_path):
    none = tmp_path / "none.txt"
    none.write_text("1\nAA\n1\nA SUM 4\n1\n1 2\n")
    assert json.loads(run_cli("sample", none, "--json").out)["count"] == 0
    stopped = json.loads(run_cli("sample", QUICK_COUNT, "--memory", "1M", "--json").out)
    assert (stopped["stopped_by"], stopped["count"]) == ("--memory", None)


def test_count_marginals_in_json_and_on_the_board(run_cli):
    path = EXAMPLES / "first.txt"
    answer = json.loads(run_cli("count", path, "--marginals", "--json").out)
    assert answer["count"] == 1 and len(answer["marginals"]) == len(answer["backbone"]) == 16
    r, c, row = answer["marginals"][0]
    assert sum(row) == 1 and [r, c, row.index(1)] == answer["backbone"][0]
    text = run_cli("count", path, "--marginals").out
    assert "backbone: 16 of 16 cells fixed by every solution" in text and "the other cells" not in text


def test_count_marginals_in_text_give_each_open_cell_its_pips_shares(run_cli):
    """The text said only which cells every solution fixes: what --marginals counts, each pip's share of each
    other cell, was in --json alone."""
    path = "benchmarks/count_puzzles/no-unique-10-s1.json"
    answer = json.loads(run_cli("count", path, "--marginals", "--json").out)
    text = run_cli("count", path, "--marginals").out.splitlines()
    start = text.index("the other cells (rows and columns from 1, as hints name them): the share of the 29,028 "
                       "solutions that put each pip there (%)")
    header, *rows = text[start + 1:]
    pips = [int(pip) for pip in header.split()[2:]]
    open_cells = [(r, c, counts) for r, c, counts in answer["marginals"] if max(counts) < answer["count"]]
    assert len(rows) == len(open_cells) == 19
    for line, (r, c, counts) in zip(rows, open_cells):
        row, column, *shares = line.split()
        assert (int(row), int(column)) == (r + 1, c + 1)
        for pip, share in zip(pips, shares):
            tenths = (counts[pip] * 1000 + answer["count"] // 2) // answer["count"]
            assert share == ("·" if counts[pip] == 0 else f"{tenths / 10:.1f}")


def test_the_shares_never_round_to_none_or_all_of_the_solutions():
    from pipscover.cli.count import _shares_table
    from pipscover.model.results import Marginals

    puzzle = load_one(EXAMPLES / "first.txt")
    counts = {cell: [0] * 7 for cell in puzzle.cells}
    counts[0, 0] = [1, 99_999, 0, 0, 0, 0, 0]
    counts[0, 1] = [50_000, 50_000, 0, 0, 0, 0, 0]
    for cell in puzzle.cells:
        if cell not in ((0, 0), (0, 1)):
            counts[cell][2] = 100_000
    lines = _shares_table(Marginals(puzzle, counts), {cell: 2 for cell in puzzle.cells if counts[cell][2]})
    assert lines[1:] == ["row col     0     1", "  1   1  <0.1 >99.9", "  1   2  50.0  50.0"]


# Counted in a tenth of a second by inclusion-exclusion.
QUICK_COUNT = Path(__file__).resolve().parents[1] / "benchmarks/count_puzzles/planted-4x6-s1.json"


# Counted in about 2 s of CPU; its marginals take about 15 s more (the sweep's graph, forward and backward).
# (planted 4 x 6's took 7 s by the walk, and now a second; no-unique-20's 15 s, and now 6.)
QUICK_COUNT_LONG_MARGINALS = Path(__file__).resolve().parents[1] / "benchmarks/count_puzzles/planted-6x6-s1.json"


def test_marginals_stopped_by_the_timeout_leave_the_count_and_say_so(run_cli):
    """The timeout is the puzzle's: marginals past it were dropped without a word, exit 0. (Counted by
    inclusion-exclusion in one process, 2.2 s of CPU, where `auto` races two, whose count passed 8 s, and then
    10, at a load average of 7; 9 s, where the count and its marginals take 11 s on an idle core: they took 17
    before their sums went by group, and 12 s was then the timeout.)"""
    timed = ["--marginals", "--timeout", "9", "-m", "inclusion-exclusion"]
    done = run_cli("count", QUICK_COUNT_LONG_MARGINALS, *timed)
    assert done.code == 3
    assert "22,044,623,880,419,946,864 solutions (exact" in done.out
    assert "marginals: not counted (stopped by --timeout" in done.out
    answer = json.loads(run_cli("count", QUICK_COUNT_LONG_MARGINALS, *timed, "--json").out)
    assert answer["exact"] and answer["count"] == 22_044_623_880_419_946_864
    assert answer["marginals"] is None and answer["backbone"] is None and answer["marginals_stopped_by"] == "--timeout"


def test_marginals_say_why_they_are_missing_after_a_lower_bound_or_no_solution(run_cli, tmp_path):
    """Beside a count stopped short, --marginals said nothing at all; beside a puzzle with no solution, "backbone:
    0 of 2 cells fixed by every solution" and a board of dots."""
    stopped = run_cli("count", QUICK_COUNT, "--marginals", "-m", "dlx", "--limit", "5")
    assert stopped.code == 3
    assert stopped.out.splitlines()[-1] == "marginals: not counted (they need the exact count, and --limit stopped it)"
    none = tmp_path / "none.txt"
    none.write_text("1\nAA\n1\nA SUM 4\n1\n1 2\n")
    done = run_cli("count", none, "--marginals")
    assert done.code == 1 and done.out.splitlines()[1:] == ["marginals: none (no solution puts a pip anywhere)"]


def test_sample_names_the_limit_that_stopped_it(run_cli):
    """It said "stopped by --timeout or --memory" whichever it was; its --json said status "timeout" of either,
    and says which in `stopped_by`, as `count --json` does (null when every draw was made)."""
    done = run_cli("sample", QUICK_COUNT, "--memory", "1M")
    assert done.code == 3 and "stopped by --memory before the draws were done" in done.out
    stopped = json.loads(run_cli("sample", QUICK_COUNT, "--memory", "1M", "--json").out)
    assert (stopped["status"], stopped["stopped_by"], stopped["solutions"]) == ("timeout", "--memory", [])
    timed = json.loads(run_cli("sample", EXAMPLES / "first.txt", "-n", str(10**12), "--timeout", "0.3", "--json").out)
    assert (timed["status"], timed["stopped_by"]) == ("timeout", "--timeout") and timed["solutions"]
    drawn = json.loads(run_cli("sample", EXAMPLES / "first.txt", "--json").out)
    assert (drawn["status"], drawn["stopped_by"], len(drawn["solutions"])) == ("solved", None, 1)


def test_marginals_report_their_progress_and_time(run_cli):
    heard = []
    found = marginals(SMALL[-1], on_progress=lambda solutions, share: heard.append((solutions, share)))
    shares = [share for _, share in heard if share is not None]
    assert shares == sorted(shares) and shares[0] == 0 and shares[-1] <= 1
    assert {solutions for solutions, share in heard if share is not None} == {found.total}
    answer = json.loads(run_cli("count", EXAMPLES / "first.txt", "--marginals", "--json").out)
    assert answer["marginals_stopped_by"] is None and answer["marginals_seconds"] >= 0
    assert "(marginals counted in " in run_cli("count", EXAMPLES / "first.txt", "--marginals").out


def test_marginals_of_grids_are_refused_in_one_line(run_cli):
    done = run_cli("count", EXAMPLES / "first.txt", "--marginals", "--distinct", "grids")
    assert done.code == 2 and done.err.count("\n") == 1 and "--marginals counts placements" in done.err


def test_sample_stops_a_long_run_of_draws_at_its_timeout_with_the_draws_made_so_far():
    """The draws themselves looked at no limit: `-n 10**12` on a puzzle of one solution ran past --timeout 3
    until the machine had no memory left. (In a process of its own, its address space capped at 1 GiB, so that
    old code would fail here, not the machine.) The draws made before the deadline are printed, as `solve`
    prints the solutions found before it (they were held, and dropped)."""
    import resource

    def cap_memory() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (2**30, 2**30))

    done = subprocess.run([BIN / "pipscover", "sample", EXAMPLES / "first.txt", "-n", str(10**12), "--timeout", "1",
                           "--json"], capture_output=True, text=True, timeout=120, preexec_fn=cap_memory)
    assert done.stderr == "", done.stderr[-500:]
    answer = json.loads(done.stdout)
    only = json.loads(_run("solve", EXAMPLES / "first.txt", "--json").stdout)["solutions"][0]
    assert done.returncode == 3 and answer["status"] == "timeout"
    assert all(sorted(map(str, drawn)) == sorted(map(str, only)) for drawn in answer["solutions"])


def test_sample_holds_no_draw_so_its_memory_stays_flat_for_any_number():
    """`sample -n N --json` kept every draw until the end, about 7.5 kB each (22 MB more for 3,000 draws of
    examples/first.txt): now each is written as it is drawn. (The peak resident memory of a process of its
    own, measured by a parent that has no other child.)"""
    measure = ("import resource, subprocess, sys; subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, check=True); "
               "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)")

    def peak_kib(number: int) -> int:
        command = [BIN / "pipscover", "sample", EXAMPLES / "first.txt", "-n", str(number), "--json"]
        return int(subprocess.run([sys.executable, "-c", measure, *map(str, command)], capture_output=True,
                                  text=True, check=True, timeout=120).stdout)

    assert peak_kib(2000) - peak_kib(1) < 4 * 1024
