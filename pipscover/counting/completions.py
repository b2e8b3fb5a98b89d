"""The structural counter's subproblems as a graph to walk: uniform samples and per-cell marginals.

A node is a subproblem of the structural counter, `(U, L, σ)` (the uncovered cells, the dominoes left, the
regions' states), and `completions(node)` is its count N(U, L, σ), by the counter's recursion and closed form
(`encodings/counting.md`). Here the branching is kept, so the counts can be walked as well as summed: each
node covers the first uncovered cell of the sweep along the board's longer side (the counter's `sweep`
order) in every way the dominoes left and the rules allow, and the children's counts add up to the node's.

- **A uniform sample** descends from the root, choosing each branch with probability N(child) / N(node)
  (`randrange(N(node))` on exact ints, then the branch whose range holds it), so a solution is drawn with
  probability the product of those ratios, 1 / N(root). Where the closed form holds, the rest is a uniform
  tiling of U (each domino of the first uncovered cell weighted by the tilings of what it leaves) and a
  uniform arrangement of L on its tiles (a uniform order of the copies, each non-double turned either way).
- **Marginals** are forward-backward over the same graph: F(node), the ways to reach it from the root,
  summed level by level, times N(child) on each branch gives the solutions laying that domino there; inside
  a closed form every tile end shows each pip equally often, N · h_v / 2|L| times for the h_v halves of pip
  v among the dominoes left.

It runs in Python beside the compiled search (whose cache lives in C and may forget) and keeps every count;
so `sample` and `marginals` walk it only while its subproblems are few (`WALK_BUDGET`), and past that take
the inclusion-exclusion sweep's graph (`sweep_sample.py`, `sweep_marginals.py`), which reaches every puzzle
that method counts.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from functools import partial
from itertools import islice
from random import Random
from typing import TypeVar

from pipscover.counting.progress import ProgressCallback
from pipscover.counting.region_states import DECIDED, FAIL
from pipscover.counting.search import NodeBudgetSpent
from pipscover.counting.structural import CHECK_EVERY, StructuralCounter, check_search
from pipscover.counting.sweep_marginals import by_pip_value, check_rows_fit, marginals_by_sweep
from pipscover.counting.sweep_sample import SweepSampler, pick
from pipscover.counting.tilings import longer_side_order, set_bits
from pipscover.errors import NoSolution, PipsError, is_whole_number, shown
from pipscover.model import Cell, Placement, Puzzle, Solution, given_puzzle
from pipscover.model.results import Distinct, Marginals, checked_seed, reachable
from pipscover.runtime.deadlines import deadline_of
from pipscover.runtime.limits import MEMORY_LIMIT, TooBig, checked_memory
from pipscover.runtime.recursion import room_for

# A subproblem: the uncovered cells (a bit set), the dominoes left (one bit per copy), each region's state
# and its cells left (which follow from the uncovered cells: not part of the key).
Node = tuple[int, int, tuple[int, ...], tuple[int, ...]]
# A branch: the child and what it lays, (cell index, pip index, other cell index, other pip index).
Branch = tuple[Node, tuple[int, int, int, int]]
Chosen = TypeVar("Chosen")
# The subproblems `draws` and `marginals` walk at most before they take the sweep's graph instead (`_walk`):
# about half a second of their count (no-unique-12 has 47,368, planted 4 x 6 167,911 in 2.8 s, where the
# sweep's first draw takes a hundredth of a second and each next one a hundredth).
WALK_BUDGET = 50_000


class Completions:
    """The counts N(U, L, σ) of one puzzle's subproblems, kept with the branching that sums them."""

    def __init__(self, puzzle: Puzzle, deadline: float | None = None, memory_cap: int | None = None,
                 on_progress: ProgressCallback | None = None, budget: int | None = None) -> None:
        self.counter = StructuralCounter(puzzle, order="sweep", compiled=False)  # its rules and closed forms
        self.deadline, self.memory_cap, self.on_progress = deadline, memory_cap, on_progress
        self.neighbours, _ = self.counter.cell_tables(deadline)
        place = {cell: index for index, cell in enumerate(puzzle.cells)}
        self.sweep = [place[cell] for cell in longer_side_order(puzzle.cells)]
        rules = self.counter.rules
        self.root: Node = ((1 << len(puzzle.cells)) - 1, self.counter.dominoes.full, tuple(rules.initial_states()),
                           tuple(rules.sizes))
        self.counts: dict[tuple[int, int, tuple[int, ...]], int] = {}
        self.budget = budget  # the most subproblems it keeps (`NodeBudgetSpent` past it); None: no limit

    def completions(self, node: Node) -> int:
        """N(node): the solutions below it (memoised; the deadline and memory cap are checked as it grows)."""
        key = node[:3]
        known = self.counts.get(key)
        if known is None:
            if len(self.counts) % CHECK_EVERY == 0:
                check_search(0, self.deadline, self.memory_cap, None)
                if self.budget is not None and len(self.counts) > self.budget:
                    raise NodeBudgetSpent
                if self.on_progress is not None:  # the count is known at the root only: nothing found yet
                    self.on_progress(0, None)
            free = self.closed_form(node)
            known = free if free is not None else sum(self.completions(child) for child, _ in self.branches(node))
            self.counts[key] = known
        return known

    def total(self) -> int:
        """The number of solutions (placements)."""
        with room_for(2 * len(self.sweep)):
            return self.completions(self.root)

    def closed_form(self, node: Node) -> int | None:
        """The node's count when every unfinished region is free or only one is unfinished (the structural
        counter's closed form); None otherwise."""
        uncovered, remaining, states, left = node
        rules = self.counter.rules
        open_regions = [region for region, cells in enumerate(left) if cells]
        bound = [region for region in open_regions if not (rules.free_kind[region] or states[region] == DECIDED)]
        if bound and len(open_regions) > 1:
            return None
        last = bound[0] if bound else None
        return self.counter.closed_form(uncovered, remaining, last, None if last is None else states[last],
                                        self.deadline, self.memory_cap)

    def branches(self, node: Node) -> Iterator[Branch]:
        """Every way to cover the first uncovered cell of the sweep: a neighbour, a domino left (its lowest
        copy), an orientation, that the two regions' rules allow; in a fixed order."""
        uncovered, remaining, states, left = node
        counter = self.counter
        cell = next(index for index in self.sweep if uncovered >> index & 1)
        dominoes = counter.dominoes
        for other, other_bit in self.neighbours[cell]:
            if not uncovered & other_bit:
                continue
            for ((a, b), _), mask in zip(dominoes.distinct, dominoes.masks):
                copies = remaining & mask
                if not copies:
                    continue
                for pip, other_pip in {(a, b), (b, a)}:
                    laid = self._laid(states, left, ((cell, pip), (other, other_pip)))
                    if laid is not None:
                        child = (uncovered ^ 1 << cell ^ other_bit, remaining ^ (copies & -copies), *laid)
                        yield child, (cell, pip, other, other_pip)

    def _laid(self, states: tuple[int, ...], left: tuple[int, ...],
              halves: tuple[tuple[int, int], ...]) -> tuple[tuple[int, ...], tuple[int, ...]] | None:
        """The regions' states and cells left once each (cell, pip) of `halves` is laid; None if a rule fails."""
        now, rest = list(states), list(left)
        for cell, pip in halves:
            region = self.counter.cell_region[cell]
            state = self.counter.rules.steps[region](now[region], pip, rest[region] - 1)
            if state is FAIL:
                return None
            now[region], rest[region] = state, rest[region] - 1
        return tuple(now), tuple(rest)

    def sample(self, rng: Random) -> Solution:
        """One solution drawn uniformly at random (`rng` decides, by `randrange` on exact counts only)."""
        laid: list[tuple[int, int, int, int]] = []
        node = self.root
        while self.closed_form(node) is None:
            node, laying = pick(rng, ((branch, self.completions(branch[0])) for branch in self.branches(node)),
                                 self.completions(node))
            laid.append(laying)
        laid.extend(self._free_sample(node, rng))
        return self._solution(laid)

    def _free_sample(self, node: Node, rng: Random) -> Iterator[tuple[int, int, int, int]]:
        """A uniform completion of a closed-form node: a uniform tiling of its cells, a uniform arrangement of
        its dominoes on the tiles."""
        uncovered, remaining, _, _ = node
        dominoes = self.counter.dominoes
        tilings = partial(self.counter.tilings.count, deadline=self.deadline, memory=self.memory_cap)
        pool = [pips for (pips, _), mask in zip(dominoes.distinct, dominoes.masks)
                for _ in range((remaining & mask).bit_count())]
        while uncovered:
            cell = next(index for index in self.sweep if uncovered >> index & 1)
            partners = [(other, uncovered ^ 1 << cell ^ other_bit) for other, other_bit in self.neighbours[cell]
                        if uncovered & other_bit]
            other, uncovered = pick(rng, ((partner, tilings(partner[1])) for partner in partners),
                                     tilings(uncovered))
            a, b = pool.pop(rng.randrange(len(pool)))
            if a != b and rng.randrange(2):
                a, b = b, a
            yield cell, a, other, b

    def _solution(self, laid: list[tuple[int, int, int, int]]) -> Solution:
        cells, values = self.counter.puzzle.cells, self.counter.rules.values
        return Solution(tuple(Placement((values[a], values[b]), (cells[cell], cells[other]))
                              for cell, a, other, b in laid))

    def marginals(self) -> dict[Cell, list[int]]:
        """For every cell, how many solutions put each pip there: `[n_0, n_1, ...]` by pip value. `on_progress`
        hears nothing found while the subproblems are counted, then the count and the share of the levels
        walked forward (a domino each), the two halves of the work."""
        solutions = self.total()
        cells, values = self.counter.puzzle.cells, self.counter.rules.values
        found = [[0] * len(values) for _ in cells]  # by pip index
        level: dict[tuple[int, int, tuple[int, ...]], tuple[Node, int]] = {self.root[:3]: (self.root, 1)}
        depth = 0
        while level:
            if self.on_progress is not None:
                self.on_progress(solutions, depth / max(len(self.counter.puzzle.dominoes), 1))
            depth += 1
            following: dict[tuple[int, int, tuple[int, ...]], tuple[Node, int]] = {}
            for walked, (node, ways) in enumerate(level.values()):
                if walked % CHECK_EVERY == 0:  # the counts below are all known: `completions` looks no more
                    check_search(0, self.deadline, self.memory_cap, None)
                free = self.closed_form(node)
                if free is not None:
                    self._free_marginals(node, ways * free, found)
                    continue
                for child, (cell, pip, other, other_pip) in self.branches(node):
                    below = self.completions(child)
                    if below:
                        found[cell][pip] += ways * below
                        found[other][other_pip] += ways * below
                        reached = following.get(child[:3], (child, 0))[1]
                        following[child[:3]] = (child, reached + ways)
            level = following
        return by_pip_value(cells, found, values)

    def _free_marginals(self, node: Node, solutions: int, found: list[list[int]]) -> None:
        """Add a closed-form node's `solutions` (its count times the ways to reach it) cell by cell: each tile
        end shows pip v in h_v / 2|L| of them."""
        uncovered, remaining, _, _ = node
        halves = self.counter.dominoes.halves(remaining)
        ends = sum(halves)
        if not solutions or not ends:
            return
        for cell in set_bits(uncovered):
            for pip, count in enumerate(halves):
                found[cell][pip] += solutions * count // ends


