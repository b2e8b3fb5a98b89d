"""The OPB form: a puzzle as a pseudo-Boolean problem in the format of the PB competitions.

A pseudo-Boolean solver reads linear constraints over 0/1 variables natively, so nothing needs encoding
into clauses and there are no auxiliary variables. The variables are those of the placements CNF, numbered
alike (`x1` ... are the placements that survive `prune`, then the values), and the constraints are (families
in this order, encodings/opb.md has each line's shape and the sizes against the CNF):

- domino: the placements of each distinct domino add up to the number of copies (`= m`);
- cell: the placements covering each cell add up to 1;
- value: each value variable equals the sum of the placements that put its pip on its cell, so a cell has
  exactly one pip (`+1 x3 +1 x9 -1 x40 = 0`);
- one family per region kind, each kind's `pb_constraints` (`sum 7`: `+1 x41 +2 x42 ... = 7`).

The file starts with the competition's `* #variable= N #constraint= M` line, then the self-describing header
(`pipscover.formats.header`) and the meaning of every variable as `*` comments. Only `>=` and `=` are written
(the competitions' format has no `<=`): a `<=` is written as `>=` with every sign turned. A solver's answer
(`v x1 -x2 ...`) decodes like a SAT model, by the encoding's `decode`.

    >>> from pipscover import load_one
    >>> encoding = encode_opb(load_one("examples/first.txt"))
    >>> write_opb(encoding).splitlines()[0]
    '* #variable= 191 #constraint= 107'
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from pipscover.cnf.placements import FamilySize, PlacementBlocks, prune, regions_by_kind
from pipscover.formats.header import header_lines
from pipscover.model import Cell, Placement, Puzzle

ENCODINGS_LINE = "encodings opb: linear constraints over the placement and value variables, no auxiliary ones"
# A constraint no assignment meets, for a sum of no terms that cannot reach its bound: `x1 >= 2`.
NEVER = ((1, 1),), 2


@dataclass(frozen=True, repr=False)
class PbEncoding(PlacementBlocks):
    """A puzzle's OPB form: its placements and values (numbered as in the placements CNF) and its constraints,
    each a tuple of (coefficient, variable) terms and a bound, read `sum >= bound` or, when `equal`, `=`."""

    puzzle: Puzzle
    placements: tuple[Placement, ...]
    values: tuple[tuple[Cell, int], ...]
    constraints: tuple[tuple[tuple[tuple[int, int], ...], str, int], ...]
    families: tuple[FamilySize, ...]

    @property
    def num_vars(self) -> int:
        return len(self.placements) + len(self.values)

    def describe(self) -> str:
        return "OPB"


def encode_opb(puzzle: Puzzle) -> PbEncoding:
    """The OPB form of `puzzle`."""
    placements, domains = prune(puzzle)
    values = tuple((cell, pip) for cell in puzzle.cells for pip in sorted(domains[cell]))
    value_var = {value: len(placements) + j + 1 for j, value in enumerate(values)}
    by_domino: dict[tuple[int, int], list[int]] = defaultdict(list)
    by_cell: dict[Cell, list[int]] = defaultdict(list)
    support: dict[tuple[Cell, int], list[int]] = defaultdict(list)
    for var, placement in enumerate(placements, start=1):
        a, b = placement.domino
        by_domino[min(a, b), max(a, b)].append(var)
        for cell, pip in zip(placement.cells, placement.domino):
            by_cell[cell].append(var)
            support[cell, pip].append(var)
    writer = _Writer()
    with writer.family("domino"):
        for domino, count in sorted(puzzle.domino_counts.items()):
            writer.linear([(1, var) for var in by_domino[domino]], "=", count)
    with writer.family("cell"):
        for cell in puzzle.cells:
            writer.linear([(1, var) for var in by_cell[cell]], "=", 1)
    with writer.family("value"):
        for value, var in value_var.items():
            writer.linear([*((1, placement) for placement in support[value]), (-1, var)], "=", 0)
    for kind, regions in regions_by_kind(puzzle):
        with writer.family(str(kind)):
            for region in regions:
                kind.rule.pb_constraints(writer, region.cells, region.target, domains, value_var)
    return PbEncoding(puzzle, placements, values, tuple(writer.constraints), tuple(writer.sizes))


class _Writer:
    """Collects the constraints (a `regions.base.LinearWriter`) and counts them per family."""

    def __init__(self) -> None:
        self.constraints: list[tuple[tuple[tuple[int, int], ...], str, int]] = []
        self.sizes: list[FamilySize] = []

    @contextmanager
    def family(self, name: str) -> Iterator[None]:
        """Count the constraints written inside the `with` block as the family `name`."""
        first = len(self.constraints)
        yield
        self.sizes.append(FamilySize(name, len(self.constraints) - first, 0))

    def linear(self, terms: list[tuple[int, int]], relation: str, bound: int) -> None:
        kept = [(coefficient, var) for coefficient, var in terms if coefficient]
        if relation == "<=":
            kept, bound = [(-coefficient, var) for coefficient, var in kept], -bound
        if not kept:
            if bound > 0 or (relation == "=" and bound != 0):  # 0 >= bound, or 0 = bound, fails
                self.constraints.append((NEVER[0], ">=", NEVER[1]))
            return
        self.constraints.append((tuple(kept), "=" if relation == "=" else ">=", bound))


def write_opb(encoding: PbEncoding) -> str:
    """The OPB text: the competition's first line, the header and the variables as comments, the constraints."""
    puzzle = encoding.puzzle
    lines = [f"* #variable= {max(encoding.num_vars, 1)} #constraint= {len(encoding.constraints)}"]
    comments = header_lines(puzzle, "OPB", ENCODINGS_LINE)
    comments.append(f"puzzle {len(puzzle.cells)} cells, {len(puzzle.regions)} regions, {len(puzzle.dominoes)} dominoes")
    comments += encoding.describe_variables()
    comments += [f"family {family.name} constraints {family.clauses}" for family in encoding.families]
    lines += [f"* {line}" for line in comments]
    for terms, relation, bound in encoding.constraints:
        lines.append(" ".join(f"{coefficient:+d} x{var}" for coefficient, var in terms) + f" {relation} {bound} ;")
    return "\n".join(lines) + "\n"
