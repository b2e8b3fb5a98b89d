"""The design's commands as a user runs them: `encode --dimacs` and `encode --opb`, solved by stock solvers
(CaDiCaL, MiniSat, PicoSAT; Debian's clasp for OPB), decoded in another folder into a solution that the
independent checker accepts; clasp's model count of the OPB against `pipscover count`; the line each region
kind writes."""

from __future__ import annotations

import json
import re
import shutil
import subprocess

import pytest
from hypothesis import HealthCheck, given, settings
from puzzle_factory import puzzles

from conftest import EXAMPLES, needs_nyt, nyt_files
from pipscover import solutions
from pipscover.cnf.opb import encode_opb, write_opb
from pipscover.counting import count
from pipscover.formats import load_one
from pipscover.model import Puzzle
from pipscover.model.check import problems
from pipscover.model.results import Solution

FIRST = EXAMPLES / "first.txt"
needs_clasp = pytest.mark.skipif(shutil.which("clasp") is None, reason="clasp is not installed (apt-get install clasp)")
SOLVERS = {
    "cadical": lambda path, out: ["cadical", "-q", str(path)],
    "minisat": lambda path, out: ["minisat", "-verb=0", str(path), str(out)],
    "picosat": lambda path, out: ["picosat", str(path)],
    "clasp": lambda path, out: ["clasp", str(path)],
}


def solve_with(solver: str, path, out) -> None:
    """Run a stock solver on `path` as a user would, its answer in `out`."""
    if shutil.which(solver) is None:
        pytest.skip(f"{solver} is not installed")
    done = subprocess.run(SOLVERS[solver](path, out), capture_output=True, text=True, timeout=60)
    assert done.returncode in (10, 20, 30), done.stderr  # clasp adds 20 for "search space exhausted"
    if solver != "minisat":
        out.write_text(done.stdout)


def hard_puzzle() -> tuple[str, list[str]]:
    """A hard NYT puzzle (a day file and -d hard) where the archive is beside the checkout, else first.txt."""
    files = nyt_files()
    return (str(files[-1]), ["-d", "hard"]) if files else (str(FIRST), [])


@pytest.mark.parametrize(("flag", "suffix", "solver"), [
    ("--dimacs", "cnf", "cadical"), ("--dimacs", "cnf", "minisat"), ("--dimacs", "cnf", "picosat"),
    ("--opb", "opb", "clasp"),
])
def test_a_stock_solver_answers_and_decode_reads_it_back_in_another_folder(
        run_cli, tmp_path, monkeypatch, flag, suffix, solver):
    puzzle, choose = hard_puzzle()
    made, elsewhere = tmp_path / "made", tmp_path / "elsewhere"
    made.mkdir()
    elsewhere.mkdir()
    assert run_cli("encode", puzzle, *choose, flag, "-o", made / f"x.{suffix}").code == 0
    shutil.move(made / f"x.{suffix}", elsewhere / f"x.{suffix}")  # another folder, no puzzle file beside it
    monkeypatch.chdir(elsewhere)
    solve_with(solver, f"x.{suffix}", elsewhere / "x.out")
    decoded = run_cli("decode", f"x.{suffix}", "x.out", "--json")
    assert decoded.code == 0, decoded.err
    (elsewhere / "sol.json").write_text(decoded.out)
    checked = run_cli("check", puzzle, "sol.json", *choose, "--json")
    assert checked.code == 0 and json.loads(checked.out)["valid"], checked.out


@needs_clasp
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(puzzle=puzzles(max_dominoes=4))
def test_clasp_counts_the_opb_as_pipscover_counts_the_puzzle(tmp_path, puzzle):
    assert clasp_models(write_opb(encode_opb(puzzle)), tmp_path) == count(puzzle).count


def clasp_models(text: str, tmp_path) -> int:
    path = tmp_path / "p.opb"
    path.write_text(text)
    done = subprocess.run(["clasp", "-n", "0", "-q", str(path)], capture_output=True, text=True, timeout=60)
    return int(re.search(r"^c Models\s*: (\d+)", done.stdout, re.M).group(1))


@needs_nyt
@needs_clasp
def test_clasp_counts_nyt_puzzles_as_pipscover_does(tmp_path):
    # Easy puzzles of every 40th day: few solutions each, which clasp lists in milliseconds.
    for file in nyt_files()[::40]:
        puzzle = load_one(file, "easy")
        assert clasp_models(write_opb(encode_opb(puzzle)), tmp_path) == count(puzzle).count, file


