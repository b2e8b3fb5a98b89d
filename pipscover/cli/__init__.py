"""The `pipscover` command line: each command is one module registered on the shared typer app.

A command's module, and with it the library it drives, is imported only when that command runs: `--help`
lists the commands from `COMMANDS`, so `pipscover --help` and `pipscover solve FILE` start in a fraction of
the time that importing every command would take (tests/test_cli.py checks that the list matches the
commands' own help).
"""

from __future__ import annotations

import errno
import sys
from collections.abc import Sequence
from importlib import import_module
from typing import Any

import typer
import typer.core
import typer.main

try:  # typer 0.2x carries its own copy of click; older typers use click itself
    from typer._click import exceptions as click_errors
    from typer._click import utils as click_utils
except ImportError:  # pragma: no cover
    from click import exceptions as click_errors  # type: ignore[no-redef]  # the same module, before typer 0.20
    from click import utils as click_utils  # type: ignore[no-redef]  # the same module, before typer 0.20

from pipscover.cli.app import EXIT_BAD_INPUT, EXIT_CLOSED_PIPE, EXIT_INTERRUPTED, app, error_line
from pipscover.cli.readable import humanize, usage_error
from pipscover.errors import PipsError, brief, printable_path
from pipscover.runtime.collection import fewer_collections, no_collections_at_exit

# Every command, in the order `pipscover --help` lists them (each is the module of its name under pipscover/cli),
# and the line `--help` shows for it (the first paragraph of the command's own help). A new command is one line here.
COMMANDS = {
    "solve": "Solve puzzles and draw their solutions.",
    "show": (
        "Draw puzzles, write them in the text format, or as SVG pictures (with --json: each as an NYT puzzle "
        "object with its origin)."
    ),
    "check": "Check solutions against puzzles. Exit code 0 when all are valid, 1 when one is not.",
    "encode": (
        "Write puzzles as DIMACS CNFs for stock SAT solvers and projected model counters, or as OPB for "
        "pseudo-Boolean solvers."
    ),
    "decode": "Read a SAT or PB solver's output for `pipscover encode`'s file, check the solution and draw it.",
    "certify": "Prove a puzzle's answer to anyone: write a DIMACS file and a DRAT proof that it has no model.",
    "backends": (
        "List the backends `solve -b` accepts: a one-line description each, what each can do, and the "
        "command that installs the ones that are missing."
    ),
    "count": "Count the solutions of puzzles exactly, without listing them.",
    "sample": (
        "Draw solutions uniformly at random (with replacement), each choice weighted by the exact number of "
        "solutions below it; the same --seed draws the same solutions on any machine."
    ),
    "bench": "Time the first solution (or --task) of every puzzle; print the median, worst and total time.",
    "generate": "Make a puzzle (an NYT puzzle object with its `solution`) and report how many regions it needed.",
    "sweep": "Run TASK on every PUZZLE (or every seed), one Dask task each, writing rows to --output as they come.",
    "plot": (
        "Draw a figure from sweep results: time against puzzle size, the distribution of counts, "
        "difficulties."
    ),
    "planted": "Plant a random solution on a rectangle and read ~4-cell regions of all six kinds off it.",
    "fetch": "Download NYT days into the cache; a cached day is never downloaded again.",
    "hint": "Give the next deduction a player can make: the rule, and a sentence saying why.",
    "rate": (
        "Rate puzzles easy, medium or hard from the deductions a person needs: the number of steps "
        "(which sets the rating), the guesses and the hardest rule used. Exit code 1 when a puzzle has "
        "no solution."
    ),
    "reduce": (
        "Make Pips puzzles from NP-hard problems (the published NP-hardness reductions); --solve maps "
        "answers back."
    ),
    "serve": (
        "Serve a page to play Pips on: pick a day, open a file or make a puzzle; hints, checks and "
        "counts."
    ),
}


class Interrupted(Exception):
    """Ctrl-C let through by a command that had nothing found so far to print (hint, rate, certify, encode...):
    typer turns it into exit code 130 and no word, so the group says it first."""


class LazyCommands(typer.core.TyperGroup):
    """The top-level group: lists `COMMANDS` as they are and imports a command's module when it runs."""

    def invoke(self, ctx: Any) -> Any:
        try:
            return super().invoke(ctx)
        except KeyboardInterrupt:
            raise Interrupted from None

    def list_commands(self, ctx: Any) -> list[str]:
        return list(COMMANDS)

    def get_command(self, ctx: Any, cmd_name: str) -> Any:
        if cmd_name in self.commands or cmd_name not in COMMANDS:
            return self.commands.get(cmd_name)
        return typer.core.TyperCommand(cmd_name, short_help=COMMANDS[cmd_name])  # enough for the list in --help

    def resolve_command(self, ctx: Any, args: list[str]) -> Any:
        if args and args[0] in COMMANDS and args[0] not in self.commands:
            self.commands[args[0]] = _load(args[0])
        return super().resolve_command(ctx, args)