def sample(puzzle: Puzzle, n: int, seed: int = 0, distinct: Distinct | str = Distinct.PLACEMENTS,
           timeout: float | None = None, memory: int | None = MEMORY_LIMIT, *, deadline: float | None = None,
           memory_cap: int | None = None) -> list[Solution]:
    """`n` solutions of `puzzle` drawn uniformly at random, with replacement; the same `seed` (0 as the command
    line's) gives the same solutions on any machine, and `seed=None` other ones at each call (from the system's
    randomness). With `distinct="grids"`, uniform over the distinct pip grids: a solution drawn uniformly is kept
    with probability 1 / (the solutions that carry its grid), so each grid is kept equally often. Raises
    `NoSolution` (a `PipsError` and a `ValueError`) when the puzzle has no solution. (`draws` gives them one at a
    time: a caller keeps those made before a limit stops it.) Within `timeout` seconds and `memory` bytes (2 GiB
    unless told: None is no cap), as `count` takes them, `SearchTimeout` or `MemoryCapReached` past them (as
    `marginals` raises them; `pipscover.model.results`, `pipscover.runtime.limits`): `deadline=` (a
    `time.monotonic()` value) and `memory_cap=`, the names `sample` alone took, still work, the first with a
    `DeprecationWarning`.

    >>> from pipscover import load_one
    >>> puzzle = load_one("benchmarks/count_puzzles/no-unique-10-s1.json")  # 29,028 solutions
    >>> [solution.placements[0].cells for solution in sample(puzzle, 3, seed=1)] == [
    ...     solution.placements[0].cells for solution in sample(puzzle, 3, seed=1)]
    True
    """
    if not is_whole_number(n) or n < 0:  # (-1 and 1.5 were islice's ValueError)
        raise PipsError(f"n must be a whole number of draws, 0 or more, not {shown(n)}")
    cap = checked_memory(memory if memory_cap is None else memory_cap)
    return list(islice(draws(puzzle, seed, distinct, deadline_of(timeout, deadline, "sample"), cap), reachable(n)))


