"""A player's position: the dominoes placed so far, judged before a hint is given from it.

A hint from a position is a deduction about every solution that keeps the dominoes placed, so it is only
given when some solution does. What is wrong with a position is found in this order:
- `checker_problem`: the independent checker's words (`problems(..., partial=True)`: a cell off the board
  or covered twice, a domino placed more often than the puzzle has it, a full region that breaks its rule),
  for the first placement after which the position fails;
- `keeping`: a SAT solver asked for a solution that keeps every placed domino (assumptions on the CNF's
  placement variables); when there is none, its core names the placed dominoes that cannot go together.
`board_of` turns a position into what a `Board` knows: each placed domino's pair of cells and its pips.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from pipscover.hints.board import Board, Change, pair
from pipscover.model import Placement, Puzzle, Solution
from pipscover.model.check import problems
from pipscover.model.naming import name_cells, name_domino

Key = tuple[tuple[tuple[int, int], int], ...]


def describe(placement: Placement) -> str:
    """`the [3|5] on row 1, columns 2 and 3`: a placed domino as the hints (and the checker) name it."""
    return f"the {name_domino(placement.domino)} on {name_cells(placement.cells)}"


def checker_problem(puzzle: Puzzle, placed: Sequence[Placement]) -> tuple[Placement, str] | None:
    """The first placement after which the checker finds the position wrong, and its first problem."""
    for end in range(1, len(placed) + 1):
        found = problems(puzzle, tuple(placed[:end]), partial=True)
        if found:
            return placed[end - 1], found[0]
    return None


@dataclass(frozen=True)
class Kept:
    """A solution that keeps the placed dominoes; or, when none does, the placed dominoes that no solution keeps
    together (a SAT solver's core: () when the puzzle has no solution at all)."""

    solution: Solution | None
    core: tuple[Placement, ...] = ()


def keeping(puzzle: Puzzle, placed: Sequence[Placement], deadline: float | None = None) -> Kept:
    """A solution keeping every placed domino, or the core of those no solution keeps (see `Kept`).
    Raises `SearchTimeout` past `deadline`.

    >>> from pipscover import load_one, solve
    >>> puzzle = load_one("examples/first.txt")
    >>> keeping(puzzle, solve(puzzle).solutions[0].placements[:2]).solution is not None
    True
    """
    from pysat.solvers import Solver

    from pipscover.cnf import encode_placements
    from pipscover.engines.sat_enumeration import ask_by_deadline

    encoding = encode_placements(puzzle)
    var = {_key(placement): number for number, placement in enumerate(encoding.placements, start=1)}
    missing = [placement for placement in placed if _key(placement) not in var]  # pruned: in no solution
    if missing:
        return Kept(None, (missing[0],))
    by_var = {var[_key(placement)]: placement for placement in placed}
    with Solver(name="minisat22", bootstrap_with=encoding.cnf.clauses) as solver:
        if ask_by_deadline(solver, deadline, list(by_var)):
            return Kept(encoding.solution(solver.get_model()))
        core = solver.get_core() or []
    return Kept(None, tuple(by_var[number] for number in sorted(core)))


def board_of(puzzle: Puzzle, placed: Sequence[Placement]) -> Board:
    """The board that knows the placed dominoes (a position the checker accepts)."""
    board = Board(puzzle)
    for placement in placed:
        first, second = (board.index[cell] for cell in placement.cells)
        pips = tuple(1 << board.values.index(pip) for pip in placement.domino)
        board.apply(Change(restrict=((first, pips[0]), (second, pips[1])), pairs=(pair(first, second),)))
    return board


def _key(placement: Placement) -> Key:
    """The cells and the pips on them: the same for both ways of writing a placement."""
    return tuple(sorted(zip(placement.cells, placement.domino)))
