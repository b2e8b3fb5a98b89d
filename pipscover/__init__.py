"""pipscover: Pips puzzles as exact cover and SAT.

    >>> from pipscover import count, load_one, problems, solve
    >>> puzzle = load_one("examples/first.txt")
    >>> result = solve(puzzle)
    >>> problems(puzzle, result.solutions[0])
    []
    >>> count(puzzle).count
    1
    >>> hint(puzzle, placed=result.solutions[0].placements[:3]).rule.name
    'forced-tiling'
"""

from pipscover.counting import count
from pipscover.errors import PipsError
from pipscover.formats import load, load_one, parse
from pipscover.hints import hint
from pipscover.model import Cell, Difficulty, Domino, Origin, Placement, Puzzle, Region, RegionKind, Solution
from pipscover.model.check import is_valid, problems
from pipscover.model.results import CountResult, Distinct, SolveResult, Status
from pipscover.render.notebook import show_in_notebooks
from pipscover.solving import solutions, solve
from pipscover.version import __version__

show_in_notebooks()

__all__ = [
    "Cell", "CountResult", "Difficulty", "Distinct", "Domino", "Origin", "PipsError", "Placement", "Puzzle", "Region",
    "RegionKind", "Solution", "SolveResult", "Status", "__version__", "count", "is_valid", "load", "load_one", "parse",
    "problems", "solutions", "solve", "hint",
]
