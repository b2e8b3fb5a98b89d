"""The CNF encoding: a puzzle as a propositional formula built with PySAT, and the map back.

Variables come in three blocks, always numbered in this order (encodings/cnf.md has the full write-up):

1. placement variables, one per surviving placement of a *distinct* domino on an ordered pair of adjacent
   cells (identical dominoes share their variables, so they cannot multiply solutions);
2. value variables, one per (cell, pip) pair that survived pruning, true when that pip lies on that cell;
3. auxiliary variables made by PySAT's `CardEnc` and `PBEnc`, numbered after the first two blocks.

Placements and values do not depend on the chosen cardinality or pseudo-boolean encoding, so a model's
first variables can be decoded without knowing how the formula was written.

    >>> from pipscover import load_one
    >>> encoding = encode_placements(load_one("examples/first.txt"))
    >>> encoding.num_vars >= len(encoding.placements) + len(encoding.values)
    True
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING

from pipscover.errors import PipsError, shown
from pipscover.model import Cell, Placement, Puzzle, Region, RegionKind, Solution
from pipscover.model.check import problems
from pipscover.model.results import Distinct
from pipscover.runtime.limits import BYTES_PER_CLAUSE, PB_WEIGHT_LIMIT, guard
from pipscover.runtime.pysat_pool import thread_safe_formulas

if TYPE_CHECKING:
    import numpy as np
    from pysat.formula import CNF

CARD_ENCODINGS = (
    "auto", "seqcounter", "totalizer", "sortnetwrk", "cardnetwrk", "mtotalizer", "kmtotalizer", "ladder",
    "pairwise", "bitwise",
)
# `native` is left out of both lists: it makes constraints only Minicard-style solvers read, not clauses.
PB_ENCODINGS = ("best", "bdd", "seqcounter", "sortnetwrk", "adder", "binmerge", "watchdog", "totalizer", "mixedradix")
DEFAULT_CARD = "auto"
# `auto` writes at-most-one with the sequential counter and every larger bound with kmtotalizer: the sequential
# counter's O(n*m) clauses (O(n^2) for "exactly m") blow up on many identical dominoes (478 dominoes, 297 of
# them 0-0: 1.2M clauses), where kmtotalizer writes 72 529 for the same constraint; on small bounds both are tiny.
AUTO_SMALL, AUTO_LARGE = "seqcounter", "kmtotalizer"
DEFAULT_PB = "best"
_UNARY_PB = {"seqcounter", "sortnetwrk", "totalizer", "bdd"}
# The two forms of a puzzle's CNF (encodings/cnf.md): a variable per placement (this module), or tiles, pips
# and one carrier per (tile, distinct domino) (`pipscover.cnf.compact`); `auto` picks by estimated size.
FORMS = ("auto", "placements", "compact")
DEFAULT_FORM = "auto"

# The clause families in the order they are written, one per region kind after the first five;
# encodings/cnf.md describes each one.
FAMILIES = (
    "domino", "cell", "value-of-placement", "value-support", "value-at-most-one",
    *(str(kind) for kind in RegionKind if kind.rule.constrains),
)


@dataclass(frozen=True, init=False)
class Encodings:
    """Which form the CNF takes, and which PySAT encoding writes its cardinality and pseudo-boolean constraints:
    each by its name, or by PySAT's own `pysat.card.EncType` and `pysat.pb.EncType` values, as a PySAT user
    has them (kept as their names).

    >>> from pysat.card import EncType
    >>> from pipscover import encoding, load_one
    >>> encoding(load_one("examples/first.txt"), Encodings(card="totalizer", form="placements")).describe()
    'encoding=placements card=totalizer pb=best'
    >>> Encodings(card=EncType.kmtotalizer).card
    'kmtotalizer'
    """

    card: str
    pb: str
    form: str

    def __init__(self, card: str | int = DEFAULT_CARD, pb: str | int = DEFAULT_PB, form: str = DEFAULT_FORM) -> None:
        if form not in FORMS:
            raise PipsError(f"unknown CNF encoding {shown(form)}; choose one of: {', '.join(FORMS)}")
        object.__setattr__(self, "card", _encoding_name(card, "card", CARD_ENCODINGS))
        object.__setattr__(self, "pb", _encoding_name(pb, "pb", PB_ENCODINGS))
        object.__setattr__(self, "form", form)

    def describe(self) -> str:
        return f"encoding={self.form} card={self.card} pb={self.pb}"


def _encoding_name(given: str | int, module: str, names: tuple[str, ...]) -> str:
    """The name of the encoding `given` by its name or by its value in PySAT's `pysat.<module>.EncType`."""
    name = given
    if isinstance(given, int) and not isinstance(given, bool):
        from importlib import import_module  # PySAT only for a value: it takes a moment to import

        values = vars(import_module(f"pysat.{module}").EncType).items()
        name = next((key for key, value in values if value == given and not key.startswith("_")), given)
    if name not in names:
        kind = "cardinality" if module == "card" else "pseudo-boolean"
        raise PipsError(f"unknown {kind} encoding {shown(given)}; choose one of: {', '.join(names)}")
    return str(name)


