"""The counting methods' registry: a new method is one class and one registry line, and `count` checks
names, distinct kinds and backends against the methods' declared capabilities."""

from __future__ import annotations

import pytest
from brute_force import brute_force_solutions
from hypothesis import given, settings
from puzzle_factory import puzzles

from conftest import EXAMPLES
from pipscover import load_one
from pipscover.counting import REGISTRY, count, counting_method
from pipscover.counting.base import CountingCapabilities, CountingMethod
from pipscover.counting.budget import Budget
from pipscover.errors import PipsError
from pipscover.model import Puzzle
from pipscover.model.results import CountResult, Distinct


class BruteForceMethod(CountingMethod):
    """A toy method: every solution listed by brute force, then counted."""

    name = "brute-force"
    description = "every solution by brute force (a test's toy)"
    capabilities = CountingCapabilities(counts=frozenset({Distinct.PLACEMENTS}), lists=True)

    def count(self, puzzle: Puzzle, distinct: Distinct, budget: Budget) -> CountResult:
        found = len(brute_force_solutions(puzzle))
        if budget.limit is not None and found > budget.limit:
            return budget.result(budget.limit, False, distinct, self.name, stopped_by="limit")
        return budget.result(found, True, distinct, self.name)


@pytest.fixture
def with_toy(monkeypatch):
    monkeypatch.setitem(REGISTRY, "brute-force", (__name__, "BruteForceMethod"))


@settings(max_examples=10, deadline=None)
@given(puzzles(max_dominoes=4))
def test_a_method_registered_in_one_line_counts_as_the_others_do(puzzle):
    with pytest.MonkeyPatch.context() as patch:
        patch.setitem(REGISTRY, "brute-force", (__name__, "BruteForceMethod"))
        toy = count(puzzle, method="brute-force")
    assert (toy.count, toy.exact, toy.method) == (count(puzzle, method="structural").count, True, "brute-force")


def test_a_registered_method_gets_its_limit_and_its_capabilities_checked(with_toy):
    puzzle = Puzzle.build([("empty", [(0, 0), (0, 1), (1, 0), (1, 1)], None)], [(1, 2), (3, 4)])
    assert count(puzzle, method="brute-force", limit=1).exact is False
    with pytest.raises(PipsError, match="brute-force counts placements, not distinct grids"):
        count(puzzle, Distinct.GRIDS, method="brute-force")
    with pytest.raises(PipsError, match="only applies to the blocking method"):
        count(puzzle, method="brute-force", backend="minisat22")


def test_the_template_registers_and_answers_in_the_shape_of_a_method(monkeypatch):
    monkeypatch.setitem(REGISTRY, "template", ("pipscover.counting.template", "TemplateMethod"))
    result = count(load_one(EXAMPLES / "first.txt"), method="template")
    assert (result.method, result.exact, result.stopped_by) == ("template", False, "timeout")


def test_every_registered_method_declares_its_name_and_what_it_counts():
    for name in REGISTRY:
        method = counting_method(name)
        assert method.name == name and method.description and method.capabilities.counts


def test_a_limit_reaches_only_the_methods_that_list():
    """dlx stops at a limit; `auto` and `structural` count to the end, so a limit given them is refused, as the
    command line refuses `--limit` (it was silently ignored)."""
    puzzle = load_one(EXAMPLES / "generated" / "no-unique-16-seed1.json")
    assert count(puzzle, method="dlx", limit=5).count == 5
    for method in ("auto", "structural"):
        with pytest.raises(PipsError, match=f"stops only the listing methods .*; {method} counts every solution"):
            count(puzzle, method=method, limit=5)
