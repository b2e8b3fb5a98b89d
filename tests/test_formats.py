"""Readers and writers: the NYT JSON as published, the text format, and proposed solutions."""

import json
from dataclasses import replace

import pytest
from hypothesis import given, settings
from puzzle_factory import puzzles

from conftest import EXAMPLES, needs_nyt, nyt_files
from pipscover import PipsError, load, parse
from pipscover.formats import puzzle_to_nyt, write_text, write_texts
from pipscover.formats.solution import read_solutions
from pipscover.model import Origin, RegionKind
from pipscover.model.check import problems

EXAMPLE_TEXT = (EXAMPLES / "first.txt").read_text()


@needs_nyt
def test_every_published_nyt_solution_passes_the_checker():
    checked = 0
    for file in nyt_files():
        for puzzle in load(file):
            assert puzzle.origin.date == file.stem
            assert problems(puzzle, puzzle.published_solution) == [], puzzle.describe()
            written = puzzle_to_nyt(puzzle, puzzle.published_solution)
            assert parse(json.dumps(written), "again.json")[0].published_solution == puzzle.published_solution
            checked += 1
    assert checked == 3 * len(nyt_files())


@needs_nyt
def test_a_day_file_gives_one_puzzle_per_difficulty():
    file = nyt_files()[0]
    assert [p.origin.difficulty for p in load(file)] == ["easy", "medium", "hard"]
    (hard,) = load(file, "hard")
    assert hard.origin.describe() == f"{file} (hard)"


def test_the_text_format_reads_regions_free_cells_and_dominoes():
    puzzle = parse(EXAMPLE_TEXT, "first.txt")[0]
    kinds = [region.kind for region in puzzle.regions]
    assert kinds[:4] == ["less", "sum", "equals", "sum"] and len(kinds) == 10
    assert puzzle.regions[-1].kind is RegionKind.EMPTY and puzzle.regions[-1].cells == ((3, 0),)
    assert puzzle.dominoes[0] == (4, 3) and len(puzzle.cells) == 16


def test_an_ellipsis_stands_for_three_holes():
    text = "1\n…AA\n1\nA SUM 3\n1\n1 2\n"
    assert parse(text, "x.txt")[0].cells == ((0, 3), (0, 4))


def test_the_text_format_round_trips():
    puzzle = parse(EXAMPLE_TEXT, "first.txt")[0]
    again = parse(write_text(puzzle), "again.txt")[0]
    assert again == puzzle


def test_a_text_file_holds_a_day_and_reads_back_whole():
    day = [replace(parse(EXAMPLE_TEXT, "first.txt")[0], origin=Origin("day.json", "2025-09-15", level))
           for level in ("easy", "medium", "hard")]
    text = write_texts(day)
    again = parse(text, "day.txt")
    assert [(p.regions, p.dominoes, p.origin.difficulty) for p in again] == [
        (p.regions, p.dominoes, p.origin.difficulty) for p in day]
    assert [p.origin.difficulty for p in parse(text, "day.txt", "medium")] == ["medium"]
    assert [p.origin.number for p in again] == [None] * 3  # their difficulties tell them apart
    with pytest.raises(PipsError, match="day.txt: has no 'extreme' puzzle"):
        parse(text, "day.txt", "extreme")


def test_puzzles_without_a_difficulty_follow_one_another_after_a_blank_line_and_are_numbered():
    two = parse(EXAMPLE_TEXT + "\n\n" + EXAMPLE_TEXT, "two.txt")
    assert [puzzle.origin.number for puzzle in two] == [1, 2] and two[1].describe() == "two.txt (puzzle 2)"
    assert two[0].origin.as_json() == {"file": "two.txt", "date": None, "difficulty": None, "number": 1}


@pytest.mark.parametrize(("after", "line"), [("hello\n", 25), ("\n\n5 1\n", 27), ("A SUM 3\n", 25)])
def test_text_after_the_dominoes_that_starts_no_puzzle_is_refused_naming_its_line(after, line):
    with pytest.raises(PipsError, match=f"^first.txt: line {line}: .* follows the dominoes of puzzle 1"):
        parse(EXAMPLE_TEXT + after, "first.txt")


