"""Making Pips puzzles around a hidden solution, by default with exactly one solution.

1. A board and a tiling: `rect` (a random tiling of a near-square rectangle, mixed by turning 2 x 2
   blocks), `nyt` (a compact blob grown domino by domino) or `random` (a straggly blob grown the same way).
2. Dominoes: distinct ones from the double-`max_pip` set (repeats only when more are asked for than the
   set holds), one per tile, each turned at random: this is the hidden solution.
3. Regions: a random partition of the board into small connected regions, all `empty` at first.
4. Uniqueness: the DLX backend looks for two solutions. While it finds another one, a cell where its pips
   differ from the hidden ones is picked, and the region holding that cell is tightened so that the other
   solution breaks it: an `empty` region gets a rule (`sum`, `equals`, `less`, `greater`, `unequal`, drawn
   with roughly the NYT's frequencies) that the hidden solution keeps and the other breaks; a region whose
   rule cannot be tightened that way becomes `sum`, and then splits into smaller `sum` regions. Regions
   only move forward along empty -> rule -> sum -> split, so this ends. When the other solution has the
   same pips everywhere (another tiling of the same grid), no rule can tell them apart, so hidden
   solutions whose grid has another tiling are drawn again before any region is made.
5. Loosening: neighbouring `sum` regions are merged, and rules dropped, wherever the counter still proves
   one solution; neighbouring regions left without a rule become one `empty` region.

Everything random comes from one `random.Random(seed)`, so the same seed gives the same puzzle.
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from math import isqrt

from pipscover.errors import PipsError
from pipscover.model import Cell, Domino, Origin, Puzzle, Region, RegionKind, Solution, solution_from_grid
from pipscover.results import Status
from pipscover.solving import solve

Pair = tuple[Cell, Cell]
MAX_RESTARTS = 200  # hidden solutions drawn before giving up (most are redrawn for a second tiling)
RULED_AT_START = 0.6  # the share of regions given a rule before the counter is asked
COUNTER_TIMEOUT = 2.0  # seconds per search; past it the generator tightens a region blindly and asks again
# How often each rule is drawn when several would break the other solution (NYT region counts, roughly).
RULE_WEIGHTS = {RegionKind.SUM: 45, RegionKind.EQUALS: 20, RegionKind.GREATER: 9, RegionKind.LESS: 7, RegionKind.UNEQUAL: 2}


class Shape(StrEnum):
    NYT = "nyt"
    RECT = "rect"
    RANDOM = "random"


@dataclass(frozen=True)
class GeneratedPuzzle:
    """A generated puzzle, its hidden solution, and what it took to make."""

    puzzle: Puzzle
    solution: Solution
    unique: bool  # proved by the counter (only when asked for)
    counter_calls: int
    restarts: int
    seconds: float

    @property
    def constrained_regions(self) -> int:
        return sum(region.kind is not RegionKind.EMPTY for region in self.puzzle.regions)


@dataclass
class _Region:
    kind: RegionKind
    cells: list[Cell]
    target: int | None = None


def generate(
    dominoes: int = 8,
    max_pip: int = 6,
    shape: Shape | str = Shape.NYT,
    seed: int = 0,
    unique: bool = True,
    backend: str = "dlx",
) -> GeneratedPuzzle:
    """A puzzle with `dominoes` dominoes around a hidden solution; with `unique`, its only solution.

    >>> made = generate(dominoes=5, seed=7)
    >>> made.unique, len(made.puzzle.dominoes)
    (True, 5)
    """
    if dominoes < 1 or max_pip < 0:
        raise PipsError("generate: needs at least one domino and a maximum pip >= 0")
    shape = Shape(shape)
    rng = random.Random(seed)
    start = time.monotonic()
    calls = 0
    for restart in range(MAX_RESTARTS):
        tiling = _tiling(shape, dominoes, rng)
        grid = _hidden_grid(tiling, _draw_dominoes(dominoes, max_pip, rng), rng)
        hidden = solution_from_grid(tiling, grid)
        if unique:
            calls += 1
            if not _one_tiling(hidden, backend):
                continue
        regions = _partition(sorted(grid), rng)
        for region in regions:  # most NYT regions have a rule; the counter decides what the rest need
            if rng.random() < RULED_AT_START:
                _give_rule(region, grid, None, rng)
        origin = Origin(file=f"generated ({shape}, {dominoes} dominoes, seed {seed})")
        if not unique:
            return GeneratedPuzzle(_build(regions, hidden, origin), hidden, False, 0, restart, time.monotonic() - start)
        while True:
            puzzle = _build(regions, hidden, origin)
            calls += 1
            result = solve(puzzle, backend, limit=2, timeout=COUNTER_TIMEOUT)
            others = [s for s in result.solutions if s != hidden]
            if result.status is Status.TIMEOUT and not others:
                # Rare searches that run long: any rule the hidden solution keeps only removes solutions.
                loose = [r for r in regions if r.kind is not RegionKind.SUM or len(r.cells) > 1]
                if not loose:  # every cell pinned and still no proof: draw another hidden solution
                    break
                region = rng.choice(loose)
                regions.extend(_tighten(region, rng.choice(region.cells), grid, None, rng))
                continue
            if not others:
                regions, checks = _loosen(regions, hidden, origin, backend, rng)
                puzzle = _build(regions, hidden, origin)
                return GeneratedPuzzle(puzzle, hidden, True, calls + checks, restart, time.monotonic() - start)
            other = others[0].grid
            differing = [cell for cell in sorted(grid) if other[cell] != grid[cell]]
            if not differing:  # ruled out by `_one_tiling`, unless a search timed out there
                break
            # Break the other solution where it costs least: a region without a rule, then a rule that can
            # become `sum`, and only then split a `sum` region.
            cost = {c: _tightening_cost(_region_of(regions, c), grid, other) for c in differing}
            cell = rng.choice([c for c in differing if cost[c] == min(cost.values())])
            regions.extend(_tighten(_region_of(regions, cell), cell, grid, other, rng))
    raise PipsError(f"generate: no unique puzzle after {MAX_RESTARTS} hidden solutions (seed {seed})")


def _one_tiling(hidden: Solution, backend: str) -> bool:
    """Whether no other tiling lays the same dominoes into the same pip grid.

    No region rule could tell two such solutions apart, so the generator draws again when there is one.
    """
    pinned = [(RegionKind.SUM, [cell], pip) for cell, pip in hidden.grid.items()]
    dominoes = [placement.domino for placement in hidden.placements]
    result = solve(Puzzle.build(pinned, dominoes), backend, limit=2, timeout=COUNTER_TIMEOUT)
    return result.status is Status.SOLVED and len(result.solutions) == 1


def _loosen(
    regions: list[_Region], hidden: Solution, origin: Origin, backend: str, rng: random.Random
) -> tuple[list[_Region], int]:
    """Merge neighbouring `sum` regions and drop rules wherever the puzzle stays unique (each change proved).

    Returns the regions and how many counter calls that took.
    """
    calls = 0

    def unique_with(candidate: list[_Region]) -> bool:
        nonlocal calls
        calls += 1
        result = solve(_build(candidate, hidden, origin), backend, limit=2, timeout=COUNTER_TIMEOUT)
        return result.status is Status.SOLVED and len(result.solutions) == 1

    for first in rng.sample(regions, len(regions)):
        if first not in regions or first.kind is not RegionKind.SUM:
            continue
        for second in [r for r in regions if r is not first and r.kind is RegionKind.SUM and _touch(first, r)]:
            merged = _Region(RegionKind.SUM, first.cells + second.cells, first.target + second.target)
            candidate = [r for r in regions if r is not first and r is not second] + [merged]
            if unique_with(candidate):
                regions = candidate
                break
    for region in rng.sample(regions, len(regions)):
        if region.kind is not RegionKind.EMPTY:
            candidate = [r if r is not region else _Region(RegionKind.EMPTY, r.cells) for r in regions]
            if unique_with(candidate):
                regions = candidate
    # Neighbouring regions without a rule are one region: their borders change no solution.
    ruled = [r for r in regions if r.kind is not RegionKind.EMPTY]
    empty = _components([c for r in regions if r.kind is RegionKind.EMPTY for c in r.cells])
    return ruled + [_Region(RegionKind.EMPTY, cells) for cells in empty], calls


def _touch(first: _Region, second: _Region) -> bool:
    return any(n in second.cells for c in first.cells for n in _neighbours(c))


def _region_of(regions: Sequence[_Region], cell: Cell) -> _Region:
    return next(region for region in regions if cell in region.cells)


def _tightening_cost(region: _Region, grid: dict[Cell, int], other: dict[Cell, int]) -> int:
    if region.kind is RegionKind.EMPTY:
        return 0
    keeps_sum = sum(grid[c] for c in region.cells) == sum(other[c] for c in region.cells)
    return 2 if region.kind is RegionKind.SUM or keeps_sum else 1


def _build(regions: Sequence[_Region], hidden: Solution, origin: Origin) -> Puzzle:
    dominoes = [placement.domino for placement in hidden.placements]
    return Puzzle.build(((r.kind, r.cells, r.target) for r in regions), dominoes, origin, hidden)


def _tighten(
    region: _Region, cell: Cell, grid: dict[Cell, int], other: dict[Cell, int] | None, rng: random.Random
) -> list[_Region]:
    """Make `region` break the `other` pips (any tighter rule when `other` is None, from `cell` on).

    Returns the regions split off it, if any.
    """
    if region.kind is RegionKind.EMPTY and _give_rule(region, grid, other, rng):
        return []
    hidden_sum = sum(grid[c] for c in region.cells)
    if region.kind is not RegionKind.SUM and (other is None or hidden_sum != sum(other[c] for c in region.cells)):
        region.kind, region.target = RegionKind.SUM, hidden_sum
        return []
    # A sum both solutions keep: split off a connected part around `cell`, each part keeping its own sum.
    part = _grow([cell], set(region.cells), max(1, len(region.cells) // 2), rng)
    pieces = [part, *_components([c for c in region.cells if c not in part])]
    region.kind, region.cells, region.target = RegionKind.SUM, pieces[0], sum(grid[c] for c in pieces[0])
    return [_Region(RegionKind.SUM, piece, sum(grid[c] for c in piece)) for piece in pieces[1:]]


def _give_rule(region: _Region, grid: dict[Cell, int], other: dict[Cell, int] | None, rng: random.Random) -> bool:
    """Give an `empty` region a rule the hidden pips keep (and the `other` pips break, when given)."""
    values = [grid[c] for c in region.cells]
    total = sum(values)
    choices: dict[RegionKind, int | None] = {RegionKind.SUM: total}
    if len(values) > 1 and len(set(values)) == 1:
        choices[RegionKind.EQUALS] = None
    if len(values) > 1 and len(set(values)) == len(values):
        choices[RegionKind.UNEQUAL] = None
    if other is None:
        choices[RegionKind.LESS] = total + rng.randint(1, 3)
        if total > 0:
            choices[RegionKind.GREATER] = total - rng.randint(1, min(3, total))
    else:
        theirs = [other[c] for c in region.cells]
        if sum(theirs) > total:
            choices[RegionKind.LESS] = rng.randint(total + 1, sum(theirs))
        if sum(theirs) < total:
            choices[RegionKind.GREATER] = rng.randint(sum(theirs), total - 1)
        choices = {kind: target for kind, target in choices.items() if not Region(kind, (), target).holds(theirs)}
    if not choices:
        return False
    kinds = sorted(choices)
    kind = rng.choices(kinds, weights=[RULE_WEIGHTS[k] for k in kinds])[0]
    region.kind, region.target = kind, choices[kind]
    return True


def _draw_dominoes(count: int, max_pip: int, rng: random.Random) -> list[Domino]:
    every = [(a, b) for a in range(max_pip + 1) for b in range(a, max_pip + 1)]
    drawn = rng.sample(every, min(count, len(every)))
    drawn += rng.choices(every, k=count - len(drawn))
    return drawn


def _hidden_grid(tiling: Sequence[Pair], dominoes: Sequence[Domino], rng: random.Random) -> dict[Cell, int]:
    grid = {}
    for (first, second), domino in zip(tiling, dominoes):
        grid[first], grid[second] = domino if rng.random() < 0.5 else domino[::-1]
    return grid


def _tiling(shape: Shape, count: int, rng: random.Random) -> list[Pair]:
    tiles = _rectangle_tiling(count, rng) if shape is Shape.RECT else _grown_tiling(count, shape is Shape.NYT, rng)
    top = min(r for pair in tiles for r, _ in pair)
    left = min(c for pair in tiles for _, c in pair)
    return [((a[0] - top, a[1] - left), (b[0] - top, b[1] - left)) for a, b in tiles]


def _rectangle_tiling(count: int, rng: random.Random) -> list[Pair]:
    """A rows x columns rectangle of 2*count cells, as square as possible, tiled at random."""
    area = 2 * count
    rows = max(r for r in range(1, isqrt(area) + 1) if area % r == 0)
    columns = area // rows
    if columns % 2 == 0:
        tiles = {((r, c), (r, c + 1)) for r in range(rows) for c in range(0, columns, 2)}
    else:
        tiles = {((r, c), (r + 1, c)) for r in range(0, rows, 2) for c in range(columns)}
    for _ in range(20 * count):  # turn a 2 x 2 block covered by two parallel dominoes
        r, c = rng.randrange(max(1, rows - 1)), rng.randrange(max(1, columns - 1))
        across = (((r, c), (r, c + 1)), ((r + 1, c), (r + 1, c + 1)))
        down = (((r, c), (r + 1, c)), ((r, c + 1), (r + 1, c + 1)))
        for old, new in ((across, down), (down, across)):
            if all(t in tiles for t in old):
                tiles.difference_update(old)
                tiles.update(new)
                break
    return sorted(tiles)


def _grown_tiling(count: int, compact: bool, rng: random.Random) -> list[Pair]:
    """Dominoes added one by one beside the board; `compact` prefers spots with many neighbours."""
    tiles: list[Pair] = [((0, 0), (0, 1))]
    board = {(0, 0), (0, 1)}
    while len(tiles) < count:
        spots = sorted(
            {
                (min(cell, other), max(cell, other))
                for a in board
                for cell in _neighbours(a)
                if cell not in board
                for other in _neighbours(cell)
                if other not in board
            }
        )
        weights = [(1 + sum(n in board for c in spot for n in _neighbours(c))) ** 3 if compact else 1 for spot in spots]
        spot = rng.choices(spots, weights=weights)[0]
        tiles.append(spot)
        board.update(spot)
    return tiles


def _partition(cells: list[Cell], rng: random.Random) -> list[_Region]:
    """Small connected regions (1 to 5 cells, pairs most often) covering the board, all `empty`."""
    free = set(cells)
    regions = []
    for cell in cells:
        if cell in free:
            part = _grow([cell], free, rng.choices((1, 2, 3, 4, 5), weights=(2, 4, 3, 2, 1))[0], rng)
            free.difference_update(part)
            regions.append(_Region(RegionKind.EMPTY, part))
    return regions


def _grow(part: list[Cell], allowed: set[Cell], size: int, rng: random.Random) -> list[Cell]:
    """`part` grown at random through `allowed` cells to `size` cells (fewer if it runs out of room)."""
    part = list(part)
    while len(part) < size:
        frontier = sorted({n for c in part for n in _neighbours(c) if n in allowed and n not in part})
        if not frontier:
            break
        part.append(rng.choice(frontier))
    return part


def _components(cells: list[Cell]) -> list[list[Cell]]:
    """The connected pieces of a set of cells."""
    left, found = set(cells), []
    while left:
        component, stack = set(), [min(left)]
        while stack:
            cell = stack.pop()
            if cell in left:
                left.discard(cell)
                component.add(cell)
                stack.extend(_neighbours(cell))
        found.append(sorted(component))
    return found


def _neighbours(cell: Cell) -> tuple[Cell, ...]:
    r, c = cell
    return ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1))
