"""Files written whole or not at all: the one way pipscover writes an output file, a cache entry, a table or a plot.

The content goes to a hidden file beside the target, renamed over it once complete, so that a reader never
sees half of it and a failure (a full disk, Ctrl-C, an exception while writing) leaves the target as it was
and no hidden file behind. The file gets the permissions a plain `open` would give it: those of the file it
replaces, or 0666 less the umask for a new one (mkstemp's 0600 would hide a shared cache from its group).
A target that exists and is not a regular file (`/dev/null`, a FIFO, a terminal) is written directly: renaming
over it would replace the device itself, and a FIFO's reader is waiting on that very path.

    >>> import tempfile, pathlib
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> write_whole(folder / "out.txt", "first\\n")
    >>> (folder / "out.txt").read_text(), sorted(p.name for p in folder.iterdir())
    ('first\\n', ['out.txt'])
"""

from __future__ import annotations

import os
import stat
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any

from pipscover.errors import PipsError


@contextmanager
def replacing(path: str | Path, binary: bool = False, newline: str | None = None) -> Iterator[IO[Any]]:
    """A stream whose content replaces `path` when the block ends without error (see the module's docstring).

    Raises `OSError` as `open` would; on any exception the target is untouched and no temporary file is left.
    """
    target = Path(path)
    encoding = None if binary else "utf-8"
    mode = "wb" if binary else "w"
    try:
        special = not stat.S_ISREG(os.stat(target).st_mode)
    except FileNotFoundError:
        special = False
    if special:
        with open(target, mode, encoding=encoding, newline=newline) as stream:
            yield stream
        return
    handle, name = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".part")
    temporary = Path(name)
    try:
        with os.fdopen(handle, mode, encoding=encoding, newline=newline) as stream:
            os.fchmod(stream.fileno(), _mode_for(target))
            yield stream
        os.replace(temporary, target)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise


def write_whole(path: str | Path, text: str) -> None:
    """Write `text` (UTF-8) to `path` whole or not at all."""
    with replacing(path) as stream:
        stream.write(text)


def cannot_write(path: str | Path, error: OSError | None = None) -> PipsError:
    """The one line for an output file that could not be written (or, without `error`, whose folder is wrong): a
    folder of its name that is missing, or is a file, is named, where the system's "No such file or directory"
    named neither it nor which part was wrong.

    >>> print(cannot_write("sub/x.cnf", FileNotFoundError(2, "No such file or directory")))
    sub/x.cnf: no such folder sub
    """
    problem = folder_problem(path)
    return PipsError(f"{path}: {problem or f'cannot write ({error and error.strerror or error})'}")


def folder_problem(path: str | Path) -> str | None:
    """What is wrong with the folder a file is to be written in (missing, or a file), or None."""
    folder = Path(path).parent
    if not folder.exists():
        return f"no such folder {folder}"
    if not folder.is_dir():
        return f"{folder} is a file, not a folder"
    return None


def _mode_for(target: Path) -> int:
    """The permissions `open(target, "w")` would leave: the existing file's, else 0666 less the umask."""
    try:
        return stat.S_IMODE(os.stat(target).st_mode)
    except FileNotFoundError:
        mask = os.umask(0o022)  # reading the umask means setting it, so it is set straight back
        os.umask(mask)
        return 0o666 & ~mask
