"""The puzzle model and what is said of it: one immutable `Puzzle` flows from the readers to every engine.

- `puzzle`: cells, dominoes, regions, placements, solutions and the `Puzzle` itself, validated once;
- `results`: what the engines answer (a search's status and solutions, a count), one shape for every engine;
- `check`: the independent solution checker, which shares no code with any engine.
"""

from pipscover.model.puzzle import (
    Cell,
    Difficulty,
    Domino,
    Origin,
    Placement,
    Puzzle,
    Region,
    RegionKind,
    Solution,
    are_adjacent,
    difficulty_named,
    domino_key,
    solution_from_grid,
)

__all__ = [
    "Cell", "Difficulty", "Domino", "Origin", "Placement", "Puzzle", "Region", "RegionKind", "Solution",
    "are_adjacent", "difficulty_named", "domino_key", "solution_from_grid",
]
