"""pipscover: Pips puzzles as exact cover and SAT.

    >>> from pipscover import count, hint, load_one, problems, solve
    >>> puzzle = load_one("examples/first.txt")
    >>> result = solve(puzzle)
    >>> problems(puzzle, result.solutions[0])
    []
    >>> count(puzzle).count
    1
    >>> hint(puzzle, placed=result.solutions[0].placements[:3]).rule.name
    'forced-tiling'
"""

from __future__ import annotations

import sys
from importlib import import_module
from typing import TYPE_CHECKING, Any

from pipscover.errors import PipsError
from pipscover.version import __version__

if TYPE_CHECKING:
    from pathlib import Path

    from pipscover.cnf import Encodings
    from pipscover.counting import count
    from pipscover.formats import load, load_one, parse
    from pipscover.formats.fetch import puzzle_files
    from pipscover.generate.generator import generate  # at run time, the package `pipscover.generate`, callable
    from pipscover.hints import hint
    from pipscover.hints.rating import rate
    from pipscover.model import Cell, Difficulty, Domino, Origin, Placement, Puzzle, Region, RegionKind, Solution
    from pipscover.model.check import is_valid, problems
    from pipscover.model.results import CountResult, Distinct, SolveResult, Status
    from pipscover.solving import solutions, solve

# The public names, each imported from its module on first use: `import pipscover.cli` (every command's
# start) loads only what the command it runs needs.
_LAZY = {
    **dict.fromkeys(["Cell", "Difficulty", "Domino", "Origin", "Placement", "Puzzle", "Region", "RegionKind",
                     "Solution"], "pipscover.model"),
    **dict.fromkeys(["CountResult", "Distinct", "SolveResult", "Status"], "pipscover.model.results"),
    "count": "pipscover.counting", "load": "pipscover.formats", "load_one": "pipscover.formats",
    "parse": "pipscover.formats", "is_valid": "pipscover.model.check", "problems": "pipscover.model.check",
    "solutions": "pipscover.solving", "solve": "pipscover.solving", "hint": "pipscover.hints",
    "rate": "pipscover.hints.rating", "puzzle_files": "pipscover.formats.fetch",
    "sample": "pipscover.counting.completions",
}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        _show_in_notebooks()
        return getattr(import_module(_LAZY[name]), name)
    if name == "generate":  # the package of that name, which calls `generator.generate` (see its docstring)
        return import_module("pipscover.generate")
    raise AttributeError(f"module 'pipscover' has no attribute {name!r}")


def _show_in_notebooks() -> None:
    """Give the model its notebook pictures (`pipscover.render.notebook`): at once inside IPython, else when
    a public name is first used, so that the command line does not load the drawings to start."""
    from pipscover.render.notebook import show_in_notebooks

    show_in_notebooks()


def encode(puzzle: Puzzle, encodings: Encodings | None = None, project: Distinct | str = "placements") -> str:
    """The puzzle as a self-describing DIMACS CNF (`pipscover encode`), for a SAT solver or model counter.

    >>> from pipscover import load_one
    >>> text = encode(load_one("examples/first.txt"))
    >>> text.startswith("c "), text.count("p cnf ")
    (True, 1)
    """
    from pipscover.cnf import Encodings
    from pipscover.cnf import encode as encode_cnf
    from pipscover.cnf.dimacs import write_dimacs

    return write_dimacs(encode_cnf(puzzle, encodings or Encodings()), project)


def decode(puzzle: Puzzle, answer: str, encodings: Encodings | None = None, source: str = "answer") -> Solution | None:
    """The solution a SAT solver's `answer` (its `s`/`v` lines, or bare literals) gives to `encode(puzzle,
    encodings)` (`pipscover decode`); None when the solver found none. `source` names it in errors.

    >>> from pysat.formula import CNF
    >>> from pysat.solvers import Solver
    >>> from pipscover import load_one, problems
    >>> puzzle = load_one("examples/first.txt")
    >>> with Solver(bootstrap_with=CNF(from_string=encode(puzzle)).clauses) as solver:
    ...     found = solver.solve()
    ...     answer = "s SATISFIABLE\\nv " + " ".join(map(str, solver.get_model())) + " 0"
    >>> problems(puzzle, decode(puzzle, answer))
    []
    """
    from pipscover.cnf import Encodings
    from pipscover.cnf import encode as encode_cnf
    from pipscover.cnf.dimacs import decode_model, read_model
    from pipscover.model.results import Status

    said = read_model(answer, source)
    if said.status is not Status.SOLVED:
        return None
    return decode_model(encode_cnf(puzzle, encodings or Encodings()), said.literals, source)


def fetch(day: str, cache: str | Path | None = None, base_url: str | None = None) -> Path:
    """The file of an NYT day (YYYY-MM-DD or today) in the cache folder, downloaded when missing (`pipscover
    fetch`); `cache` and `base_url` as the command's --cache-dir and --base-url. A cached day is never
    downloaded again:

    >>> import tempfile
    >>> from pathlib import Path
    >>> cache = Path(tempfile.mkdtemp())
    >>> _ = (cache / "2025-09-15.json").write_text("{}")
    >>> fetch("2025-09-15", cache=cache) == cache / "2025-09-15.json"
    True
    """
    from pipscover.formats.fetch import fetch_day, parse_day

    return fetch_day(parse_day(day), cache, base_url).path


if "IPython" in sys.modules:
    _show_in_notebooks()

__all__ = [
    "Cell", "CountResult", "Difficulty", "Distinct", "Domino", "Origin", "PipsError", "Placement", "Puzzle", "Region",
    "RegionKind", "Solution", "SolveResult", "Status", "__version__", "count", "decode", "encode", "fetch",
    "generate", "hint", "is_valid", "load", "load_one", "parse", "problems", "puzzle_files", "rate", "solutions",
    "solve", "sample",
]
