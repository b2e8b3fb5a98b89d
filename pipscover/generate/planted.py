"""Planted puzzles: a random solution first, then regions read off it, so the puzzle is solvable by construction.

Unlike `pipscover.generate.generator`, nothing here asks a solver anything, so a board costs
milliseconds at the NYT's sizes (a second or more at 100 x 100; past what memory holds, about two million cells, it
is refused) and the same seed gives the same puzzle on any machine (everything random comes from one
`random.Random(seed)`). The puzzles are not unique; they are made to time solvers beyond the NYT's size
(`SCALE_SUITE`, the scale benchmark of encodings/exact-cover.md).

1. A tiling of a `rows x columns` rectangle: all dominoes lying along the longer side, then many random turns
   of 2 x 2 blocks covered by two parallel dominoes (the turns connect every tiling of a rectangle).
2. Pips: `repeated` dominoes have both pips drawn uniformly from 0..max_pip, so they repeat (the NYT's
   kind at size 8 x 8 and beyond); `distinct` dominoes are drawn without replacement from the double-max_pip
   set. Each is laid on its tile turned at random.
3. Regions of about `REGION_SIZE` cells: a kind drawn uniformly from all kinds, then grown at random from the
   first free cell through free cells that keep the planted pips within the kind (`RegionRule.planted_grows`;
   `equals`: the same pip, `unequal`: a pip not in the region yet). The kind reads the target off the
   planted pips (`RegionRule.planted_targets`): `sum` is the region's sum, `less` / `greater` miss it by a
   random slack; a kind that cannot hold on them gives way to its `planted_instead` (a `greater` with sum 0
   is a `less`).
"""

from __future__ import annotations

import bisect
import random
from dataclasses import dataclass

from pipscover.errors import Choice, PipsError, brief, counted
from pipscover.model import Cell, Domino, Origin, Puzzle, RegionKind, Solution, solution_from_grid
from pipscover.model.geometry import neighbours
from pipscover.runtime.limits import guard

Pair = tuple[Cell, Cell]
REGION_SIZE = 4
# What planting holds per cell (the tiling, the grid, the puzzle and its JSON): 1,013 bytes measured on
# 40 x 40 and 80 x 80 boards.
BYTES_PER_CELL = 1024
TURNS_PER_DOMINO = 40  # 2 x 2 turns tried per domino while mixing the tiling


class Pips(Choice):
    """How a planted puzzle's dominoes are drawn."""

    REPEATED = "repeated"
    DISTINCT = "distinct"


@dataclass(frozen=True)
class PlantedSpec:
    """What to plant: a `rows x columns` board, its kind of dominoes, their largest pip and the seed."""

    rows: int
    columns: int
    pips: Pips = Pips.REPEATED
    max_pip: int = 6
    seed: int = 1

    @property
    def name(self) -> str:
        """`planted-12x12-distinct-p12-s1`: names the puzzle in reports and as a file name."""
        return f"planted-{self.rows}x{self.columns}-{self.pips}-p{self.max_pip}-s{self.seed}"

    @property
    def dominoes(self) -> int:
        return self.rows * self.columns // 2


# The scale benchmark: the boards of issue 10's table and the sizes between, each planted with several seeds
# (how hard a planted board is for a search depends much more on the seed than on its size).
SCALE_BOARDS: tuple[tuple[int, int, Pips, int], ...] = (
    *((side, side, Pips.REPEATED, 6) for side in (8, 10, 12, 14, 16, 20)),
    *((side, side, Pips.DISTINCT, side) for side in (8, 10, 12, 14, 16, 20)),
    *((2, length, Pips.DISTINCT, 30) for length in (100, 200, 300)),
)
SCALE_SEEDS = (1, 2, 3, 4, 5)
SCALE_SUITE: tuple[PlantedSpec, ...] = tuple(
    PlantedSpec(rows, columns, pips, max_pip, seed)
    for rows, columns, pips, max_pip in SCALE_BOARDS for seed in SCALE_SEEDS
)


def planted(spec: PlantedSpec) -> tuple[Puzzle, Solution]:
    """The puzzle planted by `spec` and its planted solution.

    >>> puzzle, solution = planted(PlantedSpec(4, 4, seed=7))
    >>> len(puzzle.dominoes), len(puzzle.cells), puzzle == planted(PlantedSpec(4, 4, seed=7))[0]
    (8, 16, True)
    """
    if spec.rows < 1 or spec.columns < 1 or spec.rows * spec.columns % 2:
        raise PipsError(f"{brief(spec.name)}: a {brief(spec.rows)} x {brief(spec.columns)} board cannot be tiled "
                        "by dominoes")
    if spec.max_pip < 0:
        raise PipsError(f"{spec.name}: the largest pip must be at least 0")
    guard_board(spec.name, spec.rows * spec.columns)
    rng = random.Random(spec.seed)
    tiling = rectangle_tiling(spec.rows, spec.columns, rng)
    dominoes = _draw_dominoes(spec, rng)
    grid: dict[Cell, int] = {}
    for (first, second), domino in zip(tiling, dominoes):
        grid[first], grid[second] = domino if rng.random() < 0.5 else domino[::-1]
    regions = _regions(grid, rng)
    puzzle = Puzzle.build(regions, dominoes, Origin(file=spec.name))
    return puzzle, solution_from_grid(tiling, grid)


