"""The `pipscover` command line: each command is one module registered on the shared typer app."""

from __future__ import annotations

import sys
from collections.abc import Sequence

import typer

try:  # typer 0.2x carries its own copy of click; older typers use click itself
    from typer._click import exceptions as click_errors
    from typer._click import utils as click_utils
except ImportError:  # pragma: no cover
    from click import exceptions as click_errors  # type: ignore[no-redef]  # the same module, before typer 0.20
    from click import utils as click_utils  # type: ignore[no-redef]  # the same module, before typer 0.20

# Importing a command module registers its command on `app`; one name per command.
from pipscover.cli import (  # noqa: F401 - imported for what importing them does
    backends,
    bench,
    check,
    count,
    decode,
    encode,
    fetch,
    generate,
    hint,
    planted,
    plot,
    rate,
    reduce,
    serve,
    show,
    solve,
    sweep,
)
from pipscover.cli.app import app
from pipscover.cli.common import EXIT_BAD_INPUT, EXIT_CLOSED_PIPE, EXIT_INTERRUPTED, error_line
from pipscover.cli.readable import humanize, usage_error
from pipscover.errors import PipsError


def main(args: Sequence[str] | None = None) -> None:
    """Run a command and exit with its code; every failure is one line on stderr, never a traceback."""
    sys.exit(run(args))


def run(args: Sequence[str] | None = None) -> int:
    """The exit code of one command line, with its errors already printed."""
    command = typer.main.get_command(app)
    humanize(command)
    try:
        code = command.main(args=args, prog_name="pipscover", standalone_mode=False)
    except SystemExit:
        # A closed stdout (`pipscover solve --all | head -1`): click silences stdout and exits 1, which would
        # read as "no solution". End quietly with the shell's code for SIGPIPE instead. (Not by restoring
        # SIGPIPE's default action: that would also kill the process on any broken socket or worker pipe.)
        if isinstance(sys.stdout, click_utils.PacifyFlushWrapper):
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
    except PipsError as error:
        error_line(str(error))
        return EXIT_BAD_INPUT
    except KeyboardInterrupt:  # before or after a command could report what it found
        return EXIT_INTERRUPTED
    return code if isinstance(code, int) else 0
