"""The exact-cover side: a puzzle as exact cover, the region rules that prune its search, and the engine.

- `formulation`: items (cells, distinct dominoes with multiplicities), options (placements) and the map back;
- `pruning`: the region rules (`pipscover.regions`) as a propagator for the search;
- `dancing_links`: Knuth's Algorithm X with dancing links, which knows nothing of Pips.

encodings/exact-cover.md describes all three. `pruned_exact_cover(puzzle)` gives the pruned problem and its
propagator; the engine then needs only the options, the multiplicities and the propagator
(`pipscover.backends.dlx` does just that).
"""

from pipscover.exactcover.dancing_links import ExactCoverProblem, NodeBudgetExceeded, Propagator, covers
from pipscover.exactcover.formulation import ExactCover, OptionFilter, exact_cover
from pipscover.exactcover.pruning import RegionPruner, pruned_exact_cover

__all__ = [
    "ExactCover", "ExactCoverProblem", "NodeBudgetExceeded", "OptionFilter", "Propagator", "RegionPruner", "covers",
    "exact_cover", "pruned_exact_cover",
]
