"""Making Pips puzzles around a hidden solution, by default with exactly one solution, optionally of a difficulty.

1. A board and a tiling: `rect` (a random tiling of a near-square rectangle, mixed by turning 2 x 2
   blocks), `nyt` (a compact blob grown domino by domino) or `random` (a straggly blob grown the same way).
2. Dominoes: distinct ones from the double-`max_pip` set (repeats only when more are asked for than the
   set holds), one per tile, each turned at random: this is the hidden solution.
3. Regions: a random partition of the board into small connected regions, all `empty` at first.
4. Uniqueness: the counter looks for a solution other than the hidden one. While it finds one, a cell where
   its pips differ from the hidden ones is picked, and the region holding that cell is tightened so that the
   other solution breaks it: an `empty` region gets a rule that the hidden solution keeps and the other
   breaks (each kind offers a target, `RegionRule.targets_for`, and one is drawn by the kinds'
   `generator_weight`, roughly the NYT's frequencies); a region whose rule cannot be tightened that way
   becomes `sum`, and then splits into smaller `sum` regions (`sum` is the kind whose rule `splits`: the
   generator asks the kinds' rules and names none).
   Regions only move forward along empty -> rule -> sum -> split, so this ends. When the other solution has
   the same pips everywhere (another tiling of the same grid), no rule can tell them apart, so before any
   region is made the dominoes are laid again, on the same tiles, until no other tiling fits their grid
   (`pipscover.generate.single_tiling`).
5. Loosening: neighbouring `sum` regions are merged (a kind whose rule `merges`, by its `merged_target`),
   and rules dropped, wherever the counter still proves one solution; neighbouring regions left without a
   rule become one `empty` region.

The counter, cheapest first: an other solution found before that keeps the puzzle's rules; Dancing Links
within `NODE_BUDGET` search nodes; then one incremental SAT solver per board (`pipscover.generate.incremental.
PuzzleSession`: the board and dominoes loaded once, each region rule added once behind a selector literal
and switched on by assumptions, the hidden solution as the preferred phases), asked for an other solution
that changes only the dominoes near one spot (milliseconds each); and only then the whole board, asked of a
fresh CNF of the puzzle, which its rules prune (7-14x faster than the session's on 40 dominoes), trying the
hidden solution's values first (a far other solution on 100 dominoes: 0.2 s instead of 25-46 s). While
loosening, the puzzle before the change was unique, so any other solution breaks the old rule: it has
other pips on the changed region's cells. That narrows every question (the spots are the cells near that
region), and a loosening question still undecided after `LOOSEN_CONFLICTS` conflicts keeps the rule;
after `LOOSEN_GIVE_UP` such questions in a row, every rule left is kept (on 100 dominoes no proof fits the
budget). Budgets count nodes, conflicts and questions, never seconds, and everything
random comes from one `random.Random(seed)`: the same seed gives the same puzzle.

Difficulty is the rating a person would give (`pipscover.hints.rating`: the length of the chain of hints that
solves it, followed only as far as the band needs), which agrees with the NYT's labels on 83% of its
puzzles where the Dancing Links search nodes beyond one path to the solution (`extra_nodes`, still
reported) agree on 68%. With a difficulty, a unique
puzzle whose rating is another is drawn again. The puzzle's origin names the difficulty asked (None: any), as a
day's names the NYT's label; `GeneratedPuzzle.difficulty` is its rating: named by the origin, a rating that
nobody asked for read as chosen (`show` said "(medium)" of a puzzle made with any difficulty).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from math import isqrt

from pysat.solvers import Solver

from pipscover.cnf.placements import encode_placements
from pipscover.engines.dancing_links import NodeBudgetExceeded
from pipscover.engines.dlx import counted_solutions
from pipscover.engines.sat_enumeration import Undecided, ask_by_deadline
from pipscover.errors import Choice, PipsError, counted, is_whole_number, shown
from pipscover.generate.incremental import PuzzleSession, hidden_phases
from pipscover.generate.planted import domino_at, guard_board, rectangle_tiling
from pipscover.generate.single_tiling import lay_single_tiling
from pipscover.hints.rating import difficulty as rated_difficulty
from pipscover.model import Cell, Difficulty, Domino, Origin, Puzzle, RegionKind, Solution, solution_from_grid
from pipscover.model.geometry import components, neighbours
from pipscover.model.results import SearchGaveUp, SearchTimeout, checked_seed
from pipscover.runtime.deadlines import deadline_after, has_passed

Pair = tuple[Cell, Cell]
MAX_RESTARTS = 200  # hidden solutions drawn before giving up
# The dominoes of the NYT's puzzles by their label (fewest, most, median; 348 days, 2025): what to suggest when a
# difficulty cannot be met. The rating grows with the board: 8 dominoes are rarely easy, 5 seldom hard.
NYT_DOMINOES = {Difficulty.EASY: (3, 10, 5), Difficulty.MEDIUM: (4, 13, 7), Difficulty.HARD: (6, 16, 13)}
RULED_AT_START = 0.6  # the share of regions given a rule before the counter is asked
# The largest puzzles made: a unique one needs a proof whose SAT questions grow fast with the board, and a
# nyt or random board is grown a domino at a time over the whole board so far (1,000 dominoes: 1.5 s,
# 3,000: 13 s, CPU). A rectangle without the proof is made in linear time (100,000 dominoes: 13 s).
MAX_UNIQUE_DOMINOES = 1000
MAX_GROWN_DOMINOES = 2000
# Dancing Links search nodes per counter question before the SAT session answers it instead (a few tens of
# ms of DLX), and the limit of the reported `extra_nodes`.
NODE_BUDGET = 512
# The session's solver, and the whole-board questions'. These go to a fresh CNF of the puzzle with its
# regions (pruned by them), not to the session (whose formula keeps every placement of the blank board
# behind selectors): a proof of uniqueness on 40 dominoes took 0.2-0.4 s there against 3.1 s. CaDiCaL,
# because it takes the hidden solution as phases (Glucose 4.1 ignores them): a far other solution on 100
# dominoes took it 0.23 s (1 380 conflicts) against 25 s from its default phases and 46 s for Glucose.
SAT_BACKEND = "cadical195"
# A loosening question undecided after this many conflicts keeps the rule: loosening is optional, and a few
# of its proofs on 40 dominoes took 10-55 s. Against 20 000 conflicts, 5 000 took a fifth less CPU on
# 40 dominoes (seeds 2 and 3) for two more ruled regions out of 57-60.
LOOSEN_CONFLICTS = 5_000
# After this many loosening questions in a row undecided, the rest keep their rules without being asked.
# On 40 dominoes (nyt, seeds 1-2) no two came in a row among the 540-590 whole-board questions; on 100
# (rect, seed 1) 519 loosening questions ran out, 238 s of CPU, and not one rule was dropped: proofs grow
# faster than the budget.
LOOSEN_GIVE_UP = 10
NEIGHBOURHOODS = (2, 4)  # steps from a loosened region within which dominoes may move, before the whole board
WINDOW = 6  # side of the squares in which the counter first looks for another solution
# The kinds the generator starts and ends with, found by what their rules say, so that it names none: every
# region starts without a rule (`empty`), and one that no drawn rule tightens takes the kind that `splits`.
NO_RULE = next(kind for kind in RegionKind if not kind.rule.constrains)
LAST_RESORT = next(kind for kind in RegionKind if kind.rule.splits)


class Shape(Choice):
    """The board's shape (`--shape`): see step 1 at the top."""

    NYT = "nyt"
    RECT = "rect"
    RANDOM = "random"


