"""examples/tour.ipynb runs from top to bottom (nbclient, a real kernel), and the objects it shows draw
themselves: the puzzle, a solution, a drawn sample and the marginals as SVG, the results of solve, count and
hint as HTML."""

from __future__ import annotations

from html import escape

import pytest

from conftest import EXAMPLES


def test_the_tour_runs_and_its_objects_draw_themselves():
    # Imported here, not at the top: each xdist worker collects every test file, and only one runs this test.
    nbclient = pytest.importorskip("nbclient")
    import nbformat

    notebook = nbformat.read(EXAMPLES / "tour.ipynb", as_version=4)
    nbclient.NotebookClient(notebook, timeout=120, kernel_name="python3",
                            resources={"metadata": {"path": str(EXAMPLES)}}).execute()
    shown = [set(output.get("data", {})) for cell in notebook.cells if cell.cell_type == "code"
             for output in cell.outputs if output.output_type == "execute_result"]
    kinds = [("image/svg+xml" in data, "text/html" in data) for data in shown]
    assert kinds[:2] == [(True, False), (False, True)]  # the puzzle; solve's result
    assert sum(svg for svg, _ in kinds) == 4 and sum(html for _, html in kinds) >= 6
    assert not [output for cell in notebook.cells if cell.cell_type == "code" for output in cell.outputs
                if output.output_type == "error"]


def test_a_solution_is_drawn_on_its_regions_with_their_rules():
    from pipscover import load_one, solve

    puzzle = load_one(EXAMPLES / "first.txt")
    drawing = solve(puzzle).solutions[0]._repr_svg_()
    assert drawing.count('class="label"') == sum(bool(region.label) for region in puzzle.regions)


def test_a_hint_is_drawn_on_its_board_with_its_cells_highlighted():
    from pipscover import load_one
    from pipscover.hints import hint

    step = hint(load_one(EXAMPLES / "first.txt"))
    drawn = step._repr_html_()
    assert drawn.startswith("<svg") and drawn.count('class="highlight"') == len(step.cells)
    assert escape(step.reason) in drawn
