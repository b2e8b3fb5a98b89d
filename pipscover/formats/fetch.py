"""NYT days by date: downloaded once into a cache, so that a date works wherever a puzzle file does.

A day is `{base}/svc/pips/v1/YYYY-MM-DD.json`; `base` is the NYT (`https://www.nytimes.com`) unless a
mirror is named (`PIPSCOVER_NYT_URL`, or `--base-url`): any HTTP server with the same layout, such as
`python -m http.server` run in a folder holding `svc/pips/v1/*.json`. Days are kept as `YYYY-MM-DD.json`
in the cache folder (the user cache directory, or `PIPSCOVER_CACHE`, or `--cache-dir`), which is itself a
folder of puzzles for any command. A cached day is never downloaded again; a download is checked to be an
NYT day before it is written, and written whole or not at all, so the cache never holds a broken file.

Answers 5xx (and 429, too many requests) are retried with exponential backoff; 404 (`NoSuchDay`), other
answers, network failures (`Unreachable`) and time-outs are `PipsError`s naming the day and the address.
"""

from __future__ import annotations

import os
import re
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from datetime import date, timedelta
from pathlib import Path
from typing import TYPE_CHECKING

from pipscover.errors import PipsError, shown
from pipscover.formats.nyt import read_nyt
from pipscover.runtime.deadlines import timeout_problem
from pipscover.runtime.writes import write_whole
from pipscover.version import __version__

if TYPE_CHECKING:
    import httpx

DEFAULT_BASE_URL = "https://www.nytimes.com"
BASE_URL_VARIABLE = "PIPSCOVER_NYT_URL"
CACHE_VARIABLE = "PIPSCOVER_CACHE"
DAY_PATH = "/svc/pips/v1/{day}.json"
TODAY = "today"
PUZZLE_SUFFIXES = (".json", ".txt")  # what a folder of puzzles holds
TIMEOUT = 10.0  # seconds for each request
SHORTEST_WAIT = 0.001  # seconds; a socket takes 0 as "do not wait", and nothing answers sooner anyway
LONGEST_WAIT = 10.0**9  # seconds (32 years); a socket takes no more (1e12 was an OverflowError), so it is no limit
RETRIES = 3  # after the first attempt, for answers worth retrying
BACKOFF = 0.5  # seconds before the first retry; doubled before each next one
RETRIED_STATUSES = frozenset({429, 500, 502, 503, 504})
MOST_DAYS = 3660  # in one range (ten years): --from 0001-01-01 would ask for 739,509 days, a request each
_DAY = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")  # (\d also takes '３')


class Unreachable(PipsError):
    """The server cannot be reached at all (no connection), which every day would meet the same."""


class NoSuchDay(PipsError):
    """The source answered that it has no puzzle for the day (404), which asking again will not change; any
    other failure to fetch one (the network, a time-out, a broken answer) may pass."""


@dataclass(frozen=True)
class Fetched:
    """A day in the cache: where, and whether this call downloaded it."""

    day: date
    path: Path
    downloaded: bool

    def as_json(self) -> dict[str, object]:
        return {"date": self.day.isoformat(), "file": str(self.path), "downloaded": self.downloaded}


def is_day(text: str) -> bool:
    """Whether `text` names a day (`YYYY-MM-DD` or `today`) rather than a file.

    >>> is_day("2025-09-15"), is_day("today"), is_day("2025-09-15.json")
    (True, True, False)
    """
    return text == TODAY or _DAY.fullmatch(text) is not None


def parse_day(text: str) -> date:
    """The day `text` names; `today` is today's date where the command runs.

    >>> parse_day("2025-09-15")
    datetime.date(2025, 9, 15)
    """
    if text == TODAY:
        return date.today()
    try:
        if _DAY.fullmatch(text):
            return date.fromisoformat(text)
    except ValueError:
        pass
    raise PipsError(f"{text}: not a date; write YYYY-MM-DD (e.g. 2025-09-15) or today")


def days_from(first: date, last: date) -> list[date]:
    """Every day from `first` to `last`, both included, at most `MOST_DAYS` of them."""
    if last < first:
        raise PipsError(f"--from {first} is after --to {last}")
    if (last - first).days >= MOST_DAYS:
        raise PipsError(f"--from {first} --to {last} spans {(last - first).days + 1:,} days; fetch at most "
                        f"{MOST_DAYS:,} (ten years) at a time")
    return [first + timedelta(days=n) for n in range((last - first).days + 1)]


def cache_folder(explicit: str | Path | None = None) -> Path:
    """The cache folder: `explicit`, else `PIPSCOVER_CACHE`, else the user cache directory's `nyt` folder."""
    chosen = explicit or os.environ.get(CACHE_VARIABLE)
    if chosen:
        return Path(chosen)
    import platformdirs  # here, not at the top: every command that reads a file would load it

    return Path(platformdirs.user_cache_dir("pipscover")) / "nyt"


def base_url(explicit: str | None = None) -> str:
    """The server to download from: `explicit`, else `PIPSCOVER_NYT_URL`, else the NYT."""
    return (explicit or os.environ.get(BASE_URL_VARIABLE) or DEFAULT_BASE_URL).rstrip("/")