@dataclass(frozen=True)
class GeneratedPuzzle:
    """A generated puzzle, its hidden solution, and what it took to make (the repr shows the figures)."""

    puzzle: Puzzle = field(repr=False)
    solution: Solution = field(repr=False)
    unique: bool  # proved by the counter (only when asked for)
    counter_calls: int
    restarts: int
    seconds: float
    extra_nodes: int | None = None  # of a unique puzzle, when at most NODE_BUDGET (else None)
    difficulty: Difficulty | None = None  # the rating of a unique puzzle (its origin names the one asked)

    @property
    def constrained_regions(self) -> int:
        return sum(region.rule.constrains for region in self.puzzle.regions)


def extra_nodes(puzzle: Puzzle, limit: int | None = None) -> int | None:
    """Dancing Links search nodes, beyond the `dominoes + 1` on one solution's path, to find every solution.

    None when it passes `limit` extra nodes. Depends only on the puzzle (not on the clock).
    """
    path = len(puzzle.dominoes) + 1
    solutions, search = counted_solutions(puzzle, node_limit=None if limit is None else limit + path)
    try:
        for _ in solutions:
            pass
    except NodeBudgetExceeded:
        return None
    extra = search.nodes - path
    return None if limit is not None and extra > limit else extra


@dataclass
class _Region:
    kind: RegionKind
    cells: list[Cell]
    target: int | None = None


