"""The one `encode` every CNF user calls: the placements form or the compact form, `auto` choosing by size.

    >>> from pipscover import load_one
    >>> encode(load_one("examples/first.txt")).encodings.form
    'placements'
"""

from __future__ import annotations

from dataclasses import replace

from pipscover.cnf.compact import CompactEncoding, encode_compact
from pipscover.cnf.placements import Encoding, Encodings, encode_placements
from pipscover.model import Puzzle

AnyEncoding = Encoding | CompactEncoding
# `auto` writes the placements form while its estimated clause count stays at most this, the compact form
# above it. Measured (encodings/cnf.md, CaDiCaL 1.9.5, first solution): every NYT puzzle estimates at most
# 18 304 and there the placements form has the better worst case (33 ms against 57); a SUBSET SUM puzzle of
# 16 numbers (16 192) solves 7x faster in it; a planted 8 x 8 board (41 888) 26x and a reduced 1-in-3-SAT
# puzzle of 504 dominoes (22 814) 2.4x faster in the compact form.
PLACEMENT_CLAUSES_LIMIT = 20_000


def encode(puzzle: Puzzle, encodings: Encodings = Encodings()) -> AnyEncoding:
    """The CNF of `puzzle` in the form `encodings.form` names (`auto`: `chosen_form`); the encoding it returns
    names the form it took."""
    form = chosen_form(puzzle, encodings.form)
    encodings = replace(encodings, form=form)
    return encode_compact(puzzle, encodings) if form == "compact" else encode_placements(puzzle, encodings)


def chosen_form(puzzle: Puzzle, form: str = "auto") -> str:
    """`form` itself, or for `auto` the placements form unless its estimate passes `PLACEMENT_CLAUSES_LIMIT`.

    The estimate is taken before pruning, in time linear in the board: every placement sits in two cell
    constraints and one domino constraint (about three clauses each with the sequential counter) and ties
    two values, so about 11 clauses per placement.

    >>> from pipscover.model import Puzzle
    >>> cells = [(row, col) for row in range(20) for col in range(20)]
    >>> dominoes = [(a, b) for a in range(20) for b in range(a, 20)][:200]
    >>> chosen_form(Puzzle.build([("empty", cells, None)], dominoes))
    'compact'
    """
    if form != "auto":
        return form
    return "placements" if placement_clauses_estimate(puzzle) <= PLACEMENT_CLAUSES_LIMIT else "compact"


def placement_clauses_estimate(puzzle: Puzzle) -> int:
    """About how many clauses the placements form of `puzzle` has before pruning (see `chosen_form`)."""
    orientations = sum(1 if a == b else 2 for a, b in puzzle.domino_counts)
    return 11 * len(puzzle.adjacent_pairs) * orientations
