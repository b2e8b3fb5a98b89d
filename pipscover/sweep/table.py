"""The results table of a sweep: a CSV written row by row and flushed, so that a stopped run loses nothing.

Reopened, the table says which rows are done, so a rerun skips them. A run killed while writing can leave
a last line without its newline; reopening drops that line (its job runs again) before appending. A table an
older pipscover wrote, without a column added since, is rewritten with it, filled from the column that held
its value (generate's `rating` from `difficulty`), whole or not at all, before the new rows go on.
"""

from __future__ import annotations

import csv
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any, TextIO

from pipscover.errors import PipsError
from pipscover.model.results import long_numbers
from pipscover.runtime.writes import cannot_write, replacing

Row = dict[str, Any]
Key = tuple[str, ...]


def cell(value: Any) -> str:
    """How a value is written: empty for None, true/false for booleans, floats to the microsecond."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return f"{value:.6f}"
    return str(value)


class ResultTable:
    """A CSV of sweep rows with the given columns, appended to inside `with`; `done` holds the keys of its rows."""

    def __init__(self, path: Path, columns: Sequence[str], key: Callable[[Row], Key],
                 retry: Iterable[str] = (), filled_from: Iterable[tuple[str, str]] = ()) -> None:
        """Read what the file at `path` already holds (writing nothing yet: see `with`); rows whose status is in
        `retry` do not count as done, and go when the table is opened. `filled_from` names the columns an older
        table may lack, each with the column that held its value."""
        self.path, self.columns, self.key = path, tuple(columns), key
        self.filled_from = dict(filled_from)
        self._kept: list[Row] | None = None  # the rows to keep when the file must be rewritten
        self.done: set[Key] = set()
        self._has_header = self._read(set(retry))

    def __enter__(self) -> ResultTable:
        """Open the file for appending (rewriting it first if a cut-off line or rows to retry must go)."""
        if self._kept is not None:
            self._rewrite(self._kept)
        try:
            self._stream: TextIO = self.path.open("a", newline="", encoding="utf-8")
        except OSError as error:
            raise cannot_write(self.path, error) from None
        self._writer = csv.DictWriter(self._stream, self.columns, extrasaction="ignore")
        if not self._has_header:
            self._writer.writeheader()
            self._flush()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stream.close()

    def write(self, row: Row) -> None:
        """Append one row and flush it to the file."""
        with long_numbers():
            self._writer.writerow({column: cell(row.get(column)) for column in self.columns})
        self._flush()
        self.done.add(self.key(row))

    def _flush(self) -> None:
        try:
            self._stream.flush()
        except OSError as error:  # a full disk
            raise cannot_write(self.path, error) from None

    def _read(self, retry: set[str]) -> bool:
        """Load the keys of the rows already written; drop a cut-off last line and rows to retry. Whether the
        file already holds a header."""
        if not self.path.parent.is_dir():
            raise cannot_write(self.path)
        if self.path.exists() and not self.path.is_file():  # a device or a pipe holds no rows: reading /dev/full
            return False  # or /dev/stdout never ended
        try:
            text = self.path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return False
        except (OSError, UnicodeDecodeError) as error:
            raise PipsError(f"{self.path}: cannot read it to resume ({error})") from None
        if not text:
            return False
        complete = text[: text.rfind("\n") + 1]  # a line without its newline was cut off mid-write
        reader = csv.DictReader(complete.splitlines())
        rows = self._filled(tuple(reader.fieldnames or ()), list(reader))
        kept = [row for row in rows if row["status"] not in retry]
        if complete != text or len(kept) < len(rows) or tuple(reader.fieldnames or ()) != self.columns:
            self._kept = kept
        self.done = {self.key(row) for row in kept}
        return True

    def _filled(self, found: tuple[str, ...], rows: list[Row]) -> list[Row]:
        """The `rows` of a table whose header is `found`: today's columns, or today's but those added since
        (`filled_from`), which are then filled in from the columns that held their values; else `PipsError`."""
        added = [column for column in self.columns if column not in found and column in self.filled_from]
        if found != tuple(column for column in self.columns if column not in added):
            raise PipsError(f"{self.path}: holds a table with other columns (another task's, or an older pipscover's); "
                            "choose another --output")
        return [row | {column: row[self.filled_from[column]] for column in added} for row in rows]

    def _rewrite(self, rows: list[Row]) -> None:
        """Replace the file by the header and `rows`, whole or not at all."""
        try:
            with replacing(self.path, newline="") as stream:
                writer = csv.DictWriter(stream, self.columns)
                writer.writeheader()
                writer.writerows(rows)
        except OSError as error:
            raise PipsError(f"{self.path}: cannot rewrite it ({error.strerror})") from None