@dataclass(frozen=True)
class FamilySize:
    """How many clauses, and how many auxiliary variables, one clause family added."""

    name: str
    clauses: int
    aux_vars: int


class VariableBlocks(ABC):
    """What both CNF forms share: the formula's size, the value variables (numbered right after the first
    block of `blocks`: placements, or tiles), the projection sets, and the way between models and solutions.

    A model is what a PySAT solver's `get_model()` returns, a list of literals: `decode` turns it into a
    checked `Solution`, `block` gives the clause that forbids a solution (or every solution with its pip grid),
    and `assumptions` the literals that fix or forbid placements, for `solver.solve(assumptions=...)`.
    """

    puzzle: Puzzle
    cnf: CNF
    encodings: Encodings
    values: tuple[tuple[Cell, int], ...]

    @property
    @abstractmethod
    def blocks(self) -> tuple[tuple[str, int], ...]:
        """The named variable blocks, in numbering order (auxiliary variables follow)."""

    @property
    @abstractmethod
    def solution_vars(self) -> range:
        """The variables that fix the solution (its placements): the `placements` projection."""

    @abstractmethod
    def solution(self, model: Iterable[int]) -> Solution:
        """The solution a model describes, read from its `solution_vars`, unchecked (`decode` checks it)."""

    @abstractmethod
    def placement_literals(self, placement: Placement) -> list[int]:
        """The literals that are all true exactly when `placement` is part of the solution."""

    @property
    def num_vars(self) -> int:
        return self.cnf.nv

    @property
    def num_clauses(self) -> int:
        return len(self.cnf.clauses)

    @property
    def grid_vars(self) -> range:
        """The value variables: two models agree on them exactly when they give the same pip grid."""
        first = self.blocks[0][1] + 1
        return range(first, first + len(self.values))

    def projection(self, distinct: Distinct | str = "placements") -> range:
        """The projection set named by `distinct`, as `pipscover count --distinct` names it: `placements`
        (`solution_vars`: a projected model count is the number of solutions) or `grids` (`grid_vars`: the
        number of distinct pip grids). The DIMACS file's `c ind` lines hold the same set.

        >>> from pipscover import encoding, load_one
        >>> found = encoding(load_one("examples/first.txt"))
        >>> found.projection("placements") == found.solution_vars, found.projection("grids") == found.grid_vars
        (True, True)
        """
        return self.solution_vars if Distinct(distinct) is Distinct.PLACEMENTS else self.grid_vars

    def describe(self) -> str:
        """The form and encodings, for messages."""
        return self.encodings.describe()

    def __repr__(self) -> str:
        return f"<{type(self).__name__} of {self.puzzle.describe()}: {self.describe()}, {self.num_vars} variables>"

    @cached_property
    def value_var(self) -> dict[tuple[Cell, int], int]:
        """(cell, pip) -> its variable."""
        first = self.grid_vars.start
        return {value: first + j for j, value in enumerate(self.values)}

    def solution_literals(self, solution: Solution) -> list[int]:
        """The `solution_vars` that are true in the model of `solution`."""
        literals = {lit for placement in solution.placements for lit in self.placement_literals(placement)}
        return sorted(literals)

    def placement_blocker(self, model: Sequence[int]) -> list[int]:
        """A clause that rules out this model's tiling-and-grid and nothing else."""
        wanted = self.solution_vars  # (a range made once, not once per literal: the model has every variable)
        return [-lit for lit in model if lit > 0 and lit in wanted]

    def grid_blocker(self, model: Sequence[int]) -> list[int]:
        """A clause that rules out every solution with this model's pip grid."""
        wanted = self.grid_vars
        return [-lit for lit in model if lit > 0 and lit in wanted]

    def block(self, found: Solution | Sequence[int], distinct: Distinct | str = "placements") -> list[int]:
        """The clause that rules out `found` (a `Solution`, or a model as `get_model()` gives it) and nothing
        else, or with `distinct="grids"` every solution with its pip grid: add it to count by blocking clauses.

        >>> from pysat.solvers import Solver
        >>> from pipscover import encoding, load_one
        >>> found = encoding(load_one("examples/first.txt"))
        >>> with Solver(bootstrap_with=found.cnf) as solver:
        ...     first = solver.solve()
        ...     solver.add_clause(found.block(solver.get_model()))
        ...     second = solver.solve()
        >>> first, second
        (True, False)
        """
        grids = Distinct(distinct) is Distinct.GRIDS
        if isinstance(found, Solution):
            true = ([self.value_var[value] for value in sorted(found.grid.items())] if grids
                    else self.solution_literals(found))
            return [-lit for lit in true]
        return self.grid_blocker(found) if grids else self.placement_blocker(found)

    def assumptions(self, fixed: Iterable[Placement] = (), forbidden: Iterable[Placement] = ()) -> list[int]:
        """The literals to pass as `solver.solve(assumptions=...)` to ask for a solution that has every `fixed`
        placement and none of the `forbidden` ones (a domino either way round on its cells, which identical
        dominoes share); `solver.get_core()` names the assumptions an unsatisfiable answer needed. A fixed
        placement no solution has (it broke a rule on its own) is refused with `PipsError`, since no literal
        says it.

        >>> from pysat.solvers import Solver
        >>> from pipscover import encoding, load_one, solve
        >>> puzzle = load_one("examples/first.txt")
        >>> found = encoding(puzzle)
        >>> first = solve(puzzle).solutions[0].placements[0]  # its only solution's
        >>> with Solver(bootstrap_with=found.cnf) as solver:
        ...     solver.solve(assumptions=found.assumptions(forbidden=[first]))
        False
        """
        literals = [lit for placement in fixed for lit in self.placement_literals(placement)]
        for placement in forbidden:
            try:
                held = self.placement_literals(placement)
            except PipsError:  # in no solution: forbidden already
                continue
            if len(held) != 1:
                raise PipsError(f"{self.puzzle.describe()}: forbidding a placement takes one literal, which the "
                                f"{self.encodings.form} form has not; use Encodings(form='placements')")
            literals.append(-held[0])
        return literals

    def decode(self, model: Iterable[int], source: str = "model") -> Solution:
        """The solution a model describes (`get_model()`'s list of literals, or a solver's `v` line as
        integers), checked by the independent checker; `PipsError`, naming `source`, when the model does not
        fit the encoding or is not a solution.

        >>> from pysat.solvers import Solver
        >>> from pipscover import encoding, load_one, problems
        >>> found = encoding(load_one("examples/first.txt"))
        >>> with Solver(bootstrap_with=found.cnf) as solver:
        ...     _ = solver.solve()
        ...     solution = found.decode(solver.get_model())
        >>> problems(found.puzzle, solution)
        []
        """
        import numpy as np  # (only here: most commands never decode, and numpy takes a moment to import)

        where = f"{source}: {self.puzzle.describe()}"
        truth = self._truth(np.fromiter(model, dtype=np.int64), where)
        first = self.solution_vars.start
        missing = np.flatnonzero(truth[first:self.solution_vars.stop] == 0) + first
        if missing.size:
            name = self.blocks[0][0] if missing[0] <= self.blocks[0][1] else "value"
            raise PipsError(
                f"{where}: the model leaves {name} variable {missing[0]} unassigned ({missing.size} in all)"
            )
        solution = self.solution(np.flatnonzero(truth > 0).tolist())
        wrong = problems(self.puzzle, solution)
        if wrong:
            raise PipsError(f"{where}: the model is not a solution of this puzzle: {wrong[0]}")
        grid = solution.grid
        pip_at = np.array([grid[cell] for cell in self._value_cells])
        value_vars, cell_of, pip_of = self._value_layout
        said = truth[value_vars]
        contradicting = np.flatnonzero((said != 0) & ((said > 0) != (pip_at[cell_of] == pip_of)))
        if contradicting.size:
            (cell, pip), var = self.values[contradicting[0]], value_vars[contradicting[0]]
            raise PipsError(
                f"{where}: value variable {var} (pip {pip} on cell {list(cell)}) contradicts the placements"
            )
        return solution

    def _truth(self, literals: np.ndarray, where: str) -> np.ndarray:
        """Each variable's value in a model (index: variable; 1 true, -1 false, 0 unassigned); `PipsError` for a
        variable beyond the encoding's or one set both ways."""
        import numpy as np

        beyond = np.flatnonzero(np.abs(literals) > self.num_vars)
        if beyond.size:
            raise PipsError(
                f"{where}: the model has variable {abs(literals[beyond[0]])} but the encoding ({self.describe()}) "
                f"has {self.num_vars}; decode with the file it came from (or the puzzle and its --encoding/--card/--pb)"
            )
        true, false = literals[literals > 0], -literals[literals < 0]
        truth = np.zeros(self.num_vars + 1, dtype=np.int8)
        truth[true] = 1
        both = false[truth[false] == 1]
        if both.size:
            raise PipsError(f"{where}: the model sets variable {both[0]} both true and false")
        truth[false] = -1
        return truth

    @cached_property
    def _value_cells(self) -> list[Cell]:
        """The cells that have value variables, each once, in the order `_value_layout` indexes them."""
        return list(dict.fromkeys(cell for cell, _ in self.values))

    @cached_property
    def _value_layout(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The value variables as arrays, made once per encoding: each one's variable, its cell (an index into
        `_value_cells`) and its pip, so that a model's values are checked against its grid at once."""
        import numpy as np

        index = {cell: position for position, cell in enumerate(self._value_cells)}
        variables = np.array([self.value_var[value] for value in self.values], dtype=np.int64)
        return (variables, np.array([index[cell] for cell, _ in self.values], dtype=np.int64),
                np.array([pip for _, pip in self.values], dtype=np.int64))


