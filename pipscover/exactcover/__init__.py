"""The exact-cover formulation: a puzzle as exact cover, and the region rules that prune its search.

- `formulation`: items (cells, distinct dominoes with multiplicities), options (placements) and the map back;
- `pruning`: the region rules (`pipscover.regions`) as a propagator for the search.

The engine that searches it, Knuth's Algorithm M with dancing links, knows nothing of Pips and lives with the
other engines (`pipscover.engines.dancing_links`). encodings/exact-cover.md describes all three.
`pruned_exact_cover(puzzle)` gives the pruned problem and its propagator; the engine then needs only the
options, the multiplicities and the propagator (`pipscover.engines.dlx` does just that).
"""

from pipscover.exactcover.formulation import ExactCover, OptionFilter, exact_cover
from pipscover.exactcover.pruning import RegionPruner, pruned_exact_cover

__all__ = ["ExactCover", "OptionFilter", "RegionPruner", "exact_cover", "pruned_exact_cover"]
