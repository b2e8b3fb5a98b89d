"""Inclusion-exclusion over the dominoes: exact placement counts with no dominoes left in any state.

The structural counter keys its subproblems by the dominoes left, and on a board with loose regions those
multiply them: planted 6 x 6 has 82,944 multisets of its 18 dominoes, and no cache holds the product. Here
that dimension is traded for repeated sweeps. Give each domino type t a weight k_t and let P(k) be the sum,
over every tiling of the board and every way to lay on each tile a domino type (its pips in either order, a
double in one) so that the regions hold, of the product of the tiles' weights: nothing there says which
dominoes are used, so P(k) is one frontier sweep. The count is the coefficient of prod x_t^m_t in P(x) (m_t
copies of type t), and every term of P has the degree n = sum m_t, so (Ryser's formula for the permanent,
with repeated columns):

    count = (1 / prod m_t!) * sum over 0 <= k_t <= m_t of  prod_t (-1)^(m_t - k_t) C(m_t, k_t)  *  P(k)

since the sum over k_t of (-1)^(m-k) C(m, k) k^c is m! for c = m and 0 for c < m (and c > m for one type
means c < m for another). The sweep's graph is built once (`Sweep`); each of the prod (m_t + 1) points is
one pass over its edges. The sums run modulo 2^128 (exact when the count is below 2^(128 - a), where 2^a
divides prod m_t!; `count` checks a bound first). `encodings/counting.md` has the measurements.
"""

from __future__ import annotations

import time
from array import array
from collections import defaultdict
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, replace
from itertools import islice
from math import comb, factorial, prod

from pipscover.counting.budget import UNLIMITED, Budget
from pipscover.counting.progress import PROGRESS_EVERY, ProgressCallback
from pipscover.counting.region_states import FAIL, RegionRules
from pipscover.counting.search import STOPS, check_search, stopped
from pipscover.counting.tilings import TilingCounter, arrangements, longer_side_order
from pipscover.model import Puzzle
from pipscover.model.results import CountInterrupted, Distinct
from pipscover.regions import pip_values
from pipscover.runtime.cores import compiled_by_default, load_core
from pipscover.runtime.limits import TooBig

# The Python sweeps are about 180 times slower (planted 4 x 4, no-unique-10, planted 2 x 12: 178-194x).
_core = load_core("pipscover.counting._inclusion_exclusion", "the Python sweeps (about 180 times slower)")

MODULUS_BITS = 128
# The most points (prod (m_t + 1)) it takes on: 2^17 sweeps of a graph of a million edges are minutes in C.
POINTS_LIMIT = 1 << 17
# Layings the build may meet (planted 6 x 6: 2.8 million, merged into 650,795 edges; the build's dicts then
# held 449 MB, so the memory cap stops a build well before this refuses it).
LAYINGS_LIMIT = 20_000_000
CHECK_EVERY = 4096  # states built between two looks at the clock and the memory
COMPILED_CHECK_EVERY = 16  # points the core sweeps between two looks at the clock (about a millisecond each)


@dataclass(frozen=True)
class Sweep:
    """The frontier sweep's graph, states in sweep order (0 the empty board, `final` the covered one). The
    edges into state s are `first[s]` to `first[s + 1]`, from `sources[e]`, weighted by the form
    `edge_forms[e]`; a form is the (type, times) pairs of the dominoes that take that step, so its weight at a
    point is sum(times * k_type)."""

    copies: tuple[int, ...]
    forms: tuple[tuple[tuple[int, int], ...], ...]
    first: array
    sources: array
    edge_forms: array
    final: int



def points_of(puzzle: Puzzle) -> int:
    """How many sweeps the count takes: prod (m_t + 1) over the distinct dominoes."""
    return _points_count(puzzle.domino_counts.values())


def _points_count(copies: Iterable[int]) -> int:
    return prod(number + 1 for number in copies)