class PlacementBlocks(VariableBlocks):
    """Variables numbered as in the placements form, which the OPB form (`pipscover.cnf.opb`) shares:
    variable `i + 1` is `placements[i]`, variable `len(placements) + j + 1` is `values[j]`."""

    placements: tuple[Placement, ...]

    @property
    def blocks(self) -> tuple[tuple[str, int], ...]:
        """The named variable blocks, in numbering order (auxiliary variables follow)."""
        return ("placement", len(self.placements)), ("value", len(self.values))

    @property
    def solution_vars(self) -> range:
        """The placement variables, which fix the solution."""
        return range(1, len(self.placements) + 1)

    @cached_property
    def placement_var(self) -> dict[Placement, int]:
        """placement (cells in sorted order, `Placement.canonical`) -> its variable."""
        return {placement: var for var, placement in enumerate(self.placements, start=1)}

    def solution(self, model: Iterable[int]) -> Solution:
        """The solution a model (a list of literals) describes, read from its placement variables."""
        last = len(self.placements)
        return Solution(tuple(self.placements[lit - 1] for lit in model if 0 < lit <= last))

    def placement_literals(self, placement: Placement) -> list[int]:
        """The placement's variable; `PipsError` for a placement no solution has (pruned, or not of this
        puzzle)."""
        var = self.placement_var.get(placement.canonical())
        if var is None:
            raise in_no_solution(self.puzzle, placement)
        return [var]

    def describe_variables(self) -> list[str]:
        """One line per placement and value variable, for the comments of DIMACS and OPB files."""
        lines = ["placement VAR domino A B cells R1 C1 R2 C2: pip A on cell (R1, C1), pip B on cell (R2, C2)"]
        for var, placement in enumerate(self.placements, start=1):
            (a, b), ((r1, c1), (r2, c2)) = placement.domino, placement.cells
            lines.append(f"placement {var} domino {a} {b} cells {r1} {c1} {r2} {c2}")
        lines.append("value VAR cell R C pip P: pip P lies on cell (R, C)")
        lines += [f"value {var} cell {cell[0]} {cell[1]} pip {pip}" for (cell, pip), var in self.value_var.items()]
        return lines


