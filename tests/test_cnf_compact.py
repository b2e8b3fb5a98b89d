"""The compact CNF: exactly the solutions and grids of brute force and of the placements form, sizes as
encodings/cnf.md gives them, identical dominoes and doubles counted once, and `auto` choosing by size."""

from collections import Counter

import pytest
from brute_force import brute_force_solutions
from hypothesis import given, settings
from puzzle_factory import puzzles
from pysat.formula import CNF
from pysat.solvers import Solver

from conftest import EXAMPLES, needs_nyt, nyt_files
from pipscover.cnf import Encodings, chosen_form, encode, encode_compact
from pipscover.cnf.dimacs import read_model, write_dimacs
from pipscover.counting.blocking import count_by_blocking
from pipscover.engines import get_backend
from pipscover.formats import load
from pipscover.formats.header import read_header
from pipscover.model import Puzzle
from pipscover.model.check import problems
from pipscover.solving import solve

COMPACT = Encodings(form="compact")


def every_solution(encoding) -> list:
    found = []
    with Solver("glucose4", bootstrap_with=encoding.cnf.clauses) as solver:
        while solver.solve():
            model = solver.get_model()
            found.append(encoding.solution(model))
            solver.add_clause(encoding.placement_blocker(model))
    return found


def test_identical_dominoes_and_doubles_count_once():
    # Two 1-2 and two 3-3 on a 2 x 4 board with no rules: each tiling, each way of laying the pips.
    cells = [(row, col) for row in range(2) for col in range(4)]
    puzzle = Puzzle.build([("empty", cells, None)], [(1, 2), (1, 2), (3, 3), (3, 3)])
    assert len(every_solution(encode_compact(puzzle, COMPACT))) == len(brute_force_solutions(puzzle))


def test_a_carrier_of_a_domino_that_fits_one_way_pins_both_pips():
    puzzle = Puzzle.build([("sum", [(0, 0)], 1), ("sum", [(0, 1)], 2)], [(1, 2)])
    encoding = encode_compact(puzzle, COMPACT)
    assert encoding.carriers == ((((0, 0), (0, 1)), (1, 2)),)
    assert {f.name: f.clauses for f in encoding.families}["carrier-pips"] == 2  # two binary clauses, not four


def expected_compact_sizes(encoding) -> dict[str, tuple[int, int]]:
    """Clauses and auxiliary variables of the families with exact formulas in encodings/cnf.md (default card)."""

    def amo(n):
        return (0, 0) if n <= 1 else (1, 0) if n == 2 else (3 * n - 4, n - 1)

    def exactly_one(n):
        clauses, aux = amo(n)
        return (n, 0) if n == 1 else (clauses + 1, aux)

    def total(sizes):
        sizes = list(sizes)
        return sum(c for c, _ in sizes), sum(a for _, a in sizes)

    puzzle = encoding.puzzle
    degree = Counter(cell for pair in encoding.tiles for cell in pair)
    domain = Counter(cell for cell, _ in encoding.values)
    ways = {}
    for (first, second), domino in encoding.carriers:
        a, b = domino
        values = encoding.value_var
        fits = [(x, y) for x, y in {(a, b), (b, a)} if (first, x) in values and (second, y) in values]
        ways[(first, second), domino] = fits
    pips = sum(2 if len(fits) == 1 else 4 for fits in ways.values())
    assert all(m == 1 for m in puzzle.domino_counts.values())
    return {
        "tile": total(exactly_one(degree[cell]) for cell in puzzle.cells),
        "value": total(exactly_one(domain[cell]) for cell in puzzle.cells),
        "carrier-tile": (len(encoding.carriers), 0),
        "carrier-pips": (pips, 0),
        "tile-carrier": (len(encoding.tiles), 0),
        "domino": (len(puzzle.domino_counts), 0),  # "at least one": one clause (empty when nothing carries it)
    }


