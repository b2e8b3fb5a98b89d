"""The chain of hints: the easiest deduction at each step, until the puzzle is solved or no rule applies.

At each step the rules are tried level by level, easiest first, in the catalogue's order; the first level
with a deduction gives the step, preferring one that settles a pip or a pair over one that only rules
options out. When no rule applies the chain ends
with a `guess` step saying where the best guess is, or, given the solution to follow, makes that guess
(taking the solution's side) and goes on: that is how `pipscover rate` counts guesses. A contradiction
ends the chain with a `no-solution` step. A board the rules fill completely is checked by the independent
checker before the chain calls the puzzle solved.

The chain can start from a player's position (`placed`: the dominoes on the board so far, see `position`).
A position no solution keeps gets one `wrong-placement` step instead, naming the domino and why: the
checker's words (unless dominoes placed before the one they fail at are in no solution: those are named), or
else each placed domino that no solution keeps, one by one, with the contradiction the rules meet from it;
only when each alone is in some solution, the smallest set that cannot go together.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from html import escape
from typing import Any

from pipscover.hints.board import Board, Change, Contradiction, Deduction, pair, single
from pipscover.hints.catalogue import DEDUCTIONS, GUESS, NO_SOLUTION, RULES, WRONG, Rule
from pipscover.hints.position import board_of, checker_problem, describe, keeping
from pipscover.hints.trial import best_guess
from pipscover.model import Cell, Placement, Puzzle, Solution, given_placements, given_puzzle, solution_from_grid
from pipscover.model.check import problems
from pipscover.model.results import SearchTimeout
from pipscover.render.notebook import fresh_ids
from pipscover.render.svg import draw_svg
from pipscover.runtime.deadlines import deadline_of, has_passed

# The rules grouped by level, easiest first.
LEVELS = tuple(tuple(rule for rule in RULES if rule.level == level) for level in sorted({r.level for r in RULES}))


@dataclass(frozen=True)
class Step:
    """One hint: the rule, the sentence, the cells it concerns, and the pips and pairs it settles; `puzzle`,
    when `hint` gave it, the puzzle it is about (to draw it in a notebook), not compared."""

    rule: Rule
    reason: str
    cells: tuple[Cell, ...]
    pips: tuple[tuple[Cell, int], ...] = ()
    pairs: tuple[tuple[Cell, Cell], ...] = ()
    puzzle: Puzzle | None = field(default=None, compare=False, repr=False)

    def as_json(self) -> dict[str, Any]:
        return {
            "rule": self.rule.name,
            "reason": self.reason,
            "cells": [list(cell) for cell in self.cells],
            "pips": [[*cell, pip] for cell, pip in self.pips],
            "pairs": [[list(first), list(second)] for first, second in self.pairs],
        }

    def _repr_html_(self) -> str:
        """In a notebook: the board with the step's cells highlighted (when the step knows its puzzle), then the
        rule's name in bold and its sentence.

        >>> from pipscover import load_one
        >>> hint(load_one("examples/first.txt"))._repr_html_().startswith("<svg")
        True
        """
        board = "" if self.puzzle is None else draw_svg(self.puzzle, highlight=self.cells, ids=fresh_ids())
        return f"{board}<p><b>{escape(self.rule.name)}</b>: {escape(self.reason)}</p>"


@dataclass(frozen=True)
class Chain:
    """The steps for one puzzle; `complete` when they solve it."""

    puzzle: Puzzle = field(repr=False)  # a repr of the figures, not of the whole board
    steps: tuple[Step, ...]
    complete: bool

    @property
    def deductions(self) -> tuple[Step, ...]:
        """The steps made by rules (not guesses nor the end of a chain)."""
        return tuple(step for step in self.steps if step.rule.find is not None)

    @property
    def guesses(self) -> int:
        return sum(step.rule is GUESS for step in self.steps)

    @property
    def hardest(self) -> Rule | None:
        """The hardest rule used (the first of the highest level)."""
        return max((step.rule for step in self.deductions), key=lambda rule: rule.level, default=None)

    def as_json(self) -> dict[str, Any]:
        return {"puzzle": self.puzzle.origin.as_json(), "steps": [step.as_json() for step in self.steps],
                "complete": self.complete}

    def _repr_html_(self) -> str:
        """In a notebook: the board with the first step's cells highlighted, then the steps, numbered."""
        first = self.steps[0].cells if self.steps else ()
        steps = "".join(f"<li><b>{escape(s.rule.name)}</b>: {escape(s.reason)}</li>" for s in self.steps)
        return draw_svg(self.puzzle, highlight=first, ids=fresh_ids()) + f"<ol>{steps}</ol>"


