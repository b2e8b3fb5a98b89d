"""Certificates: a claim about a puzzle's solutions that anyone can check without trusting pipscover's solvers.

A certificate is a DIMACS file and a DRAT proof that it has no model (encodings/certificates.md):

- "unique": the file is `encode`'s DIMACS of the puzzle plus one clause, the one that excludes the solution
  found (`Encoding.block`); the proof shows that no other solution is left;
- "unsatisfiable": the file is `encode`'s DIMACS alone; the proof shows that the puzzle has no solution;
- "not unique" has no proof: two different solutions, which the independent checker (`problems`) verifies.

The proof comes from a PySAT solver with proof logging (CaDiCaL 1.9.5), run afresh on the very clauses of
the file; `check` replays it with a checker that shares no code with any solver (the `dratify` package, and
`drat-trim` where it is on the PATH), after making sure the file is the puzzle's CNF plus at most one clause
that blocks a solution of the puzzle.

    >>> from pipscover import load_one
    >>> made = certify(load_one("examples/first.txt"))
    >>> made.claim, len(made.solutions), check(made.cnf, made.proof, "first.cnf").accepted
    ('unique', 1, True)
"""

from __future__ import annotations

import shutil
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

from pipscover.cnf import Encodings
from pipscover.cnf import encode as encode_cnf
from pipscover.cnf.dimacs import write_dimacs
from pipscover.cnf.forms import AnyEncoding
from pipscover.errors import PipsError
from pipscover.formats.header import read_header
from pipscover.model import Puzzle, Solution
from pipscover.model.check import problems

PROOF_SOLVER = "cadical195"  # writes DRAT as text; PySAT 1.9.dev16 and later flush it before `get_proof`
DRAT_TRIM_SECONDS = 600


@dataclass(frozen=True)
class Certificate:
    """What `certify` found: the claim (`unique`, `unsatisfiable` or `not unique`), the solutions shown (one,
    none or two), the DIMACS text and its DRAT proof (None for `not unique`)."""

    puzzle: Puzzle = field(repr=False)
    claim: str
    solutions: tuple[Solution, ...] = field(repr=False)
    cnf: str = field(repr=False)
    proof: str | None = field(repr=False)
    seconds: float

    @property
    def proved(self) -> bool:
        """Whether the claim comes with a proof (exit code 0), rather than two solutions (1)."""
        return self.proof is not None


def certify(puzzle: Puzzle) -> Certificate:
    """The puzzle's certificate: a solution and the proof that no other exists, the proof that none exists,
    or two solutions (see the module's docstring). The CNF is `encode(puzzle)`'s, default encodings.

    The solver's searches run in a forked worker (`pipscover.runtime.stoppable`), as the SAT backends' do under
    a deadline: a Ctrl-C in CaDiCaL's search here was PySAT's longjmp out of it (a traceback of its own error),
    and the solver deleted after that sometimes crashed the process ("corrupted double-linked list").

    >>> from pipscover.model import Puzzle
    >>> certify(Puzzle.build([("sum", [(0, 0), (0, 1)], 5)], [(1, 1)])).claim
    'unsatisfiable'
    """
    import pysat.solvers  # noqa: F401  (imported here, once: the worker inherits it)

    from pipscover.runtime.stoppable import in_parallel

    start = time.monotonic()
    encoding = encode_cnf(puzzle, Encodings())
    ((models, extra, proof),) = in_parallel([partial(_search, encoding)], jobs=1)
    found = tuple(encoding.decode(model, "the proof solver's model") for model in models)
    dimacs = write_dimacs(encoding)
    if proof is None:
        return Certificate(puzzle, "not unique", found, dimacs, None, time.monotonic() - start)
    return Certificate(puzzle, "unique" if found else "unsatisfiable", found, with_clauses(dimacs, extra), proof,
                       time.monotonic() - start)


def _search(encoding: AnyEncoding) -> tuple[list[list[int]], list[list[int]], str | None]:
    """Up to two models; with fewer, the clause that blocks the one found (if any) and the proof that nothing is
    left once it is added."""
    from pysat.solvers import Solver

    models: list[list[int]] = []
    with Solver(name=PROOF_SOLVER, bootstrap_with=encoding.cnf) as solver:
        while len(models) < 2 and solver.solve():
            models.append(solver.get_model())
            solver.add_clause(encoding.block(models[-1]))
    if len(models) == 2:
        return models, [], None
    extra = [encoding.block(model) for model in models]
    return models, extra, refutation([*encoding.cnf.clauses, *extra])


def refutation(clauses: list[Any]) -> str:
    """A DRAT proof that `clauses` have no model, from a fresh solver with proof logging."""
    from pysat.solvers import Solver

    with Solver(name=PROOF_SOLVER, bootstrap_with=clauses, with_proof=True) as solver:
        if solver.solve():
            raise AssertionError("the clauses that exclude every solution found have a model")
        lines = solver.get_proof()
    return "".join(line if line.endswith("\n") else line + "\n" for line in lines)


