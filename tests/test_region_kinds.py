"""Every region kind, through every format, renderer, the hints and the planted puzzles (and, in
test_against_brute_force.py, every engine and counter): a kind added to `pipscover.regions` is checked with no
new test, and a kind some part does not handle fails here.

Each kind's pieces are also checked against its own meaning (`holds`): the pips `allowed` offers never lose
a completion, the counters' state steps agree with `holds`, and the generators' targets are kept."""

from __future__ import annotations

import json
import random
import xml.etree.ElementTree as ET
from collections import Counter
from itertools import permutations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pipscover.formats import parse, puzzle_to_nyt, write_text
from pipscover.formats.text import CODE_BY_KIND
from pipscover.generate.planted import REGION_SIZE, PlantedSpec, planted
from pipscover.hints import DEDUCTIONS, hint_chain
from pipscover.model import Puzzle, RegionKind
from pipscover.model.check import problems
from pipscover.regions import DECIDED, FAIL, PipSupply, RegionRule
from pipscover.render.svg import draw_svg
from pipscover.render.terminal import draw_puzzle, draw_solution
from pipscover.solving import solve

KINDS = list(RegionKind)
# Examples each property test draws per kind: 17 bugs planted one at a time in the kinds' allowed pips, counter
# steps, violations and targets (a bound off by one, a comparison made strict, a target one off) each failed
# at 20 examples as at 60, which took two and a half times the CPU (about 5 s for the five tests).
EXAMPLES_PER_KIND = 25


def test_every_kind_is_registered_once_with_its_rule():
    assert len({kind.rule.name for kind in RegionKind}) == len(RegionKind)
    for kind in RegionKind:
        assert isinstance(kind.rule, RegionRule) and kind.rule.name == kind == kind.value
        assert RegionKind(str(kind)) is kind and kind.name == kind.upper()


# Formats and renderers.


def one_region_puzzle(kind: RegionKind) -> Puzzle:
    """A 2 x 2 board: one region of `kind` on the top row, an `empty` one below (targets the pips keep)."""
    target = kind.rule.targets_for([1, 2], None, random.Random(0))
    return Puzzle.build([(kind, [(0, 0), (0, 1)], target[0] if kind.has_target else None),
                         ("empty", [(1, 0), (1, 1)], None)], [(1, 2), (3, 3)])


@pytest.mark.parametrize("kind", KINDS)
def test_every_kind_survives_the_nyt_json_and_the_text_format(kind):
    puzzle = one_region_puzzle(kind)
    assert parse(json.dumps(puzzle_to_nyt(puzzle)), "kind.json") == [puzzle]
    if kind.rule.constrains:
        assert kind in CODE_BY_KIND and kind.rule.keyword, f"the text format has no keyword for {kind}"
    # The text format writes `empty` regions as `#` cells, so neighbouring ones come back as one region.
    again = parse(write_text(puzzle), "kind.txt")[0]
    assert constrained(again) == constrained(puzzle) and again.cells == puzzle.cells


def constrained(puzzle: Puzzle) -> set:
    return {(region.kind, region.cells, region.target) for region in puzzle.regions if region.rule.constrains}


@pytest.mark.parametrize("kind", KINDS)
def test_every_kind_is_drawn_with_its_label(kind):
    puzzle = one_region_puzzle(kind)
    region = puzzle.regions[0]
    solution = solve(puzzle, "dlx").solutions[0]
    for drawing in (draw_puzzle(puzzle), draw_solution(puzzle, solution)):
        assert region.label in drawing
    texts = [element.text for element in ET.fromstring(draw_svg(puzzle, solution)).iter("{http://www.w3.org/2000/svg}text")]
    assert (region.label in texts) is kind.rule.constrains  # a constraining region gets a coloured tag
    assert region.label or not kind.rule.constrains, "a rule with no label cannot be seen"


# The hints: each kind with hint arithmetic has its rule in the catalogue and words its reasons. (Every rule
# keeps every solution on puzzles of each kind alone, and a chain that guesses along a solution reaches it:
# test_hints.py, on the families of tests/puzzle_factory.py.)


@pytest.mark.parametrize("kind", KINDS)
def test_every_kind_with_hint_arithmetic_is_in_the_catalogue_and_words_it(kind):
    hint = kind.rule.hint_rule
    if hint is None:
        return
    assert hint.name in [rule.name for rule in DEDUCTIONS]
    # Both cells of the ruled region stand empty: the kind's arithmetic narrows them (or leaves them be).
    puzzle = one_region_puzzle(kind)
    steps = [step for step in hint_chain(puzzle, follow=solve(puzzle, "dlx").solutions[0]).steps
             if step.rule.name == hint.name]
    noun = kind.rule.hint_noun(puzzle.regions[0].target)
    assert all(noun in step.reason and step.reason.endswith(".") for step in steps)


# Planted puzzles: a region grown the kind's way gets a target its pips keep (or the kind it names instead).


