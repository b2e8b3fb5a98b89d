"""The board as a standalone SVG picture, in the manner of the NYT: soft-coloured regions with their
labels in small diamonds, and, given a solution, white dominoes with their pips.

The output is deterministic (same puzzle, same bytes) and takes time linear in the board: one `rect` of
class `cell` per cell, one outline per region (a thick stroke along the region's edge, clipped to the
region so it shows inside only and neighbouring outlines never overlap), and one `rect` of class
`domino` per placement.
"""

from __future__ import annotations

import textwrap
from collections.abc import Callable, Collection, Iterable, Mapping
from html import escape

from pipscover.model import Cell, Puzzle, Region, Solution
from pipscover.render import Layout

CELL = 40
# (fill, outline) pairs; neighbouring regions get different pairs.
PALETTE = (
    ("#f6c9d8", "#c4507f"),
    ("#d8ccf1", "#7657b5"),
    ("#bfe4de", "#2b8b7e"),
    ("#fcd7b1", "#c56f22"),
    ("#c8dcf5", "#3a70b5"),
    ("#d5ecc2", "#56963a"),
    ("#f5e6a6", "#a88a17"),
    ("#e9cfc0", "#9a5d3c"),
)
EMPTY_FILL = "#e9e4db"
BACKGROUND = "#ffffff"
INK = "#2e2b27"
HIGHLIGHT = "#f2b705"  # the cells a hint concerns: a translucent wash and a border of this colour
# A caption under the board (a hint's sentence): its font size, the height of its lines, and the fewest
# characters a line holds (a board of a cell or two is widened for them); a character is about 0.55 em wide.
CAPTION_SIZE = 14
CAPTION_LINE = 18
CAPTION_CHARACTERS = 24
# Where a die face can have a spot, as fractions of a cell, and which spots each pip count uses.
SPOTS = {
    "nw": (0.28, 0.28), "ne": (0.72, 0.28),
    "w": (0.28, 0.5), "c": (0.5, 0.5), "e": (0.72, 0.5),
    "sw": (0.28, 0.72), "se": (0.72, 0.72),
}
DIE_FACES = {
    0: (),
    1: ("c",),
    2: ("nw", "se"),
    3: ("nw", "c", "se"),
    4: ("nw", "ne", "sw", "se"),
    5: ("nw", "ne", "c", "sw", "se"),
    6: ("nw", "ne", "w", "e", "sw", "se"),
}
# The top left corner of a cell in the picture.
Corner = Callable[[Cell], tuple[float, float]]


