"""DIMACS export and decoding: the comments describe every variable, real NYT puzzles round-trip through
PySAT reading the file and through stock solver binaries, and models that do not fit are clear errors."""

import json
import shutil
import subprocess

import pytest
from pysat.formula import CNF
from pysat.solvers import Solver

from conftest import EXAMPLES, needs_nyt, nyt_files
from pipscover.cnf import Encodings, encode
from pipscover.cnf.dimacs import SolverAnswer, read_model, write_dimacs
from pipscover.errors import PipsError
from pipscover.formats import load, load_one
from pipscover.formats.header import read_header
from pipscover.model import Puzzle
from pipscover.model.check import problems
from pipscover.model.results import Status

FIRST = EXAMPLES / "first.txt"
UNSATISFIABLE = Puzzle.build([("sum", [(0, 0), (0, 1)], 4)], [(1, 2)])


def sample_puzzles():
    return [puzzle for file in nyt_files()[::60] for puzzle in load(file)]


def comment_fields(text: str, kind: str) -> list[list[int]]:
    return [list(map(int, line.split()[2:])) for line in text.splitlines() if line.startswith(f"c {kind} ")]


def test_comments_give_the_meaning_of_every_placement_and_value_variable():
    encoding = encode(load_one(FIRST))
    text = write_dimacs(encoding)
    placements = {}
    for line in text.splitlines():
        words = line.split()
        if words[:2] == ["c", "placement"] and words[2].isdigit():
            var, a, b, r1, c1, r2, c2 = map(int, (words[2], words[4], words[5], *words[7:11]))
            placements[var] = ((a, b), ((r1, c1), (r2, c2)))
    assert placements == {var: (p.domino, p.cells) for var, p in enumerate(encoding.placements, start=1)}
    values = {}
    for line in text.splitlines():
        words = line.split()
        if words[:2] == ["c", "value"] and words[2].isdigit():
            values[int(words[2])] = ((int(words[4]), int(words[5])), int(words[7]))
    assert values == {var: value for value, var in encoding.value_var.items()}


@pytest.mark.parametrize("project", ["placements", "grids"])
def test_the_projection_set_is_the_placements_or_the_value_variables(project):
    encoding = encode(load_one(FIRST))
    text = write_dimacs(encoding, project)
    expected = list(encoding.solution_vars if project == "placements" else encoding.grid_vars)
    ind = [var for line in comment_fields(text, "ind") for var in line]
    show = [line for line in text.splitlines() if line.startswith("c p show ")]
    assert ind[-1] == 0 and [v for v in ind if v] == expected
    assert len(show) == 1 and show[0].split()[3:] == [*map(str, expected), "0"]
    assert f"c projection {project}: " in text


def test_the_header_names_the_puzzle_and_the_encodings():
    text = write_dimacs(encode(load_one(FIRST)))
    assert text.startswith("c pipscover ")
    assert f"c puzzle file {FIRST}" in text and "c encodings form placements card auto pb best" in text


def test_the_header_holds_the_puzzle_so_that_its_encoding_numbers_the_variables_alike():
    for puzzle in [load_one(FIRST), *sample_puzzles()]:
        encoding = encode(puzzle)
        held = read_header(write_dimacs(encoding), "p.cnf").puzzle
        assert (held.regions, held.dominoes, held.origin) == (puzzle.regions, puzzle.dominoes, puzzle.origin)
        again = encode(held)
        assert (again.placements, again.values, again.cnf.clauses) == (encoding.placements, encoding.values,
                                                                       encoding.cnf.clauses)


@needs_nyt
def test_nyt_puzzles_round_trip_through_pysat_reading_the_file():
    for puzzle in sample_puzzles():
        encoding = encode(puzzle)
        cnf = CNF(from_string=write_dimacs(encoding))
        assert (cnf.nv, len(cnf.clauses)) == (encoding.num_vars, encoding.num_clauses)
        with Solver("glucose4", bootstrap_with=cnf.clauses) as solver:
            assert solver.solve()
            answer = read_model("s SATISFIABLE\nv " + " ".join(map(str, solver.get_model())) + " 0\n", "model")
        assert problems(puzzle, encoding.decode(answer.models[0], "model")) == []


