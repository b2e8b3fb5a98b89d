"""Uniform samples by inclusion-exclusion: a path of the sweep's graph drawn backwards, each step weighted by
its exact count of ways back to the empty board.

`inclusion_exclusion.py` counts the solutions as the coefficient of prod x_t^m_t in P(x), the sum over the
graph's paths from the empty board to the covered one. Write F_s(x) for the same sum over the paths to a state
s, and r for the dominoes a path to s must still use (m less what the path on from s lays). The paths through
s's incoming edge e, of form {t: times}, number times * [x^(r - e_t)] F_src(x); F_src is homogeneous of degree
|r| - 1 (every path to a state covers the same cells), so x_t F_src has degree |r| and its coefficient of x^r
is inclusion-exclusion's sum over r's points (Ryser's or Glynn's, as for a count), with the point's weight of
t as one more factor (a step that lays nothing: none). One sweep over the states that lead to a choice's
source, with one extra state per choice and s itself last (`sweep_totals`), gives every choice's count and s's
own; the choice is drawn with probability its count over s's (`randrange` on exact integers, the counts
checked to add up to s's own and to the count the step before drew), and the walk goes on from its source with
r less its domino, until the empty board. A path is then drawn with probability 1 / count: uniform. Each step
sweeps over r's points, prod (r_t + 1), which shrink by a factor r_t / (r_t + 1) with every domino laid, and
over fewer states with each step back, so a draw costs a few counts' sweeps, on every puzzle that inclusion-
exclusion counts: where the structural counter's subproblems do not fit (`completions.py`), this still draws.

An edge merges the layings that lead from one state to the next (a domino's two orientations, say), so the
path is read back cell by cell: from the empty board's key, each edge's layings are tried on its source's
key (the region tables, as the build steps) and those that reach the target's key are the edge's `times`,
one drawn uniformly.
"""

from __future__ import annotations

from array import array
from collections import OrderedDict
from collections.abc import Iterable, Iterator, Sequence
from random import Random
from typing import NamedTuple, TypeVar

from pipscover.counting.inclusion_exclusion import (
    AHEAD_BITS,
    BuiltSweep,
    Modulus,
    Points,
    Sweep,
    build_keyed_sweep,
    copies_of,
    paired,
    sweep_total,
    sweep_totals,
    with_fewest_primes,
)
from pipscover.counting.search import check_search
from pipscover.errors import NoSolution
from pipscover.model import Cell, Placement, Puzzle, Solution
from pipscover.regions import pip_values

SKIP = -1  # the kind of the step that lays nothing
# The steps whose choices are kept for the next draws (the first, at the covered board, is every draw's).
CHOICES_KEPT = 256
Choice = tuple[int, int, int, int]  # (source, kind, times, the count through that source and kind)
Step = tuple[list[Choice], int]  # a state's choices, and its own count
Chosen = TypeVar("Chosen")


