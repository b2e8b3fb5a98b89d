"""Local search for one solution: min-conflicts moves over complete placements, taken by the Metropolis rule.

Why: boards past the NYT's size, such as the planted ones of `pipscover.generate.planted`, have solutions in
astronomical numbers (a planted 2 x 20 strip of distinct dominoes has more than 10^10), yet the complete
engines can be trapped on them: dlx backtracks in one corner of a 2 x 200 strip for minutes, each of its
search nodes costing milliseconds, and CDCL solvers drown in the CNF of a long strip. A walk over complete
placements does not care how many dominoes there are, only how far the regions are from holding.

The state is a tiling of the board (a perfect matching of its cells, from networkx's Hopcroft-Karp) with one
domino on each tile, so that every cell is covered once and every domino is used; its cost is the sum over
the regions of how far each is from keeping its rule (`RegionRule.violation`, 0 exactly when it holds). A
move starts from a random cell of a random region that does not hold (min-conflicts, Minton et al. 1992) and
changes its tile: it swaps the two dominoes of that tile and a random other one, or turns the domino round,
or turns a 2 x 2 square made of that tile and a parallel neighbour the other way, which changes the tiling.
A move that costs no more is taken; one that costs `d` more is taken with probability exp(-d / TEMPERATURE),
so the walk leaves a local minimum (simulated annealing at a fixed temperature). Cost 0 is a solution.

It is incomplete: it finds one solution, or gives up after its budget of moves; it never proves that a puzzle
has none, except when the board has no tiling at all. The same seed and budget make the same moves on any
machine. Measured on 165 planted boards, 8 x 8 to 20 x 20 and 2 x 300 (encodings/local-search.md): every one
solves within 50 moves per domino.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TypeVar

from pipscover.model import Cell, Placement, Puzzle, Solution
from pipscover.model.results import SearchTimeout
from pipscover.runtime.deadlines import CLOCK_EVERY, has_passed
from pipscover.runtime.recursion import room_for

TEMPERATURE = 0.5  # a move that costs 1 more is taken 14% of the time, 2 more 2%
UPHILL_LIMIT = 20  # a move that costs more is never taken (exp(-40) is 4e-18), nor turned into a float
TURN_SQUARE, TURN_DOMINO = 0.1, 0.1  # the share of moves that turn a 2 x 2 square, or one domino round

Tile = list[int]  # two cell indices
Either = TypeVar("Either")  # what a move swaps either way round: two pips, or two pairs of pips


def board_tiling(puzzle: Puzzle) -> list[tuple[Cell, Cell]] | None:
    """A tiling of the board by dominoes (any one), or None when it has none, and so the puzzle no solution.

    >>> from pipscover import load_one
    >>> len(board_tiling(load_one("examples/first.txt"))) == len(load_one("examples/first.txt").dominoes)
    True
    """
    import networkx as nx  # lazy: the CLI starts without it

    graph = nx.Graph()
    graph.add_nodes_from(puzzle.cells)
    graph.add_edges_from(puzzle.adjacent_pairs)
    black = [cell for cell in puzzle.cells if (cell[0] + cell[1]) % 2 == 0]  # a grid graph is bipartite
    with room_for(len(black)):  # (its augmenting paths are searched depth first, by recursion)
        matching = nx.bipartite.hopcroft_karp_matching(graph, black)
    if 2 * len(black) != len(puzzle.cells) or any(cell not in matching for cell in black):
        return None
    return [(cell, matching[cell]) for cell in black]


@dataclass(frozen=True)
class LocalBoard:
    """What every walk on one puzzle shares, built once: cells as indices, their neighbours, a tiling, and the
    regions' cells, sizes, rules and targets."""

    puzzle: Puzzle
    neighbours: tuple[tuple[int, ...], ...]
    tiling: tuple[tuple[int, int], ...]
    region_of: tuple[int, ...]
    members: tuple[tuple[int, ...], ...]

    @classmethod
    def of(cls, puzzle: Puzzle) -> LocalBoard | None:
        """The board of `puzzle`, or None when it has no tiling (and so the puzzle no solution)."""
        tiling = board_tiling(puzzle)
        if tiling is None:
            return None
        index = {cell: i for i, cell in enumerate(puzzle.cells)}
        neighbours: list[list[int]] = [[] for _ in index]
        for a, b in puzzle.adjacent_pairs:
            neighbours[index[a]].append(index[b])
            neighbours[index[b]].append(index[a])
        members = tuple(tuple(index[cell] for cell in region.cells) for region in puzzle.regions)
        region_of = [0] * len(index)
        for number, cells_of in enumerate(members):
            for cell in cells_of:
                region_of[cell] = number
        return cls(puzzle, tuple(map(tuple, neighbours)), tuple((index[a], index[b]) for a, b in tiling),
                   tuple(region_of), members)