EXTERNAL = {
    "kissat": lambda cnf, out: ["kissat", "-q", str(cnf)],
    "cadical": lambda cnf, out: ["cadical", "-q", str(cnf)],
    "picosat": lambda cnf, out: ["picosat", str(cnf)],
    "minisat": lambda cnf, out: ["minisat", "-verb=0", str(cnf), str(out)],
}


def run_external(name, cnf_path, tmp_path) -> str:
    out = tmp_path / "minisat.out"
    done = subprocess.run(EXTERNAL[name](cnf_path, out), capture_output=True, text=True, timeout=120)
    assert done.returncode in (10, 20), done.stderr
    return out.read_text() if name == "minisat" else done.stdout


@needs_nyt
@pytest.mark.parametrize("name", sorted(EXTERNAL))
def test_nyt_puzzles_round_trip_through_an_external_solver(name, tmp_path):
    if shutil.which(name) is None:
        pytest.skip(f"{name} is not installed")
    for puzzle in sample_puzzles()[:6]:
        encoding = encode(puzzle)
        cnf_path = tmp_path / "puzzle.cnf"
        cnf_path.write_text(write_dimacs(encoding))
        answer = read_model(run_external(name, cnf_path, tmp_path), name)
        assert answer.status is Status.SOLVED
        assert problems(puzzle, encoding.decode(answer.models[0], name)) == []


@pytest.mark.parametrize("name", sorted(EXTERNAL))
def test_an_unsatisfiable_puzzle_is_unsatisfiable_for_an_external_solver(name, tmp_path):
    if shutil.which(name) is None:
        pytest.skip(f"{name} is not installed")
    cnf_path = tmp_path / "unsat.cnf"
    cnf_path.write_text(write_dimacs(encode(UNSATISFIABLE)))
    assert read_model(run_external(name, cnf_path, tmp_path), name).status is Status.UNSATISFIABLE


@pytest.mark.parametrize(
    ("text", "status", "literals"),
    [
        ("c comment\ns SATISFIABLE\nv 1 -2\nv 3 0\n", Status.SOLVED, (1, -2, 3)),
        ("s UNSATISFIABLE\n", Status.UNSATISFIABLE, ()),
        ("SAT\n1 -2 3 0\n", Status.SOLVED, (1, -2, 3)),
        ("UNSAT\n", Status.UNSATISFIABLE, ()),
        ("1 -2 3\n", Status.SOLVED, (1, -2, 3)),
        ("s UNKNOWN\n", Status.UNKNOWN, ()),  # a solver that gave up, not a time limit
        ("c Answer: 1\nv x1 -x2\nv x3\ns SATISFIABLE\n", Status.SOLVED, (1, -2, 3)),
        ("s OPTIMUM FOUND\nv -x1 x2\n", Status.SOLVED, (-1, 2)),
    ],
)
def test_solver_outputs_are_read(text, status, literals):
    assert read_model(text, "out") == SolverAnswer(status, (literals,) if literals else ())


@pytest.mark.parametrize(("text", "status", "models"), [
    ("c Answer: 1\nv x1 -x2\nc Answer: 2\nv -x1 x2\ns SATISFIABLE\n", Status.SOLVED, ((1, -2), (-1, 2))),  # clasp, OPB
    ("v 1 -2 0\nv -1 2 0\ns SATISFIABLE\n", Status.SOLVED, ((1, -2), (-1, 2))),  # clasp -n 0, DIMACS
    ("s SATISFIABLE\nv 1 -2 0\ns SATISFIABLE\nv -1 2 0\ns SOLUTIONS 2\n", Status.SOLVED, ((1, -2), (-1, 2))),
    ("s SOLUTIONS 0\n", Status.UNSATISFIABLE, ()),  # picosat --all of an unsatisfiable CNF
    ("1 -2 0 -1 2 0 1 2\n", Status.SOLVED, ((1, -2), (-1, 2), (1, 2))),  # bare literals, several on a line
])
def test_an_output_listing_several_models_gives_them_all(text, status, models):
    """They were run together into one model, whose literals contradicted each other."""
    assert read_model(text, "out") == SolverAnswer(status, models)


