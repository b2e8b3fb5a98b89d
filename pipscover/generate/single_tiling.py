"""Laying a puzzle's hidden dominoes so that no other tiling fits their pip grid.

Region rules see pips only, so two solutions with one pip grid and two tilings cannot be told apart: a
generated puzzle can only have one solution if its hidden grid has one tiling. With many repeated dominoes
(100 dominoes from the 28 of the double six) a random grid has a vast number of other tilings, and
repairing them one at a time, by swapping the dominoes of a tile that another tiling breaks, stopped
converging past 60 dominoes.

So the grid is laid against a certificate instead. Rank the kinds of domino. Call a pair of neighbouring
cells from two tiles *open* when it shows a kind of the set ranked no later than both tiles' kinds. With no
open pair the tiling is forced, kind by kind in rank order: the copies of the first kind can only lie on
its own tiles, since every other pair showing it is closed, which means one of its cells belongs to a
tile of an earlier kind, already forced. Counting open pairs is local (a move changes only the pairs
around the tiles it touches), so simulated annealing over the dominoes' places, their turns and the
ranking drives the count to zero: 100 dominoes of the double six in 0.2 s on average.

`other_tiling` answers the question exactly, for a grid the annealing leaves with open pairs.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Sequence

from pipscover.model import Cell, Domino, Solution, solution_from_grid
from pipscover.model.geometry import forward_neighbours
from pipscover.model.results import SearchTimeout
from pipscover.runtime.deadlines import CLOCK_EVERY, has_passed
from pipscover.runtime.pysat_pool import thread_safe_formulas

Pair = tuple[Cell, Cell]
MOVES_PER_DOMINO = 1_000  # annealing moves before the grid is left to `other_tiling`
# A move adding one open pair is taken with probability e^(-1/T); moves that keep the count are always taken.
# Open pairs left after 1,000 moves per domino, rect boards of 100 dominoes (double six) over seeds 1-8:
# T = 0.6: 18-25 on every board; 0.4: none on 2 of 8; 0.25: none on all 8 in 4.1 s; 0.1: none on all 8 in
# 1.8 s (200 dominoes: 14.7 s, and as fast with distinct dominoes, pips up to 13).
TEMPERATURE = 0.1
RANKING_MOVES = 0.1  # the share of moves that change the ranking rather than the grid


def shown(grid: dict[Cell, int], pair: Pair) -> Domino:
    """The domino whose pips lie on `pair`, smaller pip first."""
    first, second = sorted((grid[pair[0]], grid[pair[1]]))
    return first, second


class _Layout:
    """The hidden tiles, the cross pairs between them, a ranking of the kinds, and which cross pairs are open."""

    def __init__(self, tiling: Sequence[Pair], grid: dict[Cell, int], rng: random.Random) -> None:
        self.tiling, self.grid = tiling, grid
        tile_of = {cell: index for index, pair in enumerate(tiling) for cell in pair}
        self.cross = [
            (cell, other, tile_of[cell], tile_of[other])
            for cell in sorted(tile_of)
            for other in forward_neighbours(cell)
            if other in tile_of and tile_of[other] != tile_of[cell]
        ]
        self.around: list[list[int]] = [[] for _ in tiling]  # the cross pairs touching each tile
        for index, (_, _, first, second) in enumerate(self.cross):
            self.around[first].append(index)
            self.around[second].append(index)
        counts = Counter(shown(grid, pair) for pair in tiling)
        self.order = sorted(counts, key=lambda kind: (-counts[kind], kind))  # many copies first: they close most
        self.rank = {kind: place for place, kind in enumerate(self.order)}
        self.rng = rng

    def is_open(self, index: int) -> bool:
        cell, other, first, second = self.cross[index]
        rank = self.rank.get(shown(self.grid, (cell, other)))
        return rank is not None and rank <= min(self.rank[shown(self.grid, self.tiling[first])],
                                                self.rank[shown(self.grid, self.tiling[second])])

    def open_pairs(self) -> int:
        return sum(map(self.is_open, range(len(self.cross))))

    def anneal(self, moves: int, deadline: float | None) -> int:
        """Lay the dominoes (same tiles, same dominoes) towards no open pair; returns the open pairs left."""
        rng, grid, tiling = self.rng, self.grid, self.tiling
        count = self.open_pairs()
        for move in range(moves):
            if count == 0:
                break
            if move % CLOCK_EVERY == 0 and has_passed(deadline):
                raise SearchTimeout
            if len(self.order) > 1 and rng.random() < RANKING_MOVES:
                count = self._move_in_ranking(count)
                continue
            first = self._tile_to_move()
            second = rng.randrange(len(tiling))
            touched = set(self.around[first]) | set(self.around[second])
            before = sum(map(self.is_open, touched))
            kept = {cell: grid[cell] for cell in (*tiling[first], *tiling[second])}
            self._swap(first, second)
            change = sum(map(self.is_open, touched)) - before
            if self._accept(change):
                count += change
            else:
                grid.update(kept)
        return count

    def _tile_to_move(self) -> int:
        """Half the time a tile beside an open pair (a few tries to find one), else any tile."""
        rng = self.rng
        if rng.random() < 0.5:
            for _ in range(20):
                index = rng.randrange(len(self.cross))
                if self.is_open(index):
                    _, _, first, second = self.cross[index]
                    return (first, second)[rng.randrange(2)]
        return rng.randrange(len(self.tiling))

    def _swap(self, first: int, second: int) -> None:
        """Swap two tiles' dominoes, each laid either way round; a tile with itself is turned round."""
        grid, rng = self.grid, self.rng
        (a, b), (c, d) = self.tiling[first], self.tiling[second]
        if first == second:
            grid[a], grid[b] = grid[b], grid[a]
            return
        one, two = (grid[a], grid[b]), (grid[c], grid[d])
        grid[a], grid[b] = two if rng.random() < 0.5 else two[::-1]
        grid[c], grid[d] = one if rng.random() < 0.5 else one[::-1]

    def _move_in_ranking(self, count: int) -> int:
        """Swap two neighbours in the ranking, kept when the annealing accepts the change."""
        place = self.rng.randrange(len(self.order) - 1)
        self._swap_ranks(place)
        now = self.open_pairs()
        if self._accept(now - count):
            return now
        self._swap_ranks(place)
        return count

    def _swap_ranks(self, place: int) -> None:
        order = self.order
        order[place], order[place + 1] = order[place + 1], order[place]
        self.rank[order[place]], self.rank[order[place + 1]] = place, place + 1

    def _accept(self, change: int) -> bool:
        return change <= 0 or self.rng.random() < math.exp(-change / TEMPERATURE)


