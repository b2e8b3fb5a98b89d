"""The NYT's daily Pips JSON, read exactly as published, and written back for puzzles we make.

A file holds a day object (`printDate`, `easy`, `medium`, `hard`) or a single puzzle object
(`dominoes`, `regions`, optional `solution`). A published `solution` is kept as the puzzle's
`published_solution`: `solution[i]` gives the cells of `dominoes[i]`, its first pip on the first cell.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from pipscover.errors import PipsError, shown
from pipscover.model import Difficulty, Origin, Placement, Puzzle, Solution, difficulty_named
from pipscover.model.naming import ordinal


def parse_json(text: str, file: str) -> Any:
    """`json.loads` with an error that names the file, line and column; a string holding half a character (an
    escaped lone surrogate, `"\\ud800"`) is refused too: no output, file or web answer can hold it, and each
    that quoted one ended in a traceback (a 500 from the page's server)."""
    try:
        document = json.loads(text)
        if "\\u" in text:  # only an escape makes a lone surrogate: a text read from UTF-8 holds none
            json.dumps(document, ensure_ascii=False).encode("utf-8")
        return document
    except UnicodeEncodeError:
        raise PipsError(f"{file}: a JSON string holds half a character (a \\u escape of a lone surrogate)") from None
    except json.JSONDecodeError as error:
        raise PipsError(f"{file}: malformed JSON: {error.msg} at line {error.lineno}, column {error.colno}") from None
    except RecursionError:  # Python's parser recurses once per level; no Pips document nests more than a few
        raise PipsError(f"{file}: JSON nested too deeply to be a Pips document") from None
    except ValueError:  # a number past Python's limit on digits (4300 unless the program changed it)
        raise PipsError(f"{file}: unreadable JSON: a number of more than {sys.get_int_max_str_digits()} digits, "
                        "far past any pip or target") from None


def read_nyt(text: str, file: str, difficulty: str | None = None) -> list[Puzzle]:
    """The puzzles of an NYT JSON document: one, or the day's three (or just `difficulty`, which a single
    puzzle, naming none, does not take as its own: `parse` refuses or keeps it)."""
    document = parse_json(text, file)
    if not isinstance(document, dict):
        raise PipsError(f"{file}: expected a JSON object (an NYT day or puzzle), found {type(document).__name__}")
    if "regions" in document or "dominoes" in document:
        return [_read_puzzle(document, Origin(file))]
    date = document.get("printDate") if isinstance(document.get("printDate"), str) else None
    present: list[str] = [d for d in Difficulty if d in document]
    if not present:
        raise PipsError(f"{file}: neither an NYT day (easy/medium/hard) nor a puzzle (dominoes/regions)")
    if difficulty is not None:
        if difficulty not in document:
            raise PipsError(f"{file}: has no {shown(difficulty)} puzzle (it has {', '.join(present)})")
        present = [difficulty]
    return [_read_puzzle(document[d], Origin(file, date, difficulty_named(d, file))) for d in present]


def _read_puzzle(raw: Any, origin: Origin) -> Puzzle:
    where = origin.describe()

    def fail(problem: str) -> PipsError:
        return PipsError(f"{where}: {problem}")

    if not isinstance(raw, dict):
        raise fail("the puzzle is not a JSON object")
    if raw.get("dominoes") is None or raw.get("regions") is None:
        raise fail("the puzzle is blank or incomplete: it needs 'dominoes' and 'regions'")
    dominoes = raw["dominoes"]
    if not isinstance(dominoes, list) or not all(_is_pair(d) for d in dominoes):
        raise fail("'dominoes' must be a list of [a, b] pairs")
    regions = raw["regions"]
    if not isinstance(regions, list):
        raise fail("'regions' must be a list")
    plain_regions = []
    for index, region in enumerate(regions):
        if not isinstance(region, dict) or not isinstance(region.get("indices"), list):
            raise fail(f"the {ordinal(index + 1)} region in the file must be an object with a list of 'indices'")
        if not all(_is_pair(cell) for cell in region["indices"]):
            raise fail(f"every index of the {ordinal(index + 1)} region in the file must be a [row, column] pair")
        kind = region.get("type")
        plain_regions.append((kind if isinstance(kind, str) else shown(kind), region["indices"], region.get("target")))
    puzzle = Puzzle.build(plain_regions, dominoes, origin)
    solution = read_solution(raw.get("solution"), puzzle.dominoes, fail)
    # `replace` validates the puzzle again: only when there is a solution to attach (not on a huge bare board).
    return puzzle if solution is None else replace(puzzle, published_solution=solution)


def read_solution(raw: Any, dominoes: tuple, fail: Callable[[str], PipsError]) -> Solution | None:
    if raw is None:
        return None
    if not isinstance(raw, list) or len(raw) != len(dominoes):
        raise fail("'solution' must list one pair of cells per domino")
    if not all(_is_pair(cells) and all(is_int_pair(c) for c in cells) for cells in raw):
        raise fail("every 'solution' entry must be [[row, column], [row, column]]")
    return Solution(tuple(Placement(d, (tuple(c[0]), tuple(c[1]))) for d, c in zip(dominoes, raw)))


def _is_pair(value: Any) -> bool:
    return isinstance(value, list) and len(value) == 2


def is_int_pair(value: Any) -> bool:
    """`[x, y]` with whole numbers >= 0: a cell or a domino."""
    return _is_pair(value) and all(isinstance(x, int) and not isinstance(x, bool) and x >= 0 for x in value)


def puzzle_to_nyt(puzzle: Puzzle, solution: Solution | None = None) -> dict[str, Any]:
    """An NYT puzzle object; with a solution, its `solution` list is parallel to `dominoes`."""
    regions = []
    for region in puzzle.regions:
        entry: dict[str, Any] = {"indices": [list(cell) for cell in region.cells], "type": str(region.kind)}
        if region.target is not None:
            entry["target"] = region.target
        regions.append(entry)
    document: dict[str, Any] = {"dominoes": [list(d) for d in puzzle.dominoes], "regions": regions}
    if solution is not None:
        document["solution"] = _solution_by_domino(puzzle, solution)
    return document


def _solution_by_domino(puzzle: Puzzle, solution: Solution) -> list[list[list[int]]]:
    """Match each placement to a domino of the puzzle, flipping the cells where the domino is reversed."""
    unused = list(solution.placements)
    cells_by_domino = []
    for domino in puzzle.dominoes:
        for index, placement in enumerate(unused):
            if placement.domino in (domino, domino[::-1]):
                first, second = placement.cells if placement.domino == domino else placement.cells[::-1]
                cells_by_domino.append([list(first), list(second)])
                del unused[index]
                break
        else:
            raise PipsError(f"{puzzle.describe()}: the solution does not place domino {list(domino)}")
    return cells_by_domino
