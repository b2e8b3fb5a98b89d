"""The typer application every command module registers itself on."""

import typer

app = typer.Typer(
    name="pipscover",
    help="Solve, count and export Pips puzzles as exact cover and SAT.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_show_locals=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)
