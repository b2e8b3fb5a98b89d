"""The default backend: the exact-cover reduction searched by Dancing Links, with region pruning."""

from __future__ import annotations

from collections.abc import Iterator

from pipscover.backends.base import Backend
from pipscover.dlx import covers
from pipscover.exactcover import exact_cover
from pipscover.model import Puzzle, Solution
from pipscover.pruning import RegionPruner


class DlxBackend(Backend):
    """Algorithm X with dancing links over cells and dominoes; region rules prune during the search."""

    name = "dlx"
    description = "exact cover by Dancing Links, with region pruning during the search (pure Python)"

    def solutions(self, puzzle: Puzzle, deadline: float | None = None) -> Iterator[Solution]:
        rules = RegionPruner(puzzle)
        cover = exact_cover(puzzle, rules)
        rules.watch(cover)
        for chosen in covers(len(cover.items), cover.options, cover.multiplicities, rules, deadline):
            yield cover.solution(chosen)
