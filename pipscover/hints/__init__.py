"""Hints for people: the next deduction a player can make, the rule behind it, and a sentence saying why.

`hint(puzzle, placed=...)` gives the next step from a player's position (or says which domino is wrong),
`hint_chain(puzzle)` gives the steps from an empty board until the puzzle is solved or a guess is needed;
the rules, from easy to hard, are in `catalogue` (and encodings/hints.md), grouped by family in `tiling`,
`region_rules`, `dominoes` and `trial`; `board` holds what a player knows part-way.

    >>> from pipscover import load_one
    >>> chain = hint_chain(load_one("examples/first.txt"))
    >>> chain.complete
    True
"""

from pipscover.hints.catalogue import BY_NAME, DEDUCTIONS, GUESS, NO_SOLUTION, RULES, WRONG, Rule
from pipscover.hints.chain import Chain, Step, hint, hint_chain, wrong_placement

__all__ = [
    "BY_NAME", "Chain", "DEDUCTIONS", "GUESS", "NO_SOLUTION", "RULES", "Rule", "Step", "WRONG", "hint", "hint_chain",
    "wrong_placement",
]
