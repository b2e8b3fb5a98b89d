"""Reading proposed solutions for `pipscover check`, and a position for `pipscover hint --given`, in the forms
pipscover and the NYT write them.

Accepted JSON documents:
- the `solve --json` object: `{"solutions": [[{"domino": [a, b], "cells": [[r, c], [r, c]]}, ...], ...]}`;
- one solution as a list of such placements;
- the NYT form: a list of cell pairs parallel to the puzzle's dominoes, alone or as the `solution` of a
  puzzle object (so a published NYT file can be checked against itself).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pipscover.errors import PipsError, shown
from pipscover.formats.nyt import is_int_pair, parse_json, read_solution
from pipscover.model import Difficulty, Placement, Puzzle, Solution


def read_solutions(text: str, file: str, puzzle: Puzzle) -> list[Solution]:
    """The solutions a document proposes for `puzzle`. Several `solve --json` lines (a day file solved)
    are told apart by their puzzle's difficulty, or its number in a file of several."""
    return _proposed(_documents(text, file), file, puzzle)


def read_position(text: str, file: str, puzzle: Puzzle) -> tuple[Placement, ...]:
    """The dominoes placed so far on `puzzle`, in their order: one solution in any form `read_solutions` reads
    (so `solve --json` output, which `check` took and the position reader refused), or `[]`, the empty board.

    >>> from pipscover import load_one
    >>> first = load_one("examples/first.txt")
    >>> read_position('{"solutions": [[{"domino": [0, 2], "cells": [[3, 2], [3, 3]]}]]}', "placed.json", first)
    (Placement(domino=(0, 2), cells=((3, 2), (3, 3))),)
    """
    documents = _documents(text, file)
    if documents == [[]]:
        return ()
    proposed = _proposed(documents, file, puzzle)
    if len(proposed) != 1:
        raise PipsError(f"{file}: holds {len(proposed)} solutions for {puzzle.describe()}; expected one position")
    return proposed[0].placements


def _proposed(documents: list[Any], file: str, puzzle: Puzzle) -> list[Solution]:
    """The solutions that the one document of `documents` meant for `puzzle` proposes (none: no such document)."""
    mine = [document for document in documents if _is_for(document, puzzle)]
    if len(mine) > 1:
        raise PipsError(f"{file}: {len(mine)} JSON documents for {puzzle.describe()}; expected one per puzzle")
    return solutions_in(mine[0], file, puzzle) if mine else []


def names_puzzles(text: str, file: str) -> bool:
    """Whether the solutions in `text` say which puzzle of a day they are for (`solve --json` objects, or a
    day file with its published solutions): only then can they be checked against a whole day."""
    return all(_named(document).get("difficulty") is not None or _named(document).get("number") is not None
               or (isinstance(document, dict) and "solution" not in document and any(d in document for d in Difficulty))
               for document in _documents(text, file))


def _is_for(document: Any, puzzle: Puzzle) -> bool:
    """Whether a document may hold `puzzle`'s solutions: it names no puzzle, or names it (by difficulty, and
    by number in a file of several puzzles)."""
    named = _named(document)
    return (named.get("difficulty") in (None, puzzle.origin.difficulty)
            and named.get("number") in (None, puzzle.origin.number))


def _named(document: Any) -> dict[str, Any]:
    """The puzzle a `solve --json` object names (its origin), or {} for a document that names none."""
    named = document.get("puzzle") if isinstance(document, dict) else None
    return named if isinstance(named, dict) else {}


def _documents(text: str, file: str) -> list[Any]:
    """One JSON document, or one per line (JSON Lines, as `solve --json` prints a day file)."""
    if not text.strip():  # (said "malformed JSON: Expecting value at line 1, column 1", as a puzzle file did)
        raise PipsError(f"{file}: the file is empty (solutions are JSON, as solve --json prints them)")
    try:
        return [parse_json(text, file)]
    except PipsError as whole:
        lines = [line for line in text.splitlines() if line.strip()]
        if len(lines) < 2:
            raise
        try:
            return [parse_json(line, file) for line in lines]
        except PipsError:
            raise whole from None


def solutions_in(document: Any, file: str, puzzle: Puzzle) -> list[Solution]:
    """The solutions a parsed JSON document proposes for `puzzle`."""

    def fail(problem: str) -> PipsError:
        return PipsError(f"{file}: {problem}")

    if isinstance(document, dict) and puzzle.origin.difficulty in document and "solution" not in document:
        document = document[puzzle.origin.difficulty]
    if isinstance(document, dict) and "solutions" in document:
        if not isinstance(document["solutions"], list):
            raise fail("'solutions' must be a list of solutions")
        return [_placements(entry, fail) for entry in document["solutions"]]
    if isinstance(document, dict) and "solution" in document:
        document = document["solution"]
    if isinstance(document, list) and document and isinstance(document[0], dict):
        return [_placements(document, fail)]
    if isinstance(document, list):
        solution = read_solution(document, puzzle.dominoes, fail)
        return [solution] if solution is not None else []
    raise fail("expected `solve --json` output, a list of placements, or an NYT solution (a list of cell pairs)")


def _placements(raw: Any, fail: Callable[[str], PipsError]) -> Solution:
    return Solution(placements_in(raw, fail))


def placements_in(raw: Any, fail: Callable[[str], PipsError]) -> tuple[Placement, ...]:
    """A JSON list of placements, in its order (a player's position keeps the order the dominoes were placed in).

    >>> placements_in([{"domino": [1, 2], "cells": [[0, 0], [0, 1]]}], PipsError)
    (Placement(domino=(1, 2), cells=((0, 0), (0, 1))),)
    """
    if not isinstance(raw, list):
        raise fail("a solution must be a list of placements")
    placements = []
    for entry in raw:
        fields: Any = entry if isinstance(entry, dict) else {}  # JSON of any shape, checked below
        domino, cells = fields.get("domino"), fields.get("cells")
        if not (is_int_pair(domino) and isinstance(cells, list) and len(cells) == 2 and all(map(is_int_pair, cells))):
            raise fail(
                f"malformed placement {shown(entry)}; expected {{\"domino\": [a, b], \"cells\": [[r, c], [r, c]]}}"
            )
        placements.append(Placement(tuple(domino), (tuple(cells[0]), tuple(cells[1]))))
    return tuple(placements)