class _Counter:
    """Answers "is there a solution other than the hidden one?", counting the questions, within a deadline
    (`SearchTimeout` when it passes: checked before each question, and inside a DLX or SAT question)."""

    def __init__(self, session: PuzzleSession, deadline: float | None = None) -> None:
        self.session = session
        self.deadline = deadline
        self.hidden = Solution(())  # set once the hidden grid has a single tiling
        self.calls = 0
        self.known: list[Solution] = []  # other solutions found so far

    def other(self, puzzle: Puzzle, changed: Sequence[Cell] = ()) -> Solution | None:
        """A solution of `puzzle` other than the hidden one, or None (DLX within its node budget, else SAT)."""
        if has_passed(self.deadline):
            raise SearchTimeout
        self.calls += 1
        # An other solution found before that keeps this puzzle's rules answers at once: while loosening,
        # most rejected changes revive one seen already.
        for known in self.known:
            if all(region.holds([known.grid[cell] for cell in region.cells]) for region in puzzle.regions):
                return known
        found = self._search(puzzle, changed)
        if found is not None:
            self.known.append(found)
        return found

    def _search(self, puzzle: Puzzle, changed: Sequence[Cell]) -> Solution | None:
        solutions, _ = counted_solutions(puzzle, self.deadline, node_limit=NODE_BUDGET)
        try:
            return next((s for s in solutions if s != self.hidden), None)
        except NodeBudgetExceeded:
            pass
        if changed:
            for free in _neighbourhoods(changed, self.hidden.grid):
                found = self.session.other_solution(puzzle.regions, self.hidden, free=free, differ=changed)
                if found is not None:
                    return found
            return other_solution(puzzle, self.hidden, changed, LOOSEN_CONFLICTS, self.deadline)
        # Small questions first: another solution that changes only the dominoes near one spot. Most
        # other solutions are such; asked about the whole board, CDCL takes seconds to find one.
        for window in _windows(self.hidden.grid):
            found = self.session.other_solution(puzzle.regions, self.hidden, free=window)
            if found is not None:
                return found
        return other_solution(puzzle, self.hidden, deadline=self.deadline)


def other_solution(
    puzzle: Puzzle,
    hidden: Solution,
    differ: Sequence[Cell] = (),
    conflicts: int | None = None,
    deadline: float | None = None,
) -> Solution | None:
    """A solution of `puzzle` other than `hidden` (and, with `differ`, with other pips on one of those
    cells), or None: a whole-board question, asked of a fresh CNF of `puzzle` itself, trying `hidden`'s
    values first. Raises `Undecided` past `conflicts` conflicts, `SearchTimeout` past `deadline`."""
    encoding = encode_placements(puzzle)
    with Solver(name=SAT_BACKEND, bootstrap_with=encoding.cnf.clauses) as solver:
        solver.add_clause([-lit for lit in encoding.solution_literals(hidden)])
        if differ:
            value_var = encoding.value_var
            solver.add_clause([-value_var[cell, hidden.grid[cell]] for cell in differ])
        solver.set_phases(hidden_phases(encoding, hidden))
        if not ask_by_deadline(solver, deadline, conflicts=conflicts):
            return None
        return encoding.solution(solver.get_model())


