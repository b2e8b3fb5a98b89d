"""The board as box-drawing text for a plain terminal: a puzzle's regions, or a solution's dominoes.

Each cell is one text line tall and a few characters wide, with border lines between cells. A border has
a weight: a puzzle draws heavy lines around regions and light lines between cells of one region; a
solution draws light lines around dominoes and none inside one. Every junction takes the box-drawing
character whose four arms have the weights of the borders meeting there (including mixed light/heavy
ones), found by its Unicode name rather than written out as an 80-entry table.
"""

from __future__ import annotations

import textwrap
import unicodedata
from collections.abc import Collection, Hashable, Mapping

from pipscover.model import Cell, Puzzle, Solution
from pipscover.render import Layout

NONE, LIGHT, HEAVY = 0, 1, 2
HORIZONTAL = {NONE: " ", LIGHT: "─", HEAVY: "━"}
VERTICAL = {NONE: " ", LIGHT: "│", HEAVY: "┃"}
# Drawn side by side while both boards fit in this many columns; stacked otherwise.
SIDE_BY_SIDE_WIDTH = 120
GAP = "    "
EMPTY_MARK = "·"
HIGHLIGHT_FILL = "░"  # pads a highlighted cell's text instead of spaces


def _junctions() -> dict[tuple[int, int, int, int], str]:
    """Box-drawing characters by the weights of their (up, down, left, right) arms.

    Names read like `DOWN LIGHT AND RIGHT HEAVY` or `LIGHT DOWN AND RIGHT`; a part without a weight
    takes the other part's. Names with other words (DOUBLE, DASH, ARC...) are not junctions we draw.
    """
    directions = {"UP": (0,), "DOWN": (1,), "LEFT": (2,), "RIGHT": (3,), "VERTICAL": (0, 1), "HORIZONTAL": (2, 3)}
    weights = {"LIGHT": LIGHT, "HEAVY": HEAVY}
    table = {(NONE, NONE, NONE, NONE): " "}
    for code in range(0x2500, 0x2580):
        parts = [part.split() for part in unicodedata.name(chr(code)).removeprefix("BOX DRAWINGS ").split(" AND ")]
        if any(word not in directions and word not in weights for part in parts for word in part):
            continue
        named = [weights[word] for part in parts for word in part if word in weights]
        arms = [NONE] * 4
        for part in parts:
            weight = next((weights[word] for word in part if word in weights), named[0])
            for word in part:
                for arm in directions.get(word, ()):
                    arms[arm] = weight
        up, down, left, right = arms
        table.setdefault((up, down, left, right), chr(code))
    return table


JUNCTIONS = _junctions()


def draw_puzzle(puzzle: Puzzle, highlight: Collection[Cell] = ()) -> str:
    """The board with region outlines and labels, then the dominoes; `highlight` cells are shaded.

    >>> from pipscover.model import Puzzle
    >>> print(draw_puzzle(Puzzle.build([("sum", [(0, 0), (0, 1)], 4)], [(1, 3)])))
    ┏━━━┯━━━┓
    ┃ 4 │   ┃
    ┗━━━┷━━━┛
    dominoes: 1|3
    """
    layout, width = Layout.of(puzzle.cells), _cell_width(puzzle)
    lines = _region_board(puzzle, layout, width, highlight)
    listing = "dominoes: " + (" ".join(f"{a}|{b}" for a, b in puzzle.dominoes) or "none")
    wrap = max(_board_width(layout, width), 60)
    lines += textwrap.wrap(listing, width=wrap, subsequent_indent=" " * len("dominoes: "))
    return "\n".join(lines)


