"""SUBSET SUM -> Pips with arbitrary pips and a single `sum` region: Pips is (weakly) NP-hard.

For numbers a_1..a_n and a target T the puzzle is a 2 x n board: the top row is one `sum T` region,
the bottom row is `empty`, and the dominoes are (a_1, 0) .. (a_n, 0). Each domino puts its a_i on exactly
one cell, so the top row adds up the numbers whose domino shows its a_i there: the puzzle is solvable
exactly when some subset of the numbers adds up to T (stand domino i upright in column i, a_i on top
when i is in the subset). The pips grow with the numbers, which is why this proves only weak hardness.
"""

from __future__ import annotations

from dataclasses import dataclass

from pipscover.errors import PipsError
from pipscover.model import Cell, Origin, Puzzle, Solution


@dataclass(frozen=True)
class SubsetSumInstance:
    """Is there a subset of `numbers` (a multiset of whole numbers >= 0) that adds up to `target`?"""

    numbers: tuple[int, ...]
    target: int

    def __post_init__(self) -> None:
        if not self.numbers:
            raise PipsError("subset sum: give at least one number")
        if min(self.numbers) < 0 or self.target < 0:
            raise PipsError("subset sum: the numbers and the target must be whole numbers >= 0 (they become pips)")


@dataclass(frozen=True)
class SubsetSumMap:
    """The top row of the board (the `sum` region) and the numbers, to read a subset off a solution."""

    numbers: tuple[int, ...]
    top_row: tuple[Cell, ...]


def reduce_subset_sum(instance: SubsetSumInstance) -> tuple[Puzzle, SubsetSumMap]:
    """A puzzle that is solvable exactly when a subset of the numbers adds up to the target.

    >>> puzzle, _ = reduce_subset_sum(SubsetSumInstance((3, 5, 7), 12))
    >>> puzzle.dominoes, [region.describe() for region in puzzle.regions]
    (((3, 0), (5, 0), (7, 0)), ['sum 12', 'empty'])
    """
    columns = range(len(instance.numbers))
    top_row = tuple((0, column) for column in columns)
    regions = [("sum", top_row, instance.target), ("empty", [(1, column) for column in columns], None)]
    name = f"subset sum of {','.join(map(str, instance.numbers))} to {instance.target}"
    puzzle = Puzzle.build(regions, [(a, 0) for a in instance.numbers], Origin(file=name))
    return puzzle, SubsetSumMap(instance.numbers, top_row)


def recover_subset(solution: Solution, mapping: SubsetSumMap) -> tuple[int, ...]:
    """The indices (0-based, into the numbers) of a subset adding up to the target, read off a solution.

    A number shows on the top row exactly when its domino is taken; zeros are never needed.
    """
    unused = list(enumerate(mapping.numbers))
    chosen = []
    for pip in (solution.grid[cell] for cell in mapping.top_row):
        if pip:
            index = next(i for i, (_, number) in enumerate(unused) if number == pip)
            chosen.append(unused.pop(index)[0])
    return tuple(sorted(chosen))
