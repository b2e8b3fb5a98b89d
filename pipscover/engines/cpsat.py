"""OR-Tools CP-SAT as a search backend (optional: `pip install -e '.[cpsat]'` or `pip install ortools`).

The model: one Boolean per placement option (adjacent cells p < q, a distinct domino {a, b} with a on p and
b on q, and b on p and a on q unless a = b), exactly one option per cell and exactly m_d options per domino
d of multiplicity m_d; each cell's pip is the linear sum of the pips its options put there, and each region's
kind constrains those (`RegionRule.constrain`): a linear sum (`sum`, `less`, `greater`), equality with the
region's first cell (`equals`), AllDifferent (`unequal`). A solution of the model is a set of options, so each
Pips solution is found once. CP-SAT enumerates them (`enumerate_all_solutions`, one worker) in a thread that
hands them over one at a time; closing the iterator stops the search.

    >>> from pipscover import load_one, solve
    >>> solve(load_one("examples/first.txt"), "cpsat", limit=None).status
    <Status.SOLVED: 'solved'>
"""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Iterator
from typing import Any

from pipscover.engines.base import Backend, Capabilities
from pipscover.model import Cell, Domino, Placement, Puzzle, Solution
from pipscover.model.results import SearchTimeout

Option = tuple[tuple[int, int], tuple[int, int], int, int]  # (p, q, pip on p, pip on q)


class CpSatBackend(Backend):
    """Every solution from Google OR-Tools' CP-SAT solver."""

    name = "cpsat"
    description = "OR-Tools CP-SAT, enumerating all solutions"
    capabilities = Capabilities(requires="ortools", install="pip install -e '.[cpsat]' (or pip install ortools)")

    def solutions(self, puzzle: Puzzle, deadline: float | None = None) -> Iterator[Solution]:
        self.require()
        from ortools.sat.python import cp_model  # optional: loaded only when this backend runs
        model, options, chosen = _model(puzzle, cp_model)
        solver = cp_model.CpSolver()
        solver.parameters.enumerate_all_solutions = True
        solver.parameters.num_workers = 1
        if deadline is not None:
            solver.parameters.max_time_in_seconds = max(0.0, deadline - time.monotonic())
        handover: queue.Queue = queue.Queue()
        finished = object()

        class Collector(cp_model.CpSolverSolutionCallback):
            def on_solution_callback(self) -> None:
                handover.put([option for option, used in zip(options, chosen) if self.boolean_value(used)])

        def run() -> None:
            handover.put((finished, solver.solve(model, Collector())))

        worker = threading.Thread(target=run, name="cpsat", daemon=True)
        worker.start()
        try:
            while True:
                item = handover.get()
                if isinstance(item, tuple) and item[0] is finished:
                    # OPTIMAL: every solution listed; INFEASIBLE: none; FEASIBLE/UNKNOWN: the time limit hit.
                    if item[1] not in (cp_model.OPTIMAL, cp_model.INFEASIBLE):
                        raise SearchTimeout()
                    return
                yield Solution(tuple(Placement((a, b), (p, q)) for p, q, a, b in item))
        finally:
            solver.stop_search()
            worker.join()


def _model(puzzle: Puzzle, cp_model: Any) -> tuple[Any, list[Option], list[Any]]:
    """The CP-SAT model, its placement options and their Booleans (in the same order)."""
    model = cp_model.CpModel()
    options: list[Option] = []
    for p, q in puzzle.adjacent_pairs:
        for a, b in puzzle.domino_counts:
            options.append((p, q, a, b))
            if a != b:
                options.append((p, q, b, a))
    chosen = [model.new_bool_var(f"{p}-{q}:{a}{b}") for p, q, a, b in options]
    # CP-SAT's variables and linear expressions (OR-Tools ships no type information).
    covering: dict[Cell, list[Any]] = {cell: [] for cell in puzzle.cells}
    pips: dict[Cell, list[Any]] = {cell: [] for cell in puzzle.cells}
    by_domino: dict[Domino, list[Any]] = {domino: [] for domino in puzzle.domino_counts}
    for (p, q, a, b), used in zip(options, chosen):
        covering[p].append(used)
        covering[q].append(used)
        pips[p].append(a * used)
        pips[q].append(b * used)
        by_domino[(min(a, b), max(a, b))].append(used)
    for cell in puzzle.cells:
        model.add_exactly_one(covering[cell])
    for domino, copies in puzzle.domino_counts.items():
        model.add(sum(by_domino[domino]) == copies)
    value = {cell: model.new_int_var(0, puzzle.max_pip, f"pip{cell}") for cell in puzzle.cells}
    for cell in puzzle.cells:
        model.add(value[cell] == sum(pips[cell]))
    for region in puzzle.regions:
        region.rule.constrain(model, [value[cell] for cell in region.cells], region.target)
    return model, options, chosen
