"""The NP-hardness reductions to Pips: puzzles are solvable exactly when the source instance is, and answers map
back."""

from __future__ import annotations

import json
from itertools import combinations, product
from math import comb

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pipscover.counting import count
from pipscover.errors import PipsError
from pipscover.formats import load_one
from pipscover.hardness import (
    OneInThreeInstance,
    SubsetSumInstance,
    parse_one_in_three,
    read_one_in_three,
    recover_assignment,
    recover_subset,
    reduce_one_in_three,
    reduce_subset_sum,
    solution_for_assignment,
)
from pipscover.model.check import problems
from pipscover.solving import solve


def satisfying_assignments(instance: OneInThreeInstance) -> list[dict[int, bool]]:
    """Brute force on the source side: every assignment with exactly one true variable per clause."""
    found = []
    for bits in product((False, True), repeat=instance.num_variables):
        assignment = dict(enumerate(bits, start=1))
        if instance.satisfied_by(assignment):
            found.append(assignment)
    return found


@st.composite
def one_in_three_instances(draw) -> OneInThreeInstance:
    variables = draw(st.integers(3, 6))
    clause = st.lists(st.integers(1, variables), min_size=3, max_size=3, unique=True).map(tuple)
    return OneInThreeInstance(variables, tuple(draw(st.lists(clause, min_size=1, max_size=5))))


def board_is_connected(puzzle) -> bool:
    import networkx as nx  # (here, not at the top: each xdist worker collects every test file)

    graph = nx.Graph(puzzle.adjacent_pairs)
    graph.add_nodes_from(puzzle.cells)
    return nx.is_connected(graph)


@settings(max_examples=60)
@given(one_in_three_instances(), st.booleans())
def test_reduced_puzzle_is_solvable_exactly_when_the_formula_is(instance, connected):
    puzzle, mapping = reduce_one_in_three(instance, connected=connected)
    result = solve(puzzle, "dlx", limit=1)
    assert bool(result.solutions) == bool(satisfying_assignments(instance))
    for solution in result.solutions:
        assert problems(puzzle, solution) == []
        assert instance.satisfied_by(recover_assignment(solution, mapping))


@settings(max_examples=40)
@given(one_in_three_instances(), st.booleans())
def test_every_satisfying_assignment_gives_a_valid_solution_that_maps_back_to_it(instance, connected):
    puzzle, mapping = reduce_one_in_three(instance, connected=connected)
    used = {x for clause in instance.clauses for x in clause}
    for assignment in satisfying_assignments(instance):
        solution = solution_for_assignment(instance, mapping, assignment)
        assert problems(puzzle, solution) == []
        recovered = recover_assignment(solution, mapping)
        assert {x: recovered[x] for x in used} == {x: assignment[x] for x in used}


def expected_solution_count(instance: OneInThreeInstance, mapping) -> int:
    """The tiling is forced, so each satisfying assignment gives C(cleanup tiles, spare 1-1 tiles) solutions:
    one per way to lay the 1-1 tiles the false variables' gadgets leave over on the cleanup path.
    Variables in no clause have no gadget: assignments that differ only there are one."""
    cleanup = len(mapping.cleanup_pairs)
    false_tiles = {
        tuple(sorted((x, len(pairs)) for x, pairs in mapping.variable_pairs.items() if not assignment[x]))
        for assignment in satisfying_assignments(instance)
    }
    return sum(comb(cleanup, sum(tiles for _, tiles in false)) for false in false_tiles)


@settings(max_examples=30)
@given(one_in_three_instances(), st.booleans())
def test_solution_count_is_exactly_the_cleanup_arrangements_of_each_satisfying_assignment(instance, connected):
    # An independent engine (the structural counter) against the count the proof predicts.
    puzzle, mapping = reduce_one_in_three(instance, connected=connected)
    counted = count(puzzle, method="structural", timeout=30)
    assert counted.exact
    assert counted.count == expected_solution_count(instance, mapping)


def test_every_solution_of_a_small_puzzle_maps_back_to_a_satisfying_assignment():
    instance = OneInThreeInstance(3, ((1, 2, 3),))
    puzzle, mapping = reduce_one_in_three(instance)
    found = solve(puzzle, "dlx", limit=None).solutions
    assert len(found) == expected_solution_count(instance, mapping)
    assert {tuple(sorted(recover_assignment(s, mapping).items())) for s in found} == {
        tuple(sorted(a.items())) for a in satisfying_assignments(instance)
    }


