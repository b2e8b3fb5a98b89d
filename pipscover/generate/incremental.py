"""One SAT solver kept across many questions about puzzles that share a board and a set of dominoes.

The generator asks "is there a solution other than the hidden one?" hundreds of times while it adds,
changes and drops region rules. Rebuilding and reloading the formula for each question costs more than
answering it, so this keeps one PySAT solver loaded with the board and the dominoes (the CNF of the puzzle
with no rules), and adds each region rule it is asked about once, guarded by a selector literal `s`
(every clause of the rule gets `¬s`). A question passes the selectors of the rules it wants as
assumptions; rules not passed are switched off, never deleted. The same goes for the clause that rules
out a hidden solution and for asking for other pips on some cells. Clauses the solver learns stay valid across
questions because every guarded clause is a consequence of its selector.

    >>> from pipscover.model import Puzzle, Region, RegionKind, Solution, Placement
    >>> board = Puzzle.build([("empty", [(0, 0), (0, 1), (1, 0), (1, 1)], None)], [(1, 2), (3, 3)])
    >>> session = PuzzleSession(board)
    >>> hidden = Solution((Placement((1, 2), ((0, 0), (0, 1))), Placement((3, 3), ((1, 0), (1, 1)))))
    >>> rule = Region(RegionKind.SUM, ((0, 0), (0, 1)), 3)
    >>> session.other_solution([rule], hidden) is None  # 3-3 must lie on the bottom row; 1-2 either way
    False
    >>> session.other_solution([rule, Region(RegionKind.SUM, ((0, 0),), 1)], hidden) is None
    True

Answers depend only on the order of the questions, never on time, so the generator stays deterministic.
Each question is asked in slices of conflicts (`ask_by_deadline`), so that a `deadline` can stop it
between two slices (`SearchTimeout`): PySAT cannot interrupt CaDiCaL. The slices do not depend on the
time, only the decision to stop does.
"""

from __future__ import annotations

from collections.abc import Iterable

from pysat.solvers import Solver

from pipscover.cnf.placements import Encoding, Encodings, FormulaWriter, encode_placements
from pipscover.engines.sat_enumeration import ask_by_deadline
from pipscover.model import Cell, Puzzle, Region, Solution

# Most of the generator's questions are proofs that no other solution exists. On them the placements form
# with CaDiCaL answered fastest (generate -n 24 --shape rect --seed 1, CPU: CaDiCaL 1.9.5 6.0 s, Glucose 4.1
# 15.1 s; CaDiCaL on the compact form 32 s).
DEFAULT_SOLVER = "cadical195"


