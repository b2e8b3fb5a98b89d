"""`pipscover plot`: a figure from sweep tables (matplotlib, imported only when the command runs)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from pipscover.cli.app import app
from pipscover.cli.common import output_folder, print_json
from pipscover.errors import counted


@app.command("plot")
def plot_command(
    tables: Annotated[list[Path], typer.Argument(help="Tables written by `pipscover sweep` (CSV).",
                                                 show_default=False)],
    output: Annotated[str, typer.Option("--output", "-o", callback=output_folder,
                                        help="The figure: a .png, .svg or .pdf file.",
                                        show_default=False)],
    kind: Annotated[str, typer.Option(
        "--kind", "-k", help="time: --y against --x per --by (log scale); counts: histogram of count; "
        "difficulty: histogram of seconds per difficulty.")] = "time",
    x: Annotated[str | None, typer.Option("--x", help="Column on the x axis (time: dominoes; counts: count; "
                                          "difficulty: seconds).")] = None,
    y: Annotated[str | None, typer.Option("--y", help="Column on the y axis of a time plot (seconds).")] = None,
    by: Annotated[str | None, typer.Option("--by", help="Column whose values get a colour each (time: backend; "
                                           "counts and difficulty: difficulty).")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print what was drawn as one JSON object.")] = False,
) -> None:
    """Draw a figure from sweep results: time against puzzle size, the distribution of counts, difficulties.

    Rows with status error are left out; timeouts are marked x on a time plot (their time is a floor).

    Examples:

      pipscover plot results.csv -o time.svg --by backend

      pipscover plot counts.csv --kind counts -o counts.png

      pipscover plot generated.csv --kind difficulty --x extra_nodes -o bands.png
    """
    from pipscover.sweep.plot import KINDS, draw, figure_name, read_tables, save

    figure_name(output)  # a name of no format written is refused before the tables are read
    rows = read_tables(tables)
    figure = draw(rows, kind, x, y, by)
    save(figure, output)
    if as_json:
        chosen = KINDS[kind]
        print_json({"output": output, "kind": kind, "rows": len(rows), "x": x or chosen.x, "y": y or chosen.y,
                    "by": by or chosen.by})
    else:
        typer.echo(f"{output}: {kind} plot of {counted(len(rows), 'row')}")