class SweepSampler:
    """Uniform draws from one puzzle's solutions, by its sweep's graph (built once)."""

    def __init__(self, puzzle: Puzzle, deadline: float | None = None, memory_cap: int | None = None,
                 compiled: bool | None = None, order: Sequence[Cell] | None = None) -> None:
        """`compiled` and `order` as `build_sweep` takes them (the twin's graph is the core's, and so are the
        draws)."""
        self.built = keyed_graph(puzzle, deadline, memory_cap, compiled, order)
        self.puzzle, self.deadline, self.memory_cap, self.compiled = puzzle, deadline, memory_cap, compiled
        self.copies = tuple(copies_of(puzzle))
        self.kept: OrderedDict[tuple[int, tuple[int, ...]], Step] = OrderedDict()
        # The steps from the first step's sources, each draw's second: swept a kind at a time and all kept
        # (as many as the edges into the covered board times their kinds).
        self.second: dict[tuple[int, tuple[int, ...]], Step] = {}
        # The kinds a draw's first step has laid, each with whether its second steps are swept together.
        self.first_kinds: dict[int, bool] = {}

    def total(self) -> int:
        """The number of solutions (placements): the covered board's own count, from the first step's sweep (a
        graph with no step, of no solution, is counted as it is)."""
        sweep = self.built.sweep
        if sweep.final < 1:
            return Modulus.of_points(sweep.points).count(sweep_total(sweep, self.deadline, self.compiled,
                                                                     memory_cap=self.memory_cap))
        return self._step(sweep.final, self.copies)[1]

    def sample(self, rng: Random) -> Solution:
        """One solution drawn uniformly at random (`rng` decides, by `randrange` on exact counts only)."""
        known = self.total()
        if known == 0:
            raise NoSolution(f"{self.puzzle.describe()}: no solution to draw")
        path: list[tuple[int, int, int, int]] = []  # (source, target, kind, times), from the covered board back
        state, left = self.built.sweep.final, self.copies
        while state:
            choices, own = self._step(state, left)
            if own != known or sum(times * count for _, _, times, count in choices) != known:
                raise AssertionError("the choices' counts do not add up to the state's")
            source, kind, times, known = pick(rng, ((choice, choice[2] * choice[3]) for choice in choices), known)
            if state == self.built.sweep.final:
                self._sweep_second(choices, kind)
            path.append((source, state, kind, times))
            state, left = source, _less(left, kind)
        return self._solution(reversed(path), rng)

    def _step(self, state: int, left: tuple[int, ...]) -> Step:
        """Every (source, kind) by which a path with `left` still to lay reaches `state`, with its count, and the
        state's own count (`_swept`), kept for the next draws."""
        key = (state, left)
        if key in self.second:
            return self.second[key]
        if key in self.kept:
            self.kept.move_to_end(key)
            return self.kept[key]
        self.kept[key] = self._swept([state], left)[0]
        if len(self.kept) > CHOICES_KEPT:
            self.kept.popitem(last=False)
        return self.kept[key]

    def _sweep_second(self, first: list[Choice], kind: int) -> None:
        """The second steps of every draw whose first lays `kind` (from each of the first step's sources by that
        kind), in one sweep, once a second draw's first lays it, where each draw took one of its own: each costs
        about a count alone (planted 6 x 6: its states' ancestors are 21,049 of 27,432), and a common kind's 16 to 22
        together 1.8 times one. Not where that sweep would be more than half of theirs alone, by their
        ancestors (no-unique-20: two sources a kind, together 1.8 times one)."""
        left = _less(self.copies, kind)
        states = sorted({source for source, laid, _, _ in first if laid == kind})
        if (states[0], left) in self.second:
            return
        together = self.first_kinds.get(kind)
        if together is None:
            self.first_kinds[kind] = self._together_pays(states)
        elif together:
            self.second.update(zip([(state, left) for state in states], self._swept(states, left)))

    def _together_pays(self, states: list[int]) -> bool:
        """Whether one sweep of `states`' steps costs at most half of their sweeps alone, by the states each
        sweeps (their ancestors: the points are the same; the last state's, for each alone)."""
        sweep = self.built.sweep
        edges = [range(sweep.first[state], sweep.first[state + 1]) for state in states]
        alone = len(_ancestors(sweep, states[-1], [sweep.sources[e] for e in edges[-1]]))
        together = len(_ancestors(sweep, states[-1], [sweep.sources[e] for each in edges for e in each]))
        return 2 * together <= len(states) * alone

    def _swept(self, states: list[int], left: tuple[int, ...]) -> list[Step]:
        """Each state's choices and own count, for paths with `left` still to lay, in one sweep: a choice's count
        and the state's own are summed at different states, so that their agreement checks the step (at the
        covered board, the own count is the puzzle's: no count of its own before the draws)."""
        check_search(0, self.deadline, self.memory_cap, None)
        sweep = self.built.sweep
        options = [[(sweep.sources[e], kind, times) for e in range(sweep.first[state], sweep.first[state + 1])
                    for kind, times in sweep.forms[sweep.edge_forms[e]] if kind == SKIP or left[kind]]
                   for state in states]
        points = Points.of(left, paired(left), sweep.points.lanes)
        choices = [(source, kind) for each in options for source, kind, _ in each]
        totals = sweep_totals(_with_choices(sweep, states, points, choices), len(choices) + len(states),
                              self.deadline, self.compiled, memory_cap=self.memory_cap)
        count = Modulus.of_points(points).count
        counts = iter(totals)
        steps = [[(source, kind, times, count(next(counts))) for source, kind, times in each] for each in options]
        return [(step, count(own)) for step, own in zip(steps, counts)]

    def _solution(self, path: Iterator[tuple[int, int, int, int]], rng: Random) -> Solution:
        """The layings of a path of the graph, each edge's drawn uniformly among those it merges."""
        cells, values = self.built.board.cells, pip_values(self.puzzle.dominoes)
        placements = []
        for source, target, kind, times in path:
            ends = Ends.of(key_of(self.built, source), key_of(self.built, target))
            laid = edge_layings(self.built, len(values), ends, kind, times)
            if kind != SKIP:
                cell, a, other, b = laid[rng.randrange(times)]
                placements.append(Placement((values[a], values[b]), (cells[cell], cells[other])))
        return Solution(tuple(placements))


