"""Local search (`pipscover.engines.local_search`) as a backend: one solution of a large, loose board, fast.

It is incomplete, and declares so: it finds one solution (`enumerates=False`) and cannot prove that there is
none (`complete=False`), except for a board with no tiling. It walks from its seed (0 unless `with_seed` sets
another), then the next, ..., each walk
within `MOVES_PER_TILE` moves per domino, until one finds a solution; with a deadline it walks until the
deadline, without one it gives up after `WALKS` walks (`SearchGaveUp`: status `unknown`, never
`unsatisfiable`).
"""

from __future__ import annotations

from collections.abc import Iterator

from pipscover.engines.base import Backend, Capabilities
from pipscover.engines.local_search import LocalBoard, walk
from pipscover.model import Puzzle, Solution
from pipscover.model.results import SearchGaveUp

# Every board of the planted scale suite and 90 more (8 x 8 to 20 x 20, 2 x 300) solved within 50 moves per
# domino from seed 0 (encodings/local-search.md); a walk gets four times that.
MOVES_PER_TILE = 200
WALKS = 20


class LocalBackend(Backend):
    """Min-conflicts local search: one solution, or `SearchGaveUp`."""

    name = "local"
    capabilities = Capabilities(enumerates=False, complete=False, seeded=True)
    description = "local search (min-conflicts moves, simulated annealing): one solution; never proves there is none"

    def solutions(self, puzzle: Puzzle, deadline: float | None = None) -> Iterator[Solution]:
        board = LocalBoard.of(puzzle)
        if board is None:
            return  # no tiling, no solution: the one answer local search proves
        walks = 0
        while deadline is not None or walks < WALKS:
            found = walk(board, self.seed + walks, MOVES_PER_TILE * len(puzzle.dominoes), deadline)
            if found is not None:
                yield found
                return
            walks += 1
        raise SearchGaveUp(f"local search found no solution in {WALKS} walks; it cannot prove that there is none")
