"""Which pips a region's empty cells may still take, given the halves left: each region kind's own rule.

The arithmetic is the kind's `allowed` (`pipscover.regions`, one module per kind), the same the search
prunes with, read here with a supply of the halves left instead of the dominoes not yet placed. This is
the one place the hints ask the region kinds what a cell may take.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from pipscover.model import Region
from pipscover.regions import PipSupply

__all__ = ["region_allowed"]


def region_allowed(region: Region, empty: int, placed_sum: int, placed: int, halves: Sequence[int],
                   values: tuple[int, ...]) -> int:
    """The pips (a mask over `values`) an empty cell of `region` may take; 0 when the region cannot hold.

    `empty` >= 1 cells are empty, the others hold pips summing to `placed_sum` whose mask is `placed`, and
    `halves[i]` halves with pip `values[i]` are not yet on a known cell.

    >>> from pipscover.model import RegionKind
    >>> bin(region_allowed(Region(RegionKind.SUM, ((0, 0), (0, 1)), 12), 2, 0, 0, [0] * 6 + [2], tuple(range(7))))
    '0b1000000'
    """
    supply = _supply(tuple(halves), empty - 1, values)
    return region.rule.allowed(region.target, empty, placed_sum, placed, supply)


@lru_cache(maxsize=4096)
def _supply(halves: tuple[int, ...], depth: int, values: tuple[int, ...]) -> PipSupply:
    return PipSupply.of(halves, depth, depth, values)