def keyed_graph(puzzle: Puzzle, deadline: float | None = None, memory_cap: int | None = None,
                compiled: bool | None = None, order: Sequence[Cell] | None = None) -> BuiltSweep:
    """The count's graph with its states' keys (`build_keyed_sweep`), summed on the fewest primes its bound
    allows, as a count takes them; `TooBig` (before the build) where the count refuses the puzzle."""
    Modulus.of(puzzle)
    built = build_keyed_sweep(puzzle, deadline, memory_cap, compiled, order)
    return built._replace(sweep=with_fewest_primes(puzzle, built.sweep))


def pick(rng: Random, weighted: Iterable[tuple[Chosen, int]], total: int) -> Chosen:
    """One of the options, each with probability its weight / `total` (the weights add up to `total`): the
    one whose range holds `rng.randrange(total)`, an exact int."""
    draw = rng.randrange(total)
    for option, weight in weighted:
        draw -= weight
        if draw < 0:
            return option
    raise AssertionError("the weights add up to less than their total")


def edge_layings(built: BuiltSweep, pips: int, ends: Ends, kind: int, times: int) -> list[tuple[int, int, int, int]]:
    """The `times` layings of `kind` (line, pip, other line, other pip; a skip's is none) that an edge between
    `ends` merges: one step at the source's cell, then the steps that lay nothing (folded into the edge);
    checked to be `times`."""
    laid = list(_layings(built, pips, ends, kind))
    if len(laid) != times:
        raise AssertionError("an edge's layings are not its form's times")
    return laid


class Key(NamedTuple):
    """A state's key as the layings are read back by: its line, its cells ahead covered (one int, bit i the cell
    i ahead) and each region's pair of its step table."""

    line: int
    ahead: int
    regions: tuple[int, ...]


def key_of(built: BuiltSweep, state: int) -> Key:
    """`state`'s key, from the build's `keys` (`AHEAD_BITS` of the cells ahead to an int)."""
    words = built.board.words
    at = state * (1 + words + len(built.tables))
    ahead = sum(built.keys[at + 1 + word] << AHEAD_BITS * word for word in range(words))
    return Key(built.keys[at], ahead, tuple(built.keys[at + 1 + words:at + 1 + words + len(built.tables)]))


class Ends(NamedTuple):
    """An edge's source's and target's keys, and the regions whose pairs differ between them (read once an
    edge, for every type its form lays)."""

    source: Key
    target: Key
    changed: frozenset[int]

    @classmethod
    def of(cls, source: Key, target: Key) -> Ends:
        pairs = zip(source.regions, target.regions)
        return cls(source, target, frozenset(region for region, (was, now) in enumerate(pairs) if was != now))