def guard_board(name: str, cells: int) -> None:
    """Refuse, before a domino is laid, a board of `cells` cells whose puzzle would not fit in memory (a
    100000 x 100000 board took memory until the machine had none).

    >>> guard_board("planted-4x4", 16)
    >>> guard_board("planted-100000x100000", 10**10)
    Traceback (most recent call last):
    ...
    pipscover.runtime.limits.TooBig: planted-100000x100000: a board of 10,000,000,000 cells would need about \
9,537 GiB of memory (the limit is 2 GiB)
    """
    guard(Origin(file=name), f"a board of {counted(cells, 'cell')}", needs_bytes=cells * BYTES_PER_CELL)


def rectangle_tiling(rows: int, columns: int, rng: random.Random) -> list[Pair]:
    """A random domino tiling of a `rows x columns` rectangle (rows * columns even), as sorted cell pairs."""
    if columns % 2 == 0:
        tiles = {((r, c), (r, c + 1)) for r in range(rows) for c in range(0, columns, 2)}
    else:
        tiles = {((r, c), (r + 1, c)) for r in range(0, rows, 2) for c in range(columns)}
    if rows > 1 and columns > 1:
        for _ in range(TURNS_PER_DOMINO * len(tiles)):
            r, c = rng.randrange(rows - 1), rng.randrange(columns - 1)
            across = (((r, c), (r, c + 1)), ((r + 1, c), (r + 1, c + 1)))
            down = (((r, c), (r + 1, c)), ((r, c + 1), (r + 1, c + 1)))
            for old, new in ((across, down), (down, across)):
                if old[0] in tiles and old[1] in tiles:
                    tiles.difference_update(old)
                    tiles.update(new)
                    break
    return sorted(tiles)


def _draw_dominoes(spec: PlantedSpec, rng: random.Random) -> list[Domino]:
    if spec.pips is Pips.REPEATED:
        return [(rng.randint(0, spec.max_pip), rng.randint(0, spec.max_pip)) for _ in range(spec.dominoes)]
    every = (spec.max_pip + 1) * (spec.max_pip + 2) // 2  # drawn by index: a list of them all filled the memory
    if every < spec.dominoes:
        raise PipsError(
            f"{spec.name}: {counted(spec.dominoes, 'distinct domino', 'distinct dominoes')} need a larger "
            f"--max-pip (pips up to {spec.max_pip:,} make {every:,})"
        )
    return [domino_at(index, spec.max_pip) for index in rng.sample(range(every), spec.dominoes)]


def domino_at(index: int, max_pip: int) -> Domino:
    """The pair at `index` in the list of all (a, b) with a <= b <= max_pip, ordered by a then b."""

    def first_index(a: int) -> int:  # where the pairs (a, ...) start
        return a * (max_pip + 1) - a * (a - 1) // 2

    a = bisect.bisect_right(range(max_pip + 1), index, key=first_index) - 1
    return (a, a + index - first_index(a))


def _regions(grid: dict[Cell, int], rng: random.Random) -> list[tuple[RegionKind, list[Cell], int | None]]:
    """Regions covering the board, each holding for the planted pips `grid`."""
    free = set(grid)
    regions = []
    for cell in sorted(grid):
        if cell not in free:
            continue
        kind = rng.choice(list(RegionKind))
        rule = kind.rule
        cells = [cell]
        free.discard(cell)
        while len(cells) < REGION_SIZE:
            pips = [grid[c] for c in cells]
            frontier = sorted({
                n for c in cells for n in neighbours(c) if n in free and rule.planted_grows(pips, grid[n])
            })
            if not frontier:
                break
            grown = rng.choice(frontier)
            cells.append(grown)
            free.discard(grown)
        values = [grid[c] for c in cells]
        targets = {other: other.rule.planted_targets(values, rng) for other in RegionKind}
        if not targets[kind] and rule.planted_instead is not None:
            kind = RegionKind(rule.planted_instead)
        regions.append((kind, cells, targets[kind][0]))
    return regions