def draw_svg(puzzle: Puzzle, solution: Solution | None = None, highlight: Collection[Cell] = (), ids: str = "",
             settled: Mapping[Cell, tuple[float, int | None]] | None = None, caption: str = "") -> str:
    """A standalone SVG document of the puzzle, and of `solution` on it when one is given; `highlight` cells
    (those a hint concerns) are washed in yellow, as `rect`s of class `highlight`. `ids` starts the names of
    the clip paths, which must differ between drawings shown on one page (a notebook). `settled` shades each
    cell by how settled it is (a share from 0 to 1: the darker, the more solutions agree on its pip), as
    `rect`s of class `settled`, with the pip of a cell every solution fixes written on it. A `caption` (a hint's
    sentence) is written under the board, wrapped, as `text` of class `caption`, and ends the title.

    Pips are drawn as die spots when every pip is at most 6, as numbers otherwise.

    >>> from pipscover.model import Puzzle
    >>> draw_svg(Puzzle.build([("sum", [(0, 0), (0, 1)], 4)], [(1, 3)])).count('class="cell"')
    2
    """
    layout = Layout.of(puzzle.cells)
    margin = max(CELL / 2, max((_tag_radius(region.label) for region in puzzle.regions), default=0) + 2)

    def corner(cell: Cell) -> tuple[float, float]:
        row, column = layout.position(cell)
        return margin + column * CELL, margin + row * CELL

    captions, width, height = _caption(caption, 2 * margin + layout.width * CELL, 2 * margin + layout.height * CELL)
    colours = region_colours(puzzle)
    parts = [
        (
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{_n(width)}" height="{_n(height)}" '
            f'viewBox="0 0 {_n(width)} {_n(height)}" font-family="Helvetica, Arial, sans-serif">'
        ),
        f"<title>{escape(puzzle.describe() + (f': {caption}' if caption else ''), quote=False)}</title>",
        f'<rect class="background" width="100%" height="100%" fill="{BACKGROUND}"/>',
    ]
    for index, region in enumerate(puzzle.regions):
        fill = PALETTE[colours[index]][0] if index in colours else EMPTY_FILL
        for cell in region.cells:
            x, y = corner(cell)
            parts.append(
                f'<rect class="cell" x="{_n(x)}" y="{_n(y)}" width="{CELL}" height="{CELL}" '
                f'fill="{fill}" stroke="{BACKGROUND}" stroke-width="2"/>'
            )
    for index, region in enumerate(puzzle.regions):
        if index in colours:
            parts += _outline(f"{ids}region-{index}", index, region, puzzle.region_index, corner,
                              PALETTE[colours[index]][1])
    for cell in sorted(set(highlight) & set(puzzle.region_index)):
        x, y = corner(cell)
        parts.append(
            f'<rect class="highlight" x="{_n(x + 2)}" y="{_n(y + 2)}" width="{CELL - 4}" height="{CELL - 4}" '
            f'fill="{HIGHLIGHT}" fill-opacity="0.45" stroke="{HIGHLIGHT}" stroke-width="3"/>'
        )
    for cell, (share, pip) in sorted((settled or {}).items()):
        x, y = corner(cell)
        parts.append(f'<rect class="settled" x="{_n(x + 2)}" y="{_n(y + 2)}" width="{CELL - 4}" height="{CELL - 4}" '
                     f'fill="{INK}" fill-opacity="{_n(0.75 * share)}"><title>{share:.0%}</title></rect>')
        if pip is not None:
            parts.append(_text(str(pip), x + CELL / 2, y + CELL / 2, CELL * 0.45, BACKGROUND))
    if solution is not None:
        parts += _dominoes(solution, puzzle, corner)
    # As in the NYT, a label sits on the outer corner of its region's last cell, which is on the region's edge.
    for index, region in enumerate(puzzle.regions):
        if index in colours:
            x, y = corner(max(region.cells))
            parts.append(_tag(region.label, x + CELL, y + CELL, PALETTE[colours[index]][1]))
    parts += captions
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def _caption(caption: str, width: float, height: float) -> tuple[list[str], float, float]:
    """The caption's lines under a board `width` by `height`, and the picture's size with them. SVG text does not
    wrap, so the caption is cut into lines that fit the width, widened to hold 24 characters a line at least."""
    if not caption:
        return [], width, height
    width = max(width, CAPTION_CHARACTERS * CAPTION_SIZE * 0.55 + CELL / 2)
    lines = textwrap.wrap(caption, width=int((width - CELL / 2) / (CAPTION_SIZE * 0.55)))
    top = height - CELL / 4  # the board's lower margin is mostly blank
    parts = [
        f'<text class="caption" x="{_n(CELL / 4)}" y="{_n(top + (number + 1) * CAPTION_LINE)}" '
        f'font-size="{CAPTION_SIZE}" fill="{INK}">{escape(line, quote=False)}</text>'
        for number, line in enumerate(lines)
    ]
    return parts, width, top + len(lines) * CAPTION_LINE + CELL / 4


def region_colours(puzzle: Puzzle) -> dict[int, int]:
    """A palette index for every constrained region: unlike its neighbours' where the palette allows, and
    otherwise the least used so far, so the colours spread evenly over the board."""
    owner = puzzle.region_index
    neighbours: dict[int, set[int]] = {}
    for a, b in puzzle.adjacent_pairs:
        if owner[a] != owner[b]:
            neighbours.setdefault(owner[a], set()).add(owner[b])
            neighbours.setdefault(owner[b], set()).add(owner[a])
    colours: dict[int, int] = {}
    used = [0] * len(PALETTE)
    for index, region in enumerate(puzzle.regions):
        if not region.rule.constrains:
            continue
        taken = {colours[other] for other in neighbours.get(index, ()) if other in colours}
        free = [colour for colour in range(len(PALETTE)) if colour not in taken] or list(range(len(PALETTE)))
        colours[index] = min(free, key=lambda colour: used[colour])
        used[colours[index]] += 1
    return colours


