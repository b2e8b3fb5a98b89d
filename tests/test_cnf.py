"""The CNF encoding: its size matches the formulas of encodings/cnf.md, pruning loses no solution,
identical dominoes share variables, and every encoding choice gives a formula with the right solutions."""

from collections import Counter

import pytest
from brute_force import brute_force_solutions
from hypothesis import given, settings
from hypothesis import strategies as st
from puzzle_factory import puzzles
from pysat.card import CardEnc, UnsupportedBound
from pysat.card import EncType as CardType
from pysat.solvers import Solver

from conftest import needs_nyt, nyt_files
from pipscover.cnf import Encodings, candidate_placements, card_encoding
from pipscover.cnf import encode_placements as encode
from pipscover.errors import PipsError
from pipscover.formats import load
from pipscover.model import Puzzle, RegionKind


def at_most_one_size(n: int, card: str) -> tuple[int, int]:
    """(clauses, auxiliary variables) of at-most-one over n literals, as encodings/cnf.md gives them."""
    if n <= 1:
        return 0, 0
    card = card_encoding(card, 1)
    if card == "pairwise" or n == 2:
        return n * (n - 1) // 2, 0
    assert card == "seqcounter"
    return 3 * n - 4, n - 1


def exactly_size(n: int, m: int, card: str) -> tuple[int, int]:
    """(clauses, auxiliary variables) of "exactly m of n", as encodings/cnf.md gives them."""
    if n < m:
        return 1, 0
    if n == m:
        return n, 0
    if m == 1:
        clauses, aux = at_most_one_size(n, card)
        return clauses + 1, aux
    try:
        made = CardEnc.equals(list(range(1, n + 1)), m, top_id=n, encoding=getattr(CardType, card_encoding(card, m)))
    except UnsupportedBound:
        made = CardEnc.equals(list(range(1, n + 1)), m, top_id=n, encoding=CardType.kmtotalizer)
    return len(made.clauses), made.nv - n


def expected_sizes(encoding) -> dict[str, tuple[int, int]]:
    """The clause and auxiliary-variable counts of the non-PB families, from the puzzle and pruning alone."""
    puzzle, card = encoding.puzzle, encoding.encodings.card
    per_domino, per_cell, per_value = Counter(), Counter(), Counter()
    for placement in encoding.placements:
        per_domino[tuple(sorted(placement.domino))] += 1
        for cell, pip in zip(placement.cells, placement.domino):
            per_cell[cell] += 1
            per_value[cell, pip] += 1
    domain = Counter(cell for cell, _ in encoding.values)
    pips = {cell: {pip for c, pip in encoding.values if c == cell} for cell in puzzle.cells}

    def total(sizes):
        sizes = list(sizes)
        return sum(c for c, _ in sizes), sum(a for _, a in sizes)

    equals = unequal = (0, 0)
    for region in puzzle.regions:
        if region.kind is RegionKind.EQUALS:
            clauses = 2 * (len(region.cells) - 1) * len(pips[region.cells[0]])
            equals = (equals[0] + clauses, 0)
        if region.kind is RegionKind.UNEQUAL:
            owners = Counter(pip for cell in region.cells for pip in pips[cell])
            extra = total(at_most_one_size(n, card) for n in owners.values())
            unequal = (unequal[0] + extra[0], unequal[1] + extra[1])
    return {
        "domino": total(exactly_size(per_domino[d], m, card) for d, m in puzzle.domino_counts.items()),
        "cell": total(exactly_size(per_cell[cell], 1, card) for cell in puzzle.cells),
        "value-of-placement": (2 * len(encoding.placements), 0),
        "value-support": (len(encoding.values), 0),
        "value-at-most-one": total(at_most_one_size(domain[cell], card) for cell in puzzle.cells),
        "equals": equals,
        "unequal": unequal,
    }


def assert_sizes_match_the_formula(encoding) -> None:
    families = {family.name: (family.clauses, family.aux_vars) for family in encoding.families}
    for name, size in expected_sizes(encoding).items():
        assert families[name] == size, name
    assert encoding.num_clauses == sum(clauses for clauses, _ in families.values())
    aux = sum(aux for _, aux in families.values())
    assert encoding.num_vars == len(encoding.placements) + len(encoding.values) + aux


@needs_nyt
@pytest.mark.parametrize("card", ["auto", "seqcounter", "pairwise"])
def test_nyt_formula_sizes_match_encodings_cnf_md(card):
    for file in nyt_files()[::25]:
        for puzzle in load(file):
            assert_sizes_match_the_formula(encode(puzzle, Encodings(card=card)))


