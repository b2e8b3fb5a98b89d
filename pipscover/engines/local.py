"""Local search (`pipscover.engines.local_search`) as a backend: one solution of a large, loose board, fast.

It is incomplete, and declares so: it finds one solution (`enumerates=False`) and cannot prove that there is
none (`complete=False`), except for a board with no tiling. It walks from its seed (0 unless `with_seed` sets
another), then the next, ..., each walk
within `MOVES_PER_TILE` moves per domino but at least `MOVES_PER_WALK` (a tight board of a few dominoes needs
thousands of moves, whatever its size), until one finds a solution; with a deadline it walks until the
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
# The bundled example (8 dominoes, one solution) is solved by none of 300 walks of 1,600 moves (seeds 0-299),
# by 9 of 40 walks of 20,000 (seed 0 among them), by 20 of 40 of 50,000: a small, tight board needs many
# moves, not many walks. A walk of 20,000 moves takes about 0.15 s.
MOVES_PER_WALK = 20_000
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
        walks, moves = 0, max(MOVES_PER_TILE * len(puzzle.dominoes), MOVES_PER_WALK)
        while deadline is not None or walks < WALKS:
            found = walk(board, self.seed + walks, moves, deadline)
            if found is not None:
                yield found
                return
            walks += 1
        raise SearchGaveUp(f"local search found no solution in {WALKS} walks of {moves:,} moves; it cannot prove "
                           "that there is none (-b dlx or -b auto can)")
