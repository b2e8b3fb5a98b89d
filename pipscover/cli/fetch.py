"""`pipscover fetch`: download NYT days by date into the cache (see `pipscover.formats.fetch`)."""

from __future__ import annotations

from datetime import date
from typing import Annotated

import typer

from pipscover.cli.app import app
from pipscover.cli.common import (
    EXIT_NO,
    EXIT_OK,
    BaseUrlOption,
    CacheDirOption,
    exit_with,
    print_json,
    progress_bar,
    seconds,
)
from pipscover.cli.readable import OptionsRefused
from pipscover.errors import PipsError, on_one_line
from pipscover.formats.fetch import SHORTEST_WAIT, TIMEOUT, days_from, fetch_days, parse_day


@app.command("fetch")
def fetch_command(
    days: Annotated[
        list[str] | None, typer.Argument(help="Days to fetch: YYYY-MM-DD or today.", show_default=False)
    ] = None,
    first: Annotated[str | None, typer.Option("--from", help="Fetch every day from this one (YYYY-MM-DD) ...")] = None,
    last: Annotated[str | None, typer.Option("--to", help="... to this one, included (default: today).")] = None,
    base: BaseUrlOption = None,
    cache: CacheDirOption = None,
    timeout: Annotated[float, typer.Option(
        "--timeout", min=SHORTEST_WAIT, callback=seconds,
        help="Seconds to wait for each answer (inf: no limit).")] = TIMEOUT,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object per day per line.")] = False,
) -> None:
    """Download NYT days into the cache; a cached day is never downloaded again.

    A day then works wherever a puzzle file does, as in the last example. A day that cannot be fetched,
    among several, is reported in one line and the others fetched; the exit code is then 1.

    Examples:

      pipscover fetch 2025-09-15 today

      pipscover fetch --from 2025-09-01 --to 2025-09-30 --json

      pipscover solve 2025-09-15 -d hard
    """
    if last is not None and first is None:
        raise OptionsRefused("--to needs --from")
    wanted = [parse_day(day) for day in days or []]
    if first is not None:
        wanted += days_from(parse_day(first), parse_day(last or "today"))
    if not wanted:
        raise OptionsRefused("name the days to fetch (YYYY-MM-DD or today), or a range with --from and --to")
    wanted = list(dict.fromkeys(wanted))
    failed: list[date] = []
    with progress_bar("fetching", total=len(wanted) if len(wanted) > 1 else None) as advance:

        def not_fetched(day: date, error: PipsError) -> None:
            """A day among several that did not come: one line (an entry of --json), and the others go on."""
            failed.append(day)
            advance()
            if as_json:
                print_json({"date": day.isoformat(), "file": None, "downloaded": False, "error": str(error)})
            else:
                typer.echo(f"not fetched: {on_one_line(str(error))}")

        for fetched in fetch_days(wanted, cache, base, timeout, unfetched=not_fetched if len(wanted) > 1 else None):
            advance()
            if as_json:
                print_json(fetched.as_json())
            else:
                where = "downloaded to" if fetched.downloaded else "in the cache at"
                typer.echo(f"{fetched.day}: {where} {fetched.path}")
    exit_with(EXIT_NO if failed else EXIT_OK)
