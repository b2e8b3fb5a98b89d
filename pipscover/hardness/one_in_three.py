"""POSITIVE 1-IN-3-SAT -> Pips, after the NP-completeness proof of Alberti et al. (arXiv:2509.10846).

The puzzle uses only 0-0 and 1-1 dominoes and only `equals` and `sum` regions (plus `empty` cleanup cells,
and `sum 0` connectors with `connected=True`). Every domino is a double, so a solution is a tiling plus a
value 0/1 per tile. The gadgets, laid out so that the tiling is forced (encodings/hardness.md has the
proof and a drawing; rows grow downward):

- variable x: a horizontal base on row R with one vertical branch per clause x occurs in; the branch for
  clause j runs from the base up to its tip, just below clause j's body. One `equals` region holds the
  whole gadget except the tips, so every cell of it carries the value of x.
- clause j: a horizontal body on row 6j from its leftmost tip to one past its rightmost tip. One `sum 1`
  region holds the body and the three tips: exactly one of the three variables is 1.
- crossings: a body that meets another clause's branch runs straight through it (the branch is cut there,
  and both parts stay in their variable's `equals` region). A branch piece with an odd number of cells gets
  one pendant cell beside its third cell, so that it still tiles, in exactly one way.
- cleanup: an `empty` serpentine path as large as all variable gadgets, which takes the tiles left over.
- connectors (`connected=True`): a `sum 0` stub under every base and a `sum 0` spine joining the stubs and
  the cleanup path, so that the board is one piece.

Why the tiling is forced: branches sit on columns divisible by 4 and every body, base, spine and cleanup
path is a strip of even length whose outside neighbours all touch it at even positions; such a strip can
give no cell to a neighbour (the cells left would not split into even runs), so every strip tiles by
itself, every branch piece tiles by itself, and every tip is paired with the branch cell below it.
No planarity is needed: the layout handles every instance.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from pipscover.errors import PipsError, shown
from pipscover.formats import read_text_file
from pipscover.model import Cell, Origin, Puzzle, Solution, solution_from_grid
from pipscover.runtime.pysat_pool import thread_safe_formulas

ROW_STEP = 6  # rows between two clause bodies: room for a pendant that touches neither body
COLUMN_STEP = 4  # columns between two branches: branches, tips and pendants never touch each other
MAX_VARIABLES = 1_000_000  # the answer lists every variable: an instance may not name more

Pair = tuple[Cell, Cell]


@dataclass(frozen=True)
class OneInThreeInstance:
    """A POSITIVE 1-IN-3-SAT instance: variables 1..num_variables, clauses of three distinct variables."""

    num_variables: int
    clauses: tuple[tuple[int, int, int], ...]
    name: str = "1-in-3-SAT instance"

    def satisfied_by(self, assignment: Mapping[int, bool]) -> bool:
        """Whether exactly one variable of every clause is true."""
        return all(sum(bool(assignment.get(x, False)) for x in clause) == 1 for clause in self.clauses)


@dataclass(frozen=True)
class OneInThreeMap:
    """What `reduce_one_in_three` built, in the forced tiling: enough to map solutions both ways."""

    num_variables: int
    variable_pairs: Mapping[int, tuple[Pair, ...]]  # the tiling of each used variable's gadget
    zero_pairs: tuple[Pair, ...]  # clause bodies and connectors: always 0-0
    cleanup_pairs: tuple[Pair, ...]  # the cleanup path: takes whatever tiles are left


def parse_one_in_three(text: str, file: str) -> OneInThreeInstance:
    """The instance in a DIMACS CNF text whose clauses each have three distinct positive literals.

    >>> parse_one_in_three("p cnf 4 2\\n1 2 3 0\\n2 3 4 0\\n", "x.cnf").clauses
    ((1, 2, 3), (2, 3, 4))
    """
    header = re.search(r"^[ \t]*p\b.*$", text, re.MULTILINE)
    if header is not None and not re.fullmatch(r"\s*p\s+cnf\s+[0-9]{1,9}\s+[0-9]{1,9}\s*", header.group()):
        raise PipsError(
            f"{file}: bad DIMACS header {shown(header.group().strip())}; expected 'p cnf VARIABLES CLAUSES'"
        )
    declared = int(header.group().split()[2]) if header else 0
    try:
        from pysat.formula import CNF  # here, not at the top: every CLI command would load PySAT otherwise

        thread_safe_formulas()
        cnf = CNF(from_string=text)
    except ValueError as error:
        raise PipsError(f"{file}: not a DIMACS CNF file ({error})") from None
    for index, clause in enumerate(cnf.clauses, start=1):
        if len(clause) != 3 or len(set(clause)) != 3 or min(clause) <= 0:
            raise PipsError(
                f"{file}: clause {index} ({shown(' '.join(map(str, clause)))} 0) is not three distinct positive "
                "literals, as POSITIVE 1-IN-3-SAT needs"
            )
    if not cnf.clauses:
        raise PipsError(f"{file}: has no clauses")
    if max(cnf.nv, declared) > MAX_VARIABLES:
        raise PipsError(
            f"{file}: has {max(cnf.nv, declared):,} variables; the reduction takes at most {MAX_VARIABLES:,}"
        )
    return OneInThreeInstance(max(cnf.nv, declared), tuple(tuple(c) for c in cnf.clauses), file)


def read_one_in_three(path: str | Path) -> OneInThreeInstance:
    """The POSITIVE 1-IN-3-SAT instance in a DIMACS file."""
    return parse_one_in_three(read_text_file(path), str(path))


def reduce_one_in_three(instance: OneInThreeInstance, connected: bool = False) -> tuple[Puzzle, OneInThreeMap]:
    """A puzzle that is solvable exactly when `instance` is, and the map back.

    >>> puzzle, _ = reduce_one_in_three(OneInThreeInstance(3, ((1, 2, 3),)))
    >>> sorted(puzzle.domino_counts.items())
    [((0, 0), 11), ((1, 1), 6)]
    """
    if not instance.clauses:
        raise PipsError(f"{instance.name}: has no clauses")
    columns = _branch_columns(instance)
    base_row = ROW_STEP * (len(instance.clauses) - 1) + 3
    spans = [
        (min(columns[x, j] for x in clause), max(columns[x, j] for x in clause))
        for j, clause in enumerate(instance.clauses)
    ]
    width = COLUMN_STEP * len(columns) - 2

    variable_pairs: dict[int, list[Pair]] = {}
    tips: list[list[Cell]] = [[] for _ in instance.clauses]
    for (variable, clause_index), column in columns.items():  # by variable, then clause: left to right
        if variable not in variable_pairs:
            count = sum(1 for x, _ in columns if x == variable)
            variable_pairs[variable] = _strip_pairs([(base_row, column + i) for i in range(COLUMN_STEP * count - 2)])
        top = ROW_STEP * clause_index + 1
        tips[clause_index].append((top, column))
        crossings = [
            ROW_STEP * k for k in range(clause_index + 1, len(instance.clauses)) if spans[k][0] < column < spans[k][1]
        ]
        for start, stop in zip([top, *(row + 1 for row in crossings)], [*crossings, base_row]):
            variable_pairs[variable].extend(_branch_piece_pairs([(row, column) for row in range(start, stop)]))

    bodies = [
        _strip_pairs([(ROW_STEP * j, c) for c in range(first, last + 2)]) for j, (first, last) in enumerate(spans)
    ]
    variable_area = 2 * sum(len(pairs) for pairs in variable_pairs.values())
    connector_pairs, cleanup_top = [], base_row + 2
    if connected:
        for pairs in variable_pairs.values():
            column = pairs[0][0][1]  # the base's first cell: an even position, like every branch
            connector_pairs.append(((base_row + 1, column), (base_row + 2, column)))
        connector_pairs.extend(_strip_pairs([(base_row + 3, c) for c in range(width)]))
        connector_pairs.append(((base_row + 4, 0), (base_row + 5, 0)))
        cleanup_top = base_row + 6
    cleanup_pairs = _strip_pairs(_serpentine(cleanup_top, width, variable_area))

    all_tips = {tip for clause_tips in tips for tip in clause_tips}
    regions: list[tuple[str, Iterable[Cell], int | None]] = []
    for variable in sorted(variable_pairs):
        regions.append(("equals", [c for pair in variable_pairs[variable] for c in pair if c not in all_tips], None))
    for body, clause_tips in zip(bodies, tips):
        regions.append(("sum", [c for pair in body for c in pair] + clause_tips, 1))
    if connector_pairs:
        regions.append(("sum", [c for pair in connector_pairs for c in pair], 0))
    regions.append(("empty", [c for pair in cleanup_pairs for c in pair], None))

    zero_pairs = tuple(pair for body in bodies for pair in body) + tuple(connector_pairs)
    zero_tiles = len(zero_pairs) + variable_area // 2
    dominoes = [(0, 0)] * zero_tiles + [(1, 1)] * (variable_area // 2)
    kind = "connected " if connected else ""
    puzzle = Puzzle.build(regions, dominoes, Origin(file=f"{kind}Pips reduction of {instance.name}"))
    mapping = OneInThreeMap(
        instance.num_variables,
        {variable: tuple(pairs) for variable, pairs in variable_pairs.items()},
        zero_pairs,
        tuple(cleanup_pairs),
    )
    return puzzle, mapping


def recover_assignment(solution: Solution, mapping: OneInThreeMap) -> dict[int, bool]:
    """The assignment a solution of the reduced puzzle encodes: x is true when its gadget holds 1s.

    Variables that occur in no clause are false.
    """
    grid = solution.grid
    return {
        x: x in mapping.variable_pairs and grid[mapping.variable_pairs[x][0][0]] == 1
        for x in range(1, mapping.num_variables + 1)
    }


def solution_for_assignment(
    instance: OneInThreeInstance, mapping: OneInThreeMap, assignment: Mapping[int, bool]
) -> Solution:
    """The solution of the reduced puzzle that encodes a satisfying assignment (the proof's easy direction)."""
    if not instance.satisfied_by(assignment):
        raise PipsError(f"{instance.name}: the assignment does not make exactly one variable per clause true")
    grid: dict[Cell, int] = {cell: 0 for pair in mapping.zero_pairs for cell in pair}
    spare_ones = 0
    for variable, pairs in mapping.variable_pairs.items():
        value = int(bool(assignment.get(variable, False)))
        spare_ones += len(pairs) * (1 - value)
        grid.update({cell: value for pair in pairs for cell in pair})
    for index, pair in enumerate(mapping.cleanup_pairs):
        grid.update({cell: int(index < spare_ones) for cell in pair})
    tiling = [pair for pairs in mapping.variable_pairs.values() for pair in pairs]
    return solution_from_grid([*tiling, *mapping.zero_pairs, *mapping.cleanup_pairs], grid)


def _branch_columns(instance: OneInThreeInstance) -> dict[tuple[int, int], int]:
    """(variable, clause index) -> the column of that branch; a variable's branches are side by side."""
    occurrences = sorted((x, j) for j, clause in enumerate(instance.clauses) for x in clause)
    return {occurrence: COLUMN_STEP * index for index, occurrence in enumerate(occurrences)}


def _strip_pairs(cells: Sequence[Cell]) -> list[Pair]:
    """The one tiling of a path with an even number of cells."""
    return [(cells[i], cells[i + 1]) for i in range(0, len(cells), 2)]


def _branch_piece_pairs(cells: Sequence[Cell]) -> list[Pair]:
    """The tiling of a vertical branch piece; an odd piece gets a pendant beside its third cell."""
    if len(cells) % 2 == 0:
        return _strip_pairs(cells)
    row, column = cells[2]
    return [(cells[0], cells[1]), (cells[2], (row, column + 1)), *_strip_pairs(cells[3:])]


def _serpentine(top: int, width: int, area: int) -> list[Cell]:
    """A path of `area` cells snaking down from row `top`, `width` cells wide, its rows two apart."""
    path: list[Cell] = []
    row = top
    while len(path) < area:
        across = range(width) if (row - top) % 4 == 0 else range(width - 1, -1, -1)
        path.extend((row, column) for column in across)
        path.append((row + 1, across[-1]))
        row += 2
    return path[:area]