def in_no_solution(puzzle: Puzzle, placement: Placement) -> PipsError:
    """The error for a placement that has no literal: it was pruned (it breaks a rule on its own) or does
    not fit the puzzle."""
    (a, b), cells = placement.domino, [list(cell) for cell in placement.cells]
    return PipsError(f"{puzzle.describe()}: no solution has the [{a}|{b}] on {cells[0]}-{cells[1]}")


@dataclass(frozen=True, repr=False)
class Encoding(PlacementBlocks):
    """A puzzle's CNF with the meaning of its variables: what `pipscover.encoding(puzzle)` gives a PySAT user.

    `cnf` is the PySAT `CNF` (`Solver(bootstrap_with=encoding.cnf)`); variable `i + 1` is `placements[i]`
    (`placement_var` maps back), variable `len(placements) + j + 1` is `values[j]`, the pip `values[j][1]` on
    cell `values[j][0]` (`value_var`); higher variables are auxiliary. `projection("placements")` and
    `projection("grids")` are the two projection sets; `decode`, `block` and `assumptions` go between models
    and solutions (`VariableBlocks`).

    >>> from pipscover import encoding, load_one
    >>> found = encoding(load_one("examples/first.txt"))
    >>> found.placements[0], found.placement_var[found.placements[0]], found.num_clauses
    (Placement(domino=(0, 3), cells=((0, 0), (0, 1))), 1, 1745)
    """

    puzzle: Puzzle
    encodings: Encodings
    placements: tuple[Placement, ...]
    values: tuple[tuple[Cell, int], ...]
    cnf: CNF
    families: tuple[FamilySize, ...]


