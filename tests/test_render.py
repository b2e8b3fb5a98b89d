"""The terminal and SVG drawings: exact pictures of small boards, and every NYT puzzle drawn without fault."""

from __future__ import annotations

import functools
import re
import xml.etree.ElementTree as ET

from conftest import needs_nyt, nyt_files
from pipscover.formats import load, parse
from pipscover.model import Placement, Puzzle, Solution, solution_from_grid
from pipscover.render import Layout
from pipscover.render.svg import draw_svg
from pipscover.render.terminal import GAP, JUNCTIONS, draw_puzzle, draw_solution

SVG = "{http://www.w3.org/2000/svg}"

# A ring of eight cells around a hole, with a double and a pip above 9.
RING = Puzzle.build(
    [
        ("sum", [(0, 0), (1, 0)], 13),
        ("unequal", [(0, 1), (0, 2)], None),
        ("empty", [(1, 2), (2, 2)], None),
        ("equals", [(2, 0), (2, 1)], None),
    ],
    [(12, 1), (5, 0), (4, 4), (3, 7)],
)
RING_SOLUTION = Solution(
    (
        Placement((12, 1), ((0, 0), (1, 0))),
        Placement((5, 0), ((0, 1), (0, 2))),
        Placement((4, 4), ((2, 0), (2, 1))),
        Placement((3, 7), ((1, 2), (2, 2))),
    )
)


# A 4x4 board with every kind of region, drawn exactly in the golden tests below.
SAMPLE_TEXT = """4
AABB
CDDE
CFFE
###E
6
A SUM 7
B EQ
C LT 4
D GT 8
E SUM 6
F NEQ
8
4 3
5 5
1 0
6 4
2 2
0 3
5 1
0 2
"""


def first_example() -> tuple[Puzzle, Solution]:
    """The sample board and one of its solutions."""
    rows = ["4 3 5 5", "1 6 4 2", "0 0 3 2", "5 1 0 2"]
    grid = {(r, c): int(pip) for r, row in enumerate(rows) for c, pip in enumerate(row.split())}
    tiling = [
        ((0, 0), (0, 1)), ((0, 2), (0, 3)), ((1, 0), (2, 0)), ((1, 1), (1, 2)),
        ((1, 3), (2, 3)), ((2, 1), (2, 2)), ((3, 0), (3, 1)), ((3, 2), (3, 3)),
    ]
    return parse(SAMPLE_TEXT, "sample.txt")[0], solution_from_grid(tiling, grid)


@functools.cache
def nyt_puzzles() -> tuple[Puzzle, ...]:
    """The archive's puzzles, read once for both tests that draw them (0.6 s of CPU a read)."""
    return tuple(puzzle for path in nyt_files() for puzzle in load(path))


def board_lines(drawing: str) -> list[str]:
    """A puzzle drawing's board, without the domino list under it."""
    lines = drawing.split("\n")
    return lines[: next(i for i, line in enumerate(lines) if line.startswith("dominoes:"))]


def test_every_light_and_heavy_junction_has_a_character():
    assert len(JUNCTIONS) == 3**4
    assert JUNCTIONS[1, 1, 1, 1] == "┼" and JUNCTIONS[2, 2, 2, 2] == "╋" and JUNCTIONS[0, 2, 0, 1] == "┎"


def test_layout_keeps_short_gaps_and_shrinks_long_ones():
    layout = Layout.of([(0, 0), (3, 1), (40, 2)])
    assert [layout.position(cell) for cell in [(0, 0), (3, 1), (40, 2)]] == [(0, 0), (3, 1), (6, 2)]
    assert (layout.height, layout.width) == (7, 3)


def test_first_example_puzzle_drawing():
    puzzle, _ = first_example()
    assert draw_puzzle(puzzle) == (
        "┏━━━━━┯━━━━━┳━━━━━┯━━━━━┓\n"
        "┃  7  │     ┃  =  │     ┃\n"
        "┣━━━━━╈━━━━━╇━━━━━╈━━━━━┫\n"
        "┃ <4  ┃ >8  │     ┃  6  ┃\n"
        "┠─────╊━━━━━┿━━━━━╉─────┨\n"
        "┃     ┃  ≠  │     ┃     ┃\n"
        "┣━━━━━╇━━━━━┿━━━━━╉─────┨\n"
        "┃  ·  │  ·  │  ·  ┃     ┃\n"
        "┗━━━━━┷━━━━━┷━━━━━┻━━━━━┛\n"
        "dominoes: 4|3 5|5 1|0 6|4 2|2 0|3 5|1 0|2"
    )