def with_clauses(dimacs: str, extra: list[list[int]]) -> str:
    """The DIMACS text with `extra` clauses after its own, the problem line counting them."""
    if not extra:
        return dimacs
    lines = dimacs.splitlines(keepends=True)
    at = next(i for i, line in enumerate(lines) if line.startswith("p cnf "))
    _, _, variables, clauses = lines[at].split()
    lines[at] = f"p cnf {variables} {int(clauses) + len(extra)}\n"
    lines += [" ".join(map(str, clause)) + " 0\n" for clause in extra]
    return "".join(lines)


@dataclass(frozen=True)
class Checked:
    """What `check` made of a certificate: the claim it proves, the solution it names (for `unique`), and
    each checker's verdict (True, or the reason it rejected; drat-trim None when it is not installed)."""

    puzzle: Puzzle = field(repr=False)
    claim: str
    solutions: tuple[Solution, ...] = field(repr=False)
    verdicts: dict[str, bool | str | None]

    @property
    def accepted(self) -> bool:
        return all(verdict is True or verdict is None for verdict in self.verdicts.values())

    @property
    def reason(self) -> str:
        """Why it was rejected: the first checker's reason."""
        return next(f"{name}: {verdict}" for name, verdict in self.verdicts.items() if isinstance(verdict, str))


def check(cnf: str, proof: str, source: str) -> Checked:
    """Check a certificate: that `cnf` is the CNF `encode` writes for the puzzle in its header (verified by
    its hash) plus at most one clause, which excludes one solution of the puzzle, and that the DRAT `proof`
    refutes it, by `dratify` and by `drat-trim` where it is on the PATH. `PipsError` (bad input) for a file
    that holds no puzzle; a certificate that proves nothing is `Checked` with a reason, not an error.
    """
    header = read_header(cnf, source)
    if header is None:
        raise PipsError(f"{source}: not a certificate: a file without pipscover's header, which carries the "
                        "puzzle; `pipscover certify` writes certificates")
    if header.format != "dimacs" or header.puzzle is None:
        raise PipsError(f"{source}: not a certificate: " + ("an OPB file; certificates are DIMACS" if
                        header.format != "dimacs" else "its header names the puzzle's file but does not carry it"))
    puzzle = header.puzzle
    encoding = encode_cnf(puzzle, Encodings(header.card, header.pb, header.form))
    clauses = _clauses(cnf, source)
    claim, solutions, wrong = _claim(encoding, clauses)
    if wrong is not None:
        return Checked(puzzle, claim, solutions, {"pipscover": wrong})
    verdicts: dict[str, bool | str | None] = {"dratify": _dratify(cnf, proof)}
    verdicts["drat-trim"] = _drat_trim(cnf, proof)
    return Checked(puzzle, claim, solutions, verdicts)


def _clauses(cnf: str, source: str) -> list[list[int]]:
    from pysat.formula import CNF

    try:
        return CNF(from_string=cnf).clauses
    except ValueError as error:
        raise PipsError(f"{source}: unreadable DIMACS ({error})") from None


def _claim(encoding: AnyEncoding, clauses: list[list[int]]) -> tuple[str, tuple[Solution, ...], str | None]:
    """The claim the clauses make (`unsatisfiable` for the encoding alone, `unique` for one clause more that
    excludes a solution), its solution, and what is wrong when they are neither."""
    own = [list(clause) for clause in encoding.cnf.clauses]
    if clauses[:len(own)] != own or len(clauses) > len(own) + 1:
        return "none", (), ("the CNF is not the one `encode` writes for the puzzle in its header, plus at most "
                            "one clause")
    if len(clauses) == len(own):
        return "unsatisfiable", (), None
    extra = clauses[-1]
    solution = encoding.solution([-lit for lit in extra if lit < 0])
    if problems(encoding.puzzle, solution) or sorted(encoding.block(solution)) != sorted(extra):
        return "unique", (), "the last clause does not exclude a solution of the puzzle"
    return "unique", (solution,), None


def _dratify(cnf: str, proof: str) -> bool | str:
    from dratify import check_proof, parse_dimacs

    try:
        result = check_proof(parse_dimacs(cnf), proof)
    except ValueError as error:  # dratify's word for a proof it cannot read
        return f"the proof is unreadable ({error})"
    if result.ok:
        return True
    step = f"step {result.failed_step}: " if result.failed_step is not None else ""
    return f"{step}{result.reason}"


def _drat_trim(cnf: str, proof: str) -> bool | str | None:
    """drat-trim's verdict, None when it is not on the PATH."""
    program = shutil.which("drat-trim")
    if program is None:
        return None
    with tempfile.TemporaryDirectory() as folder:
        formula, steps = Path(folder) / "certificate.cnf", Path(folder) / "certificate.drat"
        formula.write_text(cnf)
        steps.write_text(proof)
        try:
            done = subprocess.run([program, str(formula), str(steps)], capture_output=True, text=True,
                                  timeout=DRAT_TRIM_SECONDS, check=False)
        except subprocess.TimeoutExpired:
            return f"gave no verdict within {DRAT_TRIM_SECONDS} s"
    return True if "s VERIFIED" in done.stdout else "the proof does not check"
