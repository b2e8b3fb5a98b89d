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
    puzzle, neighbours, region_of, members = board.puzzle, board.neighbours, board.region_of, board.members
    cells = puzzle.cells
    tiles: list[Tile] = [list(tile) for tile in board.tiling]
    tile_of = [0] * len(cells)
    for number, (a, b) in enumerate(tiles):
        tile_of[a] = tile_of[b] = number
    value = [0] * len(cells)
    dominoes = list(puzzle.dominoes)
    rng.shuffle(dominoes)
    for (a, b), (first, second) in zip(tiles, dominoes):
        value[a], value[b] = (first, second) if rng.random() < 0.5 else (second, first)

    regions = puzzle.regions
    violations = [region.rule.violation for region in regions]
    targets = [region.target for region in regions]
    sizes = [len(cells_of) for cells_of in members]
    totals = [sum(value[cell] for cell in cells_of) for cells_of in members]
    counts = [Counter(value[cell] for cell in cells_of) for cells_of in members]
    cost = [violations[r](sizes[r], totals[r], counts[r], targets[r]) for r in range(len(regions))]
    failing = _IndexedSet(r for r in range(len(regions)) if cost[r])

    def assign(changes: list[tuple[int, int]]) -> None:
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

    def either_way(pair: tuple[Either, Either]) -> tuple[Either, Either]:
        return pair if rng.random() < 0.5 else (pair[1], pair[0])

    for move in range(moves):
        if not failing:
            break
        if move % CLOCK_EVERY == 0 and has_passed(deadline):
            raise SearchTimeout
        cell = rng.choice(members[failing.choice(rng)])
        tile = tile_of[cell]
        a, b = tiles[tile]
        kind = rng.random()
        turned: tuple[int, Tile, Tile] | None = None
        if kind < TURN_SQUARE:
            squares = [
                (x, y) for x in neighbours[a] if x != b for y in tiles[tile_of[x]] if y != x and y in neighbours[b]
            ]
            if not squares:
                continue
            x, y = rng.choice(squares)
            first_pair, second_pair = either_way(((value[a], value[b]), (value[x], value[y])))
            (pa, px), (pb, py) = either_way(first_pair), either_way(second_pair)
            changes = [(a, pa), (x, px), (b, pb), (y, py)]
            turned = (tile_of[x], [a, x], [b, y])
        elif kind < TURN_SQUARE + TURN_DOMINO:
            changes = [(a, value[b]), (b, value[a])]
        else:
            other = rng.randrange(len(tiles))
            if other == tile:
                continue
            x, y = tiles[other]
            (pa, pb), (px, py) = either_way((value[x], value[y])), either_way((value[a], value[b]))
            changes = [(a, pa), (b, pb), (x, px), (y, py)]
        undo = [(cell, value[cell]) for cell, _ in changes]
        assign(changes)
        touched = {region_of[cell] for cell, _ in changes}
        new_cost = {r: violations[r](sizes[r], totals[r], counts[r], targets[r]) for r in touched}
        worse = sum(new_cost[r] - cost[r] for r in touched)
        if worse <= 0 or (worse <= UPHILL_LIMIT and rng.random() < math.exp(-worse / TEMPERATURE)):
            for r, c in new_cost.items():
                cost[r] = c
                if c:
                    failing.add(r)
                else:
                    failing.discard(r)
            if turned is not None:
                other, tiles[tile], tiles[other] = turned
                for number in (tile, other):
                    for member in tiles[number]:
                        tile_of[member] = number
        else:
            assign(undo)
    if failing:
        return None
    return Solution(tuple(Placement((value[a], value[b]), (cells[a], cells[b])) for a, b in tiles))


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
