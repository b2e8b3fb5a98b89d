"""The structural counter: exact solution counts without listing the solutions.

It searches like a solver, laying one domino at a time on the uncovered cell with the fewest ways to be
covered (or, in the `sweep` order, on the first uncovered cell of a sweep across the board), but it
1. caches the count of every residual subproblem under a key that holds everything the rest depends on:
   the uncovered cells, the dominoes left, and the state of each unfinished region (see `regions`), so a
   subproblem reached again by laying the same dominoes in another order or orientation is counted once;
2. stops as soon as the rest is free and uses a closed form: when every uncovered cell lies in one region,
   or no unfinished region can still fail, every laying of the dominoes left on every tiling of the cells
   left is a solution or none is, so the count is tilings(cells left) x arrangements(dominoes left) or 0;
3. prunes with the region feasibility rules of `pipscover.regions` (which pips a region's next cell may
   still take, given the pips left), as the dlx backend does.
`encodings/counting.md` explains why this is exact. The search runs in the compiled core (`_structural.c`, built
by `pip install`) when it is built, which counts the same and visits the same nodes; the Python search here is
its twin and its fallback, and the tests run both.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable
from functools import partial
from typing import Any, NamedTuple

from pipscover.counting import progress as reports
from pipscover.counting.budget import UNLIMITED, Budget
from pipscover.counting.progress import STRUCTURAL_PROGRESS_DEPTH, tracked_levels
from pipscover.counting.region_states import DECIDED, FAIL, RegionRules
from pipscover.counting.search import CHECK_EVERY, STOPS, Search, check_search, stopped
from pipscover.counting.tilings import TilingCounter, arrangements, longer_side_order, set_bits
from pipscover.model import Puzzle
from pipscover.model.results import Distinct
from pipscover.regions import PipSupply, pip_values
from pipscover.runtime.cores import compiled_by_default, load_core
from pipscover.runtime.limits import MemoryCapReached, Remembered, guard, resident_bytes

_core = load_core("pipscover.counting._structural", "the Python counting search (about ten times slower)")

# Regions up to this size are finished first once begun (measured on the NYT archive: larger ones, such as
# a 16-cell sum, are better left to the closed form at the end).
BEGUN_REGION_SIZE = 8
# The orders in which the search picks the cell to cover next (a forced cell always comes first):
# - `ways`: the cell with the fewest ways to be covered, cells of small regions already begun before others;
#   it prunes best, and is the faster on the NYT archive and on irregular boards;
# - `sweep`: the first uncovered cell of a sweep along the board's longer side (`longer_side_order`); the
#   uncovered cells then form a short frontier, so residual subproblems repeat far more often on rectangles
#   (a planted 4 x 6 board: 10 s instead of minutes; 2 x 12: 4.7x fewer nodes) and far less on NYT shapes
#   (a `generate --no-unique` puzzle of 14 dominoes: 2.5x more nodes). `auto` races the two.
ORDERS = ("ways", "sweep")
# The compiled core recurses on the C stack, one frame of ~370 bytes per domino laid (gcc -fstack-usage): up
# to this many dominoes it stays within 4 MB of the usual 8 MB; beyond, the Python search (no C stack) counts.
COMPILED_DEPTH = 10_000
SWEEP_RANK = 1 << 20  # a sweep position's rank: past every count of ways, so a forced cell still comes first


class Position(NamedTuple):
    """A position of the structural search, all that its count depends on: the cells left to cover (bit i:
    cell i of `puzzle.cells`), the dominoes left (`Dominoes` bits, copies used lowest first) and each region's
    state (`region_states`); what each region has left and the pips left follow from them."""

    uncovered: int
    remaining: int
    states: tuple[int, ...]


class Dominoes:
    """The dominoes of a puzzle as bits of an int, one bit per copy; copies of one domino sit side by side
    and are used lowest first, so every multiset of dominoes left has one int. Pips are named by their
    index in `pip_values(puzzle.dominoes)`, as the region rules name them."""

    def __init__(self, puzzle: Puzzle) -> None:
        values = pip_values(puzzle.dominoes)
        index_of = {pip: index for index, pip in enumerate(values)}
        self.distinct = sorted(  # ((a, b), copies) in pip indices, a <= b
            ((index_of[a], index_of[b]), copies) for (a, b), copies in puzzle.domino_counts.items())
        self.masks = []
        shift = 0
        for _, copies in self.distinct:
            self.masks.append(((1 << copies) - 1) << shift)
            shift += copies
        self.full = (1 << shift) - 1
        self.pip_count = len(values)
        # number[a, b]: the domino with pips a and b, in either order.
        self.number: dict[tuple[int, int], int] = {}
        for index, ((a, b), _) in enumerate(self.distinct):
            self.number[a, b] = self.number[b, a] = index
        # Remembered by the dominoes left, within a bound (a count meets about one set per cached subproblem).
        self._arrangements: Remembered[int, int] = Remembered()
        self._partners: Remembered[int, list[int]] = Remembered()
        self._halves: Remembered[int, tuple[int, ...]] = Remembered()

    def arrangements(self, left: int) -> int:
        """The ways to lay the dominoes `left` on as many fixed slots."""
        known = self._arrangements.get(left)
        if known is None:
            known = self._arrangements.remember(left, arrangements([
                ((left & mask).bit_count(), a == b) for ((a, b), _), mask in zip(self.distinct, self.masks)
                if left & mask
            ]))
        return known

    def partners(self, left: int) -> list[int]:
        """partners(left)[a]: the bit set of pip indices b such that a domino (a, b) is left."""
        known = self._partners.get(left)
        if known is None:
            known = [0] * self.pip_count
            for ((a, b), _), mask in zip(self.distinct, self.masks):
                if left & mask:
                    known[a] |= 1 << b
                    known[b] |= 1 << a
            self._partners.remember(left, known)
        return known

    def halves(self, left: int) -> tuple[int, ...]:
        """halves(left)[i]: how many halves with the pip of index i the dominoes `left` have."""
        known = self._halves.get(left)
        if known is None:
            counts = [0] * self.pip_count
            for ((a, b), _), mask in zip(self.distinct, self.masks):
                copies = (left & mask).bit_count()
                counts[a] += copies
                counts[b] += copies
            known = self._halves.remember(left, tuple(counts))
        return known

    def pips(self, left: int) -> list[int]:
        return [pip for pip, copies in enumerate(self.halves(left)) for _ in range(copies)]


class StructuralCounter:
    """The counting search for one puzzle; `count()` gives the number of solutions (placements semantics).
    The Python search is `StructuralSearch`; the compiled core takes the same steps."""

    def __init__(self, puzzle: Puzzle, order: str = "ways", compiled: bool | None = None) -> None:
        """`compiled` runs the search in the compiled core (default: when it is built and `PIPSCOVER_PURE_PYTHON`
        is not set, with at most 64 distinct pips, which its masks hold, and `COMPILED_DEPTH` dominoes)."""
        if order not in ORDERS:
            raise ValueError(f"unknown search order {order!r}; choose one of: {', '.join(ORDERS)}")
        cells = puzzle.cells
        self.puzzle = puzzle
        self.order = order
        self.cell_count = len(cells)
        self.tilings = TilingCounter(cells)
        region_index = puzzle.region_index
        self.cell_region = [region_index[cell] for cell in cells]
        self.rules = RegionRules(puzzle)
        self.dominoes = Dominoes(puzzle)
        # The counts of the residual subproblems finished so far: a count stopped by its node budget and
        # started again (here, or in a forked worker that inherits it) counts none of them twice.
        self.cache: dict[tuple, int] = {}
        self.nodes = 0  # search nodes of the last `count` (cached subproblems not counted)
        if compiled is None:
            compiled = (_core is not None and compiled_by_default() and self.dominoes.pip_count <= 64
                        and len(puzzle.dominoes) <= COMPILED_DEPTH)
        if compiled and _core is None:
            raise RuntimeError("the compiled counting core is not built (pip install -e . builds it)")
        self.compiled = compiled
        self._core: Any = None  # the compiled search, made at the first count; it keeps its own caches

    def cell_tables(self, deadline: float | None) -> tuple[list[list[tuple[int, int]]], dict[int, int]]:
        """Each cell's neighbours as (index, bit), and the index of each bit: what the search needs past a
        closed form. A bit mask per cell takes memory quadratic in the cells, as do the cache keys (bit masks
        of the uncovered cells, about one per cell on a long board), so the guard comes here: a puzzle whose
        count is a closed form from the start (every cell in one region, or no region that can fail) is
        counted at any size."""
        cells = self.puzzle.cells
        guard(self.puzzle, "the structural counter", needs_bytes=self.cell_count ** 2 // 4,
              steps=self.cell_count ** 2, deadline=deadline)
        bit_of = {cell: 1 << i for i, cell in enumerate(cells)}
        neighbours = [
            [(bit_of[other].bit_length() - 1, bit_of[other])
             for other in ((r, c + 1), (r + 1, c), (r, c - 1), (r - 1, c)) if other in bit_of]
            for r, c in cells
        ]
        return neighbours, {bit: index for index, bit in enumerate(bit_of.values())}

    def closed_form(self, uncovered: int, remaining: int, region: int | None, state: int | None,
                    deadline: float | None, memory: int | None) -> int:
        """The count of a position whose unfinished regions are all free but `region` (None: all are): the
        tilings of the cells left times the arrangements of the dominoes left, if `region` accepts their pips.
        Counting the tilings of a wide open board takes over an hour (`TilingCounter`), so it stops as the
        search does, at the count's `deadline` or past its `memory` cap: branching instead would only count the
        same tilings more slowly, once for each way to lay the dominoes."""
        if region is not None and not self.rules.accepts(region, state, self.dominoes.pips(remaining)):  # type: ignore[arg-type]  # a region's state is given with it
            return 0
        return self.tilings.count(uncovered, deadline, memory) * self.dominoes.arrangements(remaining)

    def count(self, budget: Budget = UNLIMITED, node_limit: int | None = None) -> int:
        """The exact number of solutions. Raises `CountInterrupted` (a lower bound) at the budget's deadline or
        on Ctrl-C, once the process holds more than its memory cap, or past `node_limit` new search nodes."""
        return self.count_from(self.root(), budget, node_limit)

    def root(self) -> Position:
        """The position before any domino is laid."""
        return Position((1 << self.cell_count) - 1, self.dominoes.full, tuple(self.rules.initial_states()))

    def count_from(self, position: Position, budget: Budget = UNLIMITED, node_limit: int | None = None) -> int:
        """The exact count of the solutions that complete `position` (`count` from the `root`): a task of a
        split count (`pipscover.sweep.split_structural`). Stops as `count` does."""
        if self.compiled:
            return self._count_compiled(budget, node_limit, self._core_start(position))
        search = StructuralSearch(self, budget, node_limit)
        search.start_at(position)
        try:
            return search.run(partial(search.count, position.uncovered, position.remaining, 0), 2 * self.cell_count)
        except STOPS as stop:  # (a stop in the root's closed form, before any branch could name it)
            raise stopped(0, stop, Distinct.PLACEMENTS) from None
        finally:
            self.nodes = search.nodes

    def _core_start(self, position: Position) -> tuple[list[int], list[int], list[int]]:
        """`position` as the compiled core starts from it: the covered cells, the distinct domino of each copy
        laid, and the regions' states."""
        covered = [index for index in range(self.cell_count) if not position.uncovered >> index & 1]
        laid = [number for number, (mask, (_, copies)) in enumerate(zip(self.dominoes.masks, self.dominoes.distinct))
                for _ in range(copies - (position.remaining & mask).bit_count())]
        return covered, laid, list(position.states)

    def sweep_rank(self) -> list[int]:
        """Each cell's rank in the `sweep` order: its place in the sweep, past every count of ways."""
        position = {cell: place for place, cell in enumerate(longer_side_order(self.puzzle.cells))}
        return [SWEEP_RANK + position[cell] for cell in self.puzzle.cells]

    def _count_compiled(self, budget: Budget, node_limit: int | None, start: tuple | None = None) -> int:
        """`count` by the compiled core: the same search, its region rules and closed forms called back here."""
        if self._core is None:
            rules = self.rules
            # The core calls back through a weak reference: it lives in this counter, and a strong one would make
            # a cycle that keeps its tables until the garbage collector runs.
            me = weakref.proxy(self)
            self._core = _core.Counter(  # type: ignore[union-attr]  # compiled is True only when the core is built
                self.cell_count, self.cell_region, rules.sizes, rules.free_kind, rules.initial_states(), rules.steps,
                rules.allowed_of, self.dominoes.distinct, self.dominoes.pip_count, self.sweep_rank(),
                self.order == "sweep", DECIDED, partial(StructuralCounter.closed_form, me),
                partial(StructuralCounter.cell_tables, me), rules.supply, check_search,
                resident_bytes, MemoryCapReached, CHECK_EVERY)
        core = self._core
        try:
            return int(core.count(budget.deadline, budget.memory, node_limit, budget.on_progress,
                                  tracked_levels(budget.on_progress, STRUCTURAL_PROGRESS_DEPTH),
                                  reports.PROGRESS_EVERY, start))
        except STOPS as stop:
            raise stopped(core.partial, stop, Distinct.PLACEMENTS) from None
        finally:
            self.nodes = core.nodes