def encode_placements(puzzle: Puzzle, encodings: Encodings = Encodings(form="placements")) -> Encoding:
    """The placements form of `puzzle`'s CNF, written with the chosen cardinality and pseudo-boolean encodings.

    Most callers want `pipscover.cnf.encode`, which also offers the compact form.
    """
    # Before pruning, which takes seconds on a huge board: each domino appearing m > 1 times makes an
    # exactly-m constraint over up to two placements per pair of cells.
    places = 2 * len(puzzle.adjacent_pairs)
    expected = sum(places * min(m, max(places - m, 0)) * 2 for m in puzzle.domino_counts.values() if m > 1)
    guard(puzzle, "the CNF (the domino constraints)", needs_bytes=expected * BYTES_PER_CLAUSE)
    placements, domains = prune(puzzle)
    values = tuple((cell, pip) for cell in puzzle.cells for pip in sorted(domains[cell]))
    writer = FormulaWriter(len(placements) + len(values), encodings, puzzle)
    placement_var = {placement: i + 1 for i, placement in enumerate(placements)}
    value_var = {value: len(placements) + j + 1 for j, value in enumerate(values)}

    by_domino: dict[tuple[int, int], list[int]] = defaultdict(list)
    by_cell: dict[Cell, list[int]] = defaultdict(list)
    support: dict[tuple[Cell, int], list[int]] = defaultdict(list)
    for placement, var in placement_var.items():
        by_domino[_key(placement)].append(var)
        for cell, pip in zip(placement.cells, placement.domino):
            by_cell[cell].append(var)
            support[cell, pip].append(var)

    with writer.family("domino"):
        for domino, count in sorted(puzzle.domino_counts.items()):
            writer.exactly(by_domino[domino], count)
    with writer.family("cell"):
        for cell in puzzle.cells:
            writer.exactly(by_cell[cell], 1)
    with writer.family("value-of-placement"):
        for placement, var in placement_var.items():
            for cell, pip in zip(placement.cells, placement.domino):
                writer.clause(-var, value_var[cell, pip])
    with writer.family("value-support"):
        for value, var in value_var.items():
            writer.clause(-var, *support[value])
    with writer.family("value-at-most-one"):
        for cell in puzzle.cells:
            writer.at_most_one([value_var[cell, pip] for pip in sorted(domains[cell])])
    write_regions(writer, puzzle, domains, value_var)
    return Encoding(puzzle, encodings, placements, values, writer.cnf(), tuple(writer.sizes))


