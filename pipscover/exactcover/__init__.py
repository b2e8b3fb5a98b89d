"""The exact-cover side: a puzzle as exact cover, the region rules that prune its search, and the engine.

- `formulation`: items (cells, distinct dominoes with multiplicities), options (placements) and the map back;
- `pruning`: the region rules (`pipscover.regions`) as a propagator for the search;
- `dancing_links`: Knuth's Algorithm X with dancing links, which knows nothing of Pips.

encodings/exact-cover.md describes all three; the `dlx` backend (`pipscover.backends.dlx`) puts them together.
"""

from pipscover.exactcover.dancing_links import ExactCoverProblem, NodeBudgetExceeded, Propagator, covers
from pipscover.exactcover.formulation import ExactCover, exact_cover
from pipscover.exactcover.pruning import RegionPruner

__all__ = [
    "ExactCover", "ExactCoverProblem", "NodeBudgetExceeded", "Propagator", "RegionPruner", "covers", "exact_cover",
]