def _layings(built: BuiltSweep, pips: int, ends: Ends, kind: int) -> Iterator[tuple[int, int, int, int]]:
    """`edge_layings`, one at a time: each way to lay `kind` at the source's cell (on a later neighbour not
    yet covered, in one orientation) that leads to the target's key, once the cells between, covered, are
    passed; a skip's where the source's cell and those between are covered already and the regions stay."""
    (line, ahead, regions), (end, goal, wanted), changed = ends
    board, tables = built.board, built.tables
    if kind == SKIP:
        if not changed and _passed(ahead, end - line) == goal:
            yield (-1, -1, -1, -1)
        return
    region = board.region_of[line]
    for other in board.later[line]:
        bit = 1 << (other - line)
        other_region = board.region_of[other]
        if ahead & bit or not changed <= {region, other_region} or _passed(ahead | bit | 1, end - line) != goal:
            continue
        for a, b in board.orientations[kind]:
            first = tables[region][regions[region] * pips + a]
            if first < 0 or (other_region != region and first != wanted[region]):
                continue
            second = tables[other_region][(first if other_region == region else regions[other_region]) * pips + b]
            if second >= 0 and second == wanted[other_region]:
                yield line, a, other, b


def _passed(ahead: int, lines: int) -> int:
    """The cells ahead once `lines` cells are passed, each covered; -1 where one of them is not."""
    covered = (1 << lines) - 1
    return ahead >> lines if ahead & covered == covered else -1


def _with_choices(sweep: Sweep, states: list[int], points: Points, choices: list[tuple[int, int]]) -> Sweep:
    """The graph of the states that lead to a choice's source (`_ancestors`), then one state per choice
    (source, kind), its one edge from that source weighted by that kind alone, then each of `states` itself,
    its edges as they are: swept at `points`, each choice's state sums its count, and the last ones the states'
    own."""
    forms = list(sweep.forms)
    number = {form: at for at, form in enumerate(forms)}
    kept = _ancestors(sweep, max(states), [source for source, _ in choices])
    renumbered = dict(zip(kept, range(len(kept))))
    first, sources, edge_forms = array("i", [0]), array("i"), array("i")
    for old in kept:
        begin, end = sweep.first[old], sweep.first[old + 1]
        sources.extend([renumbered[source] for source in sweep.sources[begin:end]])
        edge_forms.extend(sweep.edge_forms[begin:end])
        first.append(len(sources))
    for source, kind in choices:
        form = ((kind, 1),)
        if form not in number:
            number[form] = len(forms)
            forms.append(form)
        sources.append(renumbered[source])
        edge_forms.append(number[form])
        first.append(len(sources))
    for state in states:
        for e in range(sweep.first[state], sweep.first[state + 1]):
            if sweep.sources[e] in renumbered:  # (an edge from no choice's source lays none of `points`' types: 0)
                sources.append(renumbered[sweep.sources[e]])
                edge_forms.append(sweep.edge_forms[e])
        first.append(len(sources))
    return Sweep(points, tuple(forms), first, sources, edge_forms, len(kept) + len(choices) + len(states) - 1)


def _ancestors(sweep: Sweep, state: int, sources: list[int]) -> list[int]:
    """The states before `state` on some path from the empty board to one of `sources`, in sweep order: only
    they add to a choice's count. A few steps back from the covered board they are a small part of the states
    before (planted 6 x 6, one draw: the fourth step's 3,938 of 26,900), and the steps' sweeps shrink with
    them."""
    leads = bytearray(state)
    for source in sources:
        leads[source] = 1
    for target in range(state - 1, 0, -1):
        if leads[target]:
            for source in sweep.sources[sweep.first[target]:sweep.first[target + 1]]:
                leads[source] = 1
    return [at for at in range(state) if leads[at]]


def _less(left: tuple[int, ...], kind: int) -> tuple[int, ...]:
    """The dominoes left once one of `kind` is laid (a skip lays none)."""
    return left if kind == SKIP else left[:kind] + (left[kind] - 1,) + left[kind + 1:]
