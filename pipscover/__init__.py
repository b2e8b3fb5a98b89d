"""pipscover: Pips puzzles as exact cover and SAT.

Read puzzles with `load_one` / `load` / `parse` (NYT JSON, the text format, or a `.cnf` / `.opb` that
`encode` wrote), answer with `solve`, `solutions`, `count`, `hint` and `rate`, draw uniform solutions and
per-cell counts from the exact counts with `sample` and `marginals`, check with `problems` / `is_valid`,
make puzzles with `generate`, fetch NYT days with `fetch`. For SAT research: `encoding(puzzle)`
is the CNF as an object (`Encoding`: its PySAT `CNF`, the variables' meaning, the projection sets, `decode`,
`block`, `assumptions`), `encode` / `decode` the DIMACS text and a solver's answer. Every name has an example
in its docstring:

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

from pipscover.errors import NoSolution, PipsError
from pipscover.version import __version__

if TYPE_CHECKING:
    from collections.abc import Sequence
    from pathlib import Path

    from pipscover.cnf import Encodings
    from pipscover.cnf.forms import AnyEncoding
    from pipscover.cnf.placements import Encoding
    from pipscover.counting import count
    from pipscover.counting.completions import marginals, sample
    from pipscover.formats import load, load_one, parse
    from pipscover.formats.fetch import puzzle_files
    from pipscover.generate.generator import generate  # at run time, the package `pipscover.generate`, callable
    from pipscover.hints import hint
    from pipscover.hints.rating import rate
    from pipscover.model import Cell, Difficulty, Domino, Origin, Placement, Puzzle, Region, RegionKind, Solution
    from pipscover.model.check import is_valid, problems
    from pipscover.model.results import CountResult, Distinct, Marginals, SolveResult, Status
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
    "Encoding": "pipscover.cnf.placements", "Encodings": "pipscover.cnf.placements",
    "sample": "pipscover.counting.completions", "marginals": "pipscover.counting.completions",
    "Marginals": "pipscover.model.results",
}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        _show_in_notebooks()
        return getattr(import_module(_LAZY[name]), name)
    if name == "generate":  # the package of that name, which calls `generator.generate` (see its docstring)
        return import_module("pipscover.generate")
    raise AttributeError(f"module 'pipscover' has no attribute {name!r}")


def __dir__() -> list[str]:
    """The public names (`__all__`), which `dir`, `help` and tab completion list without importing them."""
    return sorted({*__all__, *(name for name in globals() if name.startswith("__"))})


def _show_in_notebooks() -> None:
    """Give the model its notebook pictures (`pipscover.render.notebook`): at once inside IPython, else when
    a public name is first used, so that the command line does not load the drawings to start."""
    from pipscover.render.notebook import show_in_notebooks

    show_in_notebooks()


def encode(puzzle: Puzzle, encodings: Encodings | None = None, project: Distinct | str = "placements") -> str:
    """The puzzle as a self-describing DIMACS CNF (`pipscover encode`), for a SAT solver or model counter: the
    text of `encoding(puzzle, encodings)`, its projection set (`c ind`) the `project` one.

    >>> from pipscover import load_one
    >>> text = encode(load_one("examples/first.txt"))
    >>> text.startswith("c "), text.count("p cnf ")
    (True, 1)
    """
    from pipscover.cnf.dimacs import write_dimacs

    return write_dimacs(encoding(puzzle, encodings), project)


def encoding(puzzle: Puzzle, encodings: Encodings | None = None) -> AnyEncoding:
    """The puzzle's CNF as an object, the one `encode` writes as DIMACS: its PySAT `CNF` (`.cnf`), the
    meaning of its variables, its projection sets (`.projection("placements")`, `.projection("grids")`), and
    `decode(model)`, `block(solution)` and `assumptions(fixed=..., forbidden=...)` for PySAT solvers (see
    `Encoding`). Counting by blocking clauses:

    >>> from pysat.solvers import Solver
    >>> from pipscover import load_one
    >>> cnf = encoding(load_one("examples/first.txt"))
    >>> with Solver(bootstrap_with=cnf.cnf) as solver:
    ...     solutions = 0
    ...     while solver.solve():
    ...         solutions += 1
    ...         solver.add_clause(cnf.block(solver.get_model()))
    >>> solutions
    1
    """
    from pipscover.cnf import Encodings
    from pipscover.cnf import encode as encode_cnf
    from pipscover.errors import shown
    from pipscover.model import given_puzzle

    if encodings is not None and not isinstance(encodings, Encodings):  # "totalizer": "has no attribute 'form'"
        raise PipsError(f"encodings must be an Encodings, such as Encodings(card='totalizer') or "
                        f"Encodings(form='compact'), not the {type(encodings).__name__} {shown(encodings)}")
    return encode_cnf(given_puzzle(puzzle), encodings or Encodings())


def decode(
    puzzle: Puzzle, answer: str | Sequence[int], encodings: Encodings | None = None, source: str = "answer"
) -> Solution | None:
    """The solution that a SAT solver's `answer` gives to `encode(puzzle, encodings)` (`pipscover decode`):
    its model as a list of literals (PySAT's `get_model()`), or its printed output (`s`/`v` lines, or bare
    literals); None when the output says it found none. `source` names the answer in errors.

    >>> from pysat.formula import CNF
    >>> from pysat.solvers import Solver
    >>> from pipscover import load_one, problems
    >>> puzzle = load_one("examples/first.txt")
    >>> with Solver(bootstrap_with=CNF(from_string=encode(puzzle))) as solver:
    ...     found = solver.solve()
    ...     model = solver.get_model()
    >>> problems(puzzle, decode(puzzle, model))
    []
    >>> decode(puzzle, "s UNSATISFIABLE") is None
    True
    """
    from pipscover.cnf.dimacs import read_model
    from pipscover.model.results import Status

    if isinstance(answer, str):
        said = read_model(answer, source)
        if said.status is not Status.SOLVED:
            return None
        if len(said.models) > 1:
            raise PipsError(f"{source}: holds {len(said.models)} models; pass one, or decode all: `pipscover decode`")
        answer = said.models[0]
    return encoding(puzzle, encodings).decode(answer, source)


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
    "Cell", "CountResult", "Difficulty", "Distinct", "Domino", "Encoding", "Encodings", "Marginals", "NoSolution",
    "Origin", "PipsError", "Placement", "Puzzle", "Region", "RegionKind", "Solution", "SolveResult", "Status",
    "__version__",
    "count", "decode", "encode", "encoding", "fetch", "generate", "hint", "is_valid", "load", "load_one",
    "marginals", "parse", "problems", "puzzle_files", "rate", "sample", "solutions", "solve",
]
