"""Cells and regions named as a player sees them (`pipscover.model.naming`): the text format's letters, else
the rule and the place on the board; one region, one name."""

import json

from conftest import needs_nyt, nyt_files
from pipscover import load, parse
from pipscover.formats import puzzle_to_nyt, write_text
from pipscover.model import Puzzle
from pipscover.model.naming import name_cell, name_cells, name_region, region_names

LETTERED = "2\nHH#\nQQ#\n2\nH LT 2\nQ SUM 5\n3\n0 1\n2 3\n0 0\n"


def test_a_cell_is_named_by_row_and_column_counted_from_one():
    assert name_cell((0, 0)) == "row 1, column 1"
    assert name_cells([(2, 0), (2, 1)]) == "row 3, columns 1 and 2"


def test_a_region_read_from_text_is_named_by_its_letter():
    [puzzle] = parse(LETTERED, "day.txt")
    assert [name_region(puzzle, index) for index in range(2)] == ["the less-than-2 region H", "the sum-5 region Q"]
    assert name_region(puzzle, 2) == "the region without a rule on the right"


def test_the_same_puzzle_from_json_is_named_by_rule_and_place_and_still_equal():
    [text] = parse(LETTERED, "day.txt")
    [nyt] = parse(json.dumps(puzzle_to_nyt(text)), "day.json")
    assert nyt == text
    assert region_names(nyt) == (
        "the less-than-2 region at the top left", "the sum-5 region at the bottom left",
        "the region without a rule on the right",
    )


def test_two_regions_that_would_share_a_name_are_told_apart_by_a_cell():
    rest = [(r, c) for r in range(6) for c in range(2) if c or r > 1]
    puzzle = Puzzle.build([("sum", [(0, 0)], 1), ("sum", [(1, 0)], 1), ("empty", rest, None)], [(1, 1)] + [(0, 0)] * 5)
    assert region_names(puzzle)[:2] == ("the sum-1 region at row 1, column 1", "the sum-1 region at row 2, column 1")


def test_the_text_writer_keeps_the_letters_it_read():
    [puzzle] = parse(LETTERED, "day.txt")
    assert write_text(puzzle) == LETTERED


@needs_nyt
def test_every_region_of_every_nyt_puzzle_has_a_name_of_its_own():
    for file in nyt_files()[:60]:
        for puzzle in load(file):
            names = region_names(puzzle)
            assert len(set(names)) == len(names), puzzle.describe()
