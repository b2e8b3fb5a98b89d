"""Rules about the shape of the board alone: where dominoes can lie, whatever their pips.

- `forced_tiling`: an unpaired cell with one neighbour it may still share a domino with shares it with
  that neighbour (with none, the board holds no solution).
- `tiling_split`: colour the board like a chessboard; a domino covers one light and one dark cell, so a
  group of unpaired cells cut off from the rest needs as many light cells as dark ones. A domino on two
  neighbours that would cut off a group without that balance is not there.
"""

from __future__ import annotations

from collections.abc import Iterator

from pipscover.hints.board import Board, Change, Contradiction, Deduction, pair
from pipscover.model.geometry import connected


def forced_tiling(board: Board) -> Iterator[Deduction]:
    for cell in range(len(board.cells)):
        if board.partner[cell] >= 0:
            continue
        partners = board.free_partners(cell)
        if not partners:
            raise Contradiction(f"{board.name(cell)} has no neighbour left to share a domino with", (cell,))
        if len(partners) == 1:
            (neighbour,) = partners
            reason = (f"{board.name(cell)} has one neighbour left to share a domino with, {board.name(neighbour)}, "
                      f"so one domino covers both.")
            yield Deduction(reason, (cell, neighbour), Change(pairs=(pair(cell, neighbour),)))


def tiling_split(board: Board) -> Iterator[Deduction]:
    free = {cell for cell in range(len(board.cells)) if board.partner[cell] < 0}
    for group in _groups(board, free):
        if _imbalance(board, group):
            raise Contradiction(f"dominoes cannot cover the cells {board.names(sorted(group))}", sorted(group))
    for cell in sorted(free):
        for neighbour in board.free_partners(cell):
            if neighbour < cell:
                continue
            rest = free - {cell, neighbour}
            touched = {n for c in (cell, neighbour) for n in board.neighbours[c] if n in rest}
            for group in _groups(board, rest, touched):
                if _imbalance(board, group):
                    cut = sorted(group)
                    reason = (f"A domino on {board.name(cell)} and {board.name(neighbour)} would cut off "
                              f"{board.names(cut)}, which dominoes cannot cover ({_balance(board, group)}), "
                              f"so they do not share one.")
                    yield Deduction(reason, (cell, neighbour, *cut), Change(exclude=(pair(cell, neighbour),)))
                    break


def _groups(board: Board, free: set[int], starts: set[int] | None = None) -> Iterator[list[int]]:
    """The connected groups of `free` cells (joined where they may share a domino) that hold a start cell."""
    return connected(sorted(free if starts is None else starts), board.free_partners, free)


def _imbalance(board: Board, group: list[int]) -> int:
    cells = board.cells
    light = sum(1 for cell in group if (cells[cell][0] + cells[cell][1]) % 2 == 0)
    return abs(2 * light - len(group))


def _balance(board: Board, group: list[int]) -> str:
    if len(group) % 2:
        return f"an odd number, {len(group)}"
    light = sum(1 for cell in group if sum(board.cells[cell]) % 2 == 0)
    return f"{light} light and {len(group) - light} dark cells on a chessboard"