def hint(
    puzzle: Puzzle, placed: Sequence[Placement] = (), timeout: float | None = None, *, deadline: float | None = None
) -> Step | None:
    """The next hint from the position `placed` (default: the empty board), or a `wrong-placement` step when
    no solution keeps the dominoes placed; None when the board is full and right. Raises `SearchTimeout` when
    `timeout` seconds pass first (`deadline=`, a `time.monotonic()` value, is the old name: deprecated).

    >>> from pipscover.model import Placement, Puzzle
    >>> puzzle = Puzzle.build([("sum", [(0, 0), (0, 1)], 5), ("empty", [(1, 0), (1, 1)], None)], [(1, 4), (2, 2)])
    >>> hint(puzzle, [Placement((2, 2), ((0, 0), (0, 1)))]).reason
    'The [2|2] on row 1, columns 1 and 2 is wrong: the sum-5 region at the top breaks its rule with pips 2 and 2.'
    """
    deadline = deadline_of(timeout, deadline, "hint")
    steps = hint_chain(given_puzzle(puzzle), limit=1, placed=placed, deadline=deadline).steps
    return replace(steps[0], puzzle=puzzle) if steps else None


def hint_chain(
    puzzle: Puzzle,
    limit: int | None = None,
    follow: Solution | None = None,
    placed: Sequence[Placement] = (),
    deadline: float | None = None,
    on_step: Callable[[Step], None] | None = None,
) -> Chain:
    """The steps from the position `placed` (default: the empty board): at most `limit` of them; guessing
    along `follow` when it is given. Raises `SearchTimeout` once `time.monotonic()` passes `deadline`.
    `on_step` is given each step as it is found: a caller stopped by Ctrl-C (`pipscover hint --all`) keeps them.

    >>> from pipscover.model import Puzzle
    >>> chain = hint_chain(Puzzle.build([("sum", [(0, 0)], 2), ("sum", [(0, 1)], 5)], [(5, 2)]))
    >>> [step.rule.name for step in chain.steps], chain.complete
    (['forced-tiling', 'region-sum', 'region-sum'], True)
    """
    placed = given_placements(placed, "placed")
    named = wrong_placement(puzzle, placed, deadline) if placed else None
    if named is not None:
        if on_step is not None:
            on_step(named)
        return Chain(puzzle, (named,), False)
    board = board_of(puzzle, placed)
    steps: list[Step] = []
    for step in _steps(board, limit, follow, deadline):
        steps.append(step)
        if on_step is not None:
            on_step(step)
    complete = board.solved() and not (steps and steps[-1].rule is NO_SOLUTION)
    return Chain(puzzle, tuple(steps), complete)


def _steps(board: Board, limit: int | None, follow: Solution | None, deadline: float | None) -> Iterator[Step]:
    """`hint_chain`'s steps, each as it is found (a `no-solution` step ends them)."""
    taken = 0
    while not board.solved() and (limit is None or taken < limit):
        if has_passed(deadline):
            raise SearchTimeout
        try:
            found = _next(board)
            if found is None:
                guess = best_guess(board, [rule.finder for rule in DEDUCTIONS])
                if guess is None:  # nothing left to choose: cannot happen on a board that is not solved
                    raise Contradiction("no choice is left, yet the board is not full")
                if follow is None:
                    yield Step(GUESS, guess.reason, _cells(board, guess.cells))
                    return
                option = next(o for o in guess.options if _agrees(board, o.assume, follow))
                reason = f"{guess.reason} Guess: {option.subject} is {option.value}."
                yield _step(board, GUESS, Deduction(reason, guess.cells, option.assume))
            else:
                yield _step(board, *found)
        except Contradiction as contradiction:
            yield Step(NO_SOLUTION, f"The puzzle has no solution: {contradiction.reason}.",
                       _cells(board, contradiction.cells))
            return
        taken += 1
    if board.solved():
        wrong = problems(board.puzzle, _solution(board))
        if wrong:
            yield Step(NO_SOLUTION, f"The puzzle has no solution: the full board fails ({wrong[0]}).", ())