@pytest.mark.parametrize("kind", KINDS)
@settings(max_examples=EXAMPLES_PER_KIND, deadline=None)
@given(pips=st.lists(st.integers(0, 6), min_size=1, max_size=3 * REGION_SIZE), seed=st.integers(0, 1000))
def test_planted_regions_keep_the_rule_they_are_given(kind, pips, seed):
    values = [pips[0]]
    for pip in pips[1:]:
        if len(values) < REGION_SIZE and kind.rule.planted_grows(values, pip):
            values.append(pip)
    planted = kind
    targets = kind.rule.planted_targets(values, random.Random(seed))
    if not targets:
        assert kind.rule.planted_instead is not None, f"{kind} cannot hold on {values} and names no kind instead"
        planted = RegionKind(kind.rule.planted_instead)
        targets = planted.rule.planted_targets(values, random.Random(seed))
    assert len(targets) == 1 and planted.rule.holds(values, targets[0]), (planted, targets, values)


@pytest.mark.parametrize("kind", KINDS)
def test_every_kind_is_planted(kind):
    for seed in range(1, 20):
        puzzle, solution = planted(PlantedSpec(4, 4, seed=seed))
        if any(region.kind is kind for region in puzzle.regions):
            assert problems(puzzle, solution) == []
            return
    pytest.fail(f"no planted 4 x 4 board of seeds 1-19 has a {kind} region")


# Each kind's pieces against its meaning.

values_of = st.lists(st.integers(0, 5), min_size=1, max_size=4)


def targets(kind: RegionKind, values: list[int]) -> list[int | None]:
    """Targets around the sum of `values` for kinds that take one, else None."""
    return [t for t in range(sum(values) - 2, sum(values) + 3) if t >= 0] if kind.has_target else [None]


@pytest.mark.parametrize("kind", KINDS)
@settings(max_examples=EXAMPLES_PER_KIND)
@given(placed=st.lists(st.integers(0, 4), max_size=2), halves=st.lists(st.integers(0, 4), min_size=1, max_size=6),
       left=st.integers(1, 3))
def test_allowed_never_loses_a_completion(kind, placed, halves, left):
    """Pip v must be allowed on one more cell whenever v and left - 1 other remaining halves complete the
    region into one that holds."""
    left = min(left, len(halves))
    supply = PipSupply.of([halves.count(pip) for pip in range(5)], depth=6, sum_depth=6)
    for target in targets(kind, placed + halves[:left]):
        mask = kind.rule.allowed(target, left, sum(placed), sum(1 << pip for pip in set(placed)), supply)
        for chosen in set(permutations(halves, left)):
            if kind.rule.holds([*placed, *chosen], target):
                assert mask >> chosen[0] & 1, (target, placed, chosen)


@pytest.mark.parametrize("kind", KINDS)
@settings(max_examples=EXAMPLES_PER_KIND)
@given(values=values_of, split=st.integers(0, 4))
def test_counter_states_agree_with_holds(kind, values, split):
    """Stepping the pips in one by one fails exactly when the region breaks (pips up to 5 remain possible), and
    a state part-way accepts the rest exactly when the whole holds."""
    pips = list(range(6))  # pip i is value i
    for target in targets(kind, values):
        holds = kind.rule.holds(values, target)
        step = kind.rule.counter_step(target, pips, 5)
        state, failed, middle = 0, False, None
        for index, pip in enumerate(values):
            if index == min(split, len(values) - 1):
                middle = state
            state = step(state, pip, len(values) - index - 1)
            if state is FAIL:
                failed = True
                break
        assert failed is not holds, (target, values)
        if middle is not None and not failed:
            rest = values[min(split, len(values) - 1):]
            assert kind.rule.counter_accepts(middle, target, rest, pips) is holds or middle == DECIDED


@pytest.mark.parametrize("kind", KINDS)
@settings(max_examples=EXAMPLES_PER_KIND)
@given(values=st.lists(st.integers(0, 5), min_size=1, max_size=6))
def test_violation_is_zero_exactly_when_the_rule_holds(kind, values):
    counts = Counter(values)
    for target in targets(kind, values):
        violation = kind.rule.violation(len(values), sum(values), counts, target)
        assert violation >= 0 and (violation == 0) is kind.rule.holds(values, target), (target, values)


@pytest.mark.parametrize("kind", KINDS)
@settings(max_examples=EXAMPLES_PER_KIND)
@given(values=values_of, other=values_of, seed=st.integers(0, 1000))
def test_generator_targets_are_kept_by_the_hidden_pips(kind, values, other, seed):
    for theirs in (None, (other * 4)[:len(values)]):
        for target in kind.rule.targets_for(values, theirs, random.Random(seed)):
            assert kind.rule.holds(values, target)


def test_linear_kinds_hold_by_their_bounds():
    for kind in KINDS:
        if kind.has_target:
            for target in range(5):
                for total in range(8):
                    least, most = kind.rule.bounds(target)
                    inside = (least is None or least <= total) and (most is None or total <= most)
                    assert kind.rule.completes(target, total) is inside is kind.rule.holds([total], target)
