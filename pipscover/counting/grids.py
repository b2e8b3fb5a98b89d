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

from functools import partial

from pipscover.counting.budget import UNLIMITED, Budget
from pipscover.counting.region_states import FAIL, RegionRules
from pipscover.counting.search import STOPS, Search, stopped
from pipscover.counting.structural import Dominoes
from pipscover.counting.tilings import longer_side_order, set_bits
from pipscover.model import Puzzle
from pipscover.model.geometry import neighbours
from pipscover.model.results import Distinct
from pipscover.runtime.limits import guard

# A partial tiling: (pending half-dominoes as sorted (cell, pip) pairs, dominoes left as copy bits).
PartialTiling = tuple[tuple[tuple[int, int], ...], int]


def guard_grid_counter(puzzle: Puzzle, deadline: float | None) -> None:
    """Refuse a board too big for the grid counter. Its residual subproblems are keyed by a bit mask of the
    uncovered cells: about one per cell on a long board. (The placements counter guards itself once it needs
    such masks: `StructuralCounter.cell_tables`.)"""
    cells = len(puzzle.cells)
    guard(puzzle, "the grid counter", needs_bytes=cells * cells // 4, steps=cells * cells, deadline=deadline)


class GridCounter:
    """The grid-counting search for one puzzle; `count()` gives the number of distinct pip grids."""

    def __init__(self, puzzle: Puzzle) -> None:
        self.rules = RegionRules(puzzle)
        self.order = longer_side_order(puzzle.cells)  # few half-dominoes are ever pending
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

    def count(self, budget: Budget = UNLIMITED) -> int:
        """The exact number of distinct pip grids. Raises `CountInterrupted` (a lower bound) at the budget's
        deadline or on Ctrl-C, or once the process holds more than its memory cap."""
        search = GridSearch(self, budget)
        return search.run(partial(search.count, 0, frozenset({((), self.dominoes.full)})), len(self.order))


class GridSearch(Search):
    """One count of distinct grids, in the steps of `pipscover.counting.search`: look up the cell, its partial
    tilings and the region states; prune when a region can no longer hold; branch on the pips the cell may
    take; store. (No closed form: pips on free cells still tell grids apart.)"""

    def __init__(self, counter: GridCounter, budget: Budget) -> None:
        dominoes = counter.dominoes
        super().__init__(counter.rules, dominoes.halves(dominoes.full), {}, budget)
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
