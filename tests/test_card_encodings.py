"""The CNF writer's cardinality and pseudo-Boolean constraints, each checked exhaustively on a few literals:
under every `--card` and `--pb` encoding, for every bound and every comparator the writer offers, the clauses
(projected on the input literals) have exactly the models of the constraint.

The puzzle-level matrix (tests/test_against_brute_force.py) passes through few of these cases (its puzzles
rarely hold a domino in more than two copies, or the bound where a fallback or an off-by-one shows): of four
bugs planted in the writer it caught one. Here every assignment of the inputs is put to a PySAT solver as
assumptions, and it must be satisfiable exactly when the constraint holds.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Iterator, Sequence
from itertools import product

import pytest
from pysat.solvers import Solver

from conftest import EXAMPLES
from pipscover.cnf import CARD_ENCODINGS, PB_ENCODINGS, Encodings
from pipscover.cnf.placements import FormulaWriter
from pipscover.formats import load_one

PUZZLE = load_one(EXAMPLES / "first.txt")  # what the writer names in a refusal; none is expected here
MOST_LITERALS = 6
# Cells of a sum constraint as their possible pips (exactly one of them true, as both CNF forms make them):
# a zero pip, repeated pips, gaps, and up to three cells (nine value variables).
SUM_CELLS = ([[2]], [[0, 1], [0, 2]], [[1, 3], [0, 1, 2]], [[0, 2], [1, 4], [3, 5]], [[0, 1, 2], [0, 1], [1, 3, 4]])


def satisfiable_inputs(writer: FormulaWriter, inputs: Sequence[int],
                       assignments: Iterator[tuple[bool, ...]]) -> set[tuple[bool, ...]]:
    """Those of the `assignments` of the `inputs` (each a tuple of truth values) that some model extends."""
    with Solver(name="minisat22", bootstrap_with=writer.cnf()) as solver:
        return {values for values in assignments
                if solver.solve(assumptions=[var if value else -var for var, value in zip(inputs, values)])}


def card_cases() -> Iterator[tuple[str, Callable[[FormulaWriter, list[int], int], None],
                                   Callable[[int, int], bool], int, int]]:
    """(comparator, the writer's method, the constraint, literals, bound) for every bound the writer takes:
    below the literals, at them, and past them (a domino with more copies than places left)."""
    for n in range(1, MOST_LITERALS + 1):
        for bound in range(1, n + 2):
            yield "exactly", FormulaWriter.exactly, operator.eq, n, bound
            yield "at least", FormulaWriter.at_least, operator.ge, n, bound
        yield "at most one", lambda writer, literals, _: writer.at_most_one(literals), operator.le, n, 1


@pytest.mark.parametrize("card", CARD_ENCODINGS)
def test_every_cardinality_constraint_has_exactly_its_models(card):
    for name, write, holds, n, bound in card_cases():
        writer = FormulaWriter(n, Encodings(card=card), PUZZLE)
        inputs = list(range(1, n + 1))
        write(writer, inputs, bound)
        every = list(product((False, True), repeat=n))
        expected = {values for values in every if holds(sum(values), bound)}
        assert satisfiable_inputs(writer, inputs, iter(every)) == expected, f"--card {card}: {name} {bound} of {n}"


@pytest.mark.parametrize("pb", PB_ENCODINGS)
def test_every_sum_constraint_has_exactly_its_models(pb):
    """`sum_between` for every bound on either side of the sums' range (below it, equal, one side, both)."""
    for pips in SUM_CELLS:
        numbered = iter(range(1, 100))
        cells = [[(next(numbered), pip) for pip in cell] for cell in pips]
        inputs = [var for cell in cells for var, _ in cell]
        low, high = sum(map(min, pips)), sum(map(max, pips))
        for least, most in product(range(low - 1, high + 2), repeat=2):
            writer = FormulaWriter(len(inputs), Encodings(pb=pb), PUZZLE)
            writer.sum_between(cells, least, most)
            chosen = {choice: tuple(var in {var for var, _ in choice} for var in inputs) for choice in product(*cells)}
            expected = {values for choice, values in chosen.items() if least <= sum(pip for _, pip in choice) <= most}
            found = satisfiable_inputs(writer, inputs, iter(chosen.values()))
            assert found == expected, f"--pb {pb}: {least} <= sum of {pips} <= {most}"
