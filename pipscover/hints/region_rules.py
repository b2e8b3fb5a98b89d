"""Rules that read one region: its arithmetic against the pips left, and the ways left to fill it.

- region arithmetic (`sum_arithmetic`, `bound_arithmetic`, `equal_supply`, `unequal_supply`): every empty
  cell of a region may only take the pips its kind's own rule allows (`pipscover.hints.allowed_pips`),
  given the pips already on the region and the halves left: a sum needs exactly what is missing, a less or
  greater rule bounds each cell by the smallest or largest halves left for the others, all-equal cells
  share a pip that enough halves are left of (and that every cell can take), all-different cells avoid the
  pips already there.
- `combinations`: every way to fill the region's empty cells from what each cell can still take, using no
  more halves of a pip than are left and a domino left for each known pair inside the region; a cell keeps
  the pips some way gives it. Regions with too many ways are left to the other rules.
"""

from __future__ import annotations

from collections.abc import Iterator

from pipscover.hints.allowed_pips import region_allowed
from pipscover.hints.board import Board, Change, Contradiction, Deduction, bits, single
from pipscover.model import RegionKind
from pipscover.regions import LinearRule

# `combinations` skips a region whose cells' options multiply to more than this (the NYT's largest regions).
MAX_COMBINATIONS = 4096
# How many of the ways to fill a region a reason lists.
SHOWN_WAYS = 3


def sum_arithmetic(board: Board) -> Iterator[Deduction]:
    yield from _arithmetic(board, (RegionKind.SUM,))


def bound_arithmetic(board: Board) -> Iterator[Deduction]:
    yield from _arithmetic(board, (RegionKind.LESS, RegionKind.GREATER))


def equal_supply(board: Board) -> Iterator[Deduction]:
    yield from _arithmetic(board, (RegionKind.EQUALS,))


def unequal_supply(board: Board) -> Iterator[Deduction]:
    yield from _arithmetic(board, (RegionKind.UNEQUAL,))


def _arithmetic(board: Board, kinds: tuple[RegionKind, ...]) -> Iterator[Deduction]:
    halves = board.halves_left()
    for index, region in enumerate(board.puzzle.regions):
        if region.kind not in kinds:
            continue
        cells = board.region_cells[index]
        empty = [cell for cell in cells if board.known(cell) is None]
        placed = [board.known(cell) for cell in cells if board.known(cell) is not None]
        placed_sum = sum(board.values[pip] for pip in placed)
        if not empty:
            if not region.holds([board.values[pip] for pip in placed]):
                raise Contradiction(f"{board.region_name(index)} is full and breaks its rule", cells)
            continue
        placed_mask = sum({1 << pip for pip in placed})
        allowed = region_allowed(region, len(empty), placed_sum, placed_mask, halves, board.values)
        if region.kind is RegionKind.EQUALS:
            for cell in cells:
                allowed &= board.candidates[cell]
        if not allowed:
            raise Contradiction(f"{board.region_name(index)} cannot be filled with the pips left", cells)
        restrict = tuple((cell, allowed) for cell in empty if board.candidates[cell] & ~allowed)
        if restrict:
            reason = _arithmetic_reason(board, index, empty, placed, placed_sum, allowed, halves)
            yield Deduction(reason, cells, Change(restrict=restrict))


def _arithmetic_reason(board: Board, index: int, empty: list[int], placed: list[int], placed_sum: int,
                       allowed: int, halves: list[int]) -> str:
    region, name, count = board.puzzle.regions[index], board.region_name(index), len(empty)
    outcome = f"{board.names(empty)} {'is' if count == 1 else 'are'} {board.pips(allowed)}" if single(allowed) else (
        f"{'it' if count == 1 else 'each'} can only be {board.pips(allowed)}")
    cells = "its last empty cell" if count == 1 else f"its {count} empty cells"
    match region.kind:
        case RegionKind.SUM:
            need = region.target - placed_sum
            more = " more" if placed else ""
            if count == 1:
                return f"{name[0].upper() + name[1:]} needs {need}{more} from {cells}, so {outcome}."
            return f"{name[0].upper() + name[1:]} needs {need}{more} from {cells}; with the pips left, {outcome}."
        case RegionKind.LESS | RegionKind.GREATER:
            less = region.kind is RegionKind.LESS
            bound = region.target - placed_sum
            relation = "less" if less else "more"
            if count == 1:
                return f"{name[0].upper() + name[1:]} needs {cells} to be {relation} than {bound}, so {outcome}."
            others = _extreme_halves(halves, count - 1, smallest=less)
            extreme = "smallest" if less else "largest"
            return (f"{name[0].upper() + name[1:]} needs {cells} to add up to {relation} than {bound}; the {count - 1} "
                    f"{extreme} pips left add up to {sum(board.values[v] for v in others)}, so {outcome}.")
        case RegionKind.EQUALS:
            if placed:
                return f"{name[0].upper() + name[1:]} already holds a {board.values[placed[0]]}, so {outcome}."
            return (f"All {len(empty)} cells of {name} take one pip, with that many halves left and suiting every "
                    f"cell, so {outcome}.")
        case _:
            shown = board.pips(sum({1 << pip for pip in placed}))
            if placed:
                return f"No two cells of {name} match and it already holds {shown}, so {outcome}."
            return f"No two cells of {name} match and too few different pips are left, so {outcome}."