def walk(board: LocalBoard, seed: int, moves: int, deadline: float | None = None) -> Solution | None:
    """A solution found within `moves` moves from a random placement of the dominoes on the board's tiling,
    or None.

    Raises `SearchTimeout` once `time.monotonic()` passes `deadline`.
    """
    rng = random.Random(seed)
    state = _Walk(board, rng)
    # A move starts from a random cell of a region that does not hold; its tile's change is proposed, then
    # taken or not. (The state's lists, bound here once, change in place.)
    failing, members, tile_of = state.failing, board.members, state.tile_of
    propose, settle = state.propose, state.settle
    for move in range(moves):
        if not failing:
            break
        if move % CLOCK_EVERY == 0 and has_passed(deadline):
            raise SearchTimeout
        proposed = propose(tile_of[rng.choice(members[failing.choice(rng)])])
        if proposed is not None:
            settle(*proposed)
    return state.solution()


Change = list[tuple[int, int]]  # (cell, the pip a move puts on it), for each cell it changes
Turn = tuple[int, int, Tile, Tile]  # a turned 2 x 2 square: its two tiles' numbers, then their new cells


class _Walk:
    """One walk's state: a pip on every cell, the tiles they lie on (`tile_of` each cell's), and each region's
    sum, pip counts and cost, with the regions that do not hold (`failing`)."""

    def __init__(self, board: LocalBoard, rng: random.Random) -> None:
        """Every domino laid on a tile of the board's tiling, in a random order and either way round."""
        self.board, self.rng = board, rng
        cells = board.puzzle.cells
        self.tiles: list[Tile] = [list(tile) for tile in board.tiling]
        self.tile_of = [0] * len(cells)
        for number, (a, b) in enumerate(self.tiles):
            self.tile_of[a] = self.tile_of[b] = number
        self.value = [0] * len(cells)
        dominoes = list(board.puzzle.dominoes)
        rng.shuffle(dominoes)
        for (a, b), (first, second) in zip(self.tiles, dominoes):
            self.value[a], self.value[b] = (first, second) if rng.random() < 0.5 else (second, first)
        regions, members = board.puzzle.regions, board.members
        self.violations = [region.rule.violation for region in regions]
        self.targets = [region.target for region in regions]
        self.sizes = [len(cells_of) for cells_of in members]
        self.totals = [sum(self.value[cell] for cell in cells_of) for cells_of in members]
        self.counts = [Counter(self.value[cell] for cell in cells_of) for cells_of in members]
        self.cost = [self.region_cost(r) for r in range(len(regions))]
        self.failing = _IndexedSet(r for r in range(len(regions)) if self.cost[r])

    def region_cost(self, region: int) -> int:
        """How far `region` is from keeping its rule now."""
        return self.violations[region](self.sizes[region], self.totals[region], self.counts[region],
                                       self.targets[region])

    def propose(self, tile: int) -> tuple[Change, Turn | None] | None:
        """A move of `tile`: turn a 2 x 2 square, turn its domino round, or swap its domino with another
        tile's; None when the drawn move cannot be made."""
        value, tiles = self.value, self.tiles
        a, b = tiles[tile]
        kind = self.rng.random()
        if kind < TURN_SQUARE:
            return self.turn_square(tile)
        if kind < TURN_SQUARE + TURN_DOMINO:
            return [(a, value[b]), (b, value[a])], None
        other = self.rng.randrange(len(tiles))
        if other == tile:
            return None
        x, y = tiles[other]
        (pa, pb), (px, py) = self.either_way((value[x], value[y])), self.either_way((value[a], value[b]))
        return [(a, pa), (b, pb), (x, px), (y, py)], None

    def turn_square(self, tile: int) -> tuple[Change, Turn] | None:
        """`tile`, a-b, and a parallel neighbour x-y turned into a-x and b-y, the four pips dealt at random;
        None when the tile has no parallel neighbour."""
        neighbours, tiles, tile_of, value = self.board.neighbours, self.tiles, self.tile_of, self.value
        a, b = tiles[tile]
        squares = [(x, y) for x in neighbours[a] if x != b for y in tiles[tile_of[x]] if y != x and y in neighbours[b]]
        if not squares:
            return None
        x, y = self.rng.choice(squares)
        first_pair, second_pair = self.either_way(((value[a], value[b]), (value[x], value[y])))
        (pa, px), (pb, py) = self.either_way(first_pair), self.either_way(second_pair)
        return [(a, pa), (x, px), (b, pb), (y, py)], (tile, tile_of[x], [a, x], [b, y])

    def either_way(self, pair: tuple[Either, Either]) -> tuple[Either, Either]:
        return pair if self.rng.random() < 0.5 else (pair[1], pair[0])

    def settle(self, changes: Change, turned: Turn | None) -> None:
        """Make the move, and keep it when it costs no more, or more by the Metropolis rule; else undo it."""
        value, cost, region_of = self.value, self.cost, self.board.region_of
        violations, sizes, totals, counts, targets = self.violations, self.sizes, self.totals, self.counts, self.targets
        undo = [(cell, value[cell]) for cell, _ in changes]
        self.assign(changes)
        touched = {region_of[cell] for cell, _ in changes}
        new_cost = {r: violations[r](sizes[r], totals[r], counts[r], targets[r]) for r in touched}
        worse = sum(new_cost[r] - cost[r] for r in touched)
        if not (worse <= 0 or (worse <= UPHILL_LIMIT and self.rng.random() < math.exp(-worse / TEMPERATURE))):
            self.assign(undo)
            return
        failing = self.failing
        for r, c in new_cost.items():
            cost[r] = c
            if c:
                failing.add(r)
            else:
                failing.discard(r)
        if turned is not None:
            tile, other, first, second = turned
            self.tiles[tile], self.tiles[other] = first, second
            for number in (tile, other):
                for member in self.tiles[number]:
                    self.tile_of[member] = number

    def assign(self, changes: Change) -> None:
        """Put each pip on its cell, keeping the regions' sums and pip counts."""
        value, totals, counts, region_of = self.value, self.totals, self.counts, self.board.region_of
        for cell, pip in changes:
            old = value[cell]
            region = region_of[cell]
            totals[region] += pip - old
            tally = counts[region]
            if tally[old] == 1:
                del tally[old]
            else:
                tally[old] -= 1
            tally[pip] += 1
            value[cell] = pip

    def solution(self) -> Solution | None:
        """The solution the walk stands on, or None while a region does not hold."""
        if self.failing:
            return None
        cells, value = self.board.puzzle.cells, self.value
        return Solution(tuple(Placement((value[a], value[b]), (cells[a], cells[b])) for a, b in self.tiles))


class _IndexedSet:
    """A set of ints with O(1) add, discard and uniform random choice (a list plus positions)."""

    def __init__(self, items: Iterable[int] = ()) -> None:
        self.items: list[int] = []
        self.position: dict[int, int] = {}
        for item in items:
            self.add(item)

    def __bool__(self) -> bool:
        return bool(self.items)

    def add(self, item: int) -> None:
        if item not in self.position:
            self.position[item] = len(self.items)
            self.items.append(item)

    def discard(self, item: int) -> None:
        where = self.position.pop(item, None)
        if where is None:
            return
        last = self.items.pop()
        if where < len(self.items):
            self.items[where] = last
            self.position[last] = where

    def choice(self, rng: random.Random) -> int:
        return self.items[rng.randrange(len(self.items))]
