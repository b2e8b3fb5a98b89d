"""The orders of the cells that inclusion-exclusion's sweep may take, most promising first.

The sweep's graph has a state per cut of the board and per (cells past the cut already covered, regions'
states), so its size follows how many cells a cut touches and how many regions it leaves part filled, and
each of its edges costs every point a product. Along the longer side suits a full rectangle; a board that
runs across its box (a band from corner to corner, a ragged edge) may be cut through far fewer cells
another way: no-unique-24's graph has 2,358,133 edges along its rows and 69,715 along its columns taken
from the other corner (encodings/counting.md).

The candidates are the board's lines (rows, columns) and diagonals, from each of its four corners: in each,
a cell's neighbours later in the order are at most two, which is what the builds lay a domino on.
`ranked` sorts them by an estimate made without building (`estimated_states`); `build_sweep` builds the
first few and the order along the longer side, and keeps the graph of fewest edges.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from itertools import product

from pipscover.model import Cell
from pipscover.model.geometry import neighbours

# Each candidate's key of a cell, its row and column already turned to start from one corner.
_KEYS: tuple[Callable[[int, int], tuple[int, int]], ...] = (
    lambda r, c: (r, c),  # along the rows
    lambda r, c: (c, r),  # along the columns
    lambda r, c: (r + c, r),  # along the diagonals, each one way
    lambda r, c: (r + c, c),  # ... and the other
)


def candidates(cells: Sequence[Cell]) -> list[list[Cell]]:
    """Every distinct order of the cells along the board's lines and diagonals from each of its corners."""
    orders: list[list[Cell]] = []
    for (down, right), key in product(product((1, -1), repeat=2), _KEYS):
        order = sorted(cells, key=lambda cell: key(down * cell[0], right * cell[1]))
        if order not in orders:
            orders.append(order)
    return orders


def ranked(cells: Sequence[Cell], region_index: dict[Cell, int], pairs: Sequence[Sequence[int]]) -> list[list[Cell]]:
    """The candidates, the smallest estimate first (`pairs[r][k]`: the states region r can be in with k of its
    cells filled)."""
    return sorted(candidates(cells), key=lambda order: estimated_states(order, region_index, pairs))


def estimated_states(order: Sequence[Cell], region_index: dict[Cell, int], pairs: Sequence[Sequence[int]]) -> float:
    """log2 of the sum over the cuts of 2^(cells past the cut next to one before it) times the product of the
    states of the regions the cut splits: the most states the graph may have, were every cut's covered cells
    and regions' states free of each other. Not a good count of them (the regions bind the cells), but it
    ranks the orders well enough that the best is among the first few (the benchmark's puzzles)."""
    place = {cell: index for index, cell in enumerate(order)}
    touched, filled = [False] * len(order), [0] * len(pairs)
    exponents, touching, regions = [], 0, 0.0
    for index, cell in enumerate(order):
        touching -= touched[index]
        for other in neighbours(cell):
            if place.get(other, -1) > index and not touched[place[other]]:
                touched[place[other]], touching = True, touching + 1
        region = region_index[cell]
        regions -= math.log2(pairs[region][filled[region]])
        filled[region] += 1
        regions += math.log2(pairs[region][filled[region]])
        exponents.append(touching + regions)
    top = max(exponents, default=0.0)
    return top + math.log2(sum(2.0 ** (exponent - top) for exponent in exponents) or 1.0)


def pairs_filled(table: Sequence[int], pips: int, size: int) -> list[int]:
    """From a region's step table (`_step_tables`: pair * pips + pip -> the next pair, -1 where the rule
    fails; pair 0 the empty region), how many pairs it has with 0, 1, ... `size` of its cells filled (at
    least one each, so that a region no pip fits does not zero the estimate)."""
    found, level = [1], {0}
    for _ in range(size):
        level = {after for pair in level for after in table[pair * pips:(pair + 1) * pips] if after >= 0}
        found.append(max(len(level), 1))
    return found
