"""The self-describing header of the files `pipscover encode` writes (DIMACS and OPB), and reading it back.

The header is comment lines (`c ` in DIMACS, `* ` in OPB) that carry everything `decode` needs, so a file
decodes in any folder or on any machine: the format, where the puzzle came from, the puzzle itself as compact
NYT JSON (split over `puzzle-json` lines, to be joined with nothing between them) with the SHA-256 of that
JSON, and the encodings. `decode` rebuilds the puzzle from the JSON, after checking its hash, and so the very
encoding the file was written from:

    c pipscover 0.1.0: CNF of a Pips puzzle
    c puzzle file examples/first.txt date - difficulty -
    c puzzle-json {"dominoes":[[1,2],...],"regions":[{"indices":[[0,0],...],"type":"sum","target":3},...]}
    c puzzle-sha256 5f0c...
    c encodings form placements card auto pb best

Files written before the puzzle was embedded name only the puzzle's file, as it was typed to `encode`.
"""

from __future__ import annotations

import hashlib
import io
import json
import re
from dataclasses import dataclass, replace

from pipscover.errors import PipsError, shown
from pipscover.formats.nyt import puzzle_to_nyt, read_nyt
from pipscover.model import Origin, Puzzle, difficulty_named
from pipscover.version import __version__

JSON_PER_LINE = 1000  # characters of the puzzle's JSON per comment line: no tool meets a line it cannot read
FORMAT_NAMES = {"CNF": "dimacs", "OPB": "opb"}  # as the first header line names it -> as `encode` does


def header_lines(puzzle: Puzzle, kind: str, encodings: str) -> list[str]:
    """The header's lines, without the comment mark: `kind` is `CNF` or `OPB`; `encodings` the encodings line.

    >>> from pipscover import load_one
    >>> lines = header_lines(load_one("examples/first.txt"), "CNF", "encodings form placements card auto pb best")
    >>> lines[1], lines[3][:14]
    ('puzzle file examples/first.txt date - difficulty -', 'puzzle-sha256 ')
    """
    origin = puzzle.origin
    text = puzzle_json(puzzle)
    lines = [
        f"pipscover {__version__}: {kind} of a Pips puzzle",
        f"puzzle file {origin.file or '-'} date {origin.date or '-'} difficulty {origin.difficulty or '-'}",
    ]
    lines += [f"puzzle-json {text[start:start + JSON_PER_LINE]}" for start in range(0, len(text), JSON_PER_LINE)]
    lines.append(f"puzzle-sha256 {hashlib.sha256(text.encode()).hexdigest()}")
    lines.append(encodings)
    return lines


def puzzle_json(puzzle: Puzzle) -> str:
    """The puzzle as NYT JSON with no spaces, so that it splits over comment lines safely."""
    return json.dumps(puzzle_to_nyt(puzzle), separators=(",", ":"))


@dataclass(frozen=True)
class Header:
    """What the header of a file written by `encode` says: its format, the puzzle, and the encodings."""

    format: str  # dimacs or opb
    puzzle: Puzzle | None  # None in files written before the puzzle was embedded: then `file` names it
    file: str | None
    difficulty: str | None
    card: str = "auto"
    pb: str = "best"
    form: str = "placements"  # files written before the compact form existed name none


def read_header(text: str, source: str) -> Header | None:
    """The header of a file written by `encode`; None for any other text (a puzzle file, say).

    The header is the comment lines at the top; the embedded puzzle is checked against its hash.

    >>> read_header("c pipscover 0.1.0: CNF\\nc puzzle file p.json date - difficulty hard\\n"
    ...             "c encodings form compact card auto pb best\\n", "x")
    Header(format='dimacs', puzzle=None, file='p.json', difficulty='hard', card='auto', pb='best', form='compact')
    """
    lines = []
    for line in io.StringIO(text):
        if line[:2] not in ("c ", "* ", "c\n", "*\n"):
            break
        lines.append(line[2:].rstrip("\n"))
    first = next((line for line in lines if line.startswith("pipscover ")), None)
    if first is None:
        return None
    kind = re.fullmatch(r"pipscover \S+: (\w+).*", first)
    if kind is None or kind.group(1) not in FORMAT_NAMES:
        raise PipsError(f"{source}: a pipscover header whose first line names no format (CNF or OPB)")
    named = _line(lines, r"puzzle file (.+) date (\S+) difficulty (\S+)")
    if named is None:
        raise PipsError(f"{source}: a pipscover header that lacks the 'puzzle file' line")
    file, date, difficulty = (None if word == "-" else word for word in named.groups())
    puzzle = _embedded_puzzle(lines, source, Origin(file, date, difficulty_named(difficulty, source)))
    if FORMAT_NAMES[kind.group(1)] == "opb":
        return Header("opb", puzzle, file, difficulty)
    encodings = _line(lines, r"encodings (?:form (\S+) )?card (\S+) pb (\S+)")
    if encodings is None:
        raise PipsError(f"{source}: a pipscover CNF whose header lacks the 'encodings' line")
    form, card, pb = encodings.groups()
    return Header("dimacs", puzzle, file, difficulty, card, pb, form or "placements")


def _line(lines: list[str], pattern: str) -> re.Match[str] | None:
    return next(filter(None, (re.fullmatch(pattern, line) for line in lines)), None)


def _embedded_puzzle(lines: list[str], source: str, origin: Origin) -> Puzzle | None:
    """The puzzle of the `puzzle-json` lines, once its hash is checked; None when the header has none."""
    text = "".join(line.removeprefix("puzzle-json ") for line in lines if line.startswith("puzzle-json "))
    digest = _line(lines, r"puzzle-sha256 ([0-9a-f]{64})")
    if not text and digest is None:
        return None
    if digest is None or hashlib.sha256(text.encode()).hexdigest() != digest.group(1):
        raise PipsError(f"{source}: the puzzle in the header does not match its SHA-256: the file was changed "
                        "or cut short; encode the puzzle again")
    puzzles = read_nyt(text, f"{source} (the puzzle in its header)")
    if len(puzzles) != 1:
        raise PipsError(f"{source}: the header holds {len(puzzles)} puzzles; encode one puzzle per file")
    return replace(puzzles[0], origin=origin)


def encoded_puzzle(text: str, source: str, difficulty: str | None = None) -> Puzzle:
    """The puzzle a file `pipscover encode` wrote carries in its header, checked against its hash and named
    after `source`; `PipsError` for a DIMACS or OPB file without that header.

    >>> from pipscover import encode, load_one
    >>> encoded_puzzle(encode(load_one("examples/first.txt")), "first.cnf") == load_one("examples/first.txt")
    True
    """
    header = read_header(text, source)
    if header is None:
        raise PipsError(f"{source}: a DIMACS or OPB file without pipscover's header, so it holds no puzzle; "
                        "only the files `pipscover encode` writes do")
    if header.puzzle is None:
        raise PipsError(f"{source}: written before pipscover put the puzzle in the header (it names "
                        f"{header.file or 'no file'}); encode the puzzle again")
    puzzle = header.puzzle
    held = puzzle.origin.difficulty
    if difficulty is not None and held is not None and held != difficulty:
        raise PipsError(f"{source}: has no {shown(difficulty)} puzzle (it holds the {held} one)")
    return replace(puzzle, origin=replace(puzzle.origin, file=source))
