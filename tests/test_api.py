"""The Python API does what the CLI does: every command's work is one name in `pipscover`, with an example."""

from __future__ import annotations

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
