"""Counting distinct pip grids without listing them: a search over grids that carries every tiling at once.

Different tilings can carry the same pip grid, so the grid count is not a sum over tilings. This counter
fills the grid one cell at a time (along the board's longer side, as `TilingCounter` does) and keeps,
beside the region states, the set of all *partial tilings* consistent with the pips so far. A partial tiling
is the dominoes it has used up and its pending half-dominoes: (later cell, pip of the earlier cell) for each
domino begun on an earlier cell whose second cell is still to be filled. Putting pip v on cell p takes every
partial tiling either to the completion of its half-domino ending at p (when the domino (pip, v) is left)
or, when none ends there, to new half-dominoes from p to each neighbour later in the order. The set after a cell
is a function of the grid so far, so distinct grids are distinct paths, and two prefixes with the same
cell, set and region states have the same completions: the count of completions is cached under that key,
as the structural counter caches its subproblems. A grid counts when one of its tilings has nothing pending
at the end. `encodings/counting.md` explains why this is exact.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from functools import partial
from itertools import chain, count

from pipscover.counting.budget import NODE_BUDGET, UNLIMITED, Budget
from pipscover.counting.progress import ProgressCallback
from pipscover.counting.region_states import FAIL, RegionRules
from pipscover.counting.search import STOPS, Search, stopped
from pipscover.counting.structural import Dominoes
from pipscover.counting.tilings import longer_side_order, set_bits
from pipscover.model import Cell, Puzzle
from pipscover.model.geometry import neighbours
from pipscover.model.results import CountInterrupted, Distinct
from pipscover.runtime.limits import guard

# A partial tiling: (pending half-dominoes as sorted (cell, pip) pairs, dominoes left as copy bits).
PartialTiling = tuple[tuple[tuple[int, int], ...], int]
# New search nodes the default order takes alone before the other orders take turns (`count_grids`): of the NYT
# archive's two grid counts that reach this counter, 2025-10-28 hard ends within it (31,199 nodes) and 09-15
# hard in the default's next turn, the first after it (134,829). A board whose default order starts on its free
# part ran past every limit (a 3 x 4 free core before a strip of fixed cells: more than 60 s), and the reversed
# order counts it in a fifth of a second.
HEAD_START = 1 << 17


def guard_grid_counter(puzzle: Puzzle, deadline: float | None) -> None:
    """Refuse a board too big for the grid counter. Its residual subproblems are keyed by a bit mask of the
    uncovered cells: about one per cell on a long board. (The placements counter guards itself once it needs
    such masks: `StructuralCounter.cell_tables`.)"""
    cells = len(puzzle.cells)
    guard(puzzle, "the grid counter", needs_bytes=cells * cells // 4, steps=cells * cells, deadline=deadline)


class GridCounter:
    """The grid-counting search for one puzzle in one order of its cells (default along its longer side, where
    few half-dominoes are ever pending); `count()` gives the number of distinct pip grids."""

    def __init__(self, puzzle: Puzzle, order: Sequence[Cell] | None = None) -> None:
        self.rules = RegionRules(puzzle)
        self.order = list(order) if order is not None else longer_side_order(puzzle.cells)
        index = {cell: i for i, cell in enumerate(self.order)}
        # The later neighbours of each cell: the only cells a domino begun there can end on.
        self.later = [sorted(index[other] for other in neighbours(cell) if index.get(other, -1) > i)
                      for i, cell in enumerate(self.order)]
        region_index = puzzle.region_index
        self.cell_region = [region_index[cell] for cell in self.order]
        self.dominoes = Dominoes(puzzle)

    def step(self, tilings: frozenset[PartialTiling], cell: int, pip: int) -> frozenset[PartialTiling]:
        """The partial tilings after `pip` goes on `cell` (empty when no tiling can carry the grid)."""
        number, masks = self.dominoes.number, self.dominoes.masks
        after: set[PartialTiling] = set()
        for pending, remaining in tilings:
            if pending and pending[0][0] == cell:
                domino = number.get((pending[0][1], pip))
                available = remaining & masks[domino] if domino is not None else 0
                if available:
                    after.add((pending[1:], remaining ^ (available & -available)))
                continue
            if not self.dominoes.partners(remaining)[pip]:
                continue  # no domino left has this pip
            taken = {other for other, _ in pending}
            for other in self.later[cell]:
                if other not in taken:
                    after.add((tuple(sorted((*pending, (other, pip)))), remaining))
        return frozenset(after)

    def count(self, budget: Budget = UNLIMITED, cache: dict[tuple, int] | None = None,
              node_limit: int | None = None) -> int:
        """The exact number of distinct pip grids. Raises `CountInterrupted` (a lower bound) at the budget's
        deadline, past `node_limit` new nodes, on Ctrl-C, or once the process holds more than its memory cap.
        `cache`: the completions an earlier count in this order finished, which this one goes on from."""
        search = GridSearch(self, budget, {} if cache is None else cache, node_limit)
        return search.run(partial(search.count, 0, frozenset({((), self.dominoes.full)})), len(self.order))


def search_orders(cells: Sequence[Cell]) -> list[list[Cell]]:
    """The orders the grid count tries: along the board's longer side (the default), along its shorter side,
    and each reversed. Which is fast depends on where the board is free and where it is fixed."""
    longer = longer_side_order(cells)
    shorter = sorted(cells, key=(lambda cell: (cell[1], cell[0])) if longer == sorted(cells) else None)
    orders: list[list[Cell]] = []
    for order in (longer, longer[::-1], shorter, shorter[::-1]):  # (one line of cells: the same twice)
        if order not in orders:
            orders.append(order)
    return orders


def count_grids(puzzle: Puzzle, budget: Budget = UNLIMITED) -> int:
    """The exact number of distinct pip grids, by the orders of `search_orders` in turn: the default alone for
    `HEAD_START` new nodes, then each in rounds of a node budget that doubles, each order's cache kept from
    round to round (a round goes on where the order's last stopped). The first order to finish answers. Raises
    `CountInterrupted` as `GridCounter.count` does, with the most any order had found."""
    counters = [GridCounter(puzzle, order) for order in search_orders(puzzle.cells)]
    caches: list[dict[tuple, int]] = [{} for _ in counters]
    shown = replace(budget, on_progress=_furthest(budget.on_progress))
    found = 0
    for limit, taking in chain([(HEAD_START, 1)], ((HEAD_START << r, len(counters)) for r in count())):
        for counter, cache in zip(counters[:taking], caches):
            try:
                return counter.count(shown, cache, limit)
            except CountInterrupted as stop:
                found = max(found, stop.result.count)
                if stop.result.stopped_by != NODE_BUDGET:
                    raise CountInterrupted(replace(stop.result, count=found)) from None
    raise AssertionError("the rounds never end")


def _furthest(on_progress: ProgressCallback | None) -> ProgressCallback | None:
    """`on_progress` told only the most found and the furthest share any order has reached, so that the orders
    taking turns do not move the bar back and forth."""
    if on_progress is None:
        return None
    most_found, furthest = [0], [0.0]

    def heard(found: int, share: float | None) -> None:
        most_found[0], furthest[0] = max(most_found[0], found), max(furthest[0], share or 0.0)
        on_progress(most_found[0], furthest[0] if share is not None else None)

    return heard


class GridSearch(Search):
    """One count of distinct grids, in the steps of `pipscover.counting.search`: look up the cell, its partial
    tilings and the region states; prune when a region can no longer hold; branch on the pips the cell may
    take; store. (No closed form: pips on free cells still tell grids apart.)"""

    def __init__(self, counter: GridCounter, budget: Budget, cache: dict[tuple, int],
                 node_limit: int | None = None) -> None:
        dominoes = counter.dominoes
        super().__init__(counter.rules, dominoes.halves(dominoes.full), cache, budget, node_limit)
        self.counter = counter

    def count(self, cell: int, tilings: frozenset[PartialTiling]) -> int:
        """The completions of the grid from `cell` on, given the partial tilings of the cells before it."""
        if cell == len(self.counter.order):
            return 1 if any(not pending for pending, _ in tilings) else 0
        key = (cell, tilings, *self.states)
        known = self.cache.get(key)
        if known is not None:
            return known
        self.visit()
        pips = self.allowed_pips(cell)
        return self.store(key, 0 if pips is None else self.branch(cell, tilings, pips))

    def allowed_pips(self, cell: int) -> int | None:
        """The pips `cell` may take, or None when some region can no longer hold."""
        rules, states, left = self.rules, self.states, self.left
        supply = rules.supply(tuple(self.halves))
        for other in range(len(left)):
            if left[other] and not rules.allowed_of[other](states[other], left[other], supply):
                return None
        region = self.counter.cell_region[cell]
        return rules.allowed_of[region](states[region], left[region], supply)

    def branch(self, cell: int, tilings: frozenset[PartialTiling], pips: int) -> int:
        """The sum of the completions after each pip `cell` may take, each state updated and put back around
        its branch."""
        states, left, halves = self.states, self.left, self.halves
        region = self.counter.cell_region[cell]
        if cell < self.tracked:
            self.progress.begin(cell, pips.bit_count())
        total = done = 0
        try:
            for pip in set_bits(pips):
                done += 1
                state = self.rules.steps[region](states[region], pip, left[region] - 1)
                if state is FAIL:
                    continue
                following = self.counter.step(tilings, cell, pip)
                if not following:
                    continue
                old, states[region] = states[region], state
                left[region] -= 1
                halves[pip] -= 1
                total += self.count(cell + 1, following)
                halves[pip] += 1
                left[region] += 1
                states[region] = old
                if cell < self.tracked:
                    self.progress.report(cell, done, total)
        except STOPS as stop:
            raise stopped(total, stop, Distinct.GRIDS) from None
        return total
