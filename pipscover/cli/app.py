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


def _print_version(asked: bool) -> None:
    if asked:
        from pipscover.version import __version__

        typer.echo(f"pipscover {__version__}")
        raise typer.Exit()


@app.callback()
def _options(
    version: bool = typer.Option(False, "--version", is_eager=True, callback=_print_version, help="Print the version."),
) -> None:
    """Solve, count and export Pips puzzles as exact cover and SAT."""