def card_encoding(card: str, bound: int) -> str:
    """The PySAT encoding that `--card card` uses for a cardinality constraint with this bound (at most or
    exactly `bound`, 1 <= bound < number of literals): `auto` picks by the bound, any other name is itself.

    >>> card_encoding("auto", 1), card_encoding("auto", 300), card_encoding("totalizer", 300)
    ('seqcounter', 'kmtotalizer', 'totalizer')
    """
    if card == "auto":
        return AUTO_SMALL if bound == 1 else AUTO_LARGE
    return card


class FormulaWriter:
    """Collects clauses and numbers PySAT's auxiliary variables after the placement and value blocks.

    PySAT's encoders are imported where they are used, not with this module: every CLI command imports this
    module for the encoding names, and loading pysat.card and pysat.pb (with Pindakaas) costs them time.
    """

    def __init__(self, top: int, encodings: Encodings, puzzle: Puzzle) -> None:
        from pysat.pb import EncType as PbType  # lazy: see the class docstring

        thread_safe_formulas()
        self.puzzle = puzzle
        # Plain lists: PySAT's CNF.append rescans every clause for its largest variable.
        self.clauses: list[Sequence[int]] = []
        self.top = top
        self.card = encodings.card
        self.pb = getattr(PbType, encodings.pb)
        self.pb_name = encodings.pb
        self.sizes: list[FamilySize] = []

    def family(self, name: str) -> _Family:
        return _Family(self, name)

    def clause(self, *literals: int) -> None:
        self.clauses.append(literals)  # a tuple: a third smaller than a list, and millions of them add up

    def exactly(self, literals: list[int], count: int) -> None:
        from pysat.card import CardEnc, UnsupportedBound  # lazy: see the class docstring
        from pysat.card import EncType as CardType

        if len(literals) < count:
            self.clause()  # the empty clause: too few places left for this domino or cell
        elif count == len(literals):
            for literal in literals:
                self.clause(literal)
        elif count == 1:
            # One clause says "at least one"; CardEnc's at-least would count the negated literals instead.
            self.clause(*literals)
            self.at_most_one(literals)
        else:
            # Every cardinality encoding but the sorting networks grows as literals x bound.
            self._expect(len(literals) * min(count, len(literals) - count) * 2, f"an exactly-{count} constraint")
            encoding = getattr(CardType, card_encoding(self.card, count))
            try:
                self._add(CardEnc.equals(literals, bound=count, top_id=self.top, encoding=encoding))
            except UnsupportedBound:
                # pairwise, bitwise and ladder only write at-most-one: a domino that appears m > 1 times
                # takes auto's encoding for large bounds instead.
                self._add(CardEnc.equals(literals, count, top_id=self.top, encoding=getattr(CardType, AUTO_LARGE)))

    def at_least(self, literals: list[int], count: int) -> None:
        from pysat.card import CardEnc, UnsupportedBound  # lazy: see the class docstring
        from pysat.card import EncType as CardType

        if len(literals) < count:
            self.clause()
        elif count == len(literals):
            for literal in literals:
                self.clause(literal)
        elif count == 1:
            self.clause(*literals)
        elif count > 1:
            encoding = getattr(CardType, card_encoding(self.card, count))
            try:
                self._add(CardEnc.atleast(literals, bound=count, top_id=self.top, encoding=encoding))
            except UnsupportedBound:  # as in `exactly`
                self._add(CardEnc.atleast(literals, count, top_id=self.top, encoding=getattr(CardType, AUTO_LARGE)))

    def at_most_one(self, literals: list[int]) -> None:
        from pysat.card import CardEnc  # lazy: see the class docstring
        from pysat.card import EncType as CardType

        if len(literals) > 1:
            encoding = getattr(CardType, card_encoding(self.card, 1))
            self._add(CardEnc.atmost(literals, bound=1, top_id=self.top, encoding=encoding))

    def sum_between(self, cells: list[list[tuple[int, int]]], least: int, most: int) -> None:
        """least <= the sum of the cells' pips <= most, each cell given as its (variable, pip) pairs, of which
        exactly one is true (both forms make the values of a cell exactly-one).

        That lets each side be written over pips shifted by the cell's smallest (for `<=`) or largest (for
        `>=`, turned into a `<=`) pip, so PBEnc sees small weights and a small bound. Over the raw pips, the
        `greater` regions of a planted 2 x 300 strip (pips up to 30) took 9.7 M clauses; shifted, 182 k.
        """
        from pysat.pb import PBEnc  # lazy: see the class docstring

        low = sum(min(pip for _, pip in cell) for cell in cells)
        high = sum(max(pip for _, pip in cell) for cell in cells)
        if max(high, most) >= PB_WEIGHT_LIMIT:  # no weight nor shifted bound exceeds these
            raise PipsError(f"{self.puzzle.describe()}: pips or targets up to {max(high, most):.3e} are beyond the "
                            "64-bit weights of the pseudo-boolean encodings; use -b dlx or -b cpsat")
        least, most = max(least, low), min(most, high)
        bound = max(most - low, high - least, 0)
        unary = self.pb_name in _UNARY_PB  # their size grows with the bound, not with its number of bits
        literals = sum(len(cell) for cell in cells)
        self._expect(literals * (bound if unary else bound.bit_length() ** 2) * 2,
                     f"a sum constraint up to {bound:,} under --pb {self.pb_name}")
        if least > most:
            self.clause()
            return
        from_low = [(var, pip - min(p for _, p in cell)) for cell in cells for var, pip in cell]
        from_low = [(var, weight) for var, weight in from_low if weight]
        if least == most:  # one PBEnc.equals: smaller than its two sides written apart (planted boards)
            self._add(PBEnc.equals(from_low, bound=least - low, top_id=self.top, encoding=self.pb))
            return
        if most < high:
            self._add(PBEnc.atmost(from_low, bound=most - low, top_id=self.top, encoding=self.pb))
        if least > low:
            to_high = [(var, max(p for _, p in cell) - pip) for cell in cells for var, pip in cell]
            to_high = [(var, weight) for var, weight in to_high if weight]
            self._add(PBEnc.atmost(to_high, bound=high - least, top_id=self.top, encoding=self.pb))

    def _expect(self, clauses: int, what: str) -> None:
        """Refuse, before PySAT allocates it, a constraint that would not fit in memory."""
        guard(self.puzzle, f"the CNF ({what})", needs_bytes=(len(self.clauses) + clauses) * BYTES_PER_CLAUSE)

    def _add(self, formula: CNF) -> None:
        self.clauses.extend(formula.clauses)
        self.top = max(self.top, formula.nv)

    def cnf(self) -> CNF:
        from pysat.formula import CNF  # lazy: see the class docstring

        made = CNF(from_clauses=self.clauses, by_ref=True)
        made.nv = self.top
        return made