@settings(max_examples=60)
@given(puzzles(), st.sampled_from(["auto", "seqcounter", "pairwise"]))
def test_small_puzzle_formula_sizes_match_encodings_cnf_md(puzzle, card):
    assert_sizes_match_the_formula(encode(puzzle, Encodings(card=card)))


def test_placements_before_pruning_follow_the_formula():
    puzzle = Puzzle.build([("empty", [(0, 0), (0, 1), (1, 0), (1, 1)], None)], [(1, 1), (1, 2)])
    # 4 adjacent pairs; the double has one orientation, the other domino two.
    assert len(candidate_placements(puzzle)) == 4 * (1 + 2)


def test_variables_are_placements_then_values_then_auxiliary():
    puzzle = Puzzle.build([("sum", [(0, 0), (0, 1), (0, 2), (0, 3)], 6)], [(1, 2), (3, 0)])
    encoding = encode(puzzle)
    assert list(encoding.solution_vars) == list(range(1, len(encoding.placements) + 1))
    assert encoding.grid_vars.start == len(encoding.placements) + 1
    assert sorted(encoding.value_var.values()) == list(encoding.grid_vars)


def test_identical_dominoes_share_their_placement_variables():
    puzzle = Puzzle.build([("empty", [(0, 0), (0, 1), (0, 2), (0, 3)], None)], [(1, 2), (1, 2)])
    encoding = encode(puzzle)
    assert len(encoding.placements) == len(set(encoding.placements)) == 3 * 2
    with Solver("minisat22", bootstrap_with=encoding.cnf.clauses) as solver:
        found = 0
        while solver.solve():
            found += 1
            solver.add_clause(encoding.placement_blocker(solver.get_model()))
    assert found == len(brute_force_solutions(puzzle)) == 4


def test_pruning_drops_placements_that_break_their_region():
    puzzle = Puzzle.build(
        [("equals", [(0, 0), (0, 1)], None), ("sum", [(1, 0), (1, 1)], 3)], [(2, 2), (1, 2)]
    )
    placements = {(p.domino, p.cells) for p in encode(puzzle).placements}
    assert ((2, 2), ((0, 0), (0, 1))) in placements
    assert ((1, 2), ((1, 0), (1, 1))) in placements
    assert not any(p[1] == ((0, 0), (0, 1)) and p[0] != (2, 2) for p in placements)
    assert not any(p[1] == ((1, 0), (1, 1)) and p[0] == (2, 2) for p in placements)


@settings(max_examples=80)
@given(puzzles())
def test_pruning_keeps_every_solution(puzzle):
    encoding = encode(puzzle)
    kept, values = set(encoding.placements), set(encoding.values)
    for solution in brute_force_solutions(puzzle):
        assert set(solution.placements) <= kept
        assert set(solution.grid.items()) <= values


def test_unknown_encodings_are_errors():
    with pytest.raises(PipsError, match="cardinality encoding"):
        Encodings(card="native")
    with pytest.raises(PipsError, match="pseudo-boolean encoding"):
        Encodings(pb="nonsense")
    with pytest.raises(PipsError, match="cardinality encoding 9;"):
        Encodings(card=CardType.native)  # PySAT's value of an encoding we leave out
    with pytest.raises(PipsError, match="cardinality encoding True;"):
        Encodings(card=True)


def test_pysat_encoding_values_name_their_encodings():
    """A PySAT user hands `EncType` values, as PySAT's encoders take them; each is kept as its name, and the
    formula is the one the name gives."""
    from pysat.pb import EncType as PbType

    puzzle = load("examples/first.txt")[0]
    for name in ("totalizer", "kmtotalizer", "ladder", "pairwise"):
        by_value = Encodings(card=getattr(CardType, name), pb=PbType.adder)
        assert by_value == Encodings(card=name, pb="adder")
        assert encode(puzzle, by_value).cnf.clauses == encode(puzzle, Encodings(name, "adder")).cnf.clauses


def test_auto_keeps_many_identical_dominoes_small():
    # "Exactly 45 of the 218 placements of 0-0" goes to kmtotalizer, not to the sequential counter's O(n^2).
    cells = [(row, col) for row in range(10) for col in range(12)]
    puzzle = Puzzle.build([("empty", cells, None)], [(0, 0)] * 45 + [(1, 1)] * 15)
    auto = encode(puzzle)
    seqcounter = encode(puzzle, Encodings(card="seqcounter"))
    assert auto.encodings.card == "auto"
    assert 2 * auto.families[0].clauses < seqcounter.families[0].clauses
    assert_sizes_match_the_formula(auto)