def generate(
    dominoes: int = 8,
    max_pip: int = 6,
    shape: Shape | str = Shape.NYT,
    seed: int = 0,
    unique: bool = True,
    difficulty: Difficulty | str | None = None,
    timeout: float | None = None,
    on_attempt: Callable[[int, Difficulty | None], None] | None = None,
) -> GeneratedPuzzle:
    """A puzzle with `dominoes` dominoes around a hidden solution; with `unique`, its only solution; with a
    `difficulty`, one rated so by `pipscover.hints.rating` (implies `unique`).

    Raises `SearchTimeout` when `timeout` seconds pass first (checked before each hidden solution, each
    counter question and the rating, and inside each DLX or SAT question), and `SearchGaveUp` when
    `MAX_RESTARTS` hidden solutions gave no puzzle (saying what the NYT's puzzles of that difficulty hold).
    `on_attempt(hidden solutions tried, the rating of the last one's puzzle)` follows the search.

    >>> made = generate(dominoes=5, seed=7)
    >>> made.unique, len(made.puzzle.dominoes)
    (True, 5)
    """
    odd = next((value for value in (dominoes, max_pip) if not is_whole_number(value)), None)
    if odd is not None:  # (2.5 dominoes was "can't multiply sequence by non-int of type 'float'")
        raise PipsError(f"generate: the dominoes and the maximum pip are whole numbers, not {shown(odd)}")
    if dominoes < 1 or max_pip < 0:
        raise PipsError("generate: needs at least one domino and a maximum pip >= 0")
    shape = Shape(shape)
    _check_size(dominoes, shape, unique or difficulty is not None)
    _check_reach(dominoes, None if difficulty is None else Difficulty(difficulty))
    difficulty = None if difficulty is None else Difficulty(difficulty)
    unique = unique or difficulty is not None
    rng = random.Random(checked_seed(seed))  # "x" and 1.5 were seeds of their own, as `sample` once took them
    start = time.monotonic()
    deadline = deadline_after(timeout, start)
    calls = 0
    size = counted(dominoes, "domino", "dominoes")
    for restart in range(MAX_RESTARTS):
        if has_passed(deadline):
            raise SearchTimeout
        tiling = _tiling(shape, dominoes, rng)
        drawn = _draw_dominoes(dominoes, max_pip, rng)
        grid = _hidden_grid(tiling, drawn, rng)
        origin = Origin(file=f"generated ({shape}, {size}, seed {seed})", difficulty=difficulty)
        if not unique:
            hidden = solution_from_grid(tiling, grid)
            regions = _partition(sorted(grid), rng)
            for region in regions:
                if rng.random() < RULED_AT_START:
                    _give_rule(region, grid, None, rng)
            return GeneratedPuzzle(_build(regions, hidden, origin), hidden, False, 0, restart, time.monotonic() - start)
        board = Puzzle.build([(NO_RULE, sorted(grid), None)], drawn)
        with PuzzleSession(board, SAT_BACKEND, deadline=deadline) as session:
            counter = _Counter(session, deadline)
            made = _made_unique(counter, tiling, grid, origin, rng)
            calls += counter.calls
        if made is not None:
            if has_passed(deadline):
                raise SearchTimeout
            puzzle, hidden = made
            rated = rated_difficulty(puzzle, hidden)
            if difficulty in (None, rated):
                return GeneratedPuzzle(puzzle, hidden, True, calls, restart, time.monotonic() - start,
                                       extra_nodes(puzzle, NODE_BUDGET), rated)
        if on_attempt is not None:
            on_attempt(restart + 1, None if made is None else rated)
    raise SearchGaveUp(gave_up(dominoes, difficulty, seed))


def gave_up(dominoes: int, difficulty: Difficulty | None, seed: int) -> str:
    """Why no puzzle came, and what the NYT's own puzzles of that difficulty hold.

    >>> gave_up(10, Difficulty.EASY, 1).split("; ")  # doctest: +NORMALIZE_WHITESPACE
    ['generate: no unique easy puzzle of 10 dominoes after 200 hidden solutions (seed 1)',
     'NYT easy puzzles have 3-10 dominoes, 5 as a rule: try --dominoes 5']
    """
    asked = counted(dominoes, "domino", "dominoes")
    if difficulty is None:
        return f"generate: no unique puzzle of {asked} after {MAX_RESTARTS} hidden solutions (seed {seed})"
    low, high, usual = NYT_DOMINOES[difficulty]
    return (f"generate: no unique {difficulty} puzzle of {asked} after {MAX_RESTARTS} hidden solutions "
            f"(seed {seed}); NYT {difficulty} puzzles have {low}-{high} dominoes, {usual} as a rule: "
            f"try --dominoes {usual}")


def _check_reach(dominoes: int, difficulty: Difficulty | None) -> None:
    """Refuse at once a size that the difficulty is out of reach at: fewer dominoes than the NYT's puzzles of
    that difficulty ever have, or more than its easy and medium ones have (more dominoes rate harder; a hard
    puzzle may be larger). Before, `-n 14 --difficulty easy` said so only after 200 hidden solutions (143 s).

    >>> _check_reach(14, Difficulty.EASY)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    pipscover.errors.PipsError: generate: 14 dominoes is out of reach for an easy puzzle: ... (try 5 dominoes)
    """
    if difficulty is None:
        return
    low, high, usual = NYT_DOMINOES[difficulty]
    if dominoes < low or (dominoes > high and difficulty is not Difficulty.HARD):
        article = "an" if difficulty is Difficulty.EASY else "a"
        raise PipsError(f"generate: {counted(dominoes, 'domino', 'dominoes')} is out of reach for {article} "
                        f"{difficulty} puzzle: NYT {difficulty} puzzles have {low}-{high} dominoes, {usual} as a rule "
                        f"(try {usual} dominoes)")