def fetch_days(
    days: Iterable[date],
    cache: str | Path | None = None,
    base: str | None = None,
    timeout: float = TIMEOUT,
    backoff: float = BACKOFF,
    unfetched: Callable[[date, PipsError], None] | None = None,
) -> Iterator[Fetched]:
    """Each day from the cache, downloading the ones missing (one connection for all of them). A day that cannot
    be downloaded ends the run, or, given `unfetched`, is passed to it while the others go on; a server that
    cannot be reached and a cache that cannot be written end it either way, as they would fail every day the
    same. `timeout` is the seconds to wait for each answer: inf (or past `LONGEST_WAIT`) waits for ever."""
    folder, server, wait = cache_folder(cache), base_url(base), _socket_wait(timeout)
    client: httpx.Client | None = None
    try:
        for day in days:
            path = folder / f"{day.isoformat()}.json"
            if path.is_file():
                yield Fetched(day, path, False)
                continue
            if client is None:
                import httpx  # only when downloading: it adds a tenth of a second to every command's start

                client = httpx.Client(timeout=wait, follow_redirects=True,
                                      headers={"User-Agent": f"pipscover/{__version__}"})
            try:
                text = _download(client, day, server, timeout, backoff)
            except PipsError as error:
                if unfetched is None or isinstance(error, Unreachable):
                    raise
                unfetched(day, error)
                continue
            _write_atomically(folder, path, text)
            yield Fetched(day, path, True)
    finally:
        if client is not None:
            client.close()


def fetch_day(day: date, cache: str | Path | None = None, base: str | None = None, timeout: float = TIMEOUT,
              backoff: float = BACKOFF) -> Fetched:
    """One day from the cache, downloaded when missing."""
    return next(fetch_days([day], cache, base, timeout, backoff))


def day_file(argument: Path) -> Path:
    """The file a puzzle argument names: itself when it exists, else a day's cached file (fetched when
    missing) when it names a day, else itself (for the reader to report)."""
    if argument.exists() or not is_day(str(argument)):
        return argument
    return fetch_day(parse_day(str(argument))).path


def puzzle_files(paths: Iterable[str | Path]) -> list[Path]:
    """The puzzle files that paths, folders and NYT days name, as every command reads its arguments: a folder
    gives its puzzle files (*.json, *.txt) in name order, a day (YYYY-MM-DD or today) its cached file, fetched
    when missing, `-` standard input; a path that names none of these is a `PipsError` naming it.

    >>> puzzle_files(["examples"])
    [PosixPath('examples/first.txt')]
    """
    files: list[Path] = []
    for path in (day_file(Path(named)) for named in paths):
        if str(path) != "-" and not path.exists():
            raise PipsError(f"{path}: no such file")
        if path.is_dir():
            found = sorted(p for p in path.iterdir() if p.suffix in PUZZLE_SUFFIXES and p.is_file())
            if not found:
                raise PipsError(f"{path}: folder holds no puzzle files (*.json, *.txt)")
            files.extend(found)
        else:
            files.append(path)
    return files


def _socket_wait(timeout: float) -> float | None:
    """httpx's timeout for `timeout` seconds: None (no limit) for inf or one past `LONGEST_WAIT`; nan, or a
    number below `SHORTEST_WAIT`, is refused in one line as `fetch --timeout` refuses it (`timeout_problem`),
    where a socket raised a ValueError.

    >>> _socket_wait(10.0), _socket_wait(float("inf")), _socket_wait(1e300)
    (10.0, None, None)
    """
    problem = timeout_problem(timeout, SHORTEST_WAIT)
    if problem is not None:
        raise PipsError(f"timeout must be {problem} (inf: no limit), not {shown(timeout)}")
    return timeout if timeout < LONGEST_WAIT else None


def _download(client: httpx.Client, day: date, server: str, timeout: float, backoff: float) -> str:
    import httpx

    url = server + DAY_PATH.format(day=day.isoformat())
    for attempt in range(RETRIES + 1):
        try:
            response = client.get(url)
        except httpx.TimeoutException:
            raise PipsError(f"{day}: no answer from {url} within {timeout:g} s") from None
        except (httpx.HTTPError, httpx.InvalidURL) as error:  # (a malformed address, "http://[::1", is no HTTPError)
            raise Unreachable(f"{day}: cannot reach {server} ({error or type(error).__name__})") from None
        if response.status_code not in RETRIED_STATUSES or attempt == RETRIES:
            break
        time.sleep(backoff * 2**attempt)
    if response.status_code == 404:
        raise NoSuchDay(f"{day}: the server has no puzzle for this day ({url} answered 404)")
    if response.status_code in RETRIED_STATUSES:
        raise PipsError(f"{day}: {url} answered {response.status_code} {RETRIES + 1} times; try again later")
    if response.status_code != 200:
        raise PipsError(f"{day}: {url} answered {response.status_code} {response.reason_phrase}")
    read_nyt(response.text, url)  # a PipsError naming the address when it is not NYT puzzle JSON
    return response.text


def _write_atomically(folder: Path, path: Path, text: str) -> None:
    try:
        folder.mkdir(parents=True, exist_ok=True)
        write_whole(path, text)
    except OSError as error:  # (a file where the folder should be: mkdir's "File exists" said nothing of it)
        why = "it is a file, not a folder" if folder.is_file() else error.strerror
        raise PipsError(f"{folder}: cannot write to the cache ({why})") from None