@pytest.mark.parametrize("text", ["", "s SATISFIABLE\n", "v 1 x 0\n", "s MAYBE\n"])
def test_unreadable_outputs_are_errors(text):
    with pytest.raises(PipsError, match="^out: "):
        read_model(text, "out")


def test_a_model_of_another_puzzle_is_an_error():
    puzzle = load_one(FIRST)
    encoding = encode(puzzle)
    with pytest.raises(PipsError, match="not a solution|has variable|unassigned"):
        encoding.decode(tuple(-var for var in range(1, encoding.num_vars + 1)), "out")
    with pytest.raises(PipsError, match="has variable"):
        encoding.decode((encoding.num_vars + 1,), "out")
    with pytest.raises(PipsError, match="unassigned"):
        encoding.decode((1, 2), "out")


MANY = EXAMPLES.parent / "benchmarks" / "count_puzzles" / "no-unique-10-s1.json"


def test_every_one_of_many_models_is_decoded_and_checked(tmp_path, run_cli):
    """300 models of 1,000-odd variables (as `picosat --all` prints them) give 300 distinct checked solutions."""
    puzzle = load_one(MANY)
    encoding = encode(puzzle)
    models = []
    with Solver(bootstrap_with=encoding.cnf) as solver:
        while len(models) < 300 and solver.solve():
            models.append(solver.get_model())
            solver.add_clause(encoding.block(models[-1]))
    lines = [f"s SATISFIABLE\nv {' '.join(map(str, model))} 0\n" for model in models]
    (tmp_path / "p.cnf").write_text(write_dimacs(encoding))
    (tmp_path / "p.out").write_text("".join(lines) + f"s SOLUTIONS {len(models)}\n")
    done = run_cli("decode", tmp_path / "p.cnf", tmp_path / "p.out", "--json")
    assert done.code == 0, done.err
    found = json.loads(done.out)["solutions"]
    assert len(models) == 300 and len({json.dumps(solution) for solution in found}) == 300
    for model in models[:20]:
        assert problems(puzzle, encoding.decode(model)) == []


def test_models_that_repeat_a_solution_are_said_to(tmp_path, run_cli):
    """`picosat --all` of a totalizer CNF lists one solution once per value of the free auxiliary variables:
    "solved, 252 models" of one solution read as 252 solutions."""
    encoding = encode(load_one(FIRST), Encodings(card="totalizer"))
    models = []
    with Solver(bootstrap_with=encoding.cnf) as solver:  # every model, as a solver that does not project lists them
        while len(models) < 5 and solver.solve():
            models.append(solver.get_model())
            solver.add_clause([-literal for literal in models[-1]])
    assert len(models) == 5
    (tmp_path / "p.cnf").write_text(write_dimacs(encoding))
    (tmp_path / "p.out").write_text("".join(f"s SATISFIABLE\nv {' '.join(map(str, model))} 0\n" for model in models))
    done = run_cli("decode", tmp_path / "p.cnf", tmp_path / "p.out")
    assert done.code == 0, done.err
    assert done.out.splitlines()[0].endswith(": solved, 5 models of 1 distinct solution (the rest repeat one with "
                                             f"other values of the auxiliary variables) ({tmp_path / 'p.out'})")