class _Family:
    """Records the clauses and auxiliary variables added inside a `with` block under one family name."""

    def __init__(self, writer: FormulaWriter, name: str) -> None:
        self.writer, self.name = writer, name

    def __enter__(self) -> None:
        self.clauses, self.top = len(self.writer.clauses), self.writer.top

    def __exit__(self, *exc: object) -> None:
        writer = self.writer
        writer.sizes.append(FamilySize(self.name, len(writer.clauses) - self.clauses, writer.top - self.top))


def write_regions(writer: FormulaWriter, puzzle: Puzzle, domains: dict[Cell, set[int]], value_var: dict) -> None:
    """Every region's rule over the value variables, one family per kind (both CNF forms write them so)."""
    for kind, regions in regions_by_kind(puzzle):
        with writer.family(str(kind)):
            for region in regions:
                kind.rule.clauses(writer, region.cells, region.target, domains, value_var)


def regions_by_kind(puzzle: Puzzle) -> list[tuple[RegionKind, list[Region]]]:
    """Each kind with a rule, in the registry's order (the formulas' families follow it), and its regions."""
    return [(kind, [region for region in puzzle.regions if region.kind is kind])
            for kind in RegionKind if kind.rule.constrains]


def _key(placement: Placement) -> tuple[int, int]:
    a, b = placement.domino
    return (a, b) if a <= b else (b, a)


