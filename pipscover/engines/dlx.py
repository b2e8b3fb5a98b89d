"""The `dlx` backend: the exact-cover formulation searched by Dancing Links, with region pruning (`auto`,
the default, asks it first).

The backend restarts its search (Luby budgets, a seed, 0 unless `with_seed` sets another: see
`pipscover.engines.dancing_links`) until a first solution, which stops it thrashing on large planted boards
without changing what it finds. `counted_solutions` and `counted_covers` also hand back the search, whose
`nodes` count what it took (the generator's budgets).
"""

from __future__ import annotations

from collections.abc import Iterator

from pipscover.engines.base import Backend, Capabilities
from pipscover.engines.dancing_links import SCAN_LIMIT, ExactCoverProblem
from pipscover.exactcover.formulation import ExactCover
from pipscover.exactcover.pruning import pruned_exact_cover
from pipscover.model import Puzzle, Solution
from pipscover.runtime.limits import guard

BYTES_PER_OPTION = 400  # an option's three nodes in the six link lists, and its entry in the option tables


class DlxBackend(Backend):
    """Algorithm M (Algorithm X with multiplicities) by dancing links over cells and dominoes; region rules
    prune during the search."""

    name = "dlx"
    description = "exact cover by Dancing Links, with region pruning during the search (compiled core)"
    capabilities = Capabilities(counter="auto", seeded=True)

    def solutions(self, puzzle: Puzzle, deadline: float | None = None) -> Iterator[Solution]:
        return counted_solutions(puzzle, deadline, restart_seed=self.seed)[0]


def counted_solutions(
    puzzle: Puzzle, deadline: float | None = None, node_limit: int | None = None, restart_seed: int | None = None
) -> tuple[Iterator[Solution], ExactCoverProblem]:
    """The solutions, lazily, and the search whose `nodes` count what it took so far.

    Past `node_limit` search nodes the iterator raises `pipscover.engines.dancing_links.NodeBudgetExceeded`. With
    `restart_seed` the search restarts (see `pipscover.engines.dancing_links`) until it finds a first solution.
    """
    covers, problem, cover = counted_covers(puzzle, deadline, node_limit, restart_seed)
    return (cover.solution(chosen) for chosen in covers), problem


def counted_covers(
    puzzle: Puzzle, deadline: float | None = None, node_limit: int | None = None, restart_seed: int | None = None
) -> tuple[Iterator[list[int]], ExactCoverProblem, ExactCover]:
    """As `counted_solutions`, but each solution as the options it chose, and the exact cover whose
    `solution(chosen)` makes the `Solution`: a count by listing builds a solution only when it needs one."""
    kinds = len(puzzle.domino_counts)
    # One option per orientation of each distinct domino on each pair of cells, three nodes each; and a
    # search that, per domino laid, chooses an item (a scan of at most `SCAN_LIMIT` items, or a heap) and
    # checks every region with a rule.
    ruled = sum(region.rule.constrains for region in puzzle.regions)
    per_node = min(len(puzzle.cells) + kinds, SCAN_LIMIT) + ruled
    guard(puzzle, "the dlx search", needs_bytes=2 * len(puzzle.adjacent_pairs) * kinds * BYTES_PER_OPTION,
          steps=6 * len(puzzle.dominoes) * per_node, deadline=deadline)
    cover, rules = pruned_exact_cover(puzzle)
    problem = ExactCoverProblem(len(cover.items), cover.options, cover.multiplicities)
    return problem.search(rules, deadline, node_limit, restart_seed), problem, cover

