"""The default backend: Dancing Links first, then local search, then Dancing Links raced against a CDCL solver.

No single engine is fastest on every puzzle: DLX answers the NYT puzzles in milliseconds but can search long
on a large board whose constraints only bite late, where clause learning pays, or where local search walks
straight to one of its countless solutions; a SAT solver pays for its encoding on every small puzzle. So:

1. DLX (with restarts) searches here within a budget of search nodes, `DLX_WORK_BUDGET` divided by the
   number of placements before pruning (what a DLX search node costs grows with it), but at least
   `NODES_PER_DOMINO` per domino (a first solution takes a node per domino; on a long board a node costs no
   more than on a 20 x 20 one, since the search chooses its items from a heap there): deterministic, so which
   engine answers a puzzle that DLX finds easy never depends on the machine. An NYT puzzle gets 10,000 nodes
   or more (its first solution takes at most about 400), a 12 x 12 board 900 to 2,300, a 20 x 20 board 800,
   a 2 x 100,000 strip 400,000.
2. Past it, one walk of local search (`pipscover.engines.local_search`, from the backend's seed, 0 by default,
   `LocalBackend`'s budget of moves per
   domino): also deterministic. It answers every planted board of the scale suite in well under a second.
   On a board of more than `WALK_FIRST_PLACEMENTS` placements the walk comes first, because there building
   the DLX matrix costs more than the walk (seconds on a 2 x 300 strip); if it finds nothing, step 1 follows.
3. Past that, DLX and `SAT_SOLVER` race in two forked workers (the machine's two cores); the first to answer
   wins, the other is killed at once, and the winner lists the remaining solutions. Enumerating with one
   engine keeps every solution listed exactly once; after a solution from local search, the race's listing
   skips that one.

`answered_by` names the engine that answered, e.g. `auto:dlx`, `auto:local` or `auto:cadical195` (and
`auto:local+dlx` when the race listed the solutions after the first). Timeouts, early stops and Ctrl-C kill
both workers.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import partial

from pipscover.engines.base import Backend, Capabilities
from pipscover.engines.dancing_links import NodeBudgetExceeded
from pipscover.engines.dlx import DlxBackend, counted_solutions
from pipscover.engines.local import MOVES_PER_TILE
from pipscover.engines.local_search import LocalBoard, walk
from pipscover.model import Puzzle, Solution
from pipscover.runtime.limits import TooBig
from pipscover.runtime.stoppable import race

DLX_WORK_BUDGET = 1 << 25  # search nodes x placements
# Past this many placements auto walks before it builds the dlx matrix: every NYT puzzle has fewer than
# 1,700, a planted 12 x 12 board with distinct dominoes 38,000, a 2 x 300 strip 539,000.
WALK_FIRST_PLACEMENTS = 20_000
NODES_PER_DOMINO = 4
SAT_SOLVER = "cadical195"  # of PySAT's solvers, the steadiest on the planted boards (encodings/exact-cover.md)


class AutoBackend(Backend):
    """DLX within a node budget, then DLX against CaDiCaL in two processes; reports which one answered."""

    name = "auto"
    capabilities = Capabilities(counter="auto", seeded=True)
    description = (f"DLX within a node budget, then one walk of local search, then DLX raced against {SAT_SOLVER} "
                   "in two processes (the default)")

    def __init__(self) -> None:
        self.engine: str | None = None

    def answered_by(self) -> str:
        return self.name if self.engine is None else f"{self.name}:{self.engine}"

    def solutions(self, puzzle: Puzzle, deadline: float | None = None) -> Iterator[Solution]:
        self.engine = None
        if placement_count(puzzle) > WALK_FIRST_PLACEMENTS:  # building the dlx matrix alone would cost more
            yield from self._walk_then_race(puzzle, deadline, dlx_fits=True, then_dlx_budget=True)
        else:
            yield from self._dlx_then(puzzle, deadline, walked=False)

    def _dlx_then(self, puzzle: Puzzle, deadline: float | None, walked: bool) -> Iterator[Solution]:
        """DLX within its budget; past it (or when the puzzle is too big for dlx), the walk unless it was
        taken already, then the race."""
        try:
            found, search = counted_solutions(puzzle, deadline, node_budget(puzzle), self.seed)
            first = next(found, None)
        except TooBig:  # too big for dlx: the walk (unless it came first), then the SAT solver alone
            if walked:
                yield from self._race(puzzle, deadline, with_dlx=False)
            else:
                yield from self._walk_then_race(puzzle, deadline, dlx_fits=False)
            return
        except NodeBudgetExceeded:
            if walked:
                yield from self._race(puzzle, deadline)
            else:
                yield from self._walk_then_race(puzzle, deadline, dlx_fits=True)
            return
        self.engine = "dlx"
        if first is None:
            return
        search.node_limit = None  # the budget was for the first solution; list the rest in the same search
        yield first
        yield from found

    def _walk_then_race(self, puzzle: Puzzle, deadline: float | None, dlx_fits: bool,
                        then_dlx_budget: bool = False) -> Iterator[Solution]:
        """One walk; its solution, then the race's listing without it. A walk that finds nothing hands over to
        the DLX budget (`then_dlx_budget`) or to the race."""
        board = LocalBoard.of(puzzle)
        if board is None:
            self.engine = "local"  # no tiling: no solution, and local search is what found out
            return
        walked = walk(board, self.seed, MOVES_PER_TILE * len(puzzle.dominoes), deadline)
        if walked is None:
            if then_dlx_budget:
                yield from self._dlx_then(puzzle, deadline, walked=True)
            else:
                yield from self._race(puzzle, deadline, with_dlx=dlx_fits)
            return
        self.engine = "local"
        yield walked
        yield from (solution for solution in self._race(puzzle, deadline, with_dlx=dlx_fits) if solution != walked)

    def _race(self, puzzle: Puzzle, deadline: float | None, with_dlx: bool = True) -> Iterator[Solution]:
        from pipscover.engines.sat import SatBackend

        engines: dict[str, Backend] = {SAT_SOLVER: SatBackend(SAT_SOLVER)}
        if with_dlx:
            engines = {"dlx": DlxBackend().with_seed(self.seed), **engines}
        producers = {name: partial(engine.solutions, puzzle) for name, engine in engines.items()}
        yield from race(producers, deadline, on_winner=self._answered)

    def _answered(self, engine: str) -> None:
        self.engine = engine if self.engine is None else f"{self.engine}+{engine}"


def placement_count(puzzle: Puzzle) -> int:
    """The placements before pruning: one per orientation of each distinct domino on each pair of cells."""
    return 2 * len(puzzle.adjacent_pairs) * len(puzzle.domino_counts)


def node_budget(puzzle: Puzzle) -> int:
    """The DLX search nodes `auto` spends before racing: fewer as a search node gets dearer, but a few per domino.

    >>> node_budget(Puzzle.build([("empty", [(0, 0), (0, 1)], None)], [(1, 2)]))
    16777216
    """
    return max(DLX_WORK_BUDGET // max(1, placement_count(puzzle)), NODES_PER_DOMINO * len(puzzle.dominoes))