def draws(puzzle: Puzzle, seed: int, distinct: Distinct | str = Distinct.PLACEMENTS, deadline: float | None = None,
          memory_cap: int | None = None, on_count: Callable[[int], None] | None = None) -> Iterator[Solution]:
    """The draws of `sample`, without end, one at a time: a caller that writes each as it comes holds none of
    them (`pipscover sample -n N` for any N). `SearchTimeout` or `MemoryCapReached` past the limits, looked at
    while counting and every `CHECK_EVERY` draws; `NoSolution` at the first draw when there is no solution.
    `on_count` hears the exact number of solutions (placements) the draws are weighted by, once it is known,
    before the first draw: the population a reader of the draws is told."""
    rng = Random(checked_seed(seed))
    walk = _walk(given_puzzle(puzzle), deadline, memory_cap)
    solutions = walk.total()
    if on_count is not None:
        on_count(solutions)
    if not solutions:  # (either walk's own refusal was a bare ValueError)
        raise NoSolution(f"{puzzle.describe()}: no solution to draw")
    carried: dict[tuple[tuple[Cell, int], ...], int] = {}  # by grid: the solutions that carry it
    attempts = 0
    while True:
        attempts += 1
        if attempts % CHECK_EVERY == 0:  # the draws too take time (-n 10**12 ran past every limit)
            check_search(0, deadline, memory_cap, None)
        solution = walk.sample(rng)
        if Distinct(distinct) is Distinct.GRIDS:
            grid = tuple(sorted(solution.grid.items()))
            if grid not in carried:
                carried[grid] = carrying(puzzle, solution)
            if rng.randrange(carried[grid]):
                continue
        yield solution