def lay_single_tiling(
    tiling: Sequence[Pair], grid: dict[Cell, int], rng: random.Random, deadline: float | None = None
) -> bool:
    """Rearrange the dominoes of `grid` (one per tile of `tiling`, each either way round) until no other
    tiling lays them into it; False when `MOVES_PER_DOMINO` annealing moves per domino did not do it.
    `SearchTimeout` once `deadline` passes.

    >>> tiling = [((0, 0), (0, 1)), ((1, 0), (1, 1))]
    >>> grid = {(0, 0): 1, (0, 1): 1, (1, 0): 1, (1, 1): 1}  # two 1-1: upright fits as well
    >>> lay_single_tiling(tiling, grid, random.Random(0))
    False
    >>> grid = {(0, 0): 1, (0, 1): 2, (1, 0): 2, (1, 1): 1}  # 1-2 over 2-1: upright fits as well
    >>> lay_single_tiling(tiling, grid, random.Random(0))  # one is turned round: 1-1 and 2-2 upright
    True
    >>> grid[(0, 0)] == grid[(1, 0)]
    True
    """
    if _Layout(tiling, grid, rng).anneal(MOVES_PER_DOMINO * len(tiling), deadline) == 0:
        return True
    return other_tiling(solution_from_grid(tiling, grid)) is None


def other_tiling(hidden: Solution) -> Solution | None:
    """A tiling other than `hidden`'s that lays its dominoes into its pip grid, or None.

    With the pips fixed, each pair of neighbouring cells can only carry the domino its pips show, so the
    question is a small CNF of its own (a variable per pair; one pair per cell; each domino as often as in
    `hidden`), answered in milliseconds where the whole board's session took seconds on 100 dominoes.
    """
    from pysat.card import CardEnc, EncType  # lazy: importing pysat.card costs every CLI command time
    from pysat.solvers import Solver

    thread_safe_formulas()
    grid = hidden.grid
    pairs = [(a, b) for a in sorted(grid) for b in forward_neighbours(a) if b in grid]
    counts = Counter(shown(grid, pair) for pair in (p.cells for p in hidden.placements))
    pairs = [pair for pair in pairs if shown(grid, pair) in counts]
    by_cell: dict[Cell, list[int]] = {cell: [] for cell in grid}
    by_domino: dict[Domino, list[int]] = {domino: [] for domino in counts}
    for var, pair in enumerate(pairs, start=1):
        by_domino[shown(grid, pair)].append(var)
        for cell in pair:
            by_cell[cell].append(var)
    var_of = {pair: var for var, pair in enumerate(pairs, start=1)}
    clauses = [[-var_of[p.cells] for p in hidden.placements]]
    top = len(pairs)
    constraints = [(literals, 1) for _, literals in sorted(by_cell.items())]
    constraints += [(literals, counts[domino]) for domino, literals in sorted(by_domino.items())]
    for literals, count in constraints:
        card = CardEnc.equals(literals, bound=count, top_id=top, encoding=EncType.seqcounter)
        clauses += card.clauses
        top = max(top, card.nv)
    with Solver(name="cadical195", bootstrap_with=clauses) as solver:
        if not solver.solve():
            return None
        chosen = [pairs[lit - 1] for lit in solver.get_model() if 0 < lit <= len(pairs)]
    return solution_from_grid(chosen, grid)
