"""Rules that count dominoes and halves (see `pipscover.hints.board` for what "left" means).

- `pair_domino`: two cells known to share a domino hold one of the dominoes left that fits them; their pips
  are those such dominoes can put there.
- `domino_fit`: an unpaired cell shares a domino with a neighbour only if some domino left fits both cells,
  and keeps only the pips that such a domino can put on it.
- `pip_count`: every half left lies on a cell not yet known. With no half of a pip left, no such cell takes
  that pip; with as many halves of a pip left as cells that can take it, all those cells take it.
- `domino_home`: every domino left lies somewhere it fits. A domino with as many copies left as places it
  fits lies in all of them.
"""

from __future__ import annotations

from collections.abc import Iterator

from pipscover.hints.board import Board, Change, Contradiction, Deduction, pair, single


def pair_domino(board: Board) -> Iterator[Deduction]:
    left = board.unplaced()
    for first, second in board.pairs():
        if board.known(first) is not None and board.known(second) is not None:
            continue
        kinds = board.pair_fits(first, second, left)
        if not kinds:
            raise Contradiction(f"no domino left fits {board.names((first, second))}", (first, second))
        on_first = on_second = 0
        for kind in kinds:
            a, b = board.fits(kind, first, second)
            on_first, on_second = on_first | a, on_second | b
        restrict = tuple(
            (cell, mask) for cell, mask in ((first, on_first), (second, on_second)) if board.candidates[cell] & ~mask
        )
        if not restrict:
            continue
        dominoes = " or ".join(board.domino(kind) for kind in kinds)
        which = f"the only domino left that fits is {dominoes}" if len(kinds) == 1 else f"only {dominoes} fit"
        facts = " and ".join(_fact(board, cell, mask) for cell, mask in restrict)
        reason = f"{board.name(first)} and {board.name(second)} share a domino and {which}, so {facts}."
        yield Deduction(reason, (first, second), Change(restrict=restrict))


def domino_fit(board: Board) -> Iterator[Deduction]:
    left = [kind for kind, count in enumerate(board.free_dominoes()) if count]
    for cell in range(len(board.cells)):
        if board.partner[cell] >= 0:
            continue
        support = 0
        excluded = []
        for neighbour in board.free_partners(cell):
            fits = 0
            for kind in left:
                fits |= board.fits(kind, cell, neighbour)[0]
            if fits:
                support |= fits
            else:
                excluded.append(neighbour)
        trimmed = board.candidates[cell] & ~support
        if not excluded and not trimmed:
            continue
        parts = []
        if excluded:
            parts.append(f"no domino left fits {board.name(cell)} together with {board.names(excluded)}, so they "
                         f"do not share one")
        if trimmed and support:
            parts.append(f"no domino left can put {board.pips(trimmed)} on {board.name(cell)} beside a neighbour it "
                         f"may share one with, so {_fact(board, cell, support)}")
        if not support:
            raise Contradiction(f"no domino left fits {board.name(cell)} with any of its neighbours", (cell,))
        reason = "; ".join(parts)
        change = Change(restrict=((cell, support),) if trimmed else (), exclude=tuple(pair(cell, n) for n in excluded))
        yield Deduction(reason[0].upper() + reason[1:] + ".", (cell, *excluded), change)


def pip_count(board: Board) -> Iterator[Deduction]:
    halves = board.halves_left()
    for pip, count in enumerate(halves):
        takers = [cell for cell, mask in enumerate(board.candidates) if not single(mask) and mask >> pip & 1]
        value = board.values[pip]
        if count < 0 or len(takers) < count:
            raise Contradiction(f"{_halves(count, value)} left but {_cells(len(takers))} can take {value}", takers)
        if not takers:
            continue
        if count == 0:
            reason = f"Every {value} is already on the board, so {board.names(takers)} cannot be {value}."
            yield Deduction(reason, tuple(takers), Change(restrict=tuple((cell, ~(1 << pip)) for cell in takers)))
        elif count == len(takers):
            reason = (f"{_halves(count, value)} left and only {board.names(takers)} can take {value}, so "
                      f"{'it is' if count == 1 else 'they are all'} {value}.")
            yield Deduction(reason, tuple(takers), Change(restrict=tuple((cell, 1 << pip) for cell in takers)))


def domino_home(board: Board) -> Iterator[Deduction]:
    left = board.free_dominoes()
    unplaced = board.unplaced()
    for kind, copies in enumerate(left):
        if not copies:
            continue
        places = board.places(kind, unplaced)
        covered = [cell for place in places for cell in place]
        if len(places) < copies or (len(places) == copies and len(set(covered)) < len(covered)):
            raise Contradiction(f"the {board.domino(kind)} fits in too few places", covered)
        if len(places) != copies:
            continue
        restrict = []
        for first, second in places:
            on_first, on_second = board.fits(kind, first, second)
            restrict += [(cell, mask) for cell, mask in ((first, on_first), (second, on_second))
                         if board.candidates[cell] & ~mask]
        new_pairs = tuple(place for place in places if board.partner[place[0]] != place[1])
        if not restrict and not new_pairs:
            continue
        where = " and ".join(f"on {board.names(place)}" for place in places)
        facts = [_fact(board, cell, mask) for cell, mask in restrict]
        then = f", so {' and '.join(facts)}" if facts else ""
        if copies == 1:
            reason = f"The {board.domino(kind)} fits in only one place, {where}{then}."
        else:
            reason = f"The {copies} {board.domino(kind)} dominoes fit in only {copies} places, {where}{then}."
        yield Deduction(reason, tuple(covered), Change(restrict=tuple(restrict), pairs=new_pairs))


def _halves(count: int, value: int) -> str:
    """`1 half with 4 is`, `2 halves with 4 are`."""
    return f"{count} half with {value} is" if count == 1 else f"{count} halves with {value} are"


def _cells(count: int) -> str:
    return {0: "no cell", 1: "only 1 cell"}.get(count, f"only {count} cells")


def _fact(board: Board, cell: int, mask: int) -> str:
    mask &= board.candidates[cell]
    if single(mask):
        return f"{board.name(cell)} is {board.pips(mask)}"
    return f"{board.name(cell)} can only be {board.pips(mask)}"
