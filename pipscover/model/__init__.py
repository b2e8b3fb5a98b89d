"""The puzzle model and what is said of it: one immutable `Puzzle` flows from the readers to every engine.

- `geometry`: cells, which cells are side by side (`are_adjacent`, `neighbours`, `forward_neighbours`) and
  the groups they make;
- `puzzle`: dominoes, regions, placements, solutions and the `Puzzle` itself, validated once;
- `results`: what the engines answer (a search's status and solutions, a count), one shape for every engine;
- `check`: the independent solution checker, which shares no code with any engine.
"""

from pipscover.model.geometry import Cell, are_adjacent
from pipscover.model.puzzle import (
    Difficulty,
    Domino,
    Origin,
    Placement,
    Puzzle,
    RegionKind,
    Solution,
    difficulty_named,
    domino_key,
    given_placements,
    given_puzzle,
    solution_from_grid,
)
from pipscover.model.region import Region

__all__ = [
    "Cell", "Difficulty", "Domino", "Origin", "Placement", "Puzzle", "Region", "RegionKind", "Solution",
    "are_adjacent", "difficulty_named", "domino_key", "given_placements", "given_puzzle", "solution_from_grid",
]