def test_first_example_solution_drawing_shows_regions_beside_dominoes():
    puzzle, solution = first_example()
    assert draw_solution(puzzle, solution) == (
        "┏━━━━━┯━━━━━┳━━━━━┯━━━━━┓    ┌───────────┬───────────┐\n"
        "┃  7  │     ┃  =  │     ┃    │  4     3  │  5     5  │\n"
        "┣━━━━━╈━━━━━╇━━━━━╈━━━━━┫    ├─────┬─────┴─────┬─────┤\n"
        "┃ <4  ┃ >8  │     ┃  6  ┃    │  1  │  6     4  │  2  │\n"
        "┠─────╊━━━━━┿━━━━━╉─────┨    │     ├───────────┤     │\n"
        "┃     ┃  ≠  │     ┃     ┃    │  0  │  0     3  │  2  │\n"
        "┣━━━━━╇━━━━━┿━━━━━╉─────┨    ├─────┴─────┬─────┴─────┤\n"
        "┃  ·  │  ·  │  ·  ┃     ┃    │  5     1  │  0     2  │\n"
        "┗━━━━━┷━━━━━┷━━━━━┻━━━━━┛    └───────────┴───────────┘"
    )


def test_a_hole_is_blank_and_multi_digit_pips_and_doubles_fit():
    assert draw_puzzle(RING) == (
        "┏━━━━━┳━━━━━┯━━━━━┓\n"
        "┃ 13  ┃  ≠  │     ┃\n"
        "┠─────╊━━━━━╈━━━━━┫\n"
        "┃     ┃     ┃  ·  ┃\n"
        "┣━━━━━╇━━━━━╉─────┨\n"
        "┃  =  │     ┃  ·  ┃\n"
        "┗━━━━━┷━━━━━┻━━━━━┛\n"
        "dominoes: 12|1 5|0 4|4 3|7"
    )
    assert draw_solution(RING, RING_SOLUTION).split("\n")[1:6:2] == [
        "┃ 13  ┃  ≠  │     ┃    │ 12  │  5     0  │",
        "┃     ┃     ┃  ·  ┃    │  1  │     │  3  │",
        "┃  =  │     ┃  ·  ┃    │  4     4  │  7  │",
    ]


def test_separate_pieces_far_apart_are_drawn_close():
    puzzle = Puzzle.build([("sum", [(0, 0), (0, 1)], 3), ("less", [(900, 500), (901, 500)], 100)], [(1, 2), (0, 4)])
    drawing = draw_puzzle(puzzle)
    assert len(board_lines(drawing)) == 2 * (1 + 2 + 2) + 1
    assert "<100" in drawing


def test_an_uncovered_cell_is_drawn_as_an_empty_box():
    partial = Solution(RING_SOLUTION.placements[1:])
    assert len(draw_solution(RING, partial).split("\n")) == 7


def test_wide_boards_put_the_solution_under_the_regions():
    puzzle = Puzzle.build([("empty", [(0, c) for c in range(40)], None)], [(1, 1)] * 20)
    solution = solution_from_grid([((0, c), (0, c + 1)) for c in range(0, 40, 2)], dict.fromkeys(puzzle.cells, 1))
    assert len(draw_solution(puzzle, solution).split("\n")) == 3 + 1 + 3


def test_large_boards_draw_one_element_per_cell_and_domino():
    size = 60
    tiling = [((r, c), (r, c + 1)) for r in range(size) for c in range(0, size, 2)]
    grid = {(r, c): (r * size + c) % 150 for r in range(size) for c in range(size)}
    regions = [
        ("sum", [(r, c), (r + 1, c)], grid[r, c] + grid[r + 1, c]) for r in range(0, size, 2) for c in range(size)
    ]
    solution = solution_from_grid(tiling, grid)
    puzzle = Puzzle.build(regions, [p.domino for p in solution.placements])
    # The drawings grow with the board (one rect per cell and per domino, a line per row); how fast they are
    # drawn is for benchmarks (1800 dominoes take about 0.1 s on an idle machine).
    document = draw_svg(puzzle, solution)
    assert len(svg_elements(document, "rect", "cell")) == size * size
    assert len(svg_elements(document, "rect", "domino")) == size * size // 2
    for drawing in (draw_puzzle(puzzle), draw_solution(puzzle, solution)):
        assert size < len(drawing.splitlines()) < 5 * size


