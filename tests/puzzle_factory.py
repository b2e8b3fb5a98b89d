"""Hypothesis strategies for small random puzzles, built around a hidden solution.

Targets are the ones the generator would give the hidden pips (`RegionRule.targets_for`), then sometimes
nudged by one, so the puzzles are a mix of solvable ones (often with several solutions) and unsolvable ones.
Regions need not be contiguous, dominoes may repeat and boards may fall apart into separate pieces, as the
model allows.
"""

from __future__ import annotations

from collections.abc import Sequence

from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from pipscover.errors import PipsError
from pipscover.formats import write_text
from pipscover.model import Puzzle, RegionKind


@st.composite
def puzzles(draw, max_dominoes: int = 4, max_pip: int = 3, repeated_dominoes: bool = True,
            kinds: Sequence[RegionKind] = tuple(RegionKind)) -> Puzzle:
    count = draw(st.integers(1, max_dominoes))
    slots: list[tuple[tuple[int, int], tuple[int, int]]] = []
    board: set[tuple[int, int]] = set()
    size = 2 * count + 1
    every_slot = [((row, col), second) for row in range(size) for col in range(size)
                  for second in ((row, col + 1), (row + 1, col)) if max(second) < size]
    while len(slots) < count:  # one draw a domino among the slots still free (drawing cells, most clashed)
        first, second = draw(st.sampled_from([slot for slot in every_slot if board.isdisjoint(slot)]))
        slots.append((first, second))
        board |= {first, second}
    pip = st.integers(0, max_pip)
    if repeated_dominoes:
        dominoes = [(draw(pip), draw(pip)) for _ in range(count)]
    else:
        every = [(a, b) for a in range(max_pip + 1) for b in range(a, max_pip + 1)]
        dominoes = draw(st.lists(st.sampled_from(every), min_size=count, max_size=count, unique=True))
    hidden = {}
    for (first, second), (a, b) in zip(slots, dominoes):
        hidden[first], hidden[second] = (a, b) if draw(st.booleans()) else (b, a)
    cells = sorted(board)
    region_count = draw(st.integers(1, min(4, len(cells))))
    region_of = st.integers(0, region_count - 1)  # (built once, not per cell)
    labels = [draw(region_of) for _ in cells]
    regions = []
    for label in sorted(set(labels)):
        members = [cell for cell, mine in zip(cells, labels) if mine == label]
        kind = draw(st.sampled_from(list(kinds)))
        target = None
        if kind.has_target:
            values = [hidden[cell] for cell in members]
            given = kind.rule.targets_for(values, None, draw(st.randoms(use_true_random=False)))
            nudge = draw(st.sampled_from([0, 0, 0, 1, -1]))
            target = max(0, (given[0] if given else sum(values)) + nudge)
        regions.append((kind, members, target))
    return Puzzle.build(regions, dominoes)


def drawn(strategy: st.SearchStrategy[Puzzle], size: int) -> list[Puzzle]:
    """`size` puzzles from `strategy`, the same ones on every run (simplest first, as Hypothesis draws them):
    a corpus that many engines are judged on, drawn once instead of once per engine."""
    found: dict[Puzzle, None] = {}

    @settings(max_examples=size, derandomize=True, database=None, phases=[Phase.generate],
              suppress_health_check=list(HealthCheck))
    @given(strategy)
    def draw(puzzle: Puzzle) -> None:
        found[puzzle] = None

    draw()
    return list(found)


# The families of small puzzles that engines, counters and rules are judged on against brute force, and how many
# puzzles are drawn from each (tests/test_against_brute_force.py, tests/test_hints.py, ...).
FAMILIES = {
    **{f"only {kind}": (puzzles(max_dominoes=3, kinds=[kind]), 25) for kind in RegionKind},
    "mixed": (puzzles(), 150),
    "identical dominoes": (puzzles(max_dominoes=5, max_pip=1), 60),
    "distinct dominoes": (puzzles(max_dominoes=4, max_pip=3, repeated_dominoes=False), 40),
    "huge pips": (puzzles(max_pip=10**7) | puzzles(max_pip=1000), 60),
}
_drawn: dict[str, list[Puzzle]] = {}


def family(name: str, first: int | None = None) -> list[Puzzle]:
    """The puzzles of a family (its `first` ones only, if given), drawn once per test session."""
    if name not in _drawn:
        strategy, size = FAMILIES[name]
        _drawn[name] = drawn(strategy, size)
    return _drawn[name][:first]


def named(puzzle: Puzzle) -> str:
    """The puzzle for a failure's message: its text form, or its value for a kind that has no keyword."""
    try:
        return "\n" + write_text(puzzle)
    except PipsError:
        return f" {puzzle!r}"
