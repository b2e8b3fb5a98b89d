"""DIMACS export and model decoding: the CNF for stock SAT solvers and model counters, and the way back.

`write_dimacs` writes a standard DIMACS CNF (PySAT's writer) preceded by comment lines that make it
self-describing (`pipscover.formats.header`: the pipscover version, the puzzle itself with its hash, the
encodings), the meaning of every placement and value variable (`c placement VAR domino A B cells R1 C1 R2
C2`, `c value VAR cell R C pip P`), the size of every clause family, and the projection set (`c ind ... 0`
for MIS-style counters, `c p show ... 0` for d4 / GANAK style) that a projected model counter counts over.

`read_model` reads what a solver prints (`s SATISFIABLE` with `v` lines, `s UNSATISFIABLE`, MiniSat's
`SAT`/`UNSAT` result file, or a bare list of literals), and what a pseudo-Boolean solver prints for the OPB
form (`v x1 -x2 ...`, `s OPTIMUM FOUND`); the encoding's `decode` turns the model into a checked solution.
"""

from __future__ import annotations

import io
import re
from dataclasses import dataclass

from pipscover.cnf.forms import AnyEncoding
from pipscover.errors import PipsError, shown
from pipscover.formats.header import header_lines
from pipscover.model.results import Distinct, Status

IND_PER_LINE = 10  # value variables per `c ind` line, to keep lines short


def write_dimacs(encoding: AnyEncoding, project: Distinct | str = Distinct.PLACEMENTS) -> str:
    """The encoding as DIMACS CNF text with its self-describing comments.

    `project` picks the projection set of the `c ind` / `c p show` lines: the placement variables (a projected
    model count is the number of solutions, as `pipscover count` gives it) or the cell values (the number of
    distinct pip grids, `count --distinct grids`). A plain model count counts neither: the auxiliary
    variables of the cardinality and pseudo-boolean encodings are not determined by the solution.

    >>> from pipscover import load_one
    >>> from pipscover.cnf import encode
    >>> text = write_dimacs(encode(load_one("examples/first.txt")))
    >>> [line for line in text.splitlines() if line.startswith("p ")]
    ['p cnf 642 1745']
    """
    comments = _comments(encoding, Distinct(project))
    stream = io.StringIO()
    encoding.cnf.to_fp(stream, comments=comments)
    return stream.getvalue()


def _comments(encoding: AnyEncoding, project: Distinct) -> list[str]:
    puzzle, chosen = encoding.puzzle, encoding.encodings
    blocks, first = [], 1
    for name, count in encoding.blocks:
        blocks.append(f"{name}s {first}-{first + count - 1}")
        first += count
    encodings = f"encodings form {chosen.form} card {chosen.card} pb {chosen.pb}"
    lines = [f"c {line}" for line in header_lines(puzzle, "CNF", encodings)]
    lines += [
        f"c puzzle {len(puzzle.cells)} cells, {len(puzzle.regions)} regions, {len(puzzle.dominoes)} dominoes",
        f"c variables {encoding.num_vars}: {', '.join(blocks)}, auxiliary (CardEnc/PBEnc) above",
    ]
    lines += [f"c {line}" for line in encoding.describe_variables()]
    for family in encoding.families:
        lines.append(f"c family {family.name} clauses {family.clauses} aux {family.aux_vars}")
    projection = list(encoding.projection(project))
    if project is Distinct.PLACEMENTS:
        lines.append("c projection placements: a projected model count is the number of solutions (placements)")
    else:
        lines.append("c projection grids: a projected model count is the number of distinct pip grids")
    for start in range(0, len(projection), IND_PER_LINE):
        lines.append("c ind " + " ".join(map(str, projection[start:start + IND_PER_LINE])) + " 0")
    lines.append("c p show " + " ".join(map(str, projection)) + " 0")
    return lines


@dataclass(frozen=True)
class SolverAnswer:
    """What a solver's output says: a status and, when satisfiable, each model it printed as its literals
    (one, or several from a solver asked for every model: `clasp -n 0`, `picosat --all`)."""

    status: Status
    models: tuple[tuple[int, ...], ...] = ()