def _check_size(dominoes: int, shape: Shape, unique: bool) -> None:
    """Refuse at once, saying why, a size that would run for hours rather than start and never end."""
    asked = counted(dominoes, "domino", "dominoes")
    if unique and dominoes > MAX_UNIQUE_DOMINOES:
        raise PipsError(f"generate: {asked} is too many to prove a single solution (the limit is "
                        f"{MAX_UNIQUE_DOMINOES:,}: the proof's SAT questions grow fast with the board); --no-unique "
                        "--shape rect makes a puzzle of any size that fits in memory, without the proof")
    if shape is not Shape.RECT and dominoes > MAX_GROWN_DOMINOES:
        raise PipsError(f"generate: {asked} is too many for --shape {shape} (the limit is "
                        f"{MAX_GROWN_DOMINOES:,}: growing the board takes time quadratic in the dominoes); "
                        "--shape rect makes a board of any size that fits in memory")
    guard_board("generate", 2 * dominoes)


def _made_unique(
    counter: _Counter,
    tiling: list[Pair],
    grid: dict[Cell, int],
    origin: Origin,
    rng: random.Random,
) -> tuple[Puzzle, Solution] | None:
    """Regions around the hidden grid (repaired to a single tiling first) that make it the only solution,
    loosened; None when that fails."""
    if not lay_single_tiling(tiling, grid, rng, counter.deadline):
        return None
    hidden = counter.hidden = solution_from_grid(tiling, grid)
    regions = _partition(sorted(grid), rng)
    for region in regions:  # most NYT regions have a rule; the counter decides what the rest need
        if rng.random() < RULED_AT_START:
            _give_rule(region, grid, None, rng)
    if not _unique_regions(regions, grid, hidden, origin, counter, rng):
        return None
    regions = _loosen(regions, hidden, origin, counter, rng)
    return _build(regions, hidden, origin), hidden


def _unique_regions(
    regions: list[_Region],
    grid: dict[Cell, int],
    hidden: Solution,
    origin: Origin,
    counter: _Counter,
    rng: random.Random,
) -> bool:
    """Tighten `regions` until the hidden solution is the only one; False when that cannot be done."""
    while (other := counter.other(_build(regions, hidden, origin))) is not None:
        differing = [cell for cell in sorted(grid) if other.grid[cell] != grid[cell]]
        if not differing:  # another tiling of the same grid: ruled out by `_single_tiling`
            return False
        # Break the other solution where it costs least: a region without a rule, then a rule that can
        # become `sum`, and only then split a `sum` region.
        cost = {c: _tightening_cost(_region_of(regions, c), grid, other.grid, rng) for c in differing}
        cell = rng.choice([c for c in differing if cost[c] == min(cost.values())])
        regions.extend(_tighten(_region_of(regions, cell), cell, grid, other.grid, rng))
    return True


def _loosen(
    regions: list[_Region], hidden: Solution, origin: Origin, counter: _Counter, rng: random.Random
) -> list[_Region]:
    """Merge neighbouring regions of a kind that `merges` (`sum`) and drop rules wherever the puzzle stays
    unique (each change proved)."""

    undecided = 0  # loosening questions in a row that ran out of conflicts

    def keeps(candidate: list[_Region], changed: list[Cell]) -> bool:
        # The puzzle before the change had one solution, so any other solution now breaks a rule it had:
        # it differs from the hidden one on the changed cells.
        nonlocal undecided
        if undecided >= LOOSEN_GIVE_UP:
            return False
        try:
            kept = counter.other(_build(candidate, hidden, origin), changed) is None
        except Undecided:
            undecided += 1
            return False
        if kept:
            undecided = 0
        return kept

    for first in rng.sample(regions, len(regions)):
        if first not in regions or not first.kind.rule.merges:
            continue
        for second in [r for r in regions if r is not first and r.kind is first.kind and _touch(first, r)]:
            target = first.kind.rule.merged_target(first.target, second.target)
            merged = _Region(first.kind, first.cells + second.cells, target)
            candidate = [r for r in regions if r is not first and r is not second] + [merged]
            if keeps(candidate, merged.cells):
                regions = candidate
                break
    for region in rng.sample(regions, len(regions)):
        if region.kind.rule.constrains:
            candidate = [r if r is not region else _Region(NO_RULE, r.cells) for r in regions]
            if keeps(candidate, region.cells):
                regions = candidate
    # Neighbouring regions without a rule are one region: their borders change no solution.
    ruled = [r for r in regions if r.kind.rule.constrains]
    free = components([c for r in regions if not r.kind.rule.constrains for c in r.cells])
    return ruled + [_Region(NO_RULE, cells) for cells in free]