def draw_solution(puzzle: Puzzle, solution: Solution, highlight: Collection[Cell] = ()) -> str:
    """The regions beside (or, for wide boards, above) the solution's dominoes with their pips; `highlight`
    cells are shaded on the regions.

    Cells the solution leaves uncovered are drawn as empty one-cell boxes (a position part-way through).

    >>> from pipscover.model import Placement, Puzzle, Solution
    >>> puzzle = Puzzle.build([("sum", [(0, 0), (0, 1)], 4)], [(1, 3)])
    >>> print(draw_solution(puzzle, Solution((Placement((1, 3), ((0, 0), (0, 1))),))))
    ┏━━━┯━━━┓    ┌───────┐
    ┃ 4 │   ┃    │ 1   3 │
    ┗━━━┷━━━┛    └───────┘
    """
    layout, width = Layout.of(puzzle.cells), _cell_width(puzzle, solution)
    regions = _region_board(puzzle, layout, width, highlight)
    covering = {cell: placement.cells for placement in solution.placements for cell in placement.cells}
    # A cell the solution leaves uncovered is a group of its own: an empty box.
    domino = {cell: covering.get(cell, (cell,)) for cell in puzzle.cells}
    pips = {cell: str(pip) for cell, pip in solution.grid.items() if cell in domino}
    dominoes = _board(layout, domino, pips, width, inside=NONE, between=LIGHT)
    board_width = _board_width(layout, width)
    if 2 * board_width + len(GAP) > SIDE_BY_SIDE_WIDTH:
        return "\n".join(regions + [""] + dominoes)
    return "\n".join(f"{left:<{board_width}}{GAP}{right}".rstrip() for left, right in zip(regions, dominoes))


def _cell_width(puzzle: Puzzle, solution: Solution | None = None) -> int:
    """Room for the longest label or pip with a space either side: an odd width from 3 (a square-ish cell),
    so one-character labels and pips, the common case, sit exactly in the middle."""
    texts = [region.label for region in puzzle.regions]
    if solution is not None:
        texts += [str(pip) for pip in solution.grid.values()]
    return max(3, 2 + max(map(len, texts), default=0)) | 1


def _board_width(layout: Layout, width: int) -> int:
    """How many characters wide a board's drawing is: its cells and the borders between them."""
    return layout.width * (width + 1) + 1


def _region_board(puzzle: Puzzle, layout: Layout, width: int, highlight: Collection[Cell] = ()) -> list[str]:
    """The board's lines with heavy region outlines, each label in its region's first cell.

    Every cell of an empty region shows `EMPTY_MARK`, so that no cell of one can be mistaken for a hole.
    """
    labels = {cell: EMPTY_MARK for region in puzzle.regions if not region.label for cell in region.cells}
    labels.update((min(region.cells), region.label) for region in puzzle.regions if region.label)
    return _board(layout, puzzle.region_index, labels, width, inside=LIGHT, between=HEAVY, highlight=highlight)


def _board(
    layout: Layout, group: Mapping[Cell, Hashable], text: Mapping[Cell, str], width: int, inside: int, between: int,
    highlight: Collection[Cell] = (),
) -> list[str]:
    """Draw the cells of `group` (cell -> its group) with `text` centred in cells `width` characters wide
    (padded with `HIGHLIGHT_FILL` in `highlight` cells).

    A border between two cells of one group has weight `inside`; between different groups, or between a
    cell and a hole, `between`. The result has 2 * layout.height + 1 lines, without trailing spaces.
    """
    # The drawing's cells with a ring of holes around them, so neighbours never fall off the edge.
    grid: list[list[Hashable | None]] = [[None] * (layout.width + 2) for _ in range(layout.height + 2)]
    shown = [[""] * layout.width for _ in range(layout.height)]
    for cell, key in group.items():
        row, column = layout.position(cell)
        grid[row + 1][column + 1] = key
        fill = HIGHLIGHT_FILL if cell in highlight else " "
        shown[row][column] = f"{text.get(cell, ''):{fill}^{width}}"

    def border(a: Hashable | None, b: Hashable | None) -> int:
        if a is None and b is None:
            return NONE
        return inside if a == b else between

    lines = []
    for row in range(layout.height + 1):
        above, below = grid[row], grid[row + 1]
        line = []
        for column in range(layout.width + 1):
            right = border(above[column + 1], below[column + 1])
            up = border(above[column], above[column + 1])
            down = border(below[column], below[column + 1])
            left = border(above[column], below[column])
            line.append(JUNCTIONS[up, down, left, right])
            if column < layout.width:
                line.append(HORIZONTAL[right] * width)
        lines.append("".join(line).rstrip())
        if row < layout.height:
            line = []
            for column in range(layout.width + 1):
                line.append(VERTICAL[border(below[column], below[column + 1])])
                if column < layout.width:
                    line.append(shown[row][column] or " " * width)
            lines.append("".join(line).rstrip())
    return lines
