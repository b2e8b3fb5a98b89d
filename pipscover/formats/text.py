"""The plain text format of the well-known CP-SAT Pips notebook, read and written.

    4          number of board rows
    A##B       '.' a hole, '#' a cell with no constraint, a letter a cell of that letter's region
    ...B       ('…' may stand for '...')
    ..CC
    ..C.
    3          number of constraints, then `LETTER TYPE [N]`, TYPE a kind's keyword: EQ NEQ SUM LT GT
    A SUM 3
    B SUM 11
    C SUM 15
    4          number of dominoes, then `a b` each
    5 1
    ...

Each connected group of `#` cells becomes one `empty` region. A file may hold several puzzles, one after
another with a blank line between; each may start with a line naming its difficulty (`easy`, `medium` or
`hard`), as `write_texts` writes an NYT day, so that `-d` picks one. Anything else after a puzzle's dominoes
is an error naming its line.
"""

from __future__ import annotations

import string
from collections import Counter
from collections.abc import Sequence
from dataclasses import replace

from pipscover.errors import PipsError, is_written_whole_number, shown
from pipscover.model import Difficulty, Origin, Puzzle, Region, RegionKind, difficulty_named
from pipscover.model.geometry import components

# The format's keyword for each kind it can hold, the kind's own (`empty` regions are `#` cells, not a keyword).
KIND_BY_CODE = {kind.rule.keyword: kind for kind in RegionKind if kind.rule.keyword is not None}
CODE_BY_KIND = {kind: code for code, kind in KIND_BY_CODE.items()}
DIFFICULTIES = frozenset(Difficulty)  # the line that may name a puzzle: easy, medium or hard
REGION_LETTERS = string.ascii_uppercase + string.ascii_lowercase
MAX_BOARD_CHARACTERS = 10**8  # a board drawn whole from (0, 0); a cell at column 10^9 cannot be


class _Lines:
    """The document's lines, handed out one by one with their line numbers for error messages."""

    def __init__(self, text: str, file: str) -> None:
        self.lines = text.replace("…", "...").splitlines()
        self.file = file
        self.number = 0

    def fail(self, problem: str) -> PipsError:
        return PipsError(f"{self.file}: line {self.number}: {problem}")

    def next(self, what: str) -> str:
        if self.number >= len(self.lines):
            raise PipsError(f"{self.file}: the text ends where {what} should be")
        self.number += 1
        return self.lines[self.number - 1]

    def next_words(self, what: str) -> list[str]:
        """The next line that is not blank, split into words."""
        while not (line := self.next(what)).strip():
            pass
        return line.split()

    def more(self) -> bool:
        """Whether a line that is not blank is left (the blank ones before it are passed over)."""
        while self.number < len(self.lines) and not self.lines[self.number].strip():
            self.number += 1
        return self.number < len(self.lines)

    def next_count(self, what: str) -> int:
        words = self.next_words(what)
        if len(words) != 1 or not is_written_whole_number(words[0]):
            raise self.fail(f"expected {what} (one whole number), found {shown(' '.join(words))}")
        return int(words[0])


def read_text(text: str, file: str, difficulty: str | None = None) -> list[Puzzle]:
    """The puzzles of a document in the text format, or the one `difficulty` names when they are named."""
    lines = _Lines(text, file)
    puzzles = [_read_puzzle(lines)]
    while lines.more():
        words = lines.lines[lines.number].split()
        if not (len(words) == 1 and (is_written_whole_number(words[0]) or words[0] in DIFFICULTIES)):
            lines.number += 1
            raise lines.fail(f"{shown(' '.join(words))} follows the dominoes of puzzle {len(puzzles)} but does not "
                             "start another puzzle (a difficulty or the number of board rows)")
        puzzles.append(_read_puzzle(lines))
    puzzles = _numbered(puzzles)
    named = [puzzle.origin.difficulty for puzzle in puzzles if puzzle.origin.difficulty]
    if difficulty is None or not named:
        return puzzles
    if difficulty not in named:
        raise PipsError(f"{file}: has no {shown(difficulty)} puzzle (it has {', '.join(named)})")
    return [puzzle for puzzle in puzzles if puzzle.origin.difficulty == difficulty]


def _numbered(puzzles: list[Puzzle]) -> list[Puzzle]:
    """The puzzles of one file, each that its difficulty does not tell apart from the others numbered by its
    place (from 1), so that messages, JSON lines and sweep rows name it."""
    if len(puzzles) == 1:
        return puzzles
    labels = Counter(puzzle.origin.difficulty for puzzle in puzzles)
    return [puzzle if puzzle.origin.difficulty and labels[puzzle.origin.difficulty] == 1
            else replace(puzzle, origin=replace(puzzle.origin, number=number))
            for number, puzzle in enumerate(puzzles, start=1)]


def _read_puzzle(lines: _Lines) -> Puzzle:
    """The puzzle that starts at the next line that is not blank."""
    file = lines.file
    label = None
    if lines.more() and lines.lines[lines.number].strip() in DIFFICULTIES:
        label = lines.next("a difficulty").strip()
    letter_cells, free_cells = _read_board(lines)
    constraints = _read_constraints(lines)
    dominoes = _read_dominoes(lines)
    for letter, cells in letter_cells.items():
        if letter not in constraints:
            raise PipsError(f"{file}: cell {list(cells[0])} is in region {letter}, which has no constraint line")
    for letter in constraints:
        if letter not in letter_cells:
            raise PipsError(f"{file}: region {letter} has a constraint but no cells on the board")
    regions = [Region(kind, tuple(letter_cells[letter]), target, letter)
               for letter, (kind, target) in constraints.items()]
    regions += [Region(RegionKind.EMPTY, tuple(group)) for group in components(free_cells)]
    return Puzzle(tuple(regions), tuple(dominoes), Origin(file, None, difficulty_named(label, file)))