def _extreme_halves(halves: list[int], count: int, smallest: bool) -> list[int]:
    """The pip indices of the `count` smallest (or largest) halves left."""
    order = range(len(halves)) if smallest else range(len(halves) - 1, -1, -1)
    found = [pip for pip in order for _ in range(halves[pip])]
    return found[:count]


def combinations(board: Board) -> Iterator[Deduction]:
    halves = board.halves_left()
    left = board.unplaced()
    for index, region in enumerate(board.puzzle.regions):
        if region.kind is RegionKind.EMPTY:
            continue
        cells = board.region_cells[index]
        empty = [cell for cell in cells if board.known(cell) is None]
        size = 1
        for cell in empty:
            size *= board.candidates[cell].bit_count()
        if len(empty) < 2 or size > MAX_COMBINATIONS:
            continue
        ways = _ways(board, index, empty, list(halves), list(left))
        if not ways:
            raise Contradiction(f"{board.region_name(index)} cannot be filled from what its cells can hold", cells)
        support = [0] * len(empty)
        for way in ways:
            for position, pip in enumerate(way):
                support[position] |= 1 << pip
        restrict = tuple((cell, mask) for cell, mask in zip(empty, support) if board.candidates[cell] & ~mask)
        if restrict:
            yield Deduction(_combinations_reason(board, index, ways, restrict), cells, Change(restrict=restrict))


def _ways(board: Board, index: int, empty: list[int], halves: list[int], left: list[int]) -> list[tuple[int, ...]]:
    """Every assignment of pip indices to `empty` (in order) that can fill the region."""
    region = board.puzzle.regions[index]
    values = board.values
    placed = [board.values[board.known(cell)] for cell in board.region_cells[index] if board.known(cell) is not None]
    position = {cell: k for k, cell in enumerate(empty)}
    # A known pair inside the region: its second cell checks that a domino is left for the two pips.
    partner_before = [position.get(board.partner[cell], len(empty)) for cell in empty]
    ways: list[tuple[int, ...]] = []
    chosen: list[int] = []
    # Pips are never negative, so a partial sum past the rule's largest sum (sum, less) ends a way early.
    most = region.rule.bounds(region.target)[1] if isinstance(region.rule, LinearRule) else None

    def fill(k: int, total: int) -> None:
        if k == len(empty):
            if region.holds(placed + [values[pip] for pip in chosen]):
                ways.append(tuple(chosen))
            return
        for pip in bits(board.candidates[empty[k]]):
            if not halves[pip] or (most is not None and total + values[pip] > most):
                continue
            kind = None
            if partner_before[k] < k:
                other = chosen[partner_before[k]]
                kind = board.type_index.get((min(pip, other), max(pip, other)))
                if kind is None or not left[kind]:
                    continue
                left[kind] -= 1
            halves[pip] -= 1
            chosen.append(pip)
            fill(k + 1, total + values[pip])
            chosen.pop()
            halves[pip] += 1
            if kind is not None:
                left[kind] += 1

    fill(0, sum(placed))
    return ways


def _combinations_reason(board: Board, index: int, ways: list[tuple[int, ...]],
                         restrict: tuple[tuple[int, int], ...]) -> str:
    sums = sorted({tuple(sorted(board.values[pip] for pip in way)) for way in ways})
    shown = " or ".join(" + ".join(map(str, way)) for way in sums[:SHOWN_WAYS])
    more = f" (or {len(sums) - SHOWN_WAYS} more)" if len(sums) > SHOWN_WAYS else ""
    facts = "; ".join(
        f"{board.name(cell)} is {board.pips(mask)}"
        if single(mask)
        else f"{board.name(cell)} can only be {board.pips(mask)}"
        for cell, mask in restrict
    )
    return (f"With the pips left and what each of its cells can still hold, {board.region_name(index)} can only be "
            f"filled as {shown}{more}: {facts}.")