def test_reduced_puzzle_uses_only_doubles_and_the_paper_region_kinds():
    puzzle, _ = reduce_one_in_three(OneInThreeInstance(5, ((1, 2, 3), (2, 4, 5), (1, 3, 5))), connected=True)
    assert set(puzzle.domino_counts) == {(0, 0), (1, 1)}
    assert {str(region.kind) for region in puzzle.regions} == {"equals", "sum", "empty"}
    assert {region.target for region in puzzle.regions if str(region.kind) == "sum"} == {0, 1}


@pytest.mark.parametrize("connected", [False, True])
def test_connected_option_joins_the_board_into_one_piece(connected):
    # Variables 1-3 and 4-6 share no clause: without connectors the board falls apart.
    instance = OneInThreeInstance(6, ((1, 2, 3), (4, 5, 6)))
    puzzle, _ = reduce_one_in_three(instance, connected=connected)
    assert board_is_connected(puzzle) is connected


def test_unsatisfiable_formula_gives_an_unsolvable_puzzle():
    # Every pair of the four variables shares a clause: no choice of one true variable per clause works.
    instance = OneInThreeInstance(4, tuple(combinations(range(1, 5), 3)))
    assert not satisfying_assignments(instance)
    puzzle, _ = reduce_one_in_three(instance)
    assert solve(puzzle, "dlx").solutions == ()


def test_dimacs_reader_keeps_the_declared_variables(tmp_path):
    path = tmp_path / "f.cnf"
    path.write_text("c a comment\np cnf 5 2\n1 2 3 0\n2 3 4 0\n")
    instance = read_one_in_three(path)
    assert (instance.num_variables, instance.clauses) == (5, ((1, 2, 3), (2, 3, 4)))


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("p cnf 3 1\n1 2 -3 0\n", "clause 1"),
        ("p cnf 3 1\n1 2 0\n", "clause 1"),
        ("p cnf 3 2\n1 2 3 0\n1 1 2 0\n", "clause 2"),
        ("p cnf 3 1\n1 2 x 0\n", "not a DIMACS"),
        ("p cnf 3 0\n", "no clauses"),
    ],
)
def test_bad_dimacs_raises_an_error_naming_the_file_and_problem(text, problem):
    with pytest.raises(PipsError, match=f"bad.cnf: .*{problem}"):
        parse_one_in_three(text, "bad.cnf")


@settings(max_examples=60)
@given(st.lists(st.integers(0, 9), min_size=1, max_size=6), st.integers(0, 30))
def test_subset_sum_puzzle_is_solvable_exactly_when_a_subset_hits_the_target(numbers, target):
    instance = SubsetSumInstance(tuple(numbers), target)
    puzzle, mapping = reduce_subset_sum(instance)
    exists = any(
        sum(numbers[i] for i in chosen) == target
        for size in range(len(numbers) + 1)
        for chosen in combinations(range(len(numbers)), size)
    )
    result = solve(puzzle, "dlx", limit=1)
    assert bool(result.solutions) == exists
    for solution in result.solutions:
        assert sum(numbers[i] for i in recover_subset(solution, mapping)) == target


def test_subset_sum_has_one_sum_region_and_rejects_negative_numbers():
    puzzle, _ = reduce_subset_sum(SubsetSumInstance((3, 5, 7, 11), 15))
    assert [region.describe() for region in puzzle.regions] == ["sum 15", "empty"]
    with pytest.raises(PipsError, match=">= 0"):
        SubsetSumInstance((3, -1), 2)


def test_reduce_command_writes_a_puzzle_and_solve_prints_the_assignment(run_cli, tmp_path):
    formula = tmp_path / "f.cnf"
    formula.write_text("p cnf 4 2\n1 2 3 0\n2 3 4 0\n")
    puzzle_file = tmp_path / "p.json"
    done = run_cli("reduce", "one-in-three", formula, "-o", puzzle_file, "--solve", "--json")
    assert done.code == 0, done.err
    true_variables = set(json.loads(done.out)["true_variables"])
    assert OneInThreeInstance(4, ((1, 2, 3), (2, 3, 4))).satisfied_by({x: x in true_variables for x in range(1, 5)})
    assert load_one(puzzle_file).domino_counts.keys() == {(0, 0), (1, 1)}


def test_reduce_command_exit_codes_for_no_answer_and_bad_input(run_cli, tmp_path):
    assert run_cli("reduce", "subset-sum", "--numbers", "3,5", "--target", "4", "--solve").code == 1
    bad = tmp_path / "bad.cnf"
    bad.write_text("p cnf 3 1\n1 -2 3 0\n")
    done = run_cli("reduce", "one-in-three", bad)
    assert done.code == 2 and "bad.cnf" in done.err