def _windows(board: dict[Cell, int] | set[Cell]) -> list[set[Cell]]:
    """Overlapping WINDOW x WINDOW squares of the board's cells, every cell in at least one, in reading order."""
    step = WINDOW // 2
    rows = range(min(r for r, _ in board), max(r for r, _ in board) + 1, step)
    columns = range(min(c for _, c in board), max(c for _, c in board) + 1, step)
    found = []
    for top in rows:
        for left in columns:
            window = {(r, c) for r in range(top, top + WINDOW) for c in range(left, left + WINDOW) if (r, c) in board}
            if window:
                found.append(window)
    return found


def _neighbourhoods(cells: Sequence[Cell], board: dict[Cell, int]) -> list[set[Cell]]:
    """The board's cells within NEIGHBOURHOODS steps of `cells`, nearest first."""
    found, reached, frontier = [], set(cells), set(cells)
    for radius in range(1, max(NEIGHBOURHOODS) + 1):
        frontier = {n for c in frontier for n in neighbours(c) if n in board and n not in reached}
        reached |= frontier
        if radius in NEIGHBOURHOODS:
            found.append(set(reached))
    return found


def _touch(first: _Region, second: _Region) -> bool:
    return any(n in second.cells for c in first.cells for n in neighbours(c))


def _region_of(regions: Sequence[_Region], cell: Cell) -> _Region:
    return next(region for region in regions if cell in region.cells)


def _tightening_cost(region: _Region, grid: dict[Cell, int], other: dict[Cell, int], rng: random.Random) -> int:
    """What `_tighten` does to `region`: 0, give it a rule; 1, turn it into the last resort; 2, split it."""
    if not region.kind.rule.constrains:
        return 0
    keeps_last_resort = LAST_RESORT.rule.holds([other[c] for c in region.cells], _read_off(region.cells, grid, rng))
    return 2 if region.kind is LAST_RESORT or keeps_last_resort else 1


def _build(regions: Sequence[_Region], hidden: Solution, origin: Origin) -> Puzzle:
    dominoes = [placement.domino for placement in hidden.placements]
    return Puzzle.build(((r.kind, r.cells, r.target) for r in regions), dominoes, origin, hidden)