_STATUS_WORDS = {
    "SATISFIABLE": Status.SOLVED, "SAT": Status.SOLVED,
    "UNSATISFIABLE": Status.UNSATISFIABLE, "UNSAT": Status.UNSATISFIABLE,
    "OPTIMUM FOUND": Status.SOLVED,  # the PB competitions' word for a solved problem with an objective
    "UNKNOWN": Status.UNKNOWN, "INDETERMINATE": Status.UNKNOWN, "INDET": Status.UNKNOWN,  # no time limit said
}
# A literal: ASCII digits, a variable number that fits; `x` before it in a PB solver's answer
_LITERAL = re.compile(r"-?(?:[0-9]{1,18}|x[1-9][0-9]{0,17})")
_LITERALS = re.compile(rf"(?:{_LITERAL.pattern}(?: {_LITERAL.pattern})*)?")  # a line of them, one space apart


def read_model(text: str, source: str) -> SolverAnswer:
    """Parse a solver's output; `source` names it in error messages.

    A model ends at its `0`, at a `c Answer: N` line (clasp's, before each model) or at an `s` line (PicoSAT's
    `--all` prints one before each model), so an output listing every model gives them all.

    >>> read_model("s SATISFIABLE\\nv 1 -2 3 0\\n", "out.txt")
    SolverAnswer(status=<Status.SOLVED: 'solved'>, models=((1, -2, 3),))
    >>> read_model("1 -2 3", "out.txt").models
    ((1, -2, 3),)
    >>> read_model("c Answer: 1\\nv x1 -x2\\nc Answer: 2\\nv -x1 x2\\ns SATISFIABLE\\n", "clasp.out").models
    ((1, -2), (-1, 2))
    """
    status: Status | None = None
    models: list[list[int]] = [[]]
    for number, line in enumerate(text.splitlines(), start=1):
        words = line.split()
        if words[:2] == ["c", "Answer:"] and models[-1]:
            models.append([])
        if not words or words[0] == "c":
            continue
        if words[0] == "s" or (len(words) == 1 and words[0].upper() in _STATUS_WORDS):
            status = _status(" ".join(words[1:] if words[0] == "s" else words).upper(), status)
            if status is None:
                raise PipsError(f"{source}: line {number}: unknown solver status {shown(line.strip())}")
            if models[-1]:
                models.append([])
            continue
        _add_literals(models, words[1:] if words[0] == "v" else words, f"{source}: line {number}")
    found = tuple(tuple(model) for model in models if model)
    if status is None:
        if not found:
            raise PipsError(f"{source}: holds no model (no `s` status line and no literals)")
        status = Status.SOLVED
    if status is Status.SOLVED and not found:
        raise PipsError(f"{source}: says satisfiable but holds no literals (`v` lines)")
    return SolverAnswer(status, found if status is Status.SOLVED else ())


def _add_literals(models: list[list[int]], words: list[str], where: str) -> None:
    """Add one line's literals to the model being read (the last of `models`); a `0` ends it. The line is
    checked by one pattern and read by `int` over its words, so a model is read in time linear in its size."""
    line = " ".join(words)
    if not _LITERALS.fullmatch(line):
        wrong = next(word for word in words if not _LITERAL.fullmatch(word))
        raise PipsError(f"{where}: {shown(wrong)} is not a literal; expected a solver's output")
    literals = list(map(int, line.replace("x", "").split() if "x" in line else words))
    start = 0
    for _ in range(literals.count(0)):
        end = literals.index(0, start)
        models[-1].extend(literals[start:end])
        if models[-1]:
            models.append([])
        start = end + 1
    models[-1].extend(literals[start:])


def _status(word: str, before: Status | None) -> Status | None:
    """The status an `s` line's word says; PicoSAT's `s SOLUTIONS N` after `--all` keeps the status of its
    models, or says unsatisfiable when N is 0. None for a word no solver prints."""
    solutions = re.fullmatch(r"SOLUTIONS ([0-9]{1,18})", word)
    if solutions is not None:
        return (before or Status.SOLVED) if int(solutions.group(1)) else Status.UNSATISFIABLE
    return _STATUS_WORDS.get(word)
