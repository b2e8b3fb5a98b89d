"""A player's position: the dominoes placed so far, judged before a hint is given from it.

A hint from a position is a deduction about every solution that keeps the dominoes placed, so it is only
given when some solution does. What is wrong with a position is found in this order:
- `checker_problem`: the independent checker's words (`problems(..., partial=True)`: a cell off the board
  or covered twice, a domino placed more often than the puzzle has it, a full region that breaks its rule),
  for the first placement after which the position fails, unless dominoes placed before it are in no
  solution: a right domino that fills a region after a wrong one is not the one to name;
- `keeping`: a SAT solver asked for a solution that keeps every placed domino (assumptions on the CNF's
  placement variables); when there is none, each placed domino is asked about alone, and those no solution
  keeps are named one by one. Only when each alone is in some solution is a smallest set that cannot go
  together named (a player then knows that one of them, not which, has to move).
`board_of` turns a position into what a `Board` knows: each placed domino's pair of cells and its pips.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from pipscover.hints.board import Board, Change, pair
from pipscover.model import Placement, Puzzle, Solution
from pipscover.model.check import problems
from pipscover.model.naming import name_cells, name_domino
from pipscover.model.results import SearchTimeout
from pipscover.runtime.deadlines import has_passed
from pipscover.runtime.pysat_pool import thread_safe_formulas

Key = tuple[tuple[tuple[int, int], int], ...]


def describe(placement: Placement) -> str:
    """`the [3|5] on row 1, columns 2 and 3`: a placed domino as the hints (and the checker) name it."""
    return f"the {name_domino(placement.domino)} on {name_cells(placement.cells)}"


def checker_problem(puzzle: Puzzle, placed: Sequence[Placement]) -> tuple[int, str] | None:
    """How many placements the checker first finds the position wrong after, and its first problem."""
    for end in range(1, len(placed) + 1):
        found = problems(puzzle, tuple(placed[:end]), partial=True)
        if found:
            return end, found[0]
    return None


@dataclass(frozen=True)
class Kept:
    """A solution that keeps the placed dominoes; or, when none does, what is wrong: the placed dominoes that no
    solution keeps even alone (`alone`), or, when each alone is in some solution, the smallest set of them that
    no solution keeps together (`together`). Both are () when the puzzle has no solution at all."""

    solution: Solution | None
    alone: tuple[Placement, ...] = ()
    together: tuple[Placement, ...] = ()


def keeping(puzzle: Puzzle, placed: Sequence[Placement], deadline: float | None = None) -> Kept:
    """A solution keeping every placed domino, or what is wrong with the position (see `Kept`): one SAT question
    per placed domino (is there a solution with it?), and only when each has one, a smallest set that cannot go
    together. Raises `SearchTimeout` past `deadline`.

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
    by_var = {var[_key(placement)]: placement for placement in placed if _key(placement) in var}
    pruned = tuple(placement for placement in placed if _key(placement) not in var)  # in no solution: pruned
    with Solver(name="minisat22", bootstrap_with=encoding.cnf.clauses) as solver:
        if not pruned and ask_by_deadline(solver, deadline, list(by_var)):
            return Kept(encoding.solution(solver.get_model()))
        if not ask_by_deadline(solver, deadline):
            return Kept(None)
        vouched = {number for number in solver.get_model() if number in by_var}  # kept by one solution
        alone = list(pruned)
        for number, placement in by_var.items():
            if number in vouched:
                continue
            if ask_by_deadline(solver, deadline, [number]):
                vouched.update(n for n in solver.get_model() if n in by_var)
            else:
                alone.append(placement)
    if alone:
        return Kept(None, alone=tuple(alone))
    if has_passed(deadline):
        raise SearchTimeout
    smallest = _smallest_conflict(encoding.cnf.clauses, list(by_var))
    return Kept(None, together=tuple(by_var[number] for number in smallest))


def _smallest_conflict(clauses: list[list[int]], placed: Sequence[int]) -> list[int]:
    """A smallest set of the placement variables `placed` that no model of `clauses` makes all true (PySAT's
    OptUx: the smallest unsatisfiable subset of soft unit clauses, by implicit hitting sets)."""
    from pysat.examples.optux import OptUx
    from pysat.formula import WCNF

    thread_safe_formulas()
    formula = WCNF()
    formula.extend(clauses)
    for number in placed:
        formula.append([number], weight=1)
    with OptUx(formula, solver="m22") as smallest:
        return sorted(placed[index - 1] for index in smallest.compute())


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