def candidate_placements(puzzle: Puzzle, domains: dict[Cell, set[int]] | None = None) -> list[Placement]:
    """Every placement of a distinct domino on two adjacent cells, cells in sorted order, before pruning.

    A double has one placement per pair of cells; any other domino has two (one per orientation).
    With `domains`, only the placements whose pips their cells may hold.
    """
    found = []
    for first, second in puzzle.adjacent_pairs:
        allowed_first = domains[first] if domains is not None else set()
        allowed_second = domains[second] if domains is not None else set()
        for a, b in sorted(puzzle.domino_counts):
            for x, y in ((a, b), (b, a)) if a != b else ((a, b),):
                if domains is None or (x in allowed_first and y in allowed_second):
                    found.append(Placement((x, y), (first, second)))
    return found


def prune(puzzle: Puzzle) -> tuple[tuple[Placement, ...], dict[Cell, set[int]]]:
    """The placements and the pips per cell that can still be part of a solution.

    Repeats until nothing changes: a pip leaves a cell when no surviving placement puts it there or when
    the cell's region cannot hold with it; a placement leaves when one of its pips has left its cell or
    when it breaks its region on its own (two cells of one region).
    """
    pips = {pip for domino in puzzle.dominoes for pip in domino}
    domains = {cell: set(pips) for cell in puzzle.cells}
    for region in puzzle.regions:
        region.rule.narrow(region.cells, region.target, domains)
    placements = candidate_placements(puzzle, domains)
    while True:
        kept = [p for p in placements if placement_possible(puzzle, p, domains)]
        reached: dict[Cell, set[int]] = defaultdict(set)
        for placement in kept:
            for cell, pip in zip(placement.cells, placement.domino):
                reached[cell].add(pip)
        narrowed = {cell: domains[cell] & reached[cell] for cell in puzzle.cells}
        if len(kept) == len(placements) and narrowed == domains:
            return tuple(kept), domains
        placements, domains = kept, narrowed
        for region in puzzle.regions:
            region.rule.narrow(region.cells, region.target, domains)


def placement_possible(puzzle: Puzzle, placement: Placement, domains: dict[Cell, set[int]]) -> bool:
    """Whether the placement's pips are in its cells' domains and, inside one region, keep its rule."""
    (first, second), (a, b) = placement.cells, placement.domino
    if a not in domains[first] or b not in domains[second]:
        return False
    index = puzzle.region_index
    if index[first] != index[second]:
        return True
    region = puzzle.regions[index[first]]
    others = [domains[cell] for cell in region.cells if cell not in placement.cells]
    return region.rule.pair_possible(region.target, a, b, others)