def _walk(puzzle: Puzzle, deadline: float | None, memory_cap: int | None) -> Completions | SweepSampler:
    """What the draws walk: these subproblems when they are few (`WALK_BUDGET`: after their count, a draw
    takes a fraction of a millisecond), else the sweep's graph (`sweep_sample.py`: a draw takes a few sweeps,
    but where these subproblems run to millions, the sweep counts in seconds), else these all the same
    (inclusion-exclusion refuses the puzzle). Chosen by the subproblems' number, not the clock, so that a seed
    draws the same solutions on any machine."""
    walk = Completions(puzzle, deadline, memory_cap, budget=WALK_BUDGET)

    def counted() -> Completions | SweepSampler:  # (the type of either walk)
        walk.total()
        return walk

    return _walked_or_swept(walk, counted, lambda: SweepSampler(puzzle, deadline, memory_cap))


def _walked_or_swept(walk: Completions, walked: Callable[[], Chosen], swept: Callable[[], Chosen]) -> Chosen:
    """`walked()` within the walk's budget; past it `swept()`, by the sweep's graph; where inclusion-exclusion
    refuses the puzzle (`TooBig`), `walked()` again with no budget (the subproblems counted so far kept)."""
    try:
        return walked()
    except NodeBudgetSpent:
        try:
            return swept()
        except TooBig:
            walk.budget = None
            return walked()


def carrying(puzzle: Puzzle, solution: Solution) -> int:
    """How many solutions of `puzzle` have the pip grid of `solution`: the solutions of the puzzle whose
    every cell is a one-cell region holding that pip."""
    fixed = Puzzle.build([("sum", [cell], pip) for cell, pip in sorted(solution.grid.items())],
                         puzzle.dominoes, puzzle.origin)
    return Completions(fixed).total()


def marginals(puzzle: Puzzle, timeout: float | None = None, memory: int | None = MEMORY_LIMIT,
              on_progress: ProgressCallback | None = None, *, deadline: float | None = None,
              memory_cap: int | None = None) -> Marginals:
    """For every cell of `puzzle`, how many solutions put each pip value there (`[n_0, n_1, ...]`), exact.
    Within `timeout` seconds and `memory` bytes (2 GiB unless told: None is no cap), as `count` and `sample`
    take them (`deadline=`, a `time.monotonic()` value, and `memory_cap=`, the names it first took, still
    work, the first with a `DeprecationWarning`): `SearchTimeout` or `MemoryCapReached` past them.
    `on_progress(solutions, share done or None)` follows it, as `count`'s does.

    >>> from pipscover import load_one
    >>> marginals(load_one("examples/first.txt")).backbone()[(0, 0)]  # its only solution puts a 4 there
    4
    """
    cap = checked_memory(memory if memory_cap is None else memory_cap)
    until = deadline_of(timeout, deadline, "marginals")
    return marginals_past_the_walk(given_puzzle(puzzle), until, cap, on_progress,
                                   lambda: marginals_by_sweep(puzzle, until, cap, on_progress=on_progress))


def marginals_past_the_walk(puzzle: Puzzle, deadline: float | None, memory_cap: int | None,
                            on_progress: ProgressCallback | None,
                            swept: Callable[[], dict[Cell, list[int]]]) -> Marginals:
    """`marginals`' answer: the walk's within its budget, else `swept()`'s (the sweep's graph here, or its
    sums split over a cluster: `pipscover.sweep.split_marginals`), else the walk's again where
    inclusion-exclusion refuses the puzzle; `MemoryCapReached` first where the rows alone would not fit."""
    check_rows_fit(puzzle, memory_cap)
    walk = Completions(puzzle, deadline, memory_cap, on_progress, budget=WALK_BUDGET)
    return Marginals(puzzle, _walked_or_swept(walk, walk.marginals, swept))
