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
means c < m for another). Glynn's form takes the weights y_t = m_t - 2 j_t instead (j_t = 0..m_t):

    count = (1 / (2^n prod m_t!)) * sum over 0 <= j_t <= m_t of  prod_t (-1)^j_t C(m_t, j_t)  *  P(m - 2j)

(the sum over j of (-1)^j C(m, j) (m - 2j)^c is 2^m m! for c = m, 0 for c < m). Its points come in pairs,
j and m - j, whose weights are opposite: as P is homogeneous of degree n, P(-y) = (-1)^n P(y), and the two
signs differ by (-1)^n too, so the two terms are equal. With a type of odd m_t, the points whose j_t is
below m_t / 2 hold one of each pair, and half the sweeps give half the sum (`Points`). The sweep's graph is
built once (`Sweep`, the steps that lay nothing folded away; in C, `_sweep_graph.c`, with this module's
Python twin); each point is one pass over its edges. The sums run in residues modulo a few primes near 2^30
(cheap products: a weight is a small integer; the core sweeps eight points a pass), combined into the sum
modulo their product: the count is that sum divided by what it is the count times (no prime here divides
it), exact when its bound is below the primes' product; `count` checks the bound first (up to six primes,
about 2^180), and once the graph is built takes the fewest primes that the lower of that bound and the
graph's own (`graph_bound`) allows.
`encodings/counting.md` has the measurements.
"""

from __future__ import annotations

import time
import weakref
from array import array
from collections import defaultdict
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace
from functools import cached_property, lru_cache
from itertools import islice, product
from math import comb, factorial, prod
from types import ModuleType
from typing import NamedTuple

from pipscover.counting.budget import UNLIMITED, Budget
from pipscover.counting.progress import PROGRESS_EVERY, ProgressCallback
from pipscover.counting.region_states import FAIL, RegionRules
from pipscover.counting.search import STOPS, check_search, stopped
from pipscover.counting.sweep_order import pairs_filled, ranked
from pipscover.counting.tilings import arrangements, longer_side_order, tilings_at_most
from pipscover.model import Cell, Puzzle
from pipscover.model.geometry import neighbours
from pipscover.model.results import CountInterrupted, Distinct
from pipscover.regions import pip_values
from pipscover.runtime.cores import compiled_by_default, load_core
from pipscover.runtime.limits import MemoryCapReached, TooBig, check_memory

# The Python sweeps are about 180 times slower (planted 4 x 4, no-unique-10, planted 2 x 12: 178-194x).
_core = load_core("pipscover.counting._inclusion_exclusion", "the Python sweeps and build (about 180 times slower)")

# The lanes' moduli: primes 2^30 - c with c small, which the core reduces by folding (2^30 = c modulo the
# prime); a count takes the first few whose product passes its bound.
PRIMES = tuple((1 << 30) - c for c in (35, 41, 83, 101, 105, 107))
# The most points it takes on: no-unique-24's 2^23 (Glynn's form) of 69,715 edges took about 180 s of CPU in the
# core's passes of sixteen, in the order of the cells its build chose; planted 8 x 8's 22.4 million are past it.
POINTS_LIMIT = 1 << 24
# Layings the build may meet (planted 6 x 6: 2.8 million, merged into 650,795 edges; the Python build's dicts
# then held 449 MB, so the memory cap stops it well before this refuses it; the compiled build holds a tenth).
LAYINGS_LIMIT = 20_000_000
# The graph's states and edges are numbered by C ints (array "i": half the memory of 64-bit numbers, and
# less to read on every pass); the layings limit keeps real builds far below this.
INDEX_LIMIT = 2**31 - 1
# The orders of the cells whose graphs are built, of `sweep_order.ranked`'s: its estimate put the best of all
# sixteen among its first three on 26 of the counting benchmark's 31 puzzles that some order builds, and the
# first three's best within 1.07-1.8 times its edges on the other five (no-unique-12, -14, -16, planted 4 x 4,
# unique-30-nyt); each build past the first stops at twice the best layings so far.
ORDERS_TRIED = 3
AHEAD_BITS = 30  # the cells ahead a key's int holds (the core's keys: a line may be longer than one int)
CHECK_EVERY = 4096  # states built between two looks at the clock and the memory
COMPILED_CHECK_EVERY = 16  # points the core sweeps between two looks at the clock (one or two of its passes)


@dataclass(frozen=True)
class Points:
    """The points of the sum: per domino type (sorted as the sweep numbers them), the weights its digit takes
    and their signs; a point is one digit per type, the first type fastest. Ryser's form: weight k and sign
    (-1)^(m - k) C(m, k) for k = 0..m; Glynn's, `paired`: weight m - 2j and sign (-1)^j C(m, j), with the
    digits of one type of odd m (`half`) only below m / 2. `divisor` is what the sum is the count times
    (prod m_t!, and 2^(n - 1) more in Glynn's half sum); the sums run modulo the first `lanes` primes."""

    weights: tuple[tuple[int, ...], ...]
    signs: tuple[tuple[int, ...], ...]
    divisor: int
    lanes: int

    @classmethod
    def of(cls, copies: Sequence[int], paired: bool, lanes: int = len(PRIMES)) -> Points:
        """The points of Ryser's form, or of Glynn's half when `paired` (a type of `copies` must be odd), summed
        modulo the first `lanes` primes."""
        digits = _digits(copies, paired)
        if paired:
            weights = tuple(tuple(m - 2 * j for j in range(d)) for m, d in zip(copies, digits))
            signs = tuple(tuple((-1) ** j * comb(m, j) for j in range(d)) for m, d in zip(copies, digits))
        else:
            weights = tuple(tuple(range(m + 1)) for m in copies)
            signs = tuple(tuple((-1) ** (m - k) * comb(m, k) for k in range(m + 1)) for m in copies)
        divisor = prod(factorial(m) for m in copies) << (sum(copies) - 1 if paired else 0)
        return cls(weights, signs, divisor, lanes)

    @property
    def count(self) -> int:
        return prod(len(digits) for digits in self.weights)

    @property
    def primes(self) -> tuple[int, ...]:
        return PRIMES[:self.lanes]

    @property
    def modulus(self) -> int:
        """What the sum is known modulo: the lanes' primes' product. The count is known modulo it too (the
        divisor is a product of factorials of numbers far below 2^29, and a power of two, so no prime here
        divides it): exact when below it."""
        return prod(self.primes)

    def __iter__(self) -> Iterator[tuple[int, ...]]:
        """Every point as its digits, the first type fastest (as the core counts them)."""
        return (tuple(reversed(point)) for point in product(*(range(len(w)) for w in reversed(self.weights))))


@dataclass(frozen=True)
class Sweep:
    """The frontier sweep's graph, states in sweep order (0 the empty board, `final` the covered one; a
    state's sources come before it, from the line before or, where steps that lay nothing were folded away,
    earlier). The edges into state s are `first[s]` to `first[s + 1]`, from `sources[e]`, weighted by the form
    `edge_forms[e]`; a form is the (type, times) pairs of the dominoes that take that step, so its weight at a
    point is sum(times * weight of the type's digit); `points` are the points it is swept at."""

    points: Points
    forms: tuple[tuple[tuple[int, int], ...], ...]
    first: array
    sources: array
    edge_forms: array
    final: int


def points_of(puzzle: Puzzle) -> int:
    """How many sweeps the count takes: prod (m_t + 1) over the distinct dominoes, or half of it in Glynn's
    form. From the copies alone: neither the count's bound (a tiling count of the board, minutes on a wide
    one) nor the points' signs (a binomial per digit) are needed for it."""
    copies = copies_of(puzzle)
    return prod(_digits(copies, paired(copies)))


def _digits(copies: Sequence[int], paired: bool) -> list[int]:
    """How many digits each type's place of a point takes: m + 1, or about half for the type Glynn's half
    sum halves (the last of odd copies)."""
    half = max(t for t, m in enumerate(copies) if m % 2) if paired else -1
    return [(m + 1) // 2 if t == half else m + 1 for t, m in enumerate(copies)]


def points_for(puzzle: Puzzle) -> Points:
    """The puzzle's points: Glynn's half when a type has odd copies, else Ryser's, with the fewest primes whose
    product passes the count's bound before the build (all of them when none does: `Modulus.of` then refuses;
    `with_fewest_primes` may take fewer once the graph is built)."""
    copies = copies_of(puzzle)
    return Points.of(copies, paired(copies), _lanes_above(_bound(puzzle)))


def paired(copies: Sequence[int]) -> bool:
    """Whether the count takes Glynn's half sum: a type has odd copies."""
    return any(m % 2 for m in copies)


def _lanes_above(bound: int) -> int:
    """The fewest primes whose product passes `bound` (all of them when none does)."""
    return next((lanes for lanes in range(1, len(PRIMES)) if prod(PRIMES[:lanes]) > bound), len(PRIMES))


def copies_of(puzzle: Puzzle) -> list[int]:
    """The copies of each domino type, in the order of the points' types (and of the sweep's forms)."""
    return [copies for _, copies in _distinct(puzzle)]


@lru_cache(maxsize=64)
def _bound(puzzle: Puzzle) -> int:
    """Every solution is a tiling and an arrangement of the dominoes on its tiles: a bound on the count, known
    before the build (remembered: `points_for` and `Modulus.of` both ask)."""
    return tilings_at_most(puzzle.cells) * arrangements(
        [(copies, a == b) for (a, b), copies in puzzle.domino_counts.items()])


def _distinct(puzzle: Puzzle) -> list[tuple[tuple[int, int], int]]:
    """The distinct dominoes as pairs of pip indices with their copies, in the order of the points' types."""
    index_of = {pip: index for index, pip in enumerate(pip_values(puzzle.dominoes))}
    return sorted(((index_of[a], index_of[b]), copies) for (a, b), copies in puzzle.domino_counts.items())


def build_sweep(puzzle: Puzzle, deadline: float | None = None, memory_cap: int | None = None,
                compiled: bool | None = None, order: Sequence[Cell] | None = None) -> Sweep:
    """The graph of the sweep over the cells in `order` (by default, of the first `ORDERS_TRIED` orders
    `sweep_order.ranked` gives and the one along the longer side, the one whose graph has the fewest edges):
    a state is the cells ahead already covered (within one line of the order) and the regions' states; only
    states that reach the covered board are kept. Built by the compiled core (its `_sweep_graph.c`) unless
    `compiled` is false or it is not built, else by its Python twin: the same graph."""
    return _best_built(puzzle, deadline, memory_cap, compiled, order, keys=False).sweep


def build_keyed_sweep(puzzle: Puzzle, deadline: float | None = None, memory_cap: int | None = None,
                      compiled: bool | None = None, order: Sequence[Cell] | None = None) -> BuiltSweep:
    """`build_sweep`'s graph (the same one), with its states' keys (`BuiltSweep`)."""
    return _best_built(puzzle, deadline, memory_cap, compiled, order, keys=True)


class BuiltSweep(NamedTuple):
    """One order's build: its graph, the layings it met, the board and the regions' step tables it was built
    over, and, when asked, what its paths are read back by (`sweep_sample.py`): each kept state's line and
    key, `1 + board.words + regions` ints a state in `keys` (the line; the cells ahead covered, `AHEAD_BITS`
    to an int; each region's pair of its step table)."""

    sweep: Sweep
    laid: int
    board: _Board
    tables: list[list[int]]
    keys: array


def _best_built(puzzle: Puzzle, deadline: float | None, memory_cap: int | None, compiled: bool | None,
                order: Sequence[Cell] | None, keys: bool) -> BuiltSweep:
    """`build_sweep`'s build over `order`, or its choice of order."""
    core = _core if _compiled(compiled) else None
    rules = RegionRules(puzzle)
    pips = len(pip_values(puzzle.dominoes))
    tables = _step_tables(rules, pips)
    if order is not None:
        return _built(puzzle, _Board.of(puzzle, order, rules), tables, core, deadline, memory_cap, LAYINGS_LIMIT, keys)
    pairs = [pairs_filled(table, pips, size) for table, size in zip(tables, rules.sizes)]
    best: BuiltSweep | None = None
    refused: TooBig | MemoryCapReached | None = None
    tried = ranked(puzzle.cells, puzzle.region_index, pairs)[:ORDERS_TRIED]
    longer = longer_side_order(puzzle.cells)  # the only order before: tried too, so that few graphs grow
    for cells in tried if longer in tried else [*tried, longer]:
        # An order whose build passes twice the best's layings is not kept: its graph would hardly be smaller.
        limit = LAYINGS_LIMIT if best is None else min(LAYINGS_LIMIT, 2 * best.laid)
        try:
            made = _built(puzzle, _Board.of(puzzle, cells, rules), tables, core, deadline, memory_cap, limit, keys)
        except (TooBig, MemoryCapReached) as refusal:
            # One order refused (its build frees what it held) leaves the graph in hand and the other orders,
            # whose graphs may be smaller: planted 6 x 8 under 230 MiB built two orders, and the third's
            # refusal ended the count.
            refused = refused or refusal
            continue
        if best is None or len(made.sweep.sources) < len(best.sweep.sources):
            best = made
    if best is None:
        assert refused is not None  # every order was built with the whole limit, and each refused
        raise refused
    return best


def _built(puzzle: Puzzle, board: _Board, tables: list[list[int]], core: ModuleType | None, deadline: float | None,
           memory_cap: int | None, layings_limit: int, keys: bool) -> BuiltSweep:
    """The graph over the board's order and the layings its build met, by the core or (without one) the twin;
    `TooBig` past `layings_limit` or the indices."""
    if core is None:
        return _built_here(puzzle, board, tables, deadline, memory_cap, layings_limit, keys)
    made = core.build(
        board.region_of, [[other - cell for other in others] for cell, others in enumerate(board.later)],
        tables, len(pip_values(puzzle.dominoes)), board.kinds, _flat(board.partners),
        lambda upcoming: check_search(0, deadline, None if memory_cap is None else memory_cap - upcoming, None),
        CHECK_EVERY, layings_limit, INDEX_LIMIT, keys)
    if made == core.TOO_MANY_LAYINGS:
        raise _too_many_layings(puzzle, layings_limit)
    if made == core.TOO_MANY_INDICES:
        raise _too_many_indices(puzzle)
    forms, first, sources, edge_forms, final, laid, *keyed = made
    sweep = Sweep(points_for(puzzle), forms, array("i", first), array("i", sources), array("i", edge_forms), final)
    return BuiltSweep(sweep, laid, board, tables, array("i", keyed[0] if keyed else b""))


@dataclass(frozen=True)
class _Board:
    """What both builds start from: the board's cells in sweep order (`region_of` each, and the `later` cells
    a domino from it reaches: its neighbours later in the order, at most two), the region rules, and the
    layings (`partners`: pip a -> (pip b, type) of each domino type that puts a there and b on the next cell,
    of `kinds` types)."""

    cells: list[Cell]
    region_of: list[int]
    later: list[list[int]]
    rules: RegionRules
    partners: dict[int, list[tuple[int, int]]]
    kinds: int

    @classmethod
    def of(cls, puzzle: Puzzle, cells: Sequence[Cell], rules: RegionRules) -> _Board:
        distinct = _distinct(puzzle)
        partners: dict[int, list[tuple[int, int]]] = defaultdict(list)
        for t, ((a, b), _) in enumerate(distinct):
            for first, second in {(a, b), (b, a)}:
                partners[first].append((second, t))
        place = {cell: index for index, cell in enumerate(cells)}
        # Right and left of a cell before below and above: along the longer side, right then below, as before
        # the orders were several (the same graphs to the bit).
        later = [[place[other] for other in reversed(neighbours(cell)) if place.get(other, -1) > index]
                 for index, cell in enumerate(cells)]
        return cls(list(cells), [puzzle.region_index[cell] for cell in cells], later, rules, dict(partners),
                   len(distinct))

    @cached_property
    def orientations(self) -> list[list[tuple[int, int]]]:
        """Each type's layings as (pip here, pip on the next cell): one for a double, two for any other."""
        made: list[list[tuple[int, int]]] = [[] for _ in range(self.kinds)]
        for a, seconds in self.partners.items():
            for b, kind in seconds:
                made[kind].append((a, b))
        return made

    @cached_property
    def words(self) -> int:
        """The ints of a state's key that hold the cells ahead, `AHEAD_BITS` to an int, as the core keys them."""
        return max(((other - cell) // AHEAD_BITS + 1 for cell, others in enumerate(self.later) for other in others),
                   default=1)


def _flat(partners: dict[int, list[tuple[int, int]]]) -> list[int]:
    """The layings as the core reads them: per first pip (in the twin's order), how many second pips, then
    each second pip and its type."""
    return [number for a, seconds in partners.items() for number in (a, len(seconds), *sum(seconds, ()))]


def _step_tables(rules: RegionRules, pips: int) -> list[list[int]]:
    """Each region's step as a table for the core: its (cells left, state) pairs numbered as met from the empty
    region's (pair 0), and at pair * pips + pip the pair that pip leads to, -1 where the rule fails (as the
    twin keys a state by its `states` and `left` tuples, the core keys it by these pairs)."""
    return [table for _, table in _region_pairs(rules, pips)]


def _region_pairs(rules: RegionRules, pips: int) -> list[tuple[dict[tuple[int, int], int], list[int]]]:
    """Each region's (cells left, state) pairs with their numbers, and its step table (`_step_tables`)."""
    made = []
    for step, size, initial in zip(rules.steps, rules.sizes, rules.initial_states()):
        order = [(size, initial)]
        number = {order[0]: 0}
        table: list[int] = []
        for left, state in order:  # grows as new pairs are met
            for pip in range(pips):
                after = step(state, pip, left - 1) if left else FAIL
                if after is FAIL:
                    table.append(-1)
                    continue
                if (left - 1, after) not in number:
                    number[left - 1, after] = len(order)
                    order.append((left - 1, after))
                table.append(number[left - 1, after])
        made.append((number, table))
    return made


def _too_many_layings(puzzle: Puzzle, limit: int) -> TooBig:
    return TooBig(f"{puzzle.describe()}: inclusion-exclusion: its sweep passes {limit:,} layings")


def _too_many_indices(puzzle: Puzzle) -> TooBig:
    return TooBig(f"{puzzle.describe()}: inclusion-exclusion: its sweep has more than {INDEX_LIMIT:,} states or "
                  "edges")


def _built_here(puzzle: Puzzle, board: _Board, tables: list[list[int]], deadline: float | None,
                memory_cap: int | None, layings_limit: int, keys: bool) -> BuiltSweep:
    """The Python twin of the core's build: the states line by line (cell by cell), then `_pruned`; and the
    layings it met."""
    rules = board.rules
    steps, region_of, later = rules.steps, board.region_of, board.later
    start = (0, tuple(rules.initial_states()), tuple(rules.sizes))
    levels: list[dict[tuple, int]] = [{start: 0}]
    # Per level, the edges into each state of the next: (source, target) -> {type: times}.
    steps_between: list[dict[tuple[int, int], dict[int, int]]] = []
    laid = built = 0
    for cell in range(len(region_of)):
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
                laid += _lay(steps, region_of[cell], region_of[other], (ahead | 1 << (other - cell)) >> 1, states,
                             left, board.partners, following, between, source)
            if laid > layings_limit:
                raise _too_many_layings(puzzle, layings_limit)
        levels.append(following)
        steps_between.append(between)
    if max(sum(map(len, levels)), sum(map(len, steps_between))) > INDEX_LIMIT:
        raise _too_many_indices(puzzle)
    sweep, kept = _pruned(levels, steps_between, points_for(puzzle))
    made = _keys_of(kept, levels, board, len(pip_values(puzzle.dominoes))) if keys else array("i")
    return BuiltSweep(sweep, laid, board, tables, made)


def _keys_of(kept: list[tuple[int, int]], levels: list[dict[tuple, int]], board: _Board, pips: int) -> array:
    """The twin's kept states (each its line and its number there) keyed as the core keys them (`BuiltSweep`)."""
    numbers = [number for number, _ in _region_pairs(board.rules, pips)]
    by_number = [{number: key for key, number in level.items()} for level in levels]
    words, mask = board.words, (1 << AHEAD_BITS) - 1
    keys = array("i")
    for line, state in kept:
        ahead, states, left = by_number[line][state]
        keys.append(line)
        keys.extend(ahead >> (AHEAD_BITS * word) & mask for word in range(words))
        keys.extend(number[size, state] for number, state, size in zip(numbers, states, left))
    return keys


def _lay(steps: list, region: int, other_region: int, ahead: int, states: tuple, left: tuple,
         partners: dict[int, list[tuple[int, int]]], following: dict[tuple, int],
         between: dict[tuple[int, int], dict[int, int]], source: int) -> int:
    """The edges from `source` that lay a domino on a cell of `region` and the next cell, of `other_region`
    (the states ahead `ahead` after it), into `following` and `between`; how many layings. The first pip's step
    is taken once for all the dominoes that put it there."""
    laid = 0
    for a, seconds in partners.items():
        state = steps[region](states[region], a, left[region] - 1)
        if state is FAIL:
            continue
        now, rest = list(states), list(left)
        now[region], rest[region] = state, rest[region] - 1
        prior, remaining = now[other_region], rest[other_region] - 1
        rest[other_region] = remaining
        rest_key = tuple(rest)
        for b, kind in seconds:
            state = steps[other_region](prior, b, remaining)
            if state is FAIL:
                continue
            now[other_region] = state
            target = following.setdefault((ahead, tuple(now), rest_key), len(following))
            between[source, target][kind] += 1
            laid += 1
    return laid


def _pruned(levels: list[dict[tuple, int]], steps_between: list[dict[tuple[int, int], dict[int, int]]],
            points: Points) -> tuple[Sweep, list[tuple[int, int]]]:
    """The states that reach the covered board, numbered in sweep order, and their incoming edges, with the
    steps that lay nothing folded away (`_skips_folded`); and the states kept, each as its line and its number
    there."""
    alive = [set(level.values()) for level in levels]  # the last level: the covered board, or nothing
    for depth in range(len(steps_between) - 1, -1, -1):
        alive[depth] = {source for source, target in steps_between[depth] if target in alive[depth + 1]}
    number: list[dict[int, int]] = []
    line_of: list[tuple[int, int]] = []
    for depth, states in enumerate(alive):
        number.append({state: len(line_of) + i for i, state in enumerate(sorted(states))})
        line_of.extend((depth, state) for state in sorted(states))
    counted = len(line_of)
    incoming: list[dict[int, dict[int, int]]] = [{} for _ in range(counted)]
    for depth, between in enumerate(steps_between):
        for (source, target), kinds in between.items():
            if source in number[depth] and target in number[depth + 1]:
                incoming[number[depth + 1][target]][number[depth][source]] = kinds
    kept = [state for state, folded in enumerate(_skips_folded(incoming)) if not folded]
    renumber = {state: new for new, state in enumerate(kept)}
    forms: dict[tuple[tuple[int, int], ...], int] = {}
    first, sources, edge_forms = array("i", [0]), array("i"), array("i")
    for state in kept:
        for source, kinds in incoming[state].items():
            sources.append(renumber[source])
            edge_forms.append(forms.setdefault(tuple(sorted(kinds.items())), len(forms)))
        first.append(len(sources))
    final = len(kept) - 1 if alive[-1] and alive[0] else -1
    return Sweep(points, tuple(forms), first, sources, edge_forms, final), [line_of[state] for state in kept]


def _skips_folded(incoming: list[dict[int, dict[int, int]]]) -> list[bool]:
    """Folds each step that lays nothing (weight 1) into the state it leads to, in place, and says which states
    went: a state whose only way on is that step (its cell is covered already) has the value of its incoming
    edges, so its target takes those edges instead (their forms added where a source already leads there; a
    form's weight is linear in the types' weights). The sums stay the same to the bit; no-unique-22 loses half
    of its states and 18% of its edges, each of which cost every point a product (encodings/counting.md)."""
    leaving = [0] * len(incoming)
    for edges in incoming:
        for source in edges:
            leaving[source] += 1
    folded = [False] * len(incoming)
    for edges in incoming:  # in sweep order: a state's own incoming edges are folded before it is
        for state in [source for source, kinds in edges.items() if kinds == {-1: 1} and leaving[source] == 1
                      and incoming[source]]:  # (not state 0: its value 1 is no sum of edges)
            del edges[state]
            for source, kinds in incoming[state].items():
                merged = dict(edges.get(source, {}))
                for kind, times in kinds.items():
                    merged[kind] = merged.get(kind, 0) + times
                edges[source] = merged
            folded[state] = True
    return folded


def sweep_total(sweep: Sweep, deadline: float | None = None, compiled: bool | None = None,
                on_progress: ProgressCallback | None = None, chunk: range | None = None,
                vectors: int = 512, memory_cap: int | None = None) -> int:
    """sum over the sweep's points of their signs' product times P(point's weights), modulo the points'
    `modulus` (its residues modulo each prime, combined); `chunk`: only over the points it numbers (the
    first type fastest; default all), so that the chunks of a split count add up to the whole. `on_progress`
    hears the share of the chunk swept (with 0 found: no count is known before the last). `vectors`: the
    widest registers the core's passes may take, where the processor has them: 512 (AVX-512, sixteen points a
    pass), 256 (AVX2, eight) or 0 (its plain loop; the tests compare all three). `MemoryCapReached` when the
    process holds more than `memory_cap` bytes (at the start, then a few times a second)."""
    return sweep_totals(sweep, 1, deadline, compiled, on_progress, chunk, vectors, memory_cap)[0]


def sweep_totals(sweep: Sweep, outputs: int, deadline: float | None = None, compiled: bool | None = None,
                 on_progress: ProgressCallback | None = None, chunk: range | None = None,
                 vectors: int = 512, memory_cap: int | None = None) -> list[int]:
    """`sweep_total`'s sum taken at each of the graph's last `outputs` states (the covered board is the last),
    in their order, in one sweep: a sample's choices, each a state of its own (`sweep_sample.py`)."""
    points = range(sweep.points.count) if chunk is None else chunk
    if sweep.final < 0 or not points:
        return [0] * outputs
    primes = sweep.points.primes
    check = _checker(deadline, on_progress, len(points), memory_cap)
    if _compiled(compiled):
        totals = _core.total(*_core_points(sweep),  # type: ignore[union-attr]  # _compiled is only true with a core
                             _ordered_graph(sweep, outputs), check, COMPILED_CHECK_EVERY, points.start, points.stop,
                             vectors)
        return _combined_each(totals, primes)
    totals = [[0] * len(primes) for _ in range(outputs)]
    weights, signs = sweep.points.weights, sweep.points.signs
    for done, point in enumerate(islice(sweep.points, points.start, points.stop)):
        check(done)
        values = _values_at(sweep, [row[digit] for row, digit in zip(weights, point)])[-outputs:]
        sign = prod(row[digit] for row, digit in zip(signs, point))
        totals = [[(total + sign * value) % prime for total, prime in zip(sums, primes)]
                  for sums, value in zip(totals, values)]
    return [_combined(sums, primes) for sums in totals]


class EdgeLayings(NamedTuple):
    """The layings each edge of a sweep's graph makes, as `laying_totals` takes them (arrays "i"): the edges
    that make the same layings share a group (`edge_groups[e]`, -1 for a step that lays nothing), whose layings
    are `group_layings[group_start[g]:group_start[g + 1]]`, laying k of type `kinds[k]`. The groups are few
    (planted 6 x 6: 1,248 for its 153,161 edges that lay), so the core adds an edge's terms to its group's sums,
    once an edge, and brings in each laying's type once a group and batch of points."""

    edge_groups: array
    group_start: array
    group_layings: array
    kinds: array

    def made_by(self, edge: int) -> array:
        """The layings that `edge` makes."""
        group = self.edge_groups[edge]
        return self.group_layings[self.group_start[group]:self.group_start[group + 1]] if group >= 0 else array("i")


def laying_totals(sweep: Sweep, layings: EdgeLayings, deadline: float | None = None,
                  compiled: bool | None = None, on_progress: ProgressCallback | None = None, vectors: int = 512,
                  memory_cap: int | None = None, chunk: range | None = None) -> list[int]:
    """For each laying (a domino of type `layings.kinds[k]` on two cells), the sum over the points of the terms
    of the paths that lay it, modulo the primes' product: each term is the point's sign times F(the edge's
    source) times the type's weight times B(its target), for each edge that makes the laying (F the sweep's
    values, the ways to a state; B the reversed graph's, the ways on from it). Taken as a count's sum
    (`Modulus`), the laying's solutions: per-cell marginals (`sweep_marginals.py`). `on_progress` hears the
    share of the points done (with 0 found); `vectors`: the widest registers the core may take where the
    processor has them, 512 (AVX-512), 256 (AVX2) or 0 (its plain loops; the tests compare all three).
    `chunk`: only over the points it numbers (default all), so that a split's chunks add up to the whole."""
    points = range(sweep.points.count) if chunk is None else chunk
    if sweep.final < 1 or not layings.kinds or not points:
        return [0] * len(layings.kinds)
    turned = reversed_sweep(sweep)
    check = _checker(deadline, on_progress, len(points), memory_cap)
    if _compiled(compiled):
        made = _core.through(*_core_points(sweep),  # type: ignore[union-attr]  # _compiled is only true with a core
                             sweep.first, sweep.sources, sweep.edge_forms, turned.first, turned.sources,
                             turned.edge_forms, sweep.final, *layings, check, COMPILED_CHECK_EVERY, points.start,
                             points.stop, vectors)
        return _combined_each(array("Q", made), sweep.points.primes)
    totals = [0] * len(layings.kinds)
    for done, point in enumerate(islice(sweep.points, points.start, points.stop)):
        check(done)
        weights = [row[digit] for row, digit in zip(sweep.points.weights, point)]
        sign = prod(row[digit] for row, digit in zip(sweep.points.signs, point))
        ways_to, ways_on = _values_at(sweep, weights), _values_at(turned, weights)
        for state in range(1, sweep.final + 1):
            for e in range(sweep.first[state], sweep.first[state + 1]):
                through = sign * ways_to[sweep.sources[e]] * ways_on[sweep.final - state]
                for k in layings.made_by(e):
                    totals[k] += through * weights[layings.kinds[k]]
    return [total % sweep.points.modulus for total in totals]


def _compiled(asked: bool | None) -> bool:
    """Whether the sums run in the core: when asked, or by default where it is built."""
    return bool(asked) or (asked is None and _core is not None and compiled_by_default())


def _core_points(sweep: Sweep) -> tuple[list[int], list[int], list[int], list[int], list[list[int]]]:
    """The sweep's points and forms as the core's `total` and `through` take them: the digits per type, their
    weights and their signs' residues in each lane, the primes, the forms flat."""
    primes = sweep.points.primes
    return ([len(row) for row in sweep.points.weights], [weight for row in sweep.points.weights for weight in row],
            [sign % prime for row in sweep.points.signs for sign in row for prime in primes], list(primes),
            [[number for pair in form for number in pair] for form in sweep.forms])


def _checker(deadline: float | None, on_progress: ProgressCallback | None, points: int,
             memory_cap: int | None = None) -> Callable[[int], None]:
    """What the sweeps call every few points (`done` of `points`): the clock; the progress (nothing found before
    the last point) and the memory held against `memory_cap` a few times a second (the sweeps allocate nothing,
    but a process past its cap when they start, a build's freed heap not given back, sat there for a sample's
    whole run), for the core as for the twin."""
    reported = [time.monotonic()]

    def check(done: int) -> None:
        check_search(0, deadline, None, None)
        if time.monotonic() - reported[0] >= PROGRESS_EVERY:
            reported[0] = time.monotonic()
            check_memory(memory_cap)
            if on_progress is not None:
                on_progress(0, done / points)

    check_memory(memory_cap)
    return check


def _combined_each(residues: Sequence[int], primes: Sequence[int]) -> list[int]:
    """The core's residues, sum after sum (a lane each), each combined modulo the primes' product."""
    lanes = len(primes)
    return [_combined(residues[lanes * at:lanes * (at + 1)], primes) for at in range(len(residues) // lanes)]


def reversed_sweep(sweep: Sweep) -> Sweep:
    """The graph with its edges turned round and state s numbered final - s (so that sources still come
    first): its values are the ways on from each state to the covered board. Made in arrays, each edge put in
    its place by its source's count of edges out (a list of tuples per state held 12 times the graph's bytes:
    planted 6 x 8's 2.3 million edges, about 200 MB)."""
    final, edges = sweep.final, len(sweep.sources)
    first = array("i", bytes(4 * (final + 2)))
    for source in sweep.sources:
        first[final - source + 1] += 1
    for state in range(final + 1):
        first[state + 1] += first[state]
    placed = array("i", first)
    sources, edge_forms = array("i", bytes(4 * edges)), array("i", bytes(4 * edges))
    for state in range(1, final + 1):
        for e in range(sweep.first[state], sweep.first[state + 1]):
            turned = final - sweep.sources[e]
            sources[placed[turned]], edge_forms[placed[turned]] = final - state, sweep.edge_forms[e]
            placed[turned] += 1
    return Sweep(sweep.points, sweep.forms, first, sources, edge_forms, final)


class _Ordered(NamedTuple):
    """The core's copy of a graph in its passes' order, and weak references to the arrays it was made from."""

    arrays: tuple[weakref.ref, ...]
    outputs: int
    graph: object


_last_ordered: list[_Ordered] = []  # the last graph's, while its arrays live


def _ordered_graph(sweep: Sweep, outputs: int) -> object:
    """The core's copy of the sweep's graph in its passes' order (its last `outputs` states last), made once
    for the graph and kept (only the last, and only while its arrays live): a split count's worker sweeps one
    graph chunk after chunk, and the renumbering took 8 ms a chunk on planted 6 x 6, 51 ms on 6 x 8."""
    arrays = (sweep.first, sweep.sources, sweep.edge_forms)
    for kept in _last_ordered[:]:  # a copy: another thread may replace it meanwhile
        if kept.outputs == outputs and all(ref() is part for ref, part in zip(kept.arrays, arrays)):
            return kept.graph

    def forget(dead: weakref.ref) -> None:
        if _last_ordered and dead in _last_ordered[0].arrays:
            _last_ordered.clear()

    graph = _core.ordered(*arrays, sweep.final, outputs)  # type: ignore[union-attr]  # only called with a core
    _last_ordered[:] = [_Ordered(tuple(weakref.ref(part, forget) for part in arrays), outputs, graph)]
    return graph


def polynomial_at(sweep: Sweep, weights: Sequence[int]) -> int:
    """P at one point, exactly (Python's integers): each domino type weighted by `weights`, the sum over the
    graph's paths from the empty board to the covered one of their edges' weights' product (`graph_bound`'s)."""
    return _values_at(sweep, weights)[-1] if sweep.final >= 0 else 0


def _values_at(sweep: Sweep, weights: Sequence[int]) -> list[int]:
    """Every state's value at one point, exactly: the sum over the paths from the empty board to it of their
    edges' weights' product (the Python sweep)."""
    weight = [sum(times * (weights[kind] if kind >= 0 else 1) for kind, times in form) for form in sweep.forms]
    first, sources, edge_forms = sweep.first, sweep.sources, sweep.edge_forms
    values = [1] + [0] * sweep.final
    for state in range(1, sweep.final + 1):
        values[state] = sum(values[sources[e]] * weight[edge_forms[e]] for e in range(first[state], first[state + 1]))
    return values


def graph_bound(puzzle: Puzzle, sweep: Sweep) -> int:
    """A bound on the count from the puzzle's built graph: P(m) / prod m_t^m_t, rounded down (m_t the copies
    of type t). Every coefficient of P is a number of labellings, so none is negative, and the count, P's
    coefficient c_m of prod x_t^m_t, has c_m * prod m_t^m_t <= the sum over all a of c_a * prod m_t^a_t = P(m).
    One exact sweep; on loose boards of distinct dominoes it is 2^10 below `_bound` (no-unique-22: 2^83
    against 2^94), on planted boards, whose regions leave the dominoes' choice wide, above it
    (encodings/counting.md)."""
    copies = copies_of(puzzle)
    return polynomial_at(sweep, copies) // prod(m**m for m in copies)


def with_fewest_primes(puzzle: Puzzle, sweep: Sweep) -> Sweep:
    """The puzzle's sweep summed modulo the fewest primes whose product passes the lower of its two bounds
    (`_bound`, `graph_bound`): fewer lanes, less work a point. Its count's modulus is then its points'
    (`Modulus.of_points`)."""
    lanes = _lanes_above(min(_bound(puzzle), graph_bound(puzzle, sweep)))
    return replace(sweep, points=replace(sweep.points, lanes=lanes))


def _combined(residues: Sequence[int], moduli: Sequence[int]) -> int:
    """The number modulo prod(moduli) with these residues (Chinese remainders: the moduli are coprime)."""
    whole = prod(moduli)
    return sum(residue * (whole // modulus) * pow(whole // modulus, -1, modulus)
               for residue, modulus in zip(residues, moduli)) % whole


@dataclass(frozen=True)
class Modulus:
    """How a sum modulo the primes' product gives one puzzle's count: the sum is the count times `divisor`,
    which no prime here divides, so the count is the sum times the divisor's inverse modulo each prime;
    exact below the primes' product (`Modulus.of` checks the count's bound against that first)."""

    divisor: int
    lanes: int

    @classmethod
    def of(cls, puzzle: Puzzle) -> Modulus:
        """The puzzle's modulus; `TooBig` when its dominoes need more than `POINTS_LIMIT` sweeps or its count
        may pass what the sums hold exactly. The sweeps are counted first: the bound is a tiling count of the
        board, which took minutes on a wide board of a few hundred distinct dominoes, only to be refused."""
        sweeps = points_of(puzzle)
        if sweeps > POINTS_LIMIT:
            raise TooBig(f"{puzzle.describe()}: inclusion-exclusion: its dominoes need {sweeps:,} sweeps "
                         f"(at most {POINTS_LIMIT:,})")
        points = points_for(puzzle)
        if _bound(puzzle) >= points.modulus:
            raise TooBig(f"{puzzle.describe()}: inclusion-exclusion: its count may pass "
                         f"2^{points.modulus.bit_length() - 1}, below which its sums' residues give it exactly")
        return cls.of_points(points)

    @classmethod
    def of_points(cls, points: Points) -> Modulus:
        """The modulus of sums over `points` (whatever the count's bound)."""
        return cls(points.divisor, points.lanes)

    def count(self, total: int) -> int:
        """The count whose signed sum over all the points is `total` (modulo the primes' product)."""
        primes = PRIMES[:self.lanes]
        return _combined([total * pow(self.divisor, -1, prime) % prime for prime in primes], primes)


def count(puzzle: Puzzle, budget: Budget = UNLIMITED, compiled: bool | None = None) -> int:
    """The exact number of solutions (placements). Raises `TooBig` when the sweeps or the count are past
    what it takes on, `CountInterrupted` (nothing counted) at the deadline or the memory cap."""
    Modulus.of(puzzle)  # what it refuses, it refuses before the build
    try:
        sweep = with_fewest_primes(puzzle, build_sweep(puzzle, budget.deadline, budget.memory))
        total = sweep_total(sweep, budget.deadline, compiled, budget.on_progress, memory_cap=budget.memory)
    except STOPS as stop:
        raise CountInterrupted(replace(stopped(0, stop, Distinct.PLACEMENTS).result, method="inclusion-exclusion")) \
            from None
    return Modulus.of_points(sweep.points).count(total)
