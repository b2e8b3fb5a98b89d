"""The compact CNF: tiles, pips and domino carriers instead of one variable per placement.

The placements form (`pipscover.cnf`) has a variable per distinct domino on each ordered pair of adjacent
cells, so it grows with dominoes x cells; with hundreds of distinct dominoes it reaches millions of
variables. This form splits a placement in two questions, "which pairs of cells are tiles" and "which pip
lies on each cell", and counts the dominoes with one carrier variable per (pair, distinct domino) that only
says "this tile carries this domino" (an orientation costs nothing). Variables, in four blocks
(encodings/cnf.md has the full write-up and the sizes):

1. tile variables, one per unordered pair of adjacent cells that can still hold a domino;
2. value variables, one per (cell, pip) that survived pruning, exactly one true per cell;
3. carrier variables, one per (pair, distinct domino) the pair can carry;
4. auxiliary variables of PySAT's `CardEnc` and `PBEnc`.

Regions are written over the value variables by the same code as in the placements form (each region
kind's `clauses`, through `encoding.write_regions`).

    >>> from pipscover import load_one
    >>> encoding = encode_compact(load_one("examples/first.txt"))
    >>> len(encoding.tiles) <= len(encoding.puzzle.adjacent_pairs)
    True
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING

from pipscover.cnf.placements import (
    Encodings,
    FamilySize,
    FormulaWriter,
    VariableBlocks,
    in_no_solution,
    placement_possible,
    write_regions,
)
from pipscover.model import Cell, Domino, Placement, Puzzle, Solution

if TYPE_CHECKING:
    from pysat.formula import CNF

Pair = tuple[Cell, Cell]
Orientations = dict[Pair, list[Domino]]  # pair -> the (pip on first cell, pip on second cell) it can hold


@dataclass(frozen=True, repr=False)
class CompactEncoding(VariableBlocks):
    """A puzzle's compact CNF with the meaning of its variables.

    Variable `i + 1` is the tile `tiles[i]`; then come the `values` (pip `values[j][1]` on cell
    `values[j][0]`), then the `carriers` (tile `carriers[k][0]` carries domino `carriers[k][1]`), then
    auxiliary variables.
    """

    puzzle: Puzzle
    encodings: Encodings
    tiles: tuple[Pair, ...]
    values: tuple[tuple[Cell, int], ...]
    carriers: tuple[tuple[Pair, Domino], ...]
    cnf: CNF
    families: tuple[FamilySize, ...]

    @property
    def blocks(self) -> tuple[tuple[str, int], ...]:
        """The named variable blocks, in numbering order (auxiliary variables follow)."""
        return ("tile", len(self.tiles)), ("value", len(self.values)), ("carrier", len(self.carriers))

    @property
    def solution_vars(self) -> range:
        """The tile and value variables, which together fix the solution."""
        return range(1, len(self.tiles) + len(self.values) + 1)

    def solution(self, model: Iterable[int]) -> Solution:
        """The solution a model describes: its tiles, with the pips its value variables put on their cells."""
        last_tile, last_value = len(self.tiles), len(self.tiles) + len(self.values)
        tiles, grid = [], {}
        for lit in model:
            if 0 < lit <= last_tile:
                tiles.append(self.tiles[lit - 1])
            elif last_tile < lit <= last_value:
                cell, pip = self.values[lit - last_tile - 1]
                grid[cell] = pip
        return Solution(tuple(Placement((grid[a], grid[b]), (a, b)) for a, b in tiles))

    @cached_property
    def tile_var(self) -> dict[Pair, int]:
        """pair of cells (in sorted order) -> its tile variable."""
        return {pair: var for var, pair in enumerate(self.tiles, start=1)}

    def placement_literals(self, placement: Placement) -> list[int]:
        """The placement's tile and its two cells' values; `PipsError` for a placement no solution has."""
        placement = placement.canonical()
        held = [self.tile_var.get(placement.cells)]
        held += [self.value_var.get(value) for value in zip(placement.cells, placement.domino)]
        if None in held:
            raise in_no_solution(self.puzzle, placement)
        return [lit for lit in held if lit is not None]

    def describe_variables(self) -> list[str]:
        """One line per tile, value and carrier variable, for the DIMACS comments."""
        lines = ["tile VAR cells R1 C1 R2 C2: the two cells are covered by one domino"]
        lines += [f"tile {var} cells {r1} {c1} {r2} {c2}" for var, ((r1, c1), (r2, c2)) in enumerate(self.tiles, 1)]
        lines.append("value VAR cell R C pip P: pip P lies on cell (R, C)")
        lines += [f"value {var} cell {cell[0]} {cell[1]} pip {pip}" for (cell, pip), var in self.value_var.items()]
        lines.append("carrier VAR domino A B cells R1 C1 R2 C2: that tile holds domino A-B (either way round)")
        first = len(self.tiles) + len(self.values) + 1
        for var, (((r1, c1), (r2, c2)), (a, b)) in enumerate(self.carriers, first):
            lines.append(f"carrier {var} domino {a} {b} cells {r1} {c1} {r2} {c2}")
        return lines


def encode_compact(puzzle: Puzzle, encodings: Encodings = Encodings(form="compact")) -> CompactEncoding:
    """The compact CNF of `puzzle`, written with the chosen cardinality and pseudo-boolean encodings."""
    domains, orientations = prune_pairs(puzzle)
    tiles = tuple(pair for pair in puzzle.adjacent_pairs if orientations.get(pair))
    values = tuple((cell, pip) for cell in puzzle.cells for pip in sorted(domains[cell]))
    carried = {pair: _by_domino(orientations[pair]) for pair in tiles}
    carriers = tuple((pair, domino) for pair in tiles for domino in sorted(carried[pair]))
    tile_var = {pair: i + 1 for i, pair in enumerate(tiles)}
    value_var = {value: len(tiles) + j + 1 for j, value in enumerate(values)}
    first_carrier = len(tiles) + len(values) + 1
    writer = FormulaWriter(len(tiles) + len(values) + len(carriers), encodings, puzzle)

    by_cell: dict[Cell, list[int]] = defaultdict(list)
    for pair, var in tile_var.items():
        for cell in pair:
            by_cell[cell].append(var)
    with writer.family("tile"):
        for cell in puzzle.cells:
            writer.exactly(by_cell[cell], 1)
    with writer.family("value"):
        for cell in puzzle.cells:
            writer.exactly([value_var[cell, pip] for pip in sorted(domains[cell])], 1)
    by_domino: dict[Domino, list[int]] = defaultdict(list)
    with writer.family("carrier-tile"):
        for var, (pair, domino) in enumerate(carriers, first_carrier):
            writer.clause(-var, tile_var[pair])
            by_domino[domino].append(var)
    with writer.family("carrier-pips"):
        for var, ((first, second), domino) in enumerate(carriers, first_carrier):
            ways = carried[first, second][domino]
            off = -var  # one int object shared by the clauses below: they number in the millions
            if len(ways) == 1:  # a double, or a domino that fits one way round only
                (a, b), = ways
                writer.clause(off, value_var[first, a])
                writer.clause(off, value_var[second, b])
            else:  # (a on first and b on second) or (b on first and a on second), in clauses
                a, b = domino
                first_a, first_b = value_var[first, a], value_var[first, b]
                second_a, second_b = value_var[second, a], value_var[second, b]
                writer.clause(off, first_a, first_b)
                writer.clause(off, second_a, second_b)
                writer.clause(off, first_a, second_a)
                writer.clause(off, first_b, second_b)
    with writer.family("tile-carrier"):
        var = first_carrier
        for pair in tiles:
            writer.clause(-tile_var[pair], *range(var, var + len(carried[pair])))
            var += len(carried[pair])
    with writer.family("domino"):
        for domino, count in sorted(puzzle.domino_counts.items()):
            writer.at_least(by_domino[domino], count)
    write_regions(writer, puzzle, domains, value_var)
    return CompactEncoding(puzzle, encodings, tiles, values, carriers, writer.cnf(), tuple(writer.sizes))


def _by_domino(ways: list[Domino]) -> dict[Domino, list[Domino]]:
    """The orientations a pair can hold, grouped by the (unordered) domino they show."""
    grouped: dict[Domino, list[Domino]] = defaultdict(list)
    for a, b in ways:
        grouped[(a, b) if a <= b else (b, a)].append((a, b))
    return grouped


def prune_pairs(puzzle: Puzzle) -> tuple[dict[Cell, set[int]], Orientations]:
    """The pips per cell, and the ways round each pair of adjacent cells can hold a domino, that can still be
    part of a solution.

    The same fixed point as `encoding.prune`, computed over pairs and pips so that its cost grows with pairs x
    dominoes once per round, with no placement objects: a pip leaves a cell when no neighbour can complete
    a domino with it, or when the cell's region cannot hold with it.
    """
    partners: dict[int, set[int]] = defaultdict(set)
    for a, b in puzzle.domino_counts:
        partners[a].add(b)
        partners[b].add(a)
    domains = {cell: set(partners) for cell in puzzle.cells}
    for region in puzzle.regions:
        region.rule.narrow(region.cells, region.target, domains)
    while True:
        orientations = _orientations(puzzle, domains, partners)
        reached: dict[Cell, set[int]] = defaultdict(set)
        for (first, second), ways in orientations.items():
            for a, b in ways:
                reached[first].add(a)
                reached[second].add(b)
        narrowed = {cell: domains[cell] & reached[cell] for cell in puzzle.cells}
        if narrowed == domains:
            return domains, orientations
        domains = narrowed
        for region in puzzle.regions:
            region.rule.narrow(region.cells, region.target, domains)


def _orientations(puzzle: Puzzle, domains: dict[Cell, set[int]], partners: dict[int, set[int]]) -> Orientations:
    index = puzzle.region_index
    found: Orientations = {}
    for first, second in puzzle.adjacent_pairs:
        region = puzzle.regions[index[first]]
        # Only a pair inside one region with a rule needs the region's say on each domino.
        judged = index[first] == index[second] and region.rule.constrains
        allowed = domains[second]
        found[first, second] = [
            (a, b)
            for a in sorted(domains[first])
            for b in sorted(partners[a] & allowed)
            if not judged or placement_possible(puzzle, Placement((a, b), (first, second)), domains)
        ]
    return found
