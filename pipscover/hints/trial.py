"""Reasoning by trial: what a player does when no single look at the board settles anything.

- `what_if`: suppose a cell takes one of its few pips, or shares a domino with one of its two possible
  neighbours, and follow the easier rules; when that ends in a contradiction, the supposition is false.
  Sound because the easier rules are: every fact they find holds in every solution where the supposition
  does, and there are none.
- `best_guess`: when even that finds nothing, a guess is needed. The best one has the fewest alternatives,
  and among those, the one whose alternatives each settle the most by the easier rules.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

from pipscover.hints.board import Board, Change, Contradiction, Deduction, bits, pair, single

Finder = Callable[[Board], Iterator[Deduction]]
# Cells with up to this many pips left are tried one pip at a time.
TRIED_PIPS = 3


@dataclass(frozen=True)
class Option:
    """One way a choice can go: what to suppose, what is learnt when it is false, and how to say both.

    `subject` names the choice (`the pip on row 2, column 3`), `value` this way of making it (`5`)."""

    subject: str
    value: str
    supposition: str
    negation: str
    assume: Change
    eliminate: Change
    cells: tuple[int, ...]


@dataclass(frozen=True)
class Guess:
    """A choice to guess: its options and a sentence saying where it is and why it is the best."""

    reason: str
    cells: tuple[int, ...]
    options: tuple[Option, ...]


def propagate(board: Board, finders: Sequence[Finder], trace: list[int] | None = None) -> int:
    """Apply the findings of `finders` until none changes the board (raises `Contradiction`); returns how many
    changed it. `trace` collects the index of the finder of each change, easiest first after every change."""
    changes = 0
    index = 0
    while index < len(finders):
        progress = False
        for deduction in list(finders[index](board)):
            if board.apply(deduction.change).changed:
                changes += 1
                progress = True
                if trace is not None:
                    trace.append(index)
        index = 0 if progress else index + 1
    return changes


def choices(board: Board, most: int = TRIED_PIPS) -> list[tuple[Option, ...]]:
    """The choices on the board with at most `most` ways, fewest first: the pip of a cell, and the partner of
    an unpaired cell (with at most two neighbours left: with more, a pip is the smaller choice)."""
    by_pip = [
        tuple(_pip_option(board, cell, pip) for pip in bits(mask))
        for cell, mask in enumerate(board.candidates) if not single(mask) and mask.bit_count() <= most
    ]
    by_pair = [
        tuple(_pair_option(board, cell, neighbour) for neighbour in board.free_partners(cell))
        for cell in range(len(board.cells))
        if board.partner[cell] < 0 and 2 <= len(board.free_partners(cell)) <= min(2, most)
    ]
    unplaced = board.unplaced()
    by_domino = [
        tuple(_domino_option(board, kind, (first, second), True) for kind in kinds)
        for first, second in board.pairs()
        if 2 <= len(kinds := board.pair_fits(first, second, unplaced)) <= most
    ]
    by_place = [
        tuple(_domino_option(board, kind, place, False) for place in places)
        for kind, copies in enumerate(board.free_dominoes())
        if copies == 1 and 2 <= len(places := board.places(kind, unplaced)) <= most
    ]
    return sorted(by_pip + by_pair + by_domino + by_place, key=len)


def _pip_option(board: Board, cell: int, pip: int) -> Option:
    name, value = board.name(cell), board.values[pip]
    return Option(f"the pip on {name}", str(value), f"{name} were {value}", f"{name} is not {value}",
                  Change(restrict=((cell, 1 << pip),)), Change(restrict=((cell, ~(1 << pip)),)), (cell,))


def _pair_option(board: Board, cell: int, neighbour: int) -> Option:
    names = board.names((cell, neighbour))
    return Option(f"the cell that shares a domino with {board.name(cell)}", board.name(neighbour),
                  f"{names} shared a domino", f"{names} do not share one", Change(pairs=(pair(cell, neighbour),)),
                  Change(exclude=(pair(cell, neighbour),)), (cell, neighbour))


def _domino_option(board: Board, kind: int, place: tuple[int, int], by_pair: bool) -> Option:
    """The domino `kind` on `place`: as one of the dominoes a pair may hold (`by_pair`), or one of its places."""
    first, second = place
    where, domino = board.names(place), board.domino(kind)
    on_first, on_second = board.fits(kind, first, second)
    others = tuple((place, other) for other in range(len(board.types)) if other != kind)
    assume = Change(restrict=((first, on_first), (second, on_second)), pairs=(place,), ban=others)
    subject, value = (f"the domino on {where}", domino) if by_pair else (f"the cells of the {domino}", where)
    return Option(subject, value, f"the {domino} lay on {where}", f"the {domino} is not on {where}", assume,
                  Change(ban=((place, kind),)), place)


def what_if(board: Board, finders: Sequence[Finder], titles: Sequence[str]) -> Iterator[Deduction]:
    """Options that the easier rules (`finders`, named by `titles`) refute."""
    for choice in choices(board):
        for option in choice:
            branch = board.copy()
            trace: list[int] = []
            try:
                branch.apply(option.assume)
                propagate(branch, finders, trace)
            except Contradiction as contradiction:
                used = sorted(set(trace))
                how = (f"after {len(trace)} {'step' if len(trace) == 1 else 'steps'} "
                       f"({', '.join(titles[i] for i in used)}), " if trace else "")
                reason = f"Suppose {option.supposition}: {how}{contradiction.reason}. So {option.negation}."
                yield Deduction(reason, option.cells + contradiction.cells, option.eliminate)


def best_guess(board: Board, finders: Sequence[Finder]) -> Guess | None:
    """The choice to guess when no rule applies (None when the board has no choice left)."""
    found = choices(board) or choices(board, most=len(board.values))
    if not found:
        return None
    fewest = len(found[0])
    best, best_settled = found[0], -1
    for choice in (c for c in found if len(c) == fewest):
        settled = min(_settles(board, option, finders) for option in choice)
        if settled > best_settled:
            best, best_settled = choice, settled
    alternatives = " or ".join(option.value for option in best)
    reason = (f"No rule applies: a guess is needed. The best thing to guess is {best[0].subject}, one of "
              f"{len(best)}: {alternatives}. Either way, the rules then settle at least {best_settled} more "
              f"{'fact' if best_settled == 1 else 'facts'}.")
    cells = tuple(sorted({cell for option in best for cell in option.cells}))
    return Guess(reason, cells, best)


def _settles(board: Board, option: Option, finders: Sequence[Finder]) -> int:
    branch = board.copy()
    try:
        branch.apply(option.assume)
        return propagate(branch, finders)
    except Contradiction:  # cannot happen once `what_if` has found nothing; a refuted option settles all
        return len(board.cells)