def _tighten(
    region: _Region, cell: Cell, grid: dict[Cell, int], other: dict[Cell, int], rng: random.Random
) -> list[_Region]:
    """Make `region` break the `other` pips, splitting it from `cell` on when need be: a region without a rule
    gets one; else it takes the last resort's kind when that breaks them; else it splits into regions of that
    kind.

    Returns the regions split off it, if any.
    """
    if not region.kind.rule.constrains and _give_rule(region, grid, other, rng):
        return []
    hidden = _read_off(region.cells, grid, rng)
    if region.kind is not LAST_RESORT and not LAST_RESORT.rule.holds([other[c] for c in region.cells], hidden):
        region.kind, region.target = LAST_RESORT, hidden
        return []
    # A rule both solutions keep: split off a connected part around `cell`, each part with its own target.
    part = _grow([cell], set(region.cells), max(1, len(region.cells) // 2), rng)
    pieces = [part, *components([c for c in region.cells if c not in part])]
    region.kind, region.cells, region.target = LAST_RESORT, pieces[0], _read_off(pieces[0], grid, rng)
    return [_Region(LAST_RESORT, piece, _read_off(piece, grid, rng)) for piece in pieces[1:]]


def _read_off(cells: Sequence[Cell], grid: dict[Cell, int], rng: random.Random) -> int | None:
    """The target of the last resort's kind that the hidden pips on `cells` keep (a `sum` region's sum)."""
    return LAST_RESORT.rule.targets_for([grid[c] for c in cells], None, rng)[0]


def _give_rule(region: _Region, grid: dict[Cell, int], other: dict[Cell, int] | None, rng: random.Random) -> bool:
    """Give an `empty` region a rule the hidden pips keep (and the `other` pips break, when given)."""
    values = [grid[c] for c in region.cells]
    theirs = None if other is None else [other[c] for c in region.cells]
    choices: dict[RegionKind, int | None] = {}
    for kind in RegionKind:
        for target in kind.rule.targets_for(values, theirs, rng):
            if theirs is None or not kind.rule.holds(theirs, target):
                choices[kind] = target
    if not choices:
        return False
    kinds = sorted(choices)
    kind = rng.choices(kinds, weights=[k.rule.generator_weight for k in kinds])[0]
    region.kind, region.target = kind, choices[kind]
    return True


def _draw_dominoes(count: int, max_pip: int, rng: random.Random) -> list[Domino]:
    """`count` dominoes with pips up to `max_pip`, all different while the set has enough.

    They are drawn as indices into the list of all pairs (a <= b, by a then b) without building it, so a
    large `max_pip` costs nothing; `sample` and `choices` pick the same positions from a range as from a list.
    """
    total = (max_pip + 1) * (max_pip + 2) // 2
    drawn = rng.sample(range(total), min(count, total))
    drawn += rng.choices(range(total), k=count - len(drawn))
    return [domino_at(index, max_pip) for index in drawn]


def _hidden_grid(tiling: Sequence[Pair], dominoes: Sequence[Domino], rng: random.Random) -> dict[Cell, int]:
    grid = {}
    for (first, second), domino in zip(tiling, dominoes):
        grid[first], grid[second] = domino if rng.random() < 0.5 else domino[::-1]
    return grid


def _tiling(shape: Shape, count: int, rng: random.Random) -> list[Pair]:
    tiles = _rectangle_tiling(count, rng) if shape is Shape.RECT else _grown_tiling(count, shape is Shape.NYT, rng)
    top = min(r for pair in tiles for r, _ in pair)
    left = min(c for pair in tiles for _, c in pair)
    return [((a[0] - top, a[1] - left), (b[0] - top, b[1] - left)) for a, b in tiles]


def _rectangle_tiling(count: int, rng: random.Random) -> list[Pair]:
    """A rows x columns rectangle of 2*count cells, as square as possible, tiled at random (as planted boards are)."""
    area = 2 * count
    rows = max(r for r in range(1, isqrt(area) + 1) if area % r == 0)
    return rectangle_tiling(rows, area // rows, rng)


def _grown_tiling(count: int, compact: bool, rng: random.Random) -> list[Pair]:
    """Dominoes added one by one beside the board; `compact` prefers spots with many neighbours."""
    tiles: list[Pair] = [((0, 0), (0, 1))]
    board = {(0, 0), (0, 1)}
    while len(tiles) < count:
        spots = sorted(
            {
                (min(cell, other), max(cell, other))
                for a in board
                for cell in neighbours(a)
                if cell not in board
                for other in neighbours(cell)
                if other not in board
            }
        )
        weights = [(1 + sum(n in board for c in spot for n in neighbours(c))) ** 3 if compact else 1 for spot in spots]
        spot = rng.choices(spots, weights=weights)[0]
        tiles.append(spot)
        board.update(spot)
    return tiles


def _partition(cells: list[Cell], rng: random.Random) -> list[_Region]:
    """Small connected regions (1 to 5 cells, pairs most often) covering the board, all without a rule."""
    free = set(cells)
    regions = []
    for cell in cells:
        if cell in free:
            part = _grow([cell], free, rng.choices((1, 2, 3, 4, 5), weights=(2, 4, 3, 2, 1))[0], rng)
            free.difference_update(part)
            regions.append(_Region(NO_RULE, part))
    return regions


def _grow(part: list[Cell], allowed: set[Cell], size: int, rng: random.Random) -> list[Cell]:
    """`part` grown at random through `allowed` cells to `size` cells (fewer if it runs out of room)."""
    part = list(part)
    while len(part) < size:
        frontier = sorted({n for c in part for n in neighbours(c) if n in allowed and n not in part})
        if not frontier:
            break
        part.append(rng.choice(frontier))
    return part