class StructuralSearch(Search):
    """One count of the Python search, in the steps of the module's docstring: look the position up (`count`),
    close it in closed form (`close`), prune by what each region may still take (`allowed_pips`), choose the
    cell to cover (`choose_cell`), branch on the dominoes that cover it (`branch`), store the count. The
    compiled core's `search` takes the same steps (`_structural.c`). The tables the steps read at every node
    are bound here once, as attributes of the search."""

    def __init__(self, counter: StructuralCounter, budget: Budget, node_limit: int | None) -> None:
        super().__init__(counter.rules, counter.dominoes.halves(counter.dominoes.full), counter.cache, budget,
                         node_limit, STRUCTURAL_PROGRESS_DEPTH)
        self.counter = counter
        self.dominoes = counter.dominoes
        self.cell_region = counter.cell_region
        self.neighbours: list[list[tuple[int, int]]] = []  # built past the first closed form (`cell_tables`)
        self.sweep_rank = counter.sweep_rank() if counter.order == "sweep" else None
        self.steps, self.allowed_of, self.sizes = self.rules.steps, self.rules.allowed_of, self.rules.sizes
        # By the dominoes left (an int): their supply, and the ways to cover a pair of cells given the pips
        # each may take (see `choose_cell`); both depend on nothing else, so every node with those dominoes
        # shares them.
        self.supplies: dict[int, PipSupply] = {}
        self.ways_by_left: dict[int, dict[int, int]] = {}
        self.pips_in = Made(set_bits)  # the pips of each pip mask the search branches on, as a list
        self.partners = Made(self.dominoes.partners)  # by the dominoes left, as `Dominoes.partners`

    def count(self, uncovered: int, remaining: int, depth: int) -> int:
        """N(uncovered, remaining, states): the count of the position, looked up or searched and stored."""
        key = (uncovered, remaining, *self.states)
        known = self.cache.get(key)
        if known is not None:
            return known
        self.visit()
        bound = self.bound_regions()
        total = self.close(uncovered, remaining, bound)
        if total is None:
            region_pips = self.allowed_pips(remaining, bound[0])
            if region_pips is None:
                total = 0
            else:
                cell, ways = self.choose_cell(uncovered, remaining, region_pips)
                total = 0 if ways == 0 else self.branch(uncovered, remaining, depth, cell, ways, region_pips)
        return self.store(key, total)

    def start_at(self, position: Position) -> None:
        """Begin the search at `position` rather than at the root: its states, and what follows from it."""
        self.states = list(position.states)
        self.left = [0] * len(self.left)
        for index in set_bits(position.uncovered):
            self.left[self.cell_region[index]] += 1
        self.halves = list(self.dominoes.halves(position.remaining))

    def bound_regions(self) -> tuple[list[int], int]:
        """The unfinished regions whose rule can still fail, and how many regions are unfinished."""
        rules, states, left = self.rules, self.states, self.left
        unfinished = 0
        bound = []
        for region, cells_left in enumerate(left):
            if cells_left:
                unfinished += 1
                if not (rules.free_kind[region] or states[region] == DECIDED):
                    bound.append(region)
        return bound, unfinished

    def close(self, uncovered: int, remaining: int, regions: tuple[list[int], int]) -> int | None:
        """The count in closed form when the rest is free (no region can fail, or one region is left), else
        None. The closed form needs no supply: a free region takes any pip, and `accepts` checks a last region
        exactly. `regions` are the `bound_regions`."""
        bound, unfinished = regions
        if bound and unfinished != 1:
            return None
        last = bound[0] if bound else None
        return self.counter.closed_form(uncovered, remaining, last, None if last is None else self.states[last],
                                        self.budget.deadline, self.budget.memory)

    def allowed_pips(self, remaining: int, bound: list[int]) -> list[int] | None:
        """What each unfinished region may still take (a free one: any pip left; the finished ones are never
        read; the `bound` ones by their rule); None when a region can take nothing, which ends the branch."""
        if not self.neighbours:
            self.neighbours = self.counter.cell_tables(self.budget.deadline)[0]
        supply = self.supplies.get(remaining)
        if supply is None:
            supply = self.supplies[remaining] = self.rules.supply(tuple(self.halves))
        region_pips = [supply.present] * len(self.left)
        allowed_of, states, left = self.allowed_of, self.states, self.left
        for region in bound:
            mask = allowed_of[region](states[region], left[region], supply)
            if not mask:
                return None
            region_pips[region] = mask
        return region_pips

    def choose_cell(self, uncovered: int, remaining: int, region_pips: list[int]) -> tuple[int, int]:
        """The uncovered cell to cover next and its ways to be covered (counting partner, domino, orientation):
        forced cells first; then, in the `ways` order, cells of small regions already begun, since a finished
        region drops out of the cache key, and the fewest ways; in the `sweep` order, the first cell of the
        sweep. (-1, 0) when a cell cannot be covered. (The ways of each cell are counted here, not in a
        method of their own: this loop is most of the Python search's time.)"""
        sizes, left, cell_region, sweep_rank = self.sizes, self.left, self.cell_region, self.sweep_rank
        neighbours, pip_count, partners = self.neighbours, self.dominoes.pip_count, self.partners[remaining]
        pair_ways = self.ways_by_left.get(remaining)  # (pips allowed here, pips allowed there) -> ways
        if pair_ways is None:
            pair_ways = self.ways_by_left[remaining] = {}
        best, best_ways, best_rank = -1, 0, 1 << 62
        rest = uncovered
        while rest:  # the uncovered cells, lowest first (peeled off: most nodes have few left)
            bit = rest & -rest
            rest ^= bit
            index = bit.bit_length() - 1
            mine = region_pips[cell_region[index]]
            ways = 0
            for other, other_bit in neighbours[index]:
                if other_bit & uncovered:
                    theirs = region_pips[cell_region[other]]
                    found = pair_ways.get(mine << pip_count | theirs)
                    if found is None:
                        found = pair_ways[mine << pip_count | theirs] = pair_count(mine, theirs, partners)
                    ways += found
            if ways == 0:
                return -1, 0
            if ways == 1:
                return index, 1  # forced: no cell ranks lower (a dead cell, if any, is met on this branch)
            if sweep_rank is not None:
                rank = sweep_rank[index]
            else:
                region = cell_region[index]
                rank = ways + (1000 if left[region] == sizes[region] or sizes[region] > BEGUN_REGION_SIZE else 100)
            if rank < best_rank:
                best, best_ways, best_rank = index, ways, rank
        return best, best_ways

    def branch(self, uncovered: int, remaining: int, depth: int, cell: int, ways: int, region_pips: list[int]) -> int:
        """The sum of the counts of the positions after each domino that covers `cell` (a neighbour, the pip
        here, the pip there), each state updated and put back around its branch."""
        tracked = depth < self.tracked
        if tracked:
            self.progress.begin(depth, ways)
        steps, states, left, halves, cell_region = self.steps, self.states, self.left, self.halves, self.cell_region
        partners, number, masks = self.partners[remaining], self.dominoes.number, self.dominoes.masks
        count, pips_in = self.count, self.pips_in
        region = cell_region[cell]
        mine = pips_in[region_pips[region]]
        rest = uncovered ^ (1 << cell)
        total = done = 0
        try:
            for other, other_bit in self.neighbours[cell]:
                if not other_bit & uncovered:
                    continue
                other_region = cell_region[other]
                theirs = region_pips[other_region]
                for pip in mine:
                    state = steps[region](states[region], pip, left[region] - 1)
                    if state is FAIL:
                        continue
                    old, states[region] = states[region], state
                    left[region] -= 1
                    for other_pip in pips_in[partners[pip] & theirs]:
                        other_state = steps[other_region](states[other_region], other_pip, left[other_region] - 1)
                        if other_state is not FAIL:
                            other_old, states[other_region] = states[other_region], other_state
                            left[other_region] -= 1
                            available = remaining & masks[number[pip, other_pip]]
                            halves[pip] -= 1
                            halves[other_pip] -= 1
                            total += count(rest ^ other_bit, remaining ^ (available & -available), depth + 1)
                            halves[pip] += 1
                            halves[other_pip] += 1
                            left[other_region] += 1
                            states[other_region] = other_old
                        done += 1
                        if tracked:
                            self.progress.report(depth, done, total)
                    left[region] += 1
                    states[region] = old
        except STOPS as stop:
            raise stopped(total, stop, Distinct.PLACEMENTS) from None
        return total


class Made(dict[int, list[int]]):
    """`make(key)` for each key asked for, made at the first ask: the search asks for the same few at every
    node, and a dict lookup costs Python no call."""

    def __init__(self, make: Callable[[int], list[int]]) -> None:
        super().__init__()
        self.make = make

    def __missing__(self, key: int) -> list[int]:
        made = self[key] = self.make(key)
        return made


def pair_count(mine: int, theirs: int, partners: list[int]) -> int:
    """The dominoes left (with their orientation) that put a pip of `mine` on one cell and a pip of `theirs`
    on the other: `partners[a]` is the bit set of the b with a domino (a, b) left."""
    found = 0
    while mine:
        low = mine & -mine
        mine ^= low
        found += (partners[low.bit_length() - 1] & theirs).bit_count()
    return found