@settings(max_examples=60)
@given(puzzles())
def test_the_nyt_form_round_trips(puzzle):
    document = json.dumps(puzzle_to_nyt(puzzle))
    assert parse(document, "x.json")[0] == puzzle


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "the file is empty"),
        ("two\n", "expected the number of board rows"),
        ("1\nA?\n", "has '?'"),
        ("1\nAA\n1\nA SUMS 3\n", "TYPE one of EQ NEQ SUM LT GT"),
        ("1\nAA\n1\nA SUM\n", "SUM needs number"),
        ("1\nAA\n1\nA EQ 2\n", "EQ takes no number"),
        ("1\nAA\n1\nA SUM x\n", "is not a whole number"),
        ("1\nAA\n1\nA SUM 3\n1\n1\n", "expected a domino"),
        ("1\nAA\n1\nA SUM 3\n2\n1 2\n", "the text ends where a domino line should be"),
        ("1\nAB\n1\nA SUM 3\n1\n1 2\n", "region B, which has no constraint line"),
        ("1\nAA\n2\nA SUM 3\nB EQ\n1\n1 2\n", "region B has a constraint but no cells"),
        ("1\nAAA\n1\nA SUM 3\n1\n1 2\n", "the board has 3 cells"),
    ],
)
def test_malformed_text_is_refused_with_a_clear_message(text, message):
    with pytest.raises(PipsError, match="bad.txt") as raised:
        parse(text, "bad.txt")
    assert message in str(raised.value)


@pytest.mark.parametrize(
    ("document", "message"),
    [
        ('{"dominoes": [[1, 2]], "regions": [', "malformed JSON"),
        ("[1, 2]", "expected a JSON object"),
        ('{"printDate": "2025-01-01"}', "neither an NYT day"),
        ('{"dominoes": null, "regions": null}', "blank or incomplete"),
        ('{"dominoes": [[1]], "regions": []}', "'dominoes' must be a list of [a, b] pairs"),
        ('{"dominoes": [[1, 2]], "regions": [{"type": "sum"}]}', "a list of 'indices'"),
        ('{"dominoes": [[1, 2]], "regions": [{"indices": [[0, 0], [0, 1]], "type": "odd"}]}', "unknown type 'odd'"),
        ('{"dominoes": [[1, 2]], "regions": [{"indices": [[0, 0], [0, 1]], "type": "sum"}]}', "needs a target"),
        (
            '{"dominoes": [[1, 2]], "regions": [{"indices": [[0, 0], [0, 1]], "type": "empty"}], "solution": [[0, 0]]}',
            "every 'solution' entry",
        ),
    ],
)
def test_malformed_nyt_json_is_refused_with_a_clear_message(document, message):
    with pytest.raises(PipsError, match="bad.json") as raised:
        parse(document, "bad.json")
    assert message in str(raised.value)


def test_asking_a_day_for_a_missing_difficulty_is_an_error():
    with pytest.raises(PipsError, match="has no 'hard' puzzle"):
        parse(
            '{"easy": {"dominoes": [[1, 2]], "regions": [{"indices": [[0, 0], [0, 1]], "type": "empty"}]}}',
            "d.json",
            "hard",
        )


@pytest.mark.parametrize(("text", "held"), [
    (EXAMPLE_TEXT, "its puzzle names"),
    (EXAMPLE_TEXT + "\n\n" + EXAMPLE_TEXT, "its 2 puzzles name"),
    ('{"dominoes": [[1, 2]], "regions": [{"indices": [[0, 0], [0, 1]], "type": "empty"}]}', "its puzzle names"),
])
def test_a_difficulty_that_a_file_cannot_choose_by_is_refused(text, held):
    """`load("examples/first.txt", "hard")` read the puzzle and ignored the difficulty; a single NYT puzzle
    object took it as its label. One file of a folder still comes whole (the folder chooses among its files).
    The remedy names the API's argument: it said "drop -d", the command line's word, to a caller of `parse`."""
    with pytest.raises(PipsError, match=f"^plain: {held} no difficulty, so there is no hard one to choose; "
                       "leave out the difficulty argument$"):
        parse(text, "plain", "hard")
    kept = parse(text, "plain", "hard", in_folder=True)
    assert kept == parse(text, "plain") and {puzzle.origin.difficulty for puzzle in kept} == {None}


def test_missing_files_and_folders_are_named(tmp_path):
    with pytest.raises(PipsError, match="no such file"):
        load(tmp_path / "nothing.json")
    with pytest.raises(PipsError, match="is a folder"):
        load(tmp_path)


def test_solutions_are_read_in_every_form():
    document = '{"dominoes": [[1, 2]], "regions": [{"indices": [[0, 0], [0, 1]], "type": "sum", "target": 3}]}'
    puzzle = parse(document, "p.json")[0]
    placement = [{"domino": [2, 1], "cells": [[0, 1], [0, 0]]}]
    forms = [
        json.dumps({"solutions": [placement]}),
        json.dumps(placement),
        json.dumps([[[0, 0], [0, 1]]]),
        json.dumps({"solution": [[[0, 0], [0, 1]]]}),
    ]
    for form in forms:
        (solution,) = read_solutions(form, "s.json", puzzle)
        assert problems(puzzle, solution) == []
    with pytest.raises(PipsError, match="malformed placement"):
        read_solutions('[{"domino": [1, 2]}]', "s.json", puzzle)