def _read_board(lines: _Lines) -> tuple[dict[str, list[tuple[int, int]]], list[tuple[int, int]]]:
    """The board's rows: the cells of each region letter, and the `#` cells (no constraint)."""
    rows = [lines.next(f"board row {r + 1}") for r in range(lines.next_count("the number of board rows"))]
    letter_cells: dict[str, list[tuple[int, int]]] = {}
    free_cells: list[tuple[int, int]] = []
    for r, row in enumerate(rows):
        for c, mark in enumerate(row.rstrip()):
            if mark == "#":
                free_cells.append((r, c))
            elif mark.isalpha():
                letter_cells.setdefault(mark, []).append((r, c))
            elif mark not in ". ":
                raise PipsError(f"{lines.file}: board row {r + 1} has {shown(mark)}; use '.', '#' or a region letter")
    return letter_cells, free_cells


def _read_constraints(lines: _Lines) -> dict[str, tuple[RegionKind, int | None]]:
    """The constraint lines: each region letter's kind and target."""
    constraints: dict[str, tuple[RegionKind, int | None]] = {}
    for _ in range(lines.next_count("the number of constraints")):
        words = lines.next_words("a constraint line")
        if len(words) not in (2, 3) or words[1] not in KIND_BY_CODE:
            raise lines.fail(
                f"expected 'LETTER TYPE [N]' with TYPE one of {' '.join(KIND_BY_CODE)}, found {shown(' '.join(words))}"
            )
        letter, kind = words[0], KIND_BY_CODE[words[1]]
        if letter in constraints:
            raise lines.fail(f"region {letter} has two constraints")
        if kind.has_target != (len(words) == 3):
            raise lines.fail(f"{words[1]} {'needs' if kind.has_target else 'takes no'} number")
        if len(words) == 3 and not is_written_whole_number(words[2]):
            raise lines.fail(f"the target {shown(words[2])} is not a whole number >= 0")
        constraints[letter] = (kind, int(words[2]) if len(words) == 3 else None)
    return constraints


def _read_dominoes(lines: _Lines) -> list[tuple[int, int]]:
    """The domino lines."""
    dominoes = []
    for _ in range(lines.next_count("the number of dominoes")):
        words = lines.next_words("a domino line")
        if len(words) != 2 or not all(is_written_whole_number(w) for w in words):
            raise lines.fail(f"expected a domino 'a b' with whole pips >= 0, found {shown(' '.join(words))}")
        dominoes.append((int(words[0]), int(words[1])))
    return dominoes


def write_texts(puzzles: Sequence[Puzzle]) -> str:
    """Puzzles in the text format, a blank line between them: `read_text` gives them all back."""
    return "\n".join(map(write_text, puzzles))


def write_text(puzzle: Puzzle) -> str:
    """The puzzle in the text format, after a line with its difficulty when it has one; `empty` regions become
    `#` cells."""
    constrained = [region for region in puzzle.regions if region.rule.constrains]
    for region in constrained:
        if region.kind not in CODE_BY_KIND:
            raise PipsError(f"{puzzle.describe()}: the text format has no keyword for {region.kind} regions")
    if len(constrained) > len(REGION_LETTERS):
        raise PipsError(
            f"{puzzle.describe()}: {len(constrained)} constrained regions; the text format has letters for "
            f"{len(REGION_LETTERS)}"
        )
    letters = _letters(constrained)
    mark = dict.fromkeys(puzzle.cells, "#")
    for letter, region in zip(letters, constrained):
        mark.update(dict.fromkeys(region.cells, letter))
    height = max(r for r, _ in puzzle.cells) + 1
    width = max(c for _, c in puzzle.cells) + 1
    if height * width > MAX_BOARD_CHARACTERS:
        raise PipsError(f"{puzzle.describe()}: the text format writes every cell from row 0, column 0: "
                        f"{height:,} x {width:,} is too large; use JSON")
    lines = [str(puzzle.origin.difficulty)] if puzzle.origin.difficulty in DIFFICULTIES else []
    lines.append(str(height))
    lines += ["".join(mark.get((r, c), ".") for c in range(width)) for r in range(height)]
    lines.append(str(len(constrained)))
    for letter, region in zip(letters, constrained):
        target = "" if region.target is None else f" {region.target}"
        lines.append(f"{letter} {CODE_BY_KIND[region.kind]}{target}")
    lines.append(str(len(puzzle.dominoes)))
    lines += [f"{a} {b}" for a, b in puzzle.dominoes]
    return "\n".join(lines) + "\n"


def _letters(regions: Sequence[Region]) -> list[str]:
    """A letter for each region: the one it was read with, else the first of `REGION_LETTERS` not taken, so
    that a puzzle read from text is written with the letters its messages named."""
    kept = {region.letter for region in regions if region.letter}
    spare = (letter for letter in REGION_LETTERS if letter not in kept)
    taken: set[str] = set()
    letters = []
    for region in regions:
        letter = region.letter if region.letter and region.letter not in taken else next(spare)
        taken.add(letter)
        letters.append(letter)
    return letters
