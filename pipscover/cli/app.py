"""The typer application every command module registers itself on, and the exit codes and error line that
`pipscover.cli.run` needs before any command is loaded."""

import sys

import typer

from pipscover.errors import on_one_line

EXIT_OK, EXIT_NO, EXIT_BAD_INPUT, EXIT_TIMEOUT = 0, 1, 2, 3
EXIT_INTERRUPTED = 130  # the shell's code for Ctrl-C
EXIT_CLOSED_PIPE = 141  # the shell's code for a write to a closed pipe (SIGPIPE)

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


def error_line(message: str) -> None:
    """An error as one line on stderr, whatever the message holds: a path may contain a line break, and a
    right-to-left override or a terminal's escape sequence, written as escapes (`on_one_line`)."""
    sys.stderr.write("pipscover: error: " + on_one_line(" ".join(message.split())) + "\n")
    sys.stderr.flush()
