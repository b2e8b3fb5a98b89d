"""What backends declare: commands consult the capabilities, never a class or name. (Every registered backend
is judged against brute force in test_against_brute_force.py.)"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from conftest import EXAMPLES
from pipscover.bench import benchmark
from pipscover.bench.compare import configurations
from pipscover.engines import get_backend
from pipscover.engines.base import Capabilities
from pipscover.engines.dlx import DlxBackend
from pipscover.engines.template import TemplateBackend
from pipscover.errors import PipsError
from pipscover.formats import load_one
from pipscover.model import Puzzle

SMALL = Puzzle.build([("empty", [(0, 0), (0, 1), (1, 0), (1, 1)], None)], [(1, 2), (1, 2)])
# A blocker for one module, loaded at interpreter start: the environment of a user who has not installed it.
BLOCK_ORTOOLS = """import sys
class _Blocked:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] == "ortools":
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
sys.meta_path.insert(0, _Blocked())
"""


def test_only_backends_that_write_a_cnf_take_encodings():
    assert [c.label for c in configurations(["dlx", "minisat22"], cards=["totalizer"])] == [
        "dlx", "minisat22 encoding=auto card=totalizer pb=best"]
    with pytest.raises(PipsError, match="does not use one"):
        get_backend("dlx").with_encodings(get_backend("minisat22").encodings)


def test_the_count_task_counts_the_way_each_backend_declares():
    puzzle = load_one(EXAMPLES / "first.txt")
    counted_by_count_auto = "count's auto (dlx listing within a node budget, else the structural counter)"
    assert benchmark([puzzle], "dlx", task="count").backend == counted_by_count_auto
    assert benchmark([puzzle], "auto", task="count").backend == counted_by_count_auto
    assert benchmark([puzzle], "minisat22", task="count").backend == "blocking clauses with minisat22"
    listing = benchmark([puzzle], ListingOnly(), task="count")
    assert (listing.backend, listing.outcomes) == ("dlx, listing its solutions", {"counted": 1})


class ListingOnly(DlxBackend):
    """The dlx search declaring no counter of its own, as cpsat does: the count task must list."""

    capabilities = Capabilities()


def test_bench_counts_with_cpsat(run_cli):
    pytest.importorskip("ortools")
    result = run_cli("bench", EXAMPLES / "first.txt", "-b", "cpsat", "--task", "count", "--json")
    assert result.code == 0 and json.loads(result.out)["outcomes"] == {"counted": 1}


def test_a_missing_solver_is_marked_with_the_command_that_installs_it(tmp_path):
    (tmp_path / "sitecustomize.py").write_text(BLOCK_ORTOOLS)
    environment = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), *sys.path])}

    def pipscover(*arguments: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "pipscover", *arguments], capture_output=True, text=True,
                              env=environment)

    listed = pipscover("backends", "--json")
    cpsat = next(row for row in json.loads(listed.stdout)["backends"] if row["name"] == "cpsat")
    assert cpsat["available"] is False and cpsat["install"].startswith("pip install")
    assert "NOT INSTALLED: pip install" in pipscover("backends").stdout
    solved = pipscover("solve", str(EXAMPLES / "first.txt"), "-b", "cpsat")
    assert solved.returncode == 2 and "pip install" in solved.stderr and "Traceback" not in solved.stderr


def test_the_template_declares_its_capabilities_and_says_what_to_install():
    template = TemplateBackend()
    assert not template.capabilities.available
    with pytest.raises(PipsError, match="pip install some-solver"):
        next(iter(template.solutions(SMALL)))


@pytest.mark.parametrize(("typed", "said"), [("cadical", "'cadical' (cadical300)"), ("g4", "'g4' (glucose4)"),
                                             ("glucose4", "'glucose4' draws")])
def test_a_refusal_names_the_backend_as_it_was_typed(run_cli, typed, said):
    """`-b cadical --seed 5` was refused naming 'cadical300', a name the user never typed."""
    refused = run_cli("solve", EXAMPLES / "first.txt", "-b", typed, "--seed", "5")
    assert refused.code == 2 and said in refused.err
