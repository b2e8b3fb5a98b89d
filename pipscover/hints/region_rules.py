"""Rules that read one region: its arithmetic against the pips left, and the ways left to fill it.

- region arithmetic (`arithmetic`, one hint rule per `RegionRule.hint_rule`: `region-sum`, `region-bound`,
  `region-equal`, `region-unequal`): every empty cell of a region may only take the pips its kind's own rule
  allows (`pipscover.hints.allowed_pips`), given the pips already on the region and the halves left: a sum
  needs exactly what is missing, a less or greater rule bounds each cell by the smallest or largest halves
  left for the others, all-equal cells share a pip that enough halves are left of (and that every cell can
  take), all-different cells avoid the pips already there. The kind words the reason (`hint_reason`).
- `combinations`: every way to fill the region's empty cells from what each cell can still take, using no
  more halves of a pip than are left and a domino left for each known pair inside the region; a cell keeps
  the pips some way gives it. Regions with too many ways are left to the other rules.
"""

from __future__ import annotations

from collections.abc import Iterator

from pipscover.hints.allowed_pips import region_allowed
from pipscover.hints.board import Board, Change, Contradiction, Deduction, bits, single
from pipscover.regions import LinearRule
from pipscover.regions.base import HintFacts

# `combinations` skips a region whose cells' options multiply to more than this (the NYT's largest regions).
MAX_COMBINATIONS = 4096
# How many of the ways to fill a region a reason lists.
SHOWN_WAYS = 3


def arithmetic(board: Board, hint_rule: str) -> Iterator[Deduction]:
    """The arithmetic of the regions whose kind's hint rule is named `hint_rule`."""
    halves = board.halves_left()
    for index, region in enumerate(board.puzzle.regions):
        rule = region.rule
        if rule.hint_rule is None or rule.hint_rule.name != hint_rule:
            continue
        cells = board.region_cells[index]
        empty = [cell for cell in cells if board.known(cell) is None]
        placed = [pip for cell in cells if (pip := board.known(cell)) is not None]
        placed_sum = sum(board.values[pip] for pip in placed)
        if not empty:
            if not region.holds([board.values[pip] for pip in placed]):
                raise Contradiction(f"{board.region_name(index)} is full and breaks its rule", cells)
            continue
        placed_mask = sum({1 << pip for pip in placed})
        allowed = region_allowed(region, len(empty), placed_sum, placed_mask, halves, board.values)
        allowed = rule.hint_narrow(allowed, [board.candidates[cell] for cell in cells])
        if not allowed:
            raise Contradiction(f"{board.region_name(index)} cannot be filled with the pips left", cells)
        restrict = tuple((cell, allowed) for cell in empty if board.candidates[cell] & ~allowed)
        if restrict:
            facts = _facts(board, index, empty, placed, allowed, halves)
            yield Deduction(rule.hint_reason(region.target, facts), cells, Change(restrict=restrict))


def _facts(board: Board, index: int, empty: list[int], placed: list[int], allowed: int, halves: list[int]) -> HintFacts:
    """What the kind's sentence may say (pip indices turned into pips)."""
    count = len(empty)
    if single(allowed):
        outcome = f"{board.names(empty)} {'is' if count == 1 else 'are'} {board.pips(allowed)}"
    else:
        outcome = f"{'it' if count == 1 else 'each'} can only be {board.pips(allowed)}"
    return HintFacts(
        region=board.region_name(index),
        cells="its last empty cell" if count == 1 else f"its {count} empty cells",
        outcome=outcome,
        empty=count,
        placed=tuple(board.values[pip] for pip in placed),
        halves=tuple(board.values[pip] for pip, left in enumerate(halves) for _ in range(left)),
    )


def combinations(board: Board) -> Iterator[Deduction]:
    halves = board.halves_left()
    left = board.unplaced()
    for index, region in enumerate(board.puzzle.regions):
        if not region.rule.constrains:
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
    placed = [values[pip] for cell in board.region_cells[index] if (pip := board.known(cell)) is not None]
    position = {cell: k for k, cell in enumerate(empty)}
    # A known pair inside the region: its second cell checks that a domino is left for the two pips.
    partner_before = [position.get(board.partner[cell], len(empty)) for cell in empty]
    ways: list[tuple[int, ...]] = []
    chosen: list[int] = []
    # Pips are never negative, so a partial sum past the rule's largest sum (sum, less) ends a way early.
    rule, target = region.rule, region.target
    most = rule.bounds(target)[1] if isinstance(rule, LinearRule) and target is not None else None

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