def build_sweep(puzzle: Puzzle, deadline: float | None = None, memory_cap: int | None = None) -> Sweep:
    """The graph of the sweep along the board's longer side: a state is the cells ahead already covered
    (within one line) and the regions' states; only states that reach the covered board are kept."""
    values = pip_values(puzzle.dominoes)
    index_of = {pip: index for index, pip in enumerate(values)}
    distinct = sorted(((index_of[a], index_of[b]), copies) for (a, b), copies in puzzle.domino_counts.items())
    layings = [(a, b, t) for t, ((a, b), _) in enumerate(distinct) for a, b in {(a, b), (b, a)}]
    cells = longer_side_order(puzzle.cells)
    place = {cell: index for index, cell in enumerate(cells)}
    rules = RegionRules(puzzle)
    steps = rules.steps
    region_of = [puzzle.region_index[cell] for cell in cells]
    later = [[place[other] for other in ((r, c + 1), (r + 1, c)) if other in place] for r, c in cells]
    start = (0, tuple(rules.initial_states()), tuple(rules.sizes))
    levels: list[dict[tuple, int]] = [{start: 0}]
    # Per level, the edges into each state of the next: (source, target) -> {type: times}.
    steps_between: list[dict[tuple[int, int], dict[int, int]]] = []
    laid = built = 0
    for cell in range(len(cells)):
        following: dict[tuple, int] = {}
        between: dict[tuple[int, int], dict[int, int]] = defaultdict(lambda: defaultdict(int))
        for (ahead, states, left), source in levels[-1].items():
            built += 1
            if built % CHECK_EVERY == 0:
                check_search(0, deadline, memory_cap, None)
            if ahead & 1:
                target = following.setdefault((ahead >> 1, states, left), len(following))
                between[source, target][-1] += 1  # the step that lays nothing: weight 1
                continue
            for other in later[cell]:
                if ahead >> (other - cell) & 1:
                    continue
                region, other_region = region_of[cell], region_of[other]
                for a, b, kind in layings:
                    now, rest = list(states), list(left)
                    state = steps[region](now[region], a, rest[region] - 1)
                    if state is FAIL:
                        continue
                    now[region], rest[region] = state, rest[region] - 1
                    state = steps[other_region](now[other_region], b, rest[other_region] - 1)
                    if state is FAIL:
                        continue
                    now[other_region], rest[other_region] = state, rest[other_region] - 1
                    key = ((ahead | 1 << (other - cell)) >> 1, tuple(now), tuple(rest))
                    target = following.setdefault(key, len(following))
                    between[source, target][kind] += 1
                    laid += 1
            if laid > LAYINGS_LIMIT:
                raise TooBig(f"{puzzle.describe()}: inclusion-exclusion: its sweep passes {LAYINGS_LIMIT:,} layings")
        levels.append(following)
        steps_between.append(between)
    return _pruned(levels, steps_between, tuple(copies for _, copies in distinct))


def _pruned(levels: list[dict[tuple, int]], steps_between: list[dict[tuple[int, int], dict[int, int]]],
            copies: tuple[int, ...]) -> Sweep:
    """The states that reach the covered board, numbered in sweep order, and their incoming edges."""
    alive = [set(level.values()) for level in levels]  # the last level: the covered board, or nothing
    for depth in range(len(steps_between) - 1, -1, -1):
        alive[depth] = {source for source, target in steps_between[depth] if target in alive[depth + 1]}
    number: list[dict[int, int]] = []
    counted = 0
    for states in alive:
        number.append({state: counted + i for i, state in enumerate(sorted(states))})
        counted += len(states)
    forms: dict[tuple[tuple[int, int], ...], int] = {}
    incoming: list[list[tuple[int, int]]] = [[] for _ in range(counted)]
    for depth, between in enumerate(steps_between):
        for (source, target), kinds in between.items():
            if source in number[depth] and target in number[depth + 1]:
                form = tuple(sorted(kinds.items()))
                incoming[number[depth + 1][target]].append((number[depth][source], forms.setdefault(form, len(forms))))
    first, sources, edge_forms = array("q", [0]), array("q"), array("q")
    for edges in incoming:
        for source, form_number in edges:
            sources.append(source)
            edge_forms.append(form_number)
        first.append(len(sources))
    final = counted - 1 if alive[-1] and alive[0] else -1
    return Sweep(copies, tuple(forms), first, sources, edge_forms, final)