def region_lines(kind: str, target: int | None) -> list[tuple[list[tuple[int, tuple[int, int], int]], str, int]]:
    """The OPB lines a region of two cells of `kind` writes, on a 2 x 3 board of doubles whose other regions are
    empty; each term read back as (coefficient, cell, pip) from the file's own `* value` comments."""
    board = [(kind, [(0, 0), (0, 1)], target), ("empty", [(1, 0), (1, 1), (2, 0), (2, 1)], None)]
    text = write_opb(encode_opb(Puzzle.build(board, [(1, 1), (2, 2), (3, 3)])))
    meaning = {int(m[1]): ((int(m[2]), int(m[3])), int(m[4]))
               for m in re.finditer(r"^\* value (\d+) cell (\d+) (\d+) pip (\d+)$", text, re.M)}
    regions = sum(int(m[1]) for m in re.finditer(r"^\* family (?:equals|unequal|sum|less|greater) constraints (\d+)",
                                                 text, re.M))
    lines = []
    for line in text.splitlines()[len(text.splitlines()) - regions:]:
        *terms, relation, bound, end = line.split()
        assert end == ";" and relation in (">=", "=")
        read = [(int(coefficient), *meaning[int(var[1:])]) for coefficient, var in zip(terms[::2], terms[1::2])]
        lines.append((read, relation, int(bound)))
    return lines


@pytest.mark.parametrize(("kind", "target", "sign", "relation", "bound"), [
    ("sum", 4, 1, "=", 4), ("less", 4, -1, ">=", -3), ("greater", 4, 1, ">=", 5),
])
def test_a_sum_region_is_one_line_weighted_by_the_pips(kind, target, sign, relation, bound):
    [(terms, written, right)] = region_lines(kind, target)
    assert (written, right) == (relation, bound)
    assert all(coefficient == sign * pip for coefficient, _, pip in terms)
    assert {cell for _, cell, _ in terms} == {(0, 0), (0, 1)}


def test_an_equals_region_ties_each_pip_of_one_cell_to_the_next():
    lines = region_lines("equals", None)
    assert lines and all(
        (len(terms), written, right) == (2, "=", 0) and [c for c, _, _ in terms] == [1, -1]
        and terms[0][2] == terms[1][2] and terms[0][1] != terms[1][1] for terms, written, right in lines)


def test_an_unequal_region_lets_each_pip_appear_once():
    lines = region_lines("unequal", None)
    assert lines and all(
        (written, right) == (">=", -1) and all(c == -1 for c, _, _ in terms) and len({p for _, _, p in terms}) == 1
        for terms, written, right in lines)


def test_an_opb_answer_decodes_to_the_solution_its_placements_make():
    puzzle = load_one(FIRST)
    encoding = encode_opb(puzzle)
    solution = next(solutions(puzzle))
    true = set(encoding.solution_literals(solution)) | {encoding.value_var[item] for item in solution.grid.items()}
    literals = tuple(var if var in true else -var for var in range(1, encoding.num_vars + 1))
    assert encoding.decode(literals, "answer") == Solution(solution.placements)
    assert problems(puzzle, solution) == []


# One domino on two cells of no rule: two solutions, the domino either way round.
TWO_WAYS = {"dominoes": [[1, 2]], "regions": [{"indices": [[0, 0], [0, 1]], "type": "empty"}]}
# clasp prints only the last model of an OPB unless --quiet=0 asks for every one.
EVERY_MODEL = {"clasp": ["clasp", "-n", "0", "--quiet=0"], "picosat": ["picosat", "--all"]}


@pytest.mark.parametrize(("solver", "suffix"), [("clasp", "opb"), ("clasp", "cnf"), ("picosat", "cnf")])
def test_decode_reads_every_model_of_an_output_listing_them(run_cli, tmp_path, solver, suffix):
    """`clasp -n 0 --quiet=0` and `picosat --all` print every model; decode drew one of them and said nothing."""
    if shutil.which(solver) is None:
        pytest.skip(f"{solver} is not installed")
    puzzle, encoded, out = tmp_path / "two.json", tmp_path / f"two.{suffix}", tmp_path / "two.out"
    puzzle.write_text(json.dumps(TWO_WAYS))
    assert run_cli("encode", puzzle, "-o", encoded).code == 0
    done = subprocess.run([*EVERY_MODEL[solver], str(encoded)], capture_output=True, text=True, timeout=60)
    out.write_text(done.stdout)
    models = int(re.search(r"(?:Models\s*:|s SOLUTIONS)\s*(\d+)", done.stdout).group(1))
    decoded = run_cli("decode", encoded, out, "--json")
    assert decoded.code == 0, decoded.err
    found = json.loads(decoded.out)["solutions"]
    assert len(found) == models >= 2 and len({json.dumps(solution) for solution in found}) == 2
    shown = run_cli("decode", encoded, out)
    assert shown.code == 0 and f"solved, {models} models" in shown.out