@pytest.mark.skipif(shutil.which("picosat") is None, reason="picosat is not installed")
def test_decode_json_of_picosat_all_says_how_many_distinct_solutions_its_models_hold(tmp_path, run_cli):
    """`decode --json` listed the 15,360 models `picosat --all` prints for this totalizer CNF as 15,360 solutions,
    with nothing to say they are 2, where the text says "15,360 models of 2 distinct solutions"; the list stays
    one a model, in the output's order."""
    (tmp_path / "two.txt").write_text("2\nAA\nBB\n2\nA SUM 3\nB EQ\n2\n1 2\n4 4\n")
    assert run_cli("encode", tmp_path / "two.txt", "--card", "totalizer", "-o", tmp_path / "p.cnf").code == 0
    listed = subprocess.run(["picosat", "--all", str(tmp_path / "p.cnf")], capture_output=True, text=True, timeout=120)
    (tmp_path / "p.out").write_text(listed.stdout)
    answer = json.loads(run_cli("decode", tmp_path / "p.cnf", tmp_path / "p.out", "--json").out)
    models = listed.stdout.count("s SATISFIABLE")
    assert (answer["models"], answer["distinct_solutions"], len(answer["solutions"])) == (models, 2, models) > (2, 2, 2)
    said = run_cli("decode", tmp_path / "p.cnf", tmp_path / "p.out").out.splitlines()[0]
    assert f"{models:,} models of 2 distinct solutions" in said


def test_a_model_whose_values_contradict_its_placements_is_named():
    encoding = encode(load_one(FIRST))
    with Solver(bootstrap_with=encoding.cnf) as solver:
        solver.solve()
        model = solver.get_model()
    value = next(var for var in encoding.grid_vars if model[var - 1] < 0)
    model[value - 1] = value
    with pytest.raises(PipsError, match=f"value variable {value} .* contradicts the placements"):
        encoding.decode(model, "out")
    with pytest.raises(PipsError, match="sets variable 1 both true and false"):
        encoding.decode([*model, -model[0] if model[0] > 0 else 1], "out")


def test_cli_encode_then_decode_prints_the_solve_json(tmp_path, run_cli):
    cnf_path, model_path = tmp_path / "first.cnf", tmp_path / "first.out"
    assert run_cli("encode", FIRST, "-o", cnf_path).code == 0
    cnf = CNF(from_file=str(cnf_path))
    with Solver("minisat22", bootstrap_with=cnf.clauses) as solver:
        solver.solve()
        model_path.write_text("s SATISFIABLE\nv " + " ".join(map(str, solver.get_model())) + " 0\n")
    decoded = run_cli("decode", FIRST, model_path, "--json")
    solved = run_cli("solve", FIRST, "--json", "-b", "minisat22")
    assert decoded.code == 0
    ours, theirs = json.loads(decoded.out), json.loads(solved.out)
    assert ours.keys() - theirs.keys() == {"models", "distinct_solutions"} and ours["puzzle"] == theirs["puzzle"]
    assert theirs.keys() <= ours.keys() and (ours["models"], ours["distinct_solutions"]) == (1, 1)
    assert ours["solutions"] == theirs["solutions"] and ours["status"] == "solved"


def test_cli_encode_writes_dimacs_to_stdout(run_cli):
    result = run_cli("encode", FIRST)
    assert result.code == 0 and "\np cnf " in result.out


def test_cli_decode_of_an_unsatisfiable_answer_exits_1(tmp_path, run_cli):
    model_path = tmp_path / "unsat.out"
    model_path.write_text("s UNSATISFIABLE\n")
    result = run_cli("decode", FIRST, model_path, "--json")
    assert result.code == 1 and json.loads(result.out)["status"] == "unsatisfiable"


def test_cli_decode_of_a_model_that_does_not_fit_exits_2(tmp_path, run_cli):
    model_path = tmp_path / "wrong.out"
    model_path.write_text("v 1 2 3 0\n")
    result = run_cli("decode", FIRST, model_path)
    assert result.code == 2 and result.err.count("\n") == 1 and str(model_path) in result.err


def test_cli_backends_lists_every_sat_solver(run_cli):
    result = run_cli("backends", "--json")
    names = {row["name"] for row in json.loads(result.out)["backends"]}
    assert {"glucose4", "cadical195", "minisat22", "kissat404"} <= names