@settings(max_examples=60)
@given(puzzles(max_dominoes=5, max_pip=4, repeated_dominoes=False))
def test_compact_sizes_match_encodings_cnf_md(puzzle):
    encoding = encode_compact(puzzle, COMPACT)
    families = {family.name: (family.clauses, family.aux_vars) for family in encoding.families}
    expected = expected_compact_sizes(encoding)
    # A domino or pip that pruning rules out entirely leaves an empty clause or a unit clause instead.
    for name, size in expected.items():
        if name == "carrier-pips":
            assert families[name][0] <= size[0]
        else:
            assert families[name] == size, name
    named = sum(count for _, count in encoding.blocks)
    assert encoding.num_vars == named + sum(aux for _, aux in families.values())
    assert encoding.num_clauses == sum(clauses for clauses, _ in families.values())


def test_auto_takes_the_placements_form_for_small_puzzles_and_the_compact_form_for_large_ones():
    small = Puzzle.build([("sum", [(0, 0), (0, 1)], 3)], [(1, 2)])
    cells = [(row, col) for row in range(20) for col in range(20)]
    large = Puzzle.build([("empty", cells, None)], [(a, b) for a in range(20) for b in range(a, 20)][:200])
    assert chosen_form(small) == "placements" and encode(small).encodings.form == "placements"
    assert chosen_form(large) == "compact"
    assert chosen_form(large, "placements") == "placements"


def test_a_compact_dimacs_file_names_its_form_and_decodes():
    puzzle = Puzzle.build([("sum", [(0, 0), (0, 1)], 3), ("equals", [(1, 0), (1, 1)], None)], [(1, 2), (4, 4)])
    encoding = encode(puzzle, COMPACT)
    text = write_dimacs(encoding)
    header = read_header(text, "p.cnf")
    assert (header.form, header.card, header.pb) == ("compact", "auto", "best")
    assert "c tile 1 cells" in text and "c carrier " in text
    cnf = CNF(from_string=text)
    with Solver("minisat22", bootstrap_with=cnf.clauses) as solver:
        assert solver.solve()
        answer = read_model("v " + " ".join(map(str, solver.get_model())) + " 0", "out")
    chosen = Encodings(header.card, header.pb, header.form)
    solution = encode(puzzle, chosen).decode(answer.models[0], "out")
    assert problems(puzzle, solution) == []


@needs_nyt
def test_nyt_first_solutions_of_the_compact_form_pass_the_checker_and_match_dlx_counts():
    for file in nyt_files()[::40]:
        for puzzle in load(file):
            compact = count_by_blocking(puzzle, "glucose4", encodings=COMPACT)
            assert compact.count == len(solve(puzzle, "dlx", limit=None).solutions)
            first = solve(puzzle, get_backend("glucose4").with_encodings(COMPACT), limit=1).solutions[0]
            assert problems(puzzle, first) == []


def test_cli_encode_compact_then_decode_with_the_cnf(tmp_path, run_cli):
    first = EXAMPLES / "first.txt"
    cnf_path, model_path = tmp_path / "first.cnf", tmp_path / "first.out"
    assert run_cli("encode", first, "--encoding", "compact", "-o", cnf_path).code == 0
    with Solver("minisat22", bootstrap_with=CNF(from_file=str(cnf_path)).clauses) as solver:
        solver.solve()
        model_path.write_text("s SATISFIABLE\nv " + " ".join(map(str, solver.get_model())) + " 0\n")
    assert run_cli("decode", cnf_path, model_path).code == 0  # the header names the form
    # Given the puzzle file instead, decode assumes auto (here the placements form): the model does not fit,
    # unless told the form.
    assert run_cli("decode", first, model_path).code == 2
    assert run_cli("decode", first, model_path, "--encoding", "compact").code == 0


@pytest.mark.parametrize("form", ["placements", "compact"])
def test_cli_solve_takes_an_encoding(form, run_cli):
    assert run_cli("solve", EXAMPLES / "first.txt", "-b", "glucose4", "--encoding", form).code == 0