def test_a_caption_is_wrapped_to_the_board_under_it():
    caption = "The sum-3 region B needs 3 from its two cells, so the domino across them is 1-2 or 0-3. " * 3
    bare, captioned = draw_svg(RING), draw_svg(RING, caption=caption)
    lines = [e.text or "" for e in svg_elements(captioned, "text", "caption")]
    assert len(lines) > 3 and " ".join(lines) == " ".join(caption.split())
    width = float(ET.fromstring(captioned).get("width", 0))
    assert all(len(line) * 0.55 * 14 <= width for line in lines)  # each line fits the picture
    board_bottom = float(ET.fromstring(bare).get("height", 0))
    assert float(ET.fromstring(captioned).get("height", 0)) > board_bottom
    assert all(float(e.get("y", 0)) > board_bottom - 20 for e in svg_elements(captioned, "text", "caption"))
    assert not svg_elements(bare, "text", "caption")


def svg_elements(document: str | ET.Element, tag: str, kind: str | None = None) -> list[ET.Element]:
    """The elements `tag` (of class `kind`) of an SVG document, given as text or parsed once (parsing is most
    of the time of drawing every NYT puzzle)."""
    root = ET.fromstring(document) if isinstance(document, str) else document
    return [e for e in root.iter(SVG + tag) if kind is None or e.get("class") == kind]


def test_svg_has_a_cell_per_cell_a_domino_per_domino_and_the_labels():
    document = draw_svg(RING, RING_SOLUTION)
    assert len(svg_elements(document, "rect", "cell")) == 8
    assert len(svg_elements(document, "rect", "domino")) == 4
    texts = [e.text for e in svg_elements(document, "text")]
    assert {"13", "≠", "="} <= set(texts) and {"12", "1", "5", "0", "4", "3", "7"} <= set(texts)
    assert texts.count("4") == 2  # the double shows both halves


def test_svg_escapes_labels_and_draws_small_pips_as_die_spots():
    puzzle, solution = first_example()
    document = draw_svg(puzzle, solution)
    assert "&lt;4" in document and "<4" not in document
    assert len(svg_elements(document, "circle")) == sum(solution.grid.values())
    assert draw_svg(puzzle, solution) == document


def test_svg_of_an_empty_puzzle_is_still_a_document():
    assert svg_elements(draw_svg(Puzzle.build([], [])), "rect", "cell") == []


@needs_nyt
def test_nyt_puzzles_and_solutions_draw_in_text():
    """Every third puzzle of the archive, over its whole span, as for SVG below: drawing all of it (1.3 s of
    CPU) ran no line of the text drawing a third does not."""
    for puzzle in nyt_puzzles()[::3]:
        rows = {row for row, _ in puzzle.cells}
        height = 2 * (max(rows) - min(rows) + 1) + 1
        drawing = draw_puzzle(puzzle)
        board = board_lines(drawing)
        assert len(board) == height, puzzle.describe()
        assert all(region.label in drawing for region in puzzle.regions)
        solution = puzzle.published_solution
        lines = draw_solution(puzzle, solution).split("\n")
        assert len(lines) == height, puzzle.describe()
        width = max(map(len, board))
        assert [line[:width].rstrip() for line in lines] == board
        # Reading the pips back row by row gives the solution's grid.
        pips = [int(pip) for line in lines for pip in re.findall(r"\d+", line[width + len(GAP):])]
        assert pips == [solution.grid[cell] for cell in puzzle.cells], puzzle.describe()


@needs_nyt
def test_nyt_puzzles_and_solutions_draw_as_svg():
    """Every third puzzle of the archive, over its whole span: every region kind and label length the archive
    has (drawing all of it, two seconds of CPU, took no path a third does not)."""
    for puzzle in nyt_puzzles()[::3]:
        for solution in (None, puzzle.published_solution):
            document = ET.fromstring(draw_svg(puzzle, solution))
            assert len(svg_elements(document, "rect", "cell")) == len(puzzle.cells)
            dominoes = 0 if solution is None else len(puzzle.dominoes)
            assert len(svg_elements(document, "rect", "domino")) == dominoes, puzzle.describe()
            labels = [e.text for e in svg_elements(document, "text")]
            assert sorted(labels) == sorted(region.label for region in puzzle.regions if region.label)