def wrong_placement(puzzle: Puzzle, placed: Sequence[Placement], deadline: float | None = None) -> Step | None:
    """A `wrong-placement` step when no solution keeps the placed dominoes (see the module's docstring), else
    None. Raises `SearchTimeout` once `time.monotonic()` passes `deadline`."""
    placed = tuple(placed)
    found = checker_problem(puzzle, placed)
    if found is not None:  # the checker's words, unless the domino it fails at is right and others are wrong
        end, problem = found
        kept = keeping(puzzle, placed[:end], deadline)
        last = placed[end - 1]
        if not kept.alone or last in kept.alone:
            return Step(WRONG, f"{_capital(describe(last))} is wrong: {problem}.", last.cells)
        return _in_no_solution(puzzle, kept.alone, deadline)
    kept = keeping(puzzle, placed, deadline)
    if kept.alone:
        return _in_no_solution(puzzle, kept.alone, deadline)
    if not kept.together:
        return None
    names = ", ".join(describe(placement) for placement in kept.together[:-1]) + f" and {describe(kept.together[-1])}"
    cells = tuple(cell for placement in kept.together for cell in placement.cells)
    return Step(WRONG, f"Each alone is in some solution, but none has {names} together"
                       f"{_because(puzzle, kept.together, deadline)}", cells)


def _in_no_solution(puzzle: Puzzle, placements: Sequence[Placement], deadline: float | None) -> Step:
    """The step that names each of `placements`, which no solution keeps, with why."""
    sentences = [f"{_capital(describe(placement))} is in no solution{_because(puzzle, (placement,), deadline)}"
                 for placement in placements]
    return Step(WRONG, " ".join(sentences), tuple(cell for placement in placements for cell in placement.cells))


def _because(puzzle: Puzzle, placements: tuple[Placement, ...], deadline: float | None) -> str:
    """`: why.` (the rules' contradiction from these placements), or why the rules cannot say yet."""
    why = _contradiction(board_of(puzzle, placements), deadline)
    return f": {why}." if why else " (the rules alone do not show it yet)."


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def _contradiction(board: Board, deadline: float | None) -> str | None:
    """The first contradiction the rules meet going on from `board`; None when they stop without one."""
    try:
        while not board.solved():
            if has_passed(deadline):
                raise SearchTimeout
            found = _next(board)
            if found is None:
                return None
            board.apply(found[1].change)
    except Contradiction as contradiction:
        return contradiction.reason
    wrong = problems(board.puzzle, _solution(board))
    return f"the full board fails ({wrong[0]})" if wrong else None


def _next(board: Board) -> tuple[Rule, Deduction] | None:
    """A deduction of the easiest level that has one, preferring one that settles a pip or a pair."""
    for level in LEVELS:
        first = None
        for rule in level:
            for deduction in rule.finder(board):
                if not rule.exhaustive or _settles(board, deduction.change):
                    return rule, deduction
                first = first or (rule, deduction)
        if first is not None:
            return first
    return None


def _settles(board: Board, change: Change) -> bool:
    if change.pairs:
        return True
    return any(single(board.candidates[cell] & mask) and not single(board.candidates[cell])
               for cell, mask in change.restrict)


def _step(board: Board, rule: Rule, deduction: Deduction) -> Step:
    applied = board.apply(deduction.change)
    cells = board.cells
    return Step(
        rule,
        _capital(deduction.reason),
        _cells(board, deduction.cells),
        tuple((cells[cell], board.pip(cell)) for cell in applied.pips),
        tuple((cells[first], cells[second]) for first, second in applied.pairs),
    )


def _cells(board: Board, indices: tuple[int, ...]) -> tuple[Cell, ...]:
    return tuple(board.cells[i] for i in dict.fromkeys(indices))


def _agrees(board: Board, change: Change, solution: Solution) -> bool:
    """Whether `solution` keeps `change` (a guess's supposition)."""
    grid = {board.index[cell]: board.values.index(pip) for cell, pip in solution.grid.items()}
    tiling = {pair(board.index[a], board.index[b]) for a, b in (p.cells for p in solution.placements)}

    def kind_on(place: tuple[int, int]) -> int | None:
        pips = sorted((grid[place[0]], grid[place[1]]))
        return board.type_index.get((pips[0], pips[1]))

    return (all(mask >> grid[cell] & 1 for cell, mask in change.restrict)
            and all(place in tiling for place in change.pairs)
            and not any(place in tiling for place in change.exclude)
            and not any(place in tiling and kind_on(place) == kind for place, kind in change.ban))


def _solution(board: Board) -> Solution:
    tiling = [(board.cells[a], board.cells[b]) for a, b in board.pairs()]
    grid = {cell: board.pip(i) for i, cell in enumerate(board.cells)}
    return solution_from_grid(tiling, grid)
