"""The `pipscover` command line: each command is one module registered on the shared typer app."""

from __future__ import annotations

import sys

from pipscover.cli.app import app
from pipscover.cli.common import EXIT_BAD_INPUT
from pipscover.errors import PipsError

# Importing a command module registers its command on `app`; one line per command.
from pipscover.cli import solve  # noqa: E402,F401
from pipscover.cli import show  # noqa: E402,F401
from pipscover.cli import check  # noqa: E402,F401
from pipscover.cli import encode  # noqa: E402,F401
from pipscover.cli import decode  # noqa: E402,F401
from pipscover.cli import backends  # noqa: E402,F401
from pipscover.cli import count  # noqa: E402,F401
from pipscover.cli import bench  # noqa: E402,F401
from pipscover.cli import reduce  # noqa: E402,F401
from pipscover.cli import generate  # noqa: E402,F401
from pipscover.cli import sweep  # noqa: E402,F401
from pipscover.cli import plot  # noqa: E402,F401
from pipscover.cli import planted  # noqa: E402,F401
from pipscover.cli import fetch  # noqa: E402,F401
from pipscover.cli import hint  # noqa: E402,F401
from pipscover.cli import rate  # noqa: E402,F401


def main() -> None:
    """Run the app; bad input becomes one line on stderr and exit code 2, never a traceback."""
    try:
        app()
    except PipsError as error:
        sys.stderr.write(f"pipscover: error: {error}\n")
        sys.exit(EXIT_BAD_INPUT)