class PuzzleSession:
    """An incremental solver for the puzzles on `board`'s cells with `board`'s dominoes (its regions are ignored)."""

    def __init__(self, board: Puzzle, solver: str = DEFAULT_SOLVER, encodings: Encodings = Encodings(),
                 deadline: float | None = None) -> None:
        self.deadline = deadline
        blank = Puzzle.build([("empty", board.cells, None)], board.dominoes)
        self.encoding = encode_placements(blank, encodings)
        self.board = blank
        self.domains: dict[Cell, set[int]] = {cell: set() for cell in blank.cells}
        for cell, pip in self.encoding.values:
            self.domains[cell].add(pip)
        self.solver = Solver(name=solver, bootstrap_with=self.encoding.cnf.clauses)
        self.top = self.encoding.num_vars
        self.selectors: dict[object, int] = {}
        self.preferred: Solution | None = None
        self.placement_var = {placement: var for var, placement in enumerate(self.encoding.placements, start=1)}

    def close(self) -> None:
        self.solver.delete()

    def __enter__(self) -> PuzzleSession:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def other_solution(
        self,
        regions: Iterable[Region],
        hidden: Solution,
        free: set[Cell] | None = None,
        differ: Iterable[Cell] = (),
    ) -> Solution | None:
        """A solution of the puzzle with these `regions`, other than `hidden`; with `free`, one that keeps
        every domino of `hidden` that lies outside those cells (a small question, answered in milliseconds);
        with `differ`, one with other pips than `hidden` on at least one of those cells. None when there is none."""
        assumptions = [self._region_selector(region) for region in regions]
        assumptions.append(self._blocker_selector(hidden))
        self._prefer(hidden)
        differ = tuple(sorted(differ))
        if differ:
            assumptions.append(self._differ_selector(hidden, differ))
        if free is not None:
            placement_var = self.placement_var
            assumptions += [placement_var[p] for p in hidden.placements if free.isdisjoint(p.cells)]
        if not ask_by_deadline(self.solver, self.deadline, assumptions):
            return None
        return self.encoding.solution(self.solver.get_model())

    def _region_selector(self, region: Region) -> int:
        key = (region.kind, tuple(sorted(region.cells)), region.target)
        if key not in self.selectors:
            # What pruning would do with the region alone, as clauses: the pips it narrows away, and the
            # placements inside it that break its rule whatever the other cells hold. The rule is then written
            # over the pips left. Without these the proofs of uniqueness took CaDiCaL several times longer.
            rule, cells, target = region.rule, region.cells, region.target
            narrowed = {cell: set(self.domains[cell]) for cell in cells}
            rule.narrow(cells, target, narrowed)
            writer = FormulaWriter(self.top, self.encoding.encodings, self.board)
            value_var = self.encoding.value_var
            for cell in region.cells:
                for pip in sorted(self.domains[cell] - narrowed[cell]):
                    writer.clause(-value_var[cell, pip])
            inside = set(cells)
            for var, placement in enumerate(self.encoding.placements, start=1):
                if inside.issuperset(placement.cells):
                    others = [narrowed[cell] for cell in cells if cell not in placement.cells]
                    if not rule.pair_possible(target, *placement.domino, others):
                        writer.clause(-var)
            rule.clauses(writer, cells, target, narrowed, value_var)
            self.top = writer.top
            self.selectors[key] = self._guarded(writer.clauses)
        return self.selectors[key]

    def _prefer(self, hidden: Solution) -> None:
        """Make the solver try the hidden solution's values first, so that it finds other solutions close to
        it: a few changed dominoes, found in milliseconds, where a search from scratch took seconds on
        40-domino boards (planted puzzles are hard for CDCL from scratch)."""
        if self.preferred is not hidden:
            self.solver.set_phases(hidden_phases(self.encoding, hidden))
            self.preferred = hidden

    def _blocker_selector(self, hidden: Solution) -> int:
        key = ("hidden", hidden)
        if key not in self.selectors:
            self.selectors[key] = self._guarded([[-lit for lit in self.encoding.solution_literals(hidden)]])
        return self.selectors[key]

    def _differ_selector(self, hidden: Solution, cells: tuple[Cell, ...]) -> int:
        """A selector for "some cell of `cells` holds another pip than in `hidden`"."""
        key = ("differ", hidden, cells)
        if key not in self.selectors:
            value_var = self.encoding.value_var
            self.selectors[key] = self._guarded([[-value_var[cell, hidden.grid[cell]] for cell in cells]])
        return self.selectors[key]

    def _guarded(self, clauses: Iterable[Iterable[int]]) -> int:
        self.top += 1
        selector = self.top
        for clause in clauses:
            self.solver.add_clause([-selector, *clause])
        return selector


def hidden_phases(encoding: Encoding, hidden: Solution) -> list[int]:
    """The values `hidden` gives the encoding's named variables (placements and pips), as literals, for
    `Solver.set_phases`: a solver that tries them first finds the solutions close to `hidden` first."""
    true = set(encoding.solution_literals(hidden))
    true.update(encoding.value_var[value] for value in hidden.grid.items())
    named = sum(count for _, count in encoding.blocks)
    return [var if var in true else -var for var in range(1, named + 1)]
