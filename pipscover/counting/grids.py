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

import sys

from pipscover.counting.progress import Progress, ProgressCallback, tracked_levels
from pipscover.counting.region_states import FAIL, RegionRules
from pipscover.counting.structural import CHECK_EVERY, STOPS, Dominoes, check_search, stopped
from pipscover.counting.tilings import longer_side_order
from pipscover.model import Puzzle
from pipscover.model.geometry import neighbours
from pipscover.model.results import Distinct

# A partial tiling: (pending half-dominoes as sorted (cell, pip) pairs, dominoes left as copy bits).
PartialTiling = tuple[tuple[tuple[int, int], ...], int]


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

    def count(self, deadline: float | None = None, on_progress: ProgressCallback | None = None,
              memory_cap: int | None = None) -> int:
        """The exact number of distinct pip grids. Raises `CountInterrupted` (a lower bound) on timeout or Ctrl-C,
        or once the process holds more than `memory_cap` bytes."""
        rules, cell_region, step = self.rules, self.cell_region, self.step
        steps, allowed_of = rules.steps, rules.allowed_of
        states = rules.initial_states()
        left = list(rules.sizes)
        halves = list(self.dominoes.halves(self.dominoes.full))
        cell_count = len(self.order)
        cache: dict[tuple, int] = {}
        nodes = 0
        progress = Progress(on_progress)
        tracked = tracked_levels(on_progress)

        def search(cell: int, tilings: frozenset[PartialTiling]) -> int:
            nonlocal nodes
            if cell == cell_count:
                return 1 if any(not pending for pending, _ in tilings) else 0
            key = (cell, tilings, *states)
            known = cache.get(key)
            if known is not None:
                return known
            nodes += 1
            if nodes % CHECK_EVERY == 0:
                check_search(nodes, deadline, memory_cap, None)
            supply = rules.supply(tuple(halves))
            for other in range(len(left)):  # a region that can no longer hold ends the branch
                if left[other] and not allowed_of[other](states[other], left[other], supply):
                    cache[key] = 0
                    return 0
            region = cell_region[cell]
            pips = allowed_of[region](states[region], left[region], supply)
            branches, done = pips.bit_count(), 0
            if cell < tracked:
                progress.begin(cell, branches)
            total = 0
            try:
                while pips:
                    low = pips & -pips
                    pips ^= low
                    pip = low.bit_length() - 1
                    done += 1
                    state = steps[region](states[region], pip, left[region] - 1)
                    if state is FAIL:
                        continue
                    following = step(tilings, cell, pip)
                    if not following:
                        continue
                    old = states[region]
                    states[region] = state
                    left[region] -= 1
                    halves[pip] -= 1
                    total += search(cell + 1, following)
                    halves[pip] += 1
                    left[region] += 1
                    states[region] = old
                    if cell < tracked:
                        progress.report(cell, done, total)
            except STOPS as stop:
                raise stopped(total, stop, Distinct.GRIDS) from None
            cache[key] = total
            return total

        limit = sys.getrecursionlimit()
        sys.setrecursionlimit(max(limit, cell_count + 1000))
        try:
            return search(0, frozenset({((), self.dominoes.full)}))
        finally:
            sys.setrecursionlimit(limit)
