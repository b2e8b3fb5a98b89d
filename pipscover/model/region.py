"""A region of the board: cells that share one constraint (the puzzle model, `pipscover.model.puzzle`, holds
them; `pipscover.model.naming` names them in messages, even before the puzzle they make is valid)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TypeGuard

from pipscover.model.geometry import Cell
from pipscover.regions import RegionKind, RegionRule


@dataclass(frozen=True)
class Region:
    """Cells that share one constraint; the kind (`pipscover.regions`) says what the constraint means.

    >>> region = Region(RegionKind.SUM, ((0, 0), (0, 1)), 5)
    >>> region.describe(), region.holds([1, 4]), region.holds([2, 2])
    ('sum 5', True, False)
    """

    kind: RegionKind
    cells: tuple[Cell, ...]
    target: int | None = None
    # The text format's letter for it, kept for messages and for writing the text again; a puzzle read from
    # JSON has none, and still equals the same puzzle read from text.
    letter: str | None = field(default=None, compare=False)

    @property
    def rule(self) -> RegionRule:
        """The kind's rule (`pipscover.regions`), which holds everything the kind means."""
        return self.kind.rule

    def holds(self, values: Sequence[int]) -> bool:
        """Whether the pips `values` (one per cell of the region) satisfy the constraint."""
        return self.kind.rule.holds(values, self.target)

    def describe(self) -> str:
        """`sum 10`, `less 3`, `equals`: the constraint as the NYT JSON names it."""
        return self.kind.rule.describe(self.target)

    @property
    def label(self) -> str:
        """The mark a player sees: '', '=', '≠', '10', '<3', '>5'."""
        return self.kind.rule.label(self.target)


def is_whole_number(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def is_pair_of_whole_numbers(pair: tuple) -> bool:
    """A cell or a domino: two whole numbers >= 0 (no generator nor call per number: a big board has 200,000
    pairs)."""
    if len(pair) != 2:
        return False
    first, second = pair
    return (isinstance(first, int) and isinstance(second, int) and not isinstance(first, bool)
            and not isinstance(second, bool) and first >= 0 and second >= 0)
