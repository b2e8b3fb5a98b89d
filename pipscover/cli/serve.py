"""`pipscover serve`: the page to play on, served on this machine (see `pipscover.serve`)."""

from __future__ import annotations

import webbrowser
from pathlib import Path
from typing import Annotated

import typer

from pipscover.cli.app import app
from pipscover.cli.common import BaseUrlOption, CacheDirOption, Refused, load_single, print_json
from pipscover.errors import PipsError

# The addresses that open the page to the network (IPv4, IPv6), and the one each prints to reach it here.
ANYWHERE = {"0.0.0.0": "127.0.0.1", "::": "[::1]"}


def _address(host: str) -> str:
    """An address to listen on, named: an empty one listened on every address, as 0.0.0.0 does, unsaid (and
    printed http://:8000/)."""
    if not host.strip():
        raise Refused(repr(host), "name an address: 127.0.0.1 (the default), or 0.0.0.0 to open the page to the "
                      "network")
    return host


@app.command("serve")
def serve_command(
    puzzle_file: Annotated[Path | None, typer.Argument(
        help="A puzzle to open the page on: a file, or an NYT day (YYYY-MM-DD or today) with -d.", show_default=False,
    )] = None,
    difficulty: Annotated[str | None, typer.Option("--difficulty", "-d", help="Which puzzle of an NYT day.")] = None,
    host: Annotated[str, typer.Option(
        "--host", callback=_address, help="The address to listen on; 0.0.0.0 opens it to the network.",
    )] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", min=0, max=65535, help="The port (0: any free one).")] = 8000,
    open_browser: Annotated[bool, typer.Option("--open", help="Open the page in the web browser.")] = False,
    base: BaseUrlOption = None,
    cache: CacheDirOption = None,
    as_json: Annotated[bool, typer.Option("--json", help='Print {"url": ...} as the first line, then serve.')] = False,
) -> None:
    """Serve a page to play Pips on: pick a day, open a file or make a puzzle; hints, checks and counts.

    Days missing from the cache are fetched as `pipscover fetch` would. Ctrl-C stops the server. A new tab
    opens on PUZZLE when one is given, else on the last puzzle played, else on the newest day in the cache.

    Example: pipscover serve examples/first.txt --open
    """
    from pipscover.serve.app import listen, make_app, run
    from pipscover.serve.play import view

    first = None if puzzle_file is None else view(load_single(puzzle_file, difficulty))

    hosts = ("*",) if host in ANYWHERE else ("127.0.0.1", "localhost", host)
    try:
        listener = listen(host, port)
    except OSError as error:
        raise PipsError(f"cannot listen on {host}:{port} ({error.strerror or error})") from None
    shown = ANYWHERE.get(host, f"[{host}]" if ":" in host else host)
    address = f"http://{shown}:{listener.getsockname()[1]}/"
    if as_json:
        print_json({"url": address})
    else:
        typer.echo(f"pipscover serve: playing at {address} (Ctrl-C to stop)")
    if open_browser:
        webbrowser.open(address)
    run(make_app(cache, base, hosts, first), listener)