def _outline(name: str, index: int, region: Region, owner: dict[Cell, int], corner: Corner, colour: str) -> list[str]:
    """The region's edge, stroked thick and clipped to the region so only its inner half shows."""
    cells = " ".join(f"M{_n(x)} {_n(y)}h{CELL}v{CELL}h-{CELL}z" for x, y in map(corner, region.cells))
    edges = []
    for cell in region.cells:
        x, y = corner(cell)
        row, column = cell
        if owner.get((row - 1, column)) != index:
            edges.append(f"M{_n(x)} {_n(y)}h{CELL}")
        if owner.get((row + 1, column)) != index:
            edges.append(f"M{_n(x)} {_n(y + CELL)}h{CELL}")
        if owner.get((row, column - 1)) != index:
            edges.append(f"M{_n(x)} {_n(y)}v{CELL}")
        if owner.get((row, column + 1)) != index:
            edges.append(f"M{_n(x + CELL)} {_n(y)}v{CELL}")
    return [
        f'<clipPath id="{name}"><path d="{cells}"/></clipPath>',
        (
            f'<path class="region" d="{"".join(edges)}" fill="none" stroke="{colour}" stroke-width="5" '
            f'stroke-dasharray="6 3" clip-path="url(#{name})"/>'
        ),
    ]


def _dominoes(solution: Solution, puzzle: Puzzle, corner: Corner) -> list[str]:
    """A rounded white tile over each placement's two cells, a line between its halves, and its pips.

    The tiles are translucent so the region colours still show through them.
    """
    spots = all(pip <= 6 for pip in solution.grid.values())
    # One size for every number, small enough for the longest.
    size = min(0.5, 1.1 / max((len(str(pip)) for pip in solution.grid.values()), default=1)) * CELL
    inset = CELL * 0.08
    parts = []
    for placement in solution.placements:
        if not all(cell in puzzle.region_index for cell in placement.cells):
            continue  # not on this board: nothing to draw it on
        (x1, y1), (x2, y2) = map(corner, placement.cells)
        left, top = min(x1, x2), min(y1, y2)
        across = abs(x2 - x1) + CELL, abs(y2 - y1) + CELL
        parts.append(
            f'<rect class="domino" x="{_n(left + inset)}" y="{_n(top + inset)}" width="{_n(across[0] - 2 * inset)}" '
            f'height="{_n(across[1] - 2 * inset)}" rx="{_n(CELL * 0.16)}" fill="#ffffff" fill-opacity="0.6" '
            f'stroke="{INK}" stroke-width="1.5"/>'
        )
        if x1 != x2:
            middle = max(x1, x2)
            parts.append(_line(middle, top + 3 * inset, middle, top + CELL - 3 * inset))
        else:
            middle = max(y1, y2)
            parts.append(_line(left + 3 * inset, middle, left + CELL - 3 * inset, middle))
        for cell, pip in zip(placement.cells, placement.domino):
            parts += _pips(pip, *corner(cell), spots, size)
    return parts


def _line(x1: float, y1: float, x2: float, y2: float) -> str:
    return f'<line x1="{_n(x1)}" y1="{_n(y1)}" x2="{_n(x2)}" y2="{_n(y2)}" stroke="{INK}" stroke-opacity="0.5"/>'


def _pips(pip: int, x: float, y: float, spots: bool, size: float) -> Iterable[str]:
    """A half domino's pips: die spots, or the number (`size` high) when pips run past 6."""
    if spots:
        for name in DIE_FACES[pip]:
            u, v = SPOTS[name]
            yield f'<circle cx="{_n(x + u * CELL)}" cy="{_n(y + v * CELL)}" r="{_n(CELL * 0.075)}" fill="{INK}"/>'
    else:
        yield _text(str(pip), x + CELL / 2, y + CELL / 2, size, INK)


def _tag_radius(label: str) -> float:
    """Half the diagonal of a label's diamond: it grows with the label so '>10' still fits."""
    return CELL * (0.2 + 0.06 * len(label)) if label else 0


def _tag(label: str, x: float, y: float, colour: str) -> str:
    """The NYT's label diamond, centred on the point (x, y)."""
    r = _tag_radius(label)
    points = f"{_n(x)},{_n(y - r)} {_n(x + r)},{_n(y)} {_n(x)},{_n(y + r)} {_n(x - r)},{_n(y)}"
    return (
        f'<g class="label"><polygon points="{points}" fill="{colour}" stroke="{BACKGROUND}" stroke-width="1.5"/>'
        f"{_text(label, x, y, CELL * 0.26, '#ffffff')}</g>"
    )


def _text(text: str, x: float, y: float, size: float, colour: str) -> str:
    """Bold text centred on (x, y); the baseline is set by hand, as renderers differ on `dominant-baseline`."""
    return (
        f'<text x="{_n(x)}" y="{_n(y + 0.36 * size)}" font-size="{_n(size)}" font-weight="bold" fill="{colour}" '
        f'text-anchor="middle">{escape(text, quote=False)}</text>'
    )


def _n(value: float) -> str:
    """A coordinate written short and the same way every time: 12, 12.5, 12.25."""
    return f"{value:.2f}".rstrip("0").rstrip(".")