def _load(name: str) -> Any:
    """Command `name`, built by typer after its module registered it on `app`, with readable placeholders."""
    import_module(f"pipscover.cli.{name}")
    command = typer.main.get_group(app).commands[name]
    humanize(command, _help_names())
    return command


def every_command() -> typer.core.TyperGroup:
    """The top-level group with every command loaded (for the tests that walk them all). Every command's
    module is imported first, so that typer builds the group once (loaded one by one, as `_load` does, each
    command built the group again: 1.2 s of CPU for the 19 commands, ten times what one build takes)."""
    for name in COMMANDS:
        import_module(f"pipscover.cli.{name}")
    group = command_line()
    for name in COMMANDS:
        humanize(group.commands[name], _help_names())
    return group


def _help_names() -> Any:
    """The options that ask for help (`-h` too), as `app` declares them."""
    return (app.info.context_settings or {}).get("help_option_names")


def command_line() -> LazyCommands:
    """The top-level group, with no command loaded yet."""
    group = typer.main.get_group(app)
    group.__class__ = LazyCommands
    return group  # type: ignore[return-value]  # the class was just set


def main(args: Sequence[str] | None = None) -> None:
    """Run a command and exit with its code; every failure is one line on stderr, never a traceback. The exit
    skips the interpreter's last garbage collections (`no_collections_at_exit`)."""
    no_collections_at_exit()
    sys.exit(run(args))


# A write that no retry helps (stdout redirected to a full disk, past a quota or the file size limit): one line,
# as for an -o file that cannot be written (`write_output`), where it was a traceback.
FULL = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EFBIG})


def run(args: Sequence[str] | None = None) -> int:
    """The exit code of one command line, with its errors already printed."""
    command = command_line()
    humanize(command)
    try:
        with fewer_collections():  # a command's results pile up (solve --all): see runtime/collection.py
            code = command.main(args=args, prog_name="pipscover", standalone_mode=False)
            sys.stdout.flush()  # what is still buffered fails here, not in the interpreter's last flush
    except SystemExit as done:
        # A closed stdout (`pipscover solve --all | head -1`): click silences stdout and exits 1, which would
        # read as "no solution". End quietly with the shell's code for SIGPIPE instead. (Not by restoring
        # SIGPIPE's default action: that would also kill the process on any broken socket or worker pipe.)
        # Rich's console, which typer draws --help with, ends such a write with exit code 1 of its own
        # (`Console.on_broken_pipe`, raised while handling the BrokenPipeError).
        if isinstance(sys.stdout, click_utils.PacifyFlushWrapper) or isinstance(done.__context__, BrokenPipeError):
            return EXIT_CLOSED_PIPE
        raise
    except click_errors.NoArgsIsHelpError as asked:
        sys.stdout.write(asked.format_message() + "\n")
        return 0
    except click_errors.UsageError as error:
        where = error.ctx.command_path if error.ctx is not None else "pipscover"
        command_name = where.removeprefix("pipscover").strip()
        error_line(f"{command_name + ': ' if command_name else ''}{usage_error(error)} (see {where} --help)")
        return EXIT_BAD_INPUT
    except click_errors.ClickException as error:
        error_line(error.format_message())
        return error.exit_code
    except typer.Abort:  # end of input where the command asked for more
        return EXIT_INTERRUPTED
    except Interrupted:
        sys.stderr.write("pipscover: stopped by Ctrl-C\n")
        return EXIT_INTERRUPTED
    except PipsError as error:
        error_line(str(error))
        return EXIT_BAD_INPUT
    except KeyboardInterrupt:  # before or after a command could report what it found
        return EXIT_INTERRUPTED
    except OSError as error:
        if error.errno == errno.ENAMETOOLONG and error.filename is not None:  # (pathlib's exists and is_dir raise
            error_line(f"{brief(printable_path(error.filename))}: file name too long")  # it: a traceback each)
            return EXIT_BAD_INPUT
        if error.errno not in FULL:
            raise
        error_line(f"cannot write the output ({error.strerror})")
        return EXIT_BAD_INPUT
    return code if isinstance(code, int) else 0
