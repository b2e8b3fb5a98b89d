"""The model validates once and compares solutions by what they put on the board."""

import pytest

from pipscover import PipsError, Placement, Puzzle, Solution
from pipscover.model import Origin, Region, RegionKind
from pipscover.model.check import problems


def two_cell_puzzle(kind="sum", target=3, dominoes=((1, 2),)) -> Puzzle:
    return Puzzle.build([(kind, [(0, 0), (0, 1)], target)], dominoes, Origin("mine.json", None, "easy"))


@pytest.mark.parametrize(
    ("regions", "dominoes", "message"),
    [
        (
            [("sum", [(0, 0), (0, 1)], 3), ("empty", [(0, 1), (0, 2), (0, 3)], None)],
            [(1, 2), (0, 0)],
            "cell [0, 1] is in both the sum-3 region on the left and the region without a rule in the centre",
        ),
        ([("sum", [], 3), ("empty", [(0, 0), (0, 1)], None)], [(1, 2)], "the 1st region in the file has no cells"),
        ([("sum", [(0, 0), (0, 1)], None)], [(1, 2)], "the sum region in the centre needs a target"),
        ([("equals", [(0, 0), (0, 1)], 4)], [(1, 2)], "the all-equal region in the centre takes no target"),
        ([("sum", [(0, 0), (0, 1)], -1)], [(1, 2)], "the sum region in the centre has target -1; targets are"),
        ([("sum", [(0, 0), (0, 1)], 2.5)], [(1, 2)], "targets are whole numbers >= 0"),
        ([("empty", [(0, 0), (0, 1)], None)], [(1, -2)], "two whole pip counts >= 0"),
        ([("empty", [(0, 0), (0, 1), (0, 2)], None)], [(1, 2)], "the board has 3 cells but 1 dominoes cover 2"),
        ([("empty", [(0, 0), (0, 1)], None)], [(1, 2), (3, 4)], "the board has 2 cells but 2 dominoes cover 4"),
        ([("bigger", [(0, 0), (0, 1)], 3)], [(1, 2)], "the region in the centre has unknown type 'bigger'"),
        ([("empty", [(0, 0), (0, -1)], None)], [(1, 2)], "the 1st region in the file has a malformed cell [0, -1]"),
        ([("empty", [(0, 0), (0, 0)], None)], [(1, 2)],
         "the region without a rule in the centre lists cell [0, 0] twice"),
    ],
)
def test_invalid_puzzles_are_refused_with_a_message_naming_the_puzzle(regions, dominoes, message):
    with pytest.raises(PipsError, match="mine.json") as raised:
        Puzzle.build(regions, dominoes, Origin("mine.json"))
    assert message in str(raised.value)


def test_an_untileable_board_is_a_puzzle_not_an_error():
    puzzle = Puzzle.build([("empty", [(0, 0), (0, 2)], None)], [(1, 1)])
    assert puzzle.adjacent_pairs == ()


def test_solutions_compare_by_tiling_and_pips():
    flipped_double = Solution((Placement((2, 2), ((0, 1), (0, 0))),))
    assert flipped_double == Solution((Placement((2, 2), ((0, 0), (0, 1))),))
    assert Solution((Placement((1, 2), ((0, 0), (0, 1))),)) == Solution((Placement((2, 1), ((0, 1), (0, 0))),))
    assert Solution((Placement((1, 2), ((0, 0), (0, 1))),)) != Solution((Placement((1, 2), ((0, 1), (0, 0))),))


@pytest.mark.parametrize(
    ("kind", "target", "values", "holds"),
    [
        ("empty", None, [5, 0], True),
        ("equals", None, [3, 3, 3], True),
        ("equals", None, [3, 4], False),
        ("unequal", None, [1, 2, 3], True),
        ("unequal", None, [1, 2, 1], False),
        ("sum", 6, [1, 2, 3], True),
        ("less", 6, [1, 2, 3], False),
        ("less", 7, [1, 2, 3], True),
        ("greater", 5, [1, 2, 3], True),
        ("greater", 6, [1, 2, 3], False),
    ],
)
def test_region_rules(kind, target, values, holds):
    region_cells = tuple((0, i) for i in range(len(values)))
    assert Region(RegionKind(kind), region_cells, target).holds(values) is holds


def test_checker_names_every_problem():
    puzzle = two_cell_puzzle()
    assert problems(puzzle, Solution((Placement((1, 2), ((0, 0), (0, 1))),))) == []
    assert problems(puzzle, Solution((Placement((1, 2), ((0, 0), (0, 2))),))) == [
        "the [1|2] on row 1, columns 1 and 3: row 1, column 3 is not on the board",
        "the [1|2] on row 1, columns 1 and 3: the cells are not side by side",
        "not covered: row 1, column 2",
    ]
    wrong_domino = problems(puzzle, Solution((Placement((2, 2), ((0, 0), (0, 1))),)))
    assert "the [1|2] is not placed; the puzzle has 1" in wrong_domino
    assert "the sum-3 region breaks its rule with pips 2 and 2" in " ".join(wrong_domino).replace(" in the centre", "")
