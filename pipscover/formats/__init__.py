"""Reading puzzles from files: the NYT JSON and the plain text format, told apart by their content; an NYT day
(`2025-09-15`, `today`) names its file in the fetch cache, downloaded when missing (`pipscover.formats.fetch`)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import BinaryIO

from pipscover.errors import PipsError, printable_path
from pipscover.formats.fetch import day_file
from pipscover.formats.nyt import puzzle_to_nyt, read_nyt
from pipscover.formats.text import read_text, write_text, write_texts
from pipscover.model import Puzzle

__all__ = [
    "load", "load_one", "parse", "puzzle_to_nyt", "read_nyt", "read_text", "read_text_file", "write_text",
    "write_texts",
]


ENCODED_SUFFIXES = frozenset({".cnf", ".dimacs", ".opb"})  # and a first line no puzzle format starts with


class NothingToChoose(PipsError):
    """A difficulty asked of puzzles that name none. The message ends with the remedy in the words of whoever
    asked: by default the API's `difficulty` argument; `reason` is the message without it, for a caller who
    asked otherwise (the command line's -d, `serve`'s `difficulty` field)."""

    def __init__(self, reason: str, remedy: str = "leave out the difficulty argument") -> None:
        super().__init__(f"{reason}; {remedy}")
        self.reason = reason


def parse(text: str, file: str, difficulty: str | None = None, in_folder: bool = False) -> list[Puzzle]:
    """The puzzles in `text`: JSON when it starts with `{` or `[`, the puzzle in the header of a DIMACS or OPB
    file that `pipscover encode` wrote (`.cnf`, `.opb`), the text format otherwise; `file` names it in errors.

    `difficulty` chooses the puzzles named so. A document whose puzzles name none cannot choose by it and is
    refused (it was read whole, the difficulty ignored), unless it is one file of a folder (`in_folder`): a
    folder gives the chosen puzzle of each file that names them, and the whole of each file that does not.

    >>> [puzzle.describe() for puzzle in parse("2\\nAA\\nBB\\n2\\nA SUM 3\\nB EQ\\n2\\n1 2\\n4 4\\n", "two.txt")]
    ['two.txt']
    """
    refuse_binary(text, file, puzzle_kind(file))
    if not text.strip():  # the text format's reader said "the text ends where the number of board rows should be"
        raise PipsError(f"{file}: the file is empty (a puzzle file holds NYT JSON or the text format)")
    if text.lstrip()[:1] in ("{", "["):
        puzzles = read_nyt(text, file, difficulty)
    elif Path(file).suffix in ENCODED_SUFFIXES or text.lstrip()[:2] in ("c ", "c\n", "p ", "* ", "*\n"):
        from pipscover.formats.header import encoded_puzzle  # lazy: hashing is for these files only

        puzzles = [encoded_puzzle(text, file, difficulty)]
    else:
        puzzles = read_text(text, file, difficulty)
    if difficulty is not None and not in_folder and all(puzzle.origin.difficulty is None for puzzle in puzzles):
        held = "its puzzle names" if len(puzzles) == 1 else f"its {len(puzzles)} puzzles name"
        raise NothingToChoose(f"{file}: {held} no difficulty, so there is no {difficulty} one to choose")
    return puzzles


MAX_INPUT_BYTES = 256 * 2**20  # far above any puzzle, model or CNF pipscover can use; refused beyond
READ_CHUNK = 2**20


def _read_at_most(stream: BinaryIO) -> bytes:
    """Up to `MAX_INPUT_BYTES + 1` bytes, a chunk at a time: one `read(n)` reserves all n bytes at once, which
    a process under an address-space limit (`ulimit -v`) cannot map for a file of a few hundred bytes."""
    chunks, size = [], 0
    while size <= MAX_INPUT_BYTES:
        chunk = stream.read(min(READ_CHUNK, MAX_INPUT_BYTES + 1 - size))
        if not chunk:
            break
        chunks.append(chunk)
        size += len(chunk)
    return b"".join(chunks)


def puzzle_kind(file: str) -> str:
    """What a puzzle file named `file` should hold, in the words of an error: a `.json` is JSON."""
    return "JSON" if Path(file).suffix.lower() == ".json" else "a text puzzle file"


def refuse_binary(content: str | bytes, file: str | Path, kind: str) -> None:
    """Refuse content with a NUL in it, which no text holds (git's test for binary files): a picture named
    .txt or .json, opened on the page (which reads it as text), was "line 1: expected the number of board
    rows, found '\ufffdPNG'"; `kind` is what the file should have been."""
    if "\x00" in content if isinstance(content, str) else b"\x00" in content:
        raise PipsError(f"{file}: not {kind} (binary content)")


def read_text_file(path: str | Path, kind: str = "a text file") -> str:
    """The text of a file (`-` for standard input), or a `PipsError` naming the file and why it cannot be read:
    binary content is named so, as not `kind` (what the file should be).

    A byte order mark, as Windows editors write, is skipped; input beyond `MAX_INPUT_BYTES` is refused
    rather than read into memory (`/dev/zero` never ends).
    """
    try:
        if str(path) == "-":
            stream = getattr(sys.stdin, "buffer", None)
            data = sys.stdin.read(MAX_INPUT_BYTES + 1).encode() if stream is None else _read_at_most(stream)
        else:
            with open(path, "rb") as stream:
                data = _read_at_most(stream)
        if len(data) > MAX_INPUT_BYTES:
            raise PipsError(f"{path}: larger than {MAX_INPUT_BYTES // 2**20} MiB; not a file pipscover can use")
        refuse_binary(data, path, kind)
        return data.decode("utf-8-sig")
    except FileNotFoundError:
        raise PipsError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise PipsError(f"{path}: is a folder, not a file") from None
    except UnicodeDecodeError:
        raise PipsError(f"{path}: not a text file (not UTF-8)") from None
    except OSError as error:
        raise PipsError(f"{path}: cannot be read ({error.strerror})") from None


def load(path: str | Path, difficulty: str | None = None, in_folder: bool = False) -> list[Puzzle]:
    """The puzzles in a file or NYT day: a day gives three (or the one named by `difficulty`; a file whose
    puzzles name no difficulty is then refused, unless it is `in_folder`: see `parse`).

    A day that is not a file (`2025-09-15`, `today`) is read from the fetch cache, and downloaded first when
    missing; `-` is standard input.

    >>> [str(puzzle.origin.difficulty) for puzzle in load("examples/first.txt")]
    ['None']
    """
    path = path if str(path) == "-" else day_file(Path(path))
    return parse(read_text_file(path, puzzle_kind(str(path))), printable_path(path), difficulty, in_folder)


def load_one(path: str | Path, difficulty: str | None = None) -> Puzzle:
    """The single puzzle in a file or NYT day; a day needs `difficulty`.

    >>> load_one("examples/first.txt").describe()
    'examples/first.txt'
    """
    puzzles = load(path, difficulty)
    if len(puzzles) != 1:
        raise PipsError(f"{path}: holds {len(puzzles)} puzzles; choose one with a difficulty (easy, medium, hard)")
    return puzzles[0]
