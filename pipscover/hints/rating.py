"""How hard a puzzle is for a person: read off the chain of hints that solves it.

The chain (`pipscover.hints`) is followed on a solution, guessing the solution's way where no rule applies,
so it always ends solved. It gives the hardest rule used, the number of guesses and the number of steps
(the chain's length, guesses included). The difficulty is the band the number of steps falls in: on the
1044 NYT puzzles, cut points at 21 and 43 steps agree with the NYT's own label on 83% of them (81% when the
cut points are chosen on one half of the days and tested on the other), where the generator's bands on
Dancing Links search nodes agree on 68%. Weighting the what-if steps, the guesses or the hardest level
more did not agree better (see the README).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from pipscover.errors import PipsError, shown
from pipscover.hints import Rule, hint_chain
from pipscover.model import Difficulty, Puzzle, Solution, given_puzzle
from pipscover.model.check import problems
from pipscover.model.results import SearchTimeout, Status
from pipscover.runtime.deadlines import deadline_of
from pipscover.solving import solve

# The most steps an easy and a medium puzzle take (calibrated on the NYT puzzles, see above).
EASY_STEPS = 21
MEDIUM_STEPS = 43


@dataclass(frozen=True)
class Rating:
    """A puzzle's difficulty (None when it has no solution) and the chain's figures it comes from."""

    puzzle: Puzzle = field(repr=False)  # a repr of the figures, not of the whole board
    difficulty: Difficulty | None
    hardest: Rule | None
    guesses: int
    steps: int

    def as_json(self) -> dict[str, Any]:
        return {
            "puzzle": self.puzzle.origin.as_json(),
            "difficulty": self.difficulty,
            "hardest_rule": None if self.hardest is None else self.hardest.name,
            "level": None if self.hardest is None else self.hardest.level,
            "guesses": self.guesses,
            "steps": self.steps,
        }


def difficulty_of(steps: int) -> Difficulty:
    """The band of a chain of `steps` steps: a `Difficulty`, as the readers give the NYT's labels.

    >>> [str(difficulty_of(steps)) for steps in (15, 30, 60)]
    ['easy', 'medium', 'hard']
    """
    if steps <= EASY_STEPS:
        return Difficulty.EASY
    return Difficulty.MEDIUM if steps <= MEDIUM_STEPS else Difficulty.HARD


def rate(
    puzzle: Puzzle, solution: Solution | None = None, timeout: float | None = None, *, deadline: float | None = None
) -> Rating:
    """Rate `puzzle`, guessing along `solution` (default: the published one when valid, else one the solver finds;
    one that does not solve `puzzle` is a `PipsError`).
    Raises `SearchTimeout` when `timeout` seconds pass first (`deadline=`, a `time.monotonic()` value, is the
    old name: deprecated).

    >>> from pipscover import load_one
    >>> rating = rate(load_one("examples/first.txt"))
    >>> rating.difficulty == "hard", rating.guesses
    (True, 0)
    """
    deadline = deadline_of(timeout, deadline, "rate")
    follow = _checked(given_puzzle(puzzle), solution) or _published(puzzle)
    if follow is None:
        found = solve(puzzle, timeout=None if deadline is None else max(0.0, deadline - time.monotonic()))
        if found.status not in (Status.SOLVED, Status.UNSATISFIABLE):
            raise SearchTimeout
        follow = next(iter(found.solutions), None)
    if follow is None:
        return Rating(puzzle, None, None, 0, 0)
    chain = hint_chain(puzzle, follow=follow, deadline=deadline)
    return Rating(puzzle, difficulty_of(len(chain.steps)), chain.hardest, chain.guesses, len(chain.steps))


def difficulty(puzzle: Puzzle, solution: Solution) -> Difficulty:
    """The band `rate` gives `puzzle`, guessing along `solution`, without following the chain past the
    steps that make it hard (on a 40-domino puzzle, rating it in full took 18 s of the generator's 60 s).

    >>> from pipscover import load_one
    >>> puzzle = load_one("examples/first.txt")
    >>> difficulty(puzzle, puzzle.published_solution) == rate(puzzle).difficulty
    True
    """
    return difficulty_of(len(hint_chain(puzzle, limit=MEDIUM_STEPS + 1, follow=solution).steps))


def _checked(puzzle: Puzzle, solution: Solution | None) -> Solution | None:
    """The solution to guess along as given, or `PipsError` for one that does not solve `puzzle`: a list or
    another puzzle's solution was followed until the first guess, and ended there in an AttributeError or a
    KeyError (a puzzle rated without a guess never looked at it)."""
    if solution is None:
        return None
    if not isinstance(solution, Solution):
        raise PipsError(f"rate: the solution to guess along must be a Solution, as solve gives it, not the "
                        f"{type(solution).__name__} {shown(solution)}")
    wrong = problems(puzzle, solution)
    if wrong:
        raise PipsError(f"rate: the solution to guess along does not solve {puzzle.describe()}: {wrong[0]}")
    return solution


def _published(puzzle: Puzzle) -> Solution | None:
    published = puzzle.published_solution
    return published if published is not None and not problems(puzzle, published) else None