def sweep_total(sweep: Sweep, deadline: float | None = None, compiled: bool | None = None,
                on_progress: ProgressCallback | None = None, chunk: range | None = None) -> int:
    """sum over the points k of prod_t (-1)^(m_t - k_t) C(m_t, k_t) P(k), modulo 2^128; `chunk`: only over the
    points it numbers (the first type fastest; default all), so that the chunks of a split count add up to the
    whole. `on_progress` hears the share of the chunk swept (with 0 found: no count is known before the last)."""
    points = range(_points_count(sweep.copies)) if chunk is None else chunk
    if sweep.final < 0 or not points:
        return 0
    if compiled is None:
        compiled = _core is not None and compiled_by_default()
    mask = (1 << MODULUS_BITS) - 1
    # signs[t][k]: (-1)^(m - k) C(m, k) for the type's m copies, modulo 2^128.
    signs = [[(-1) ** (m - k) * comb(m, k) & mask for k in range(m + 1)] for m in sweep.copies]
    reported = [time.monotonic()]

    def check(done: int) -> None:  # the clock and the progress, for the core as for the twin
        check_search(0, deadline, None, None)
        if on_progress is not None and time.monotonic() - reported[0] >= PROGRESS_EVERY:
            reported[0] = time.monotonic()
            on_progress(0, done / len(points))

    if compiled:
        halves = [half for row in signs for sign in row for half in (sign & (1 << 64) - 1, sign >> 64)]
        forms = [[number for pair in form for number in pair] for form in sweep.forms]
        low, high = _core.total(list(sweep.copies), halves, forms, sweep.first, sweep.sources,  # type: ignore[union-attr]  # compiled is only true with a core
                                sweep.edge_forms, sweep.final, check, COMPILED_CHECK_EVERY, points.start, points.stop)
        return int(high) << 64 | int(low)
    total = 0
    for done, point in enumerate(islice(_points(sweep.copies), points.start, points.stop)):
        check(done)
        weight = [sum(times * point[kind] if kind >= 0 else times for kind, times in form) for form in sweep.forms]
        values = [1] + [0] * sweep.final
        for state in range(1, sweep.final + 1):
            values[state] = sum(values[sweep.sources[e]] * weight[sweep.edge_forms[e]]
                                for e in range(sweep.first[state], sweep.first[state + 1])) & mask
        total = (total + prod(row[k] for row, k in zip(signs, point)) * values[sweep.final]) & mask
    return total


def _points(copies: tuple[int, ...]) -> Iterator[list[int]]:
    """Every k with 0 <= k_t <= copies_t, the first type fastest (as the core counts them)."""
    point = [0] * len(copies)
    while True:
        yield point
        for t, most in enumerate(copies):
            if point[t] < most:
                point[t] += 1
                break
            point[t] = 0
        else:
            return


@dataclass(frozen=True)
class Modulus:
    """How a sum modulo 2^128 gives one puzzle's count: divided by prod m_t! = 2^twos * odd, it is exact below
    2^(128 - twos) (`Modulus.of` checks the count's bound against that first)."""

    twos: int
    odd: int

    @classmethod
    def of(cls, puzzle: Puzzle) -> Modulus:
        """The puzzle's modulus; `TooBig` when its dominoes need more than `POINTS_LIMIT` sweeps or its count
        may pass what the sums hold exactly."""
        points = points_of(puzzle)
        if points > POINTS_LIMIT:
            raise TooBig(f"{puzzle.describe()}: inclusion-exclusion: its dominoes need {points:,} sweeps "
                         f"(at most {POINTS_LIMIT:,})")
        divisor = prod(factorial(copies) for copies in puzzle.domino_counts.values())
        twos = (divisor & -divisor).bit_length() - 1
        # Every solution is a tiling and an arrangement of the dominoes on its tiles: a bound on the count.
        bound = TilingCounter(puzzle.cells).count((1 << len(puzzle.cells)) - 1) * arrangements(
            [(copies, a == b) for (a, b), copies in puzzle.domino_counts.items()])
        if twos >= MODULUS_BITS or bound >= 1 << (MODULUS_BITS - twos):
            raise TooBig(f"{puzzle.describe()}: inclusion-exclusion: its count may pass "
                         f"2^{max(MODULUS_BITS - twos, 0)}, below which its sums modulo 2^128 are exact")
        return cls(twos, divisor >> twos)

    def count(self, total: int) -> int:
        """The count whose signed sum over all the points is `total` (modulo 2^128)."""
        exact_below = 1 << (MODULUS_BITS - self.twos)
        return (total % (1 << MODULUS_BITS) >> self.twos) * pow(self.odd, -1, exact_below) % exact_below


def count(puzzle: Puzzle, budget: Budget = UNLIMITED, compiled: bool | None = None) -> int:
    """The exact number of solutions (placements). Raises `TooBig` when the sweeps or the count are past
    what it takes on, `CountInterrupted` (nothing counted) at the deadline or the memory cap."""
    modulus = Modulus.of(puzzle)
    try:
        total = sweep_total(build_sweep(puzzle, budget.deadline, budget.memory), budget.deadline, compiled,
                            budget.on_progress)
    except STOPS as stop:
        raise CountInterrupted(replace(stopped(0, stop, Distinct.PLACEMENTS).result, method="inclusion-exclusion")) \
            from None
    return modulus.count(total)
