"""The Python API does what the CLI does: every command's work is one name in `pipscover`, with an example."""

from __future__ import annotations

import json
import re
import subprocess
import sys

import pytest

import pipscover
from conftest import EXAMPLES

CLI_WORK = ("encode", "decode", "hint", "rate", "generate", "fetch", "puzzle_files")


@pytest.mark.parametrize("name", CLI_WORK)
def test_the_api_exports_what_the_cli_does_with_a_runnable_example(name):
    function = getattr(pipscover, name)
    assert name in pipscover.__all__ and callable(function)
    assert ">>> " in (function.__doc__ or "")  # run by the doctests of its module


def test_importing_pipscover_loads_none_of_the_heavy_parts():
    code = ("import sys, pipscover; print(sorted({m.split('.')[0] for m in sys.modules} & {'pysat', 'httpx', 'dask', "
            "'matplotlib'}), sorted(m for m in sys.modules if m.startswith(('pipscover.generate', 'pipscover.cnf'))))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[] []"


def test_a_cnf_encoded_by_the_api_decodes_to_the_solution_the_cli_finds(run_cli, tmp_path):
    from pysat.formula import CNF
    from pysat.solvers import Solver

    puzzle = pipscover.load_one(EXAMPLES / "first.txt")
    with Solver(name="minisat22", bootstrap_with=CNF(from_string=pipscover.encode(puzzle)).clauses) as solver:
        assert solver.solve()
        answer = " ".join(map(str, solver.get_model()))
    assert pipscover.decode(puzzle, answer) == pipscover.solve(puzzle).solutions[0]
    assert pipscover.decode(puzzle, "s UNSATISFIABLE") is None


def test_the_api_hint_is_the_first_step_of_the_cli_hint(run_cli):
    step = pipscover.hint(pipscover.load_one(EXAMPLES / "first.txt"))
    shown = run_cli("hint", EXAMPLES / "first.txt")
    assert shown.code == 0 and step.reason in " ".join(shown.out.split())


README = EXAMPLES.parent / "README.md"
TYPE_ALIASES = {"Cell", "Domino", "__version__"}  # tuples and a string: no docstring of their own


def test_dir_lists_every_public_name_without_importing_them():
    code = ("import sys, pipscover; names = dir(pipscover); "
            "print(set(pipscover.__all__) <= set(names), {'sys', 'import_module', 'Any'} & set(names), "
            "sorted({m.split('.')[0] for m in sys.modules} & {'pysat', 'httpx', 'dask', 'matplotlib'}))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "True set() []"


def test_help_lists_the_public_functions_with_their_signatures():
    import pydoc

    shown = pydoc.render_doc(pipscover, renderer=pydoc.plaintext)
    for name in ("solve(puzzle", "count(puzzle", "load_one(path", "hint(puzzle", "encoding(puzzle", "solutions("):
        assert name in shown


def test_generate_shows_the_signature_of_the_generator():
    import inspect

    parameters = inspect.signature(pipscover.generate).parameters
    assert list(parameters)[:3] == ["dominoes", "max_pip", "shape"]
    assert "_CallablePackage" not in str(inspect.signature(pipscover.generate))


@pytest.mark.parametrize("name", sorted(set(pipscover.__all__) - TYPE_ALIASES))
def test_every_public_name_has_a_runnable_example(name):
    assert ">>> " in (getattr(pipscover, name).__doc__ or "")


def test_a_users_mypy_reads_the_type_hints_of_the_installed_package(tmp_path):
    """mypy reads an installed package's hints only when it has a `py.typed` (PEP 561); without it, a user's
    script got "missing library stubs or py.typed marker" and every name was `Any`. The package is installed
    here as a `.pth` line in a bare virtual environment's site-packages."""
    import venv

    venv.create(tmp_path / "env", with_pip=False)
    (python,) = (tmp_path / "env").glob("bin/python")
    (packages,) = (tmp_path / "env").glob("lib/python*/site-packages")
    (packages / "pipscover.pth").write_text(str(EXAMPLES.parent))
    script = tmp_path / "script.py"
    script.write_text('from pipscover import count, load_one\n\nnumber: str = count(load_one("p.txt")).count\n')
    checked = subprocess.run([sys.executable, "-m", "mypy", "--python-executable", str(python), "--cache-dir",
                              str(tmp_path / "cache"), "--no-error-summary", str(script)],
                             capture_output=True, text=True, cwd=tmp_path)
    assert 'expression has type "int", variable has type "str"' in checked.stdout, checked.stdout


def test_reprs_are_short():
    puzzle = pipscover.load_one(EXAMPLES / "first.txt")
    for value in (pipscover.rate(puzzle), pipscover.encoding(puzzle), pipscover.generate(dominoes=4, seed=3),
                  pipscover.marginals(puzzle)):
        shown = repr(value)
        assert len(shown) < 300 and "function" not in shown and "regions=" not in shown, shown


def test_hint_and_rate_take_a_timeout_and_still_the_old_deadline_with_a_warning():
    import time

    puzzle = pipscover.load_one(EXAMPLES / "first.txt")
    assert pipscover.hint(puzzle, timeout=10) == pipscover.hint(puzzle)
    assert pipscover.rate(puzzle, timeout=10).steps == pipscover.rate(puzzle).steps
    with pytest.warns(DeprecationWarning, match="timeout"):
        assert pipscover.hint(puzzle, deadline=time.monotonic() + 10) == pipscover.hint(puzzle)
    with pytest.warns(DeprecationWarning, match="timeout"):
        pipscover.rate(puzzle, deadline=time.monotonic() + 10)


def test_the_difficulty_is_the_enum_whichever_reader_made_it(tmp_path):
    day = tmp_path / "day.json"
    one = {"dominoes": [[1, 2]], "regions": [{"indices": [[0, 0], [0, 1]], "type": "sum", "target": 3}]}
    day.write_text(json.dumps({"printDate": "2025-09-15", "easy": one, "hard": one}))
    read = [pipscover.load_one(day, "hard"), *pipscover.load(day), pipscover.load(day, "easy")[0]]
    assert [type(puzzle.origin.difficulty) for puzzle in read] == [pipscover.Difficulty] * 4
    assert read[0].origin.difficulty == "hard"
    assert type(pipscover.rate(read[0]).difficulty) is pipscover.Difficulty  # the rating's band too


def test_a_generated_puzzle_names_the_difficulty_asked_and_keeps_its_rating_apart():
    made = pipscover.generate(dominoes=4, seed=3)
    assert made.difficulty is not None and made.puzzle.origin.difficulty is None


def test_the_encoding_counts_by_blocking_clauses_and_solves_under_assumptions():
    from pysat.solvers import Solver

    puzzle = pipscover.load_one(EXAMPLES / "first.txt")
    only = pipscover.solve(puzzle).solutions[0]
    cnf = pipscover.encoding(puzzle)
    with Solver(bootstrap_with=cnf.cnf) as solver:
        assert solver.solve(assumptions=cnf.assumptions(fixed=only.placements[:3]))
        assert cnf.decode(solver.get_model()) == only
        assert not solver.solve(assumptions=cnf.assumptions(forbidden=only.placements[-1:]))
        solver.add_clause(cnf.block(only))
        assert not solver.solve()
    assert set(cnf.projection("placements")) == set(cnf.placement_var.values())
    assert set(cnf.projection("grids")) == set(cnf.value_var.values())


def test_a_sat_backend_is_named_as_pysat_names_it_or_by_its_pysat_class():
    """A PySAT user hands a solver class or PySAT's short name; `solve(puzzle, backend=Glucose4)` once failed
    with "type object 'Glucose4' has no attribute 'solutions'", and "g4" was an unknown backend."""
    from pysat.solvers import Glucose4, Solver

    puzzle = pipscover.load_one(EXAMPLES / "first.txt")
    for backend in (Glucose4, "g4"):
        found = pipscover.solve(puzzle, backend=backend)
        assert found.backend == "glucose4" and pipscover.problems(puzzle, found.solutions[0]) == []
    assert len(list(pipscover.solutions(puzzle, backend=Glucose4))) == 1
    assert pipscover.count(puzzle, method="blocking", backend=Glucose4).backend == "glucose4"
    with pytest.raises(pipscover.PipsError, match="unknown backend <class 'pysat.solvers.Solver'>; choose one"):
        pipscover.solve(puzzle, backend=Solver)
    assert pipscover.solve(puzzle, backend="Glucose4").backend == "glucose4"  # as PySAT spells it: was unknown


def test_a_pysat_solver_object_is_refused_with_the_class_to_pass():
    """`solve(puzzle, backend=Solver(name="g4"))` said "unknown backend <pysat.solvers.Solver object at
    0x7f...>" and listed the names, none of which says what to pass instead."""
    from pysat.solvers import Glucose4, Solver

    puzzle = pipscover.load_one(EXAMPLES / "first.txt")
    for made in (Solver(name="g4"), Glucose4()):
        with made, pytest.raises(pipscover.PipsError, match=r"object is not a backend.*pysat\.solvers\.Glucose4"):
            pipscover.solve(puzzle, backend=made)


@pytest.mark.parametrize(("call", "says"), [
    (lambda puzzle: pipscover.count(puzzle, distinct="GRID"), "'GRID' is not a valid Distinct; choose one of: "),
    (lambda puzzle: pipscover.encode(puzzle, project="grid"), "'grid' is not a valid Distinct"),
    (lambda puzzle: pipscover.generate(dominoes=5, difficulty="extreme"), "'extreme' is not a valid Difficulty"),
    (lambda puzzle: pipscover.generate(dominoes=5, shape="square"), "'square' is not a valid Shape"),
    (lambda puzzle: pipscover.solve(puzzle, limit=0), "limit must be at least 1 (or None for no limit), not 0"),
    (lambda puzzle: pipscover.count(puzzle, method="dlx", limit=-1), "limit must be at least 1"),
    (lambda puzzle: pipscover.solve(puzzle, limit=1.5), "limit must be a whole number (or None for no limit), not 1.5"),
    (lambda puzzle: pipscover.solve(puzzle, timeout=float("nan")), "timeout must be a number of seconds"),
    (lambda puzzle: pipscover.generate(dominoes=2.5), "generate: the dominoes and the maximum pip are whole numbers"),
    (lambda puzzle: pipscover.count(puzzle, timeout="5"), "a number of seconds >= 0 (None or inf: no limit), not '5'"),
    (lambda puzzle: pipscover.count(puzzle, memory=-5), "whole number of bytes (or None for no cap), not -5"),
    (lambda puzzle: pipscover.count(puzzle, memory=0.5), "memory must be a positive whole number of bytes"),
    (lambda puzzle: pipscover.sample(puzzle, 2, memory=0), "memory must be a positive whole number of bytes"),
    (lambda puzzle: pipscover.sample(puzzle, 2, memory_cap=-1), "memory must be a positive whole number of bytes"),
    (lambda puzzle: pipscover.hint(puzzle, placed=[{"domino": [4, 3], "cells": [[0, 0], [0, 1]]}]),
     "placed must hold Placements, as solve gives them (Placement((4, 3), ((0, 0), (0, 1)))), not {'cells': "),
    (lambda puzzle: pipscover.solutions(puzzle, backend="local"), "backend 'local' finds one solution, not several"),
])
def test_a_name_from_a_fixed_set_or_a_limit_below_1_is_a_pips_error(call, says):
    """A name was the ValueError of a plain enum ("'GRID' is not a valid Distinct"), which a script catching
    `PipsError`, the one type the API raises for bad input, did not catch; `solve` with limit 0 answered
    `unsatisfiable` on a puzzle with a solution, and `count` of the first -1 solutions was -1; `count` took
    `memory=-5`, which `--memory` refuses, and `sample` stopped with a bare `MemoryCapReached`."""
    with pytest.raises(pipscover.PipsError, match=re.escape(says)):
        call(pipscover.load_one(EXAMPLES / "first.txt"))


@pytest.mark.parametrize("distinct", ["placements", "grids"])
@pytest.mark.parametrize("method", ["dlx", "blocking"])
def test_a_listing_count_cut_short_says_what_stopped_it(method, distinct):
    """`count(puzzle, method="dlx", limit=5)` said `stopped_by=None` where `count --limit 5` says `--limit`, and
    a listing past its deadline said None too; `solutions(puzzle, backend="local")` gave one of 7,870,990,272
    solutions and ended, as if it were the only one (the backend case above)."""
    many = pipscover.load_one(EXAMPLES / "generated" / "no-unique-16-seed1.json")
    limited = pipscover.count(many, distinct, method=method, limit=5)
    assert (limited.count, limited.exact, limited.stopped_by) == (5, False, "limit")
    for timeout in (0, 0.3):  # before the count starts, and while it lists (it cannot list them all by then)
        late = pipscover.count(many, distinct, method=method, timeout=timeout)
        assert (late.exact, late.stopped_by) == (False, "timeout")
    whole = pipscover.count(pipscover.load_one(EXAMPLES / "first.txt"), distinct, method=method, limit=5)
    assert (whole.count, whole.exact, whole.stopped_by) == (1, True, None)


def test_decode_takes_a_model_as_a_list_of_literals():
    from pysat.solvers import Solver

    puzzle = pipscover.load_one(EXAMPLES / "first.txt")
    with Solver(bootstrap_with=pipscover.encoding(puzzle).cnf) as solver:
        assert solver.solve()
        model = solver.get_model()
    assert pipscover.decode(puzzle, model) == pipscover.decode(puzzle, " ".join(map(str, model)))


def test_the_readme_counts_by_blocking_clauses_in_a_few_lines(capsys, monkeypatch):
    blocks = re.findall(r"```python\n(.*?)```", README.read_text(), flags=re.S)
    counting = next(block for block in blocks if ".block(solver.get_model())" in block)
    monkeypatch.chdir(README.parent)
    exec(compile(counting, "README.md", "exec"), {})
    assert capsys.readouterr().out == "1\n"


@pytest.mark.parametrize("suffix", ["cnf", "opb"])
def test_load_reads_the_puzzle_an_encoded_file_carries(run_cli, tmp_path, suffix):
    encoded = tmp_path / f"first.{suffix}"
    assert run_cli("encode", EXAMPLES / "first.txt", "-o", encoded).code == 0
    assert pipscover.load_one(encoded) == pipscover.load_one(EXAMPLES / "first.txt")
    assert pipscover.load_one(encoded).describe() == str(encoded)


@pytest.mark.parametrize("suffix", ["cnf", "opb"])
@pytest.mark.parametrize("command", ["solve", "count", "show", "hint", "rate"])
def test_every_command_reads_an_encoded_file(run_cli, tmp_path, command, suffix):
    encoded = tmp_path / f"first.{suffix}"
    assert run_cli("encode", EXAMPLES / "first.txt", "-o", encoded).code == 0
    direct, through = run_cli(command, EXAMPLES / "first.txt", "--json"), run_cli(command, encoded, "--json")
    assert through.code == direct.code == 0, through.err
    assert json.loads(through.out.splitlines()[0])["puzzle"]["file"] == str(encoded)
