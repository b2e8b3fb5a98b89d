"""What every command shares: options, puzzle loading, JSON shapes, progress, safe output files.

Exit codes mean the same thing in every command: 0 solved / valid / done, 1 no solution / invalid,
2 bad input (one line on stderr, raised as `PipsError`), 3 stopped by a time limit before an answer,
130 Ctrl-C (what was found so far is printed first); `exit_code` maps a search's status to them, for every
command that searches.
"""

from __future__ import annotations

import json
import os
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Any, NamedTuple

import typer

from pipscover.cli.app import (  # noqa: F401  (every command imports them from here)
    EXIT_BAD_INPUT,
    EXIT_CLOSED_PIPE,
    EXIT_INTERRUPTED,
    EXIT_NO,
    EXIT_OK,
    EXIT_TIMEOUT,
    error_line,
)
from pipscover.cli.readable import OptionsRefused, Refused, bounds
from pipscover.engines import ALIASES, REGISTRY
from pipscover.engines.sat_solvers import SOLVERS
from pipscover.errors import PipsError, on_one_line, printable_path
from pipscover.formats import NothingToChoose, load
from pipscover.formats.fetch import BASE_URL_VARIABLE, CACHE_VARIABLE, puzzle_files
from pipscover.model import Difficulty, Puzzle
from pipscover.model.results import SEEDS, SolveResult, Status, checked_seed, long_numbers
from pipscover.runtime.deadlines import timeout_problem
from pipscover.runtime.limits import parse_size
from pipscover.runtime.writes import cannot_write, folder_problem, write_whole

PUZZLES_HELP = ("Puzzle files (NYT JSON or text format), folders of them, or NYT days (YYYY-MM-DD or today: "
                "read from the cache of `pipscover fetch`, fetched when missing).")
PuzzlesArgument = Annotated[list[Path], typer.Argument(help=PUZZLES_HELP, show_default=False, metavar="PUZZLE...")]
PuzzleArgument = Annotated[
    Path, typer.Argument(help="A puzzle file (NYT JSON or text format) or an NYT day (YYYY-MM-DD or today).",
                         show_default=False),
]
DifficultyOption = Annotated[
    Difficulty | None,
    typer.Option("--difficulty", "-d", help="Which puzzle of an NYT day file (default: all three)."),
]
JsonOption = Annotated[bool, typer.Option("--json", help="Print one JSON object per puzzle per line.")]
BACKEND_NAMES = f"One of: {', '.join(REGISTRY)}; aliases {', '.join(ALIASES)}."
SAT_NAMES = f"One of: {', '.join(SOLVERS)}; aliases {', '.join(ALIASES)}."
BackendOption = Annotated[str, typer.Option(
    "--backend", "-b", help=f"Search backend (see `pipscover backends`). {BACKEND_NAMES}")]
LimitOption = Annotated[int | None, typer.Option("--limit", min=1, show_default=False,
                                                 help="Find up to this many solutions (default 1; --all: every one).")]


def solutions_wanted(every: bool, limit: int | None) -> int | None:
    """How many solutions --all and --limit ask for: None for every one. Both given is refused: --all used to
    win without a word, and a user who wrote --limit 5 got them all."""
    if every and limit is not None:
        raise OptionsRefused(f"--all finds every solution and --limit {limit} at most {limit}: give one of them")
    return None if every else limit or 1


def seed_value(value: int | None) -> int | None:
    """A --seed: refused past `checked_seed`'s bound, as the page's server refuses it."""
    try:
        return checked_seed(value)
    except PipsError:
        raise Refused(value, f"must be {SEEDS}") from None


SeedOption = Annotated[int | None, typer.Option(
    "--seed", callback=seed_value,
    help="Seed of the randomised searches (dlx's restarts, local search); default 0, so runs repeat.")]
# Where days come from and are kept (`pipscover.formats.fetch`): for fetch, and for serve, which fetches days too.
BaseUrlOption = Annotated[
    str | None,
    typer.Option("--base-url", help=f"A mirror with the NYT layout (default: ${BASE_URL_VARIABLE} or the NYT)."),
]
CacheDirOption = Annotated[
    str | None,
    typer.Option("--cache-dir", help=f"Where days are kept (default: ${CACHE_VARIABLE} or the user cache)."),
]


def seconds(param: typer.CallbackParam, value: float | None) -> float | None:
    """A time limit in seconds, refused as the library refuses its `timeout=` (`timeout_problem`). nan passes
    click's range, so the refusal here names the option's range: fetch said ">= 0" for nan."""
    problem = None if value is None else timeout_problem(value, bounds(param)[0] or 0)
    if problem is not None:
        raise Refused(value, f"must be {problem}, like 10 or 0.5 (inf: no limit)")
    return value


def memory_size(value: str) -> str:
    """A memory cap as a user writes it (2G, 512M), refused as an option value is: it was a bare "not a memory
    size" line that named neither the command nor the option."""
    try:
        parse_size(value)
    except PipsError:
        raise Refused(value, "must be a size such as 2G or 512M (K, M, G, T: powers of 1024), more than 0") from None
    return value


def output_folder(value: str | Path | None) -> str | Path | None:
    """An -o whose folder is missing or is a file, refused before any work: `certify -o sub/x.cnf` and
    `generate -o sub/x.json` said so only once the certificate or the puzzle was made, and `solve -o` once
    its answer was printed."""
    problem = None if value is None or str(value) in ("", "-") else folder_problem(value)
    if problem is not None:
        raise Refused(value, problem)
    return value


WORKERS_PER_CORE = 4  # past this many processes per core, --jobs only slows a run and fills the memory


def worker_count(value: int | None) -> int | None:
    """A --jobs: refused past `WORKERS_PER_CORE` per core of this machine, in one line; `sweep --jobs 10**20`
    started Dask worker processes until the machine gave out."""
    cores = os.cpu_count() or 1
    if value is not None and value > WORKERS_PER_CORE * cores:
        raise Refused(value, f"must be at most {WORKERS_PER_CORE * cores}, {WORKERS_PER_CORE} worker processes for "
                      f"each of this machine's {cores} cores (a --scheduler's cluster has its own)")
    return value


def scheduler_address(value: str | None) -> str | None:
    """A --scheduler, refused in one line (`pipscover.sweep.address`), as the library refuses its `scheduler=`."""
    if value is None:
        return None
    from pipscover.sweep.address import scheduler_problem

    problem = scheduler_problem(value)
    if problem is not None:
        raise Refused(value, problem)
    return value


MAX_PIP = 10**9  # beyond it, the pseudo-boolean encodings of the counter's SAT fallback cannot write the sums


def max_pip_option(what: str) -> Any:
    """The --max-pip of the commands that make puzzles (generate, planted, sweep generate), bounded by `MAX_PIP`
    alike: planted and sweep took any, and a SAT solver spent half a minute on a 4x4 board of pips near 10**12."""
    return typer.Option("--max-pip", min=0, max=MAX_PIP, help=what)


TimeoutOption = Annotated[
    float | None,
    typer.Option("--timeout", callback=seconds, help="Give up on a puzzle after this many seconds (inf: no limit)."),
]
class Loaded(NamedTuple):
    """A puzzle and the seconds its file took to read and validate (shared among the file's puzzles)."""

    puzzle: Puzzle
    reading: float

    def clock_start(self) -> float:
        """When the puzzle's --timeout clock started (`time.monotonic()`): reading it counts against its time."""
        return time.monotonic() - self.reading


class Unread(NamedTuple):
    """A puzzle file among others that did not read: its name, and what is wrong (the message names the file)."""

    file: str
    problem: str

    def as_json(self) -> dict[str, Any]:
        """Its entry among the puzzles of a command's --json (`load_reported`) and in `bench --json`'s "unread":
        status error, as its `sweep` row."""
        return {"puzzle": {"file": self.file, "date": None, "difficulty": None}, "status": "error",
                "error": self.problem}

    def describe(self) -> str:
        """Its one line among the puzzles' answers, its name shown as theirs are (`Origin.describe`)."""
        return "not read: " + on_one_line(self.problem)


def load_timed(paths: list[Path], difficulty: Difficulty | None, unread: list[Unread] | None = None) -> list[Loaded]:
    """Every puzzle in the files and folders named, with its reading time, for the commands that take --timeout.
    With a difficulty, a file named alone must name its puzzles' difficulties, and a folder some of its files'
    (its other files come whole: `formats.parse`); else the difficulty would choose nothing, ignored.
    A file that does not read ends the command, or, given the list `unread`, is added to it while the others go
    on (`sweep` writes it a row; `load_reported`)."""
    loaded: list[Loaded] = []
    for named in paths:
        found: list[Loaded] = []
        for file in puzzle_files([named]):
            began = time.monotonic()
            try:
                puzzles = load_named(file, difficulty, in_folder=named.is_dir())
            except NothingToChoose:  # the -d given, not the file, is wrong
                raise
            except PipsError as error:
                if unread is None:
                    raise
                unread.append(Unread(printable_path(file), printable_path(error)))
                continue
            share = (time.monotonic() - began) / max(1, len(puzzles))
            found.extend(Loaded(puzzle, share) for puzzle in puzzles)
        if difficulty is not None and found and not any(item.puzzle.origin.difficulty for item in found):
            raise PipsError(f"{named}: none of its puzzle files names a difficulty, so there is no {difficulty} "
                            "puzzle to choose; drop -d")
        loaded.extend(found)
    return loaded


def load_unread(paths: list[Path], difficulty: Difficulty | None) -> tuple[list[Loaded], list[Unread]]:
    """`load_timed` for the commands that go on past a file that does not read: one named alone ends the command
    (exit 2), while one of several, or of a folder, is returned among the unread and the others go on."""
    if len(paths) == 1 and not paths[0].is_dir():
        return load_timed(paths, difficulty), []
    unread: list[Unread] = []
    return load_timed(paths, difficulty, unread), unread


def load_reported(paths: list[Path], difficulty: Difficulty | None, as_json: bool, err: bool = False,
                  refuse: Callable[[list[Puzzle]], object] | None = None) -> tuple[list[Loaded], bool]:
    """`load_unread` for the commands that answer puzzle by puzzle, and whether a file did not read: each is
    reported in one line (an entry of --json) as `sweep` writes it a row, and `exit_after` then ends with 1.
    The lines go to stderr (`err`) where stdout carries a file they would spoil (`show -f text`, `encode`).
    `refuse` is given the puzzles read before a line is printed, for the command's refusals of what was asked
    that hang on them ("--given is for one puzzle"): such a refusal comes alone, not after the files' reports."""
    loaded, unread = load_unread(paths, difficulty)
    if refuse is not None:
        refuse([item.puzzle for item in loaded])
    for item in unread:
        if as_json:
            print_json(item.as_json(), err)
        else:
            typer.echo(item.describe(), err=err)
    return loaded, bool(unread)


def exit_after(worst: int, unread: bool) -> None:
    """End with the exit code `worst` of the answers, or 1 when a file did not read (`load_reported`), as
    `sweep` does for error rows; Ctrl-C's code stays."""
    exit_with(EXIT_NO if unread and worst != EXIT_INTERRUPTED else worst)


def load_named(path: Path, difficulty: str | None, in_folder: bool = False) -> list[Puzzle]:
    """`formats.load` in the command line's words: a difficulty the file cannot choose by is refused with
    "drop -d", where the API's message names its `difficulty` argument."""
    try:
        return load(path, difficulty, in_folder)
    except NothingToChoose as error:
        raise NothingToChoose(error.reason, "drop -d") from None


def load_single(path: Path, difficulty: str | None) -> Puzzle:
    """The one puzzle a command such as `decode` works on; a day file needs `-d`."""
    puzzles = load_named(path, difficulty)
    if len(puzzles) != 1:
        raise PipsError(f"{path}: holds {len(puzzles)} puzzles; choose one with -d easy|medium|hard")
    return puzzles[0]


def print_json(document: Any, err: bool = False) -> None:
    """One compact JSON document on its own line of stdout (of stderr with `err`)."""
    stream = sys.stderr if err else sys.stdout
    stream.write(json_text(document) + "\n")
    stream.flush()


def json_text(document: Any) -> str:
    """`document` as compact JSON, numbers of any size too (what `print_json` prints)."""
    with long_numbers():
        return json.dumps(document, separators=(", ", ": "))


def solve_json(puzzle: Puzzle, result: SolveResult) -> dict[str, Any]:
    """The `solve --json` object, also printed by `decode --json`."""
    return {
        "puzzle": puzzle.origin.as_json(),
        "backend": result.backend,
        "status": str(result.status),
        "solutions": [solution.as_json() for solution in result.solutions],
        "seconds": round(result.seconds, 6),
    }


def print_solved(puzzle: Puzzle, result: SolveResult, headline: str, as_json: bool, picture: str | None = None,
                 err: bool = False) -> None:
    """A solving answer as `solve` and `decode` print it: the `solve --json` object, or `headline` then each
    solution drawn; then the `picture` file drawn of it named, as `show -o` names its files (by "file" in the
    JSON). With `err` it goes to stderr, where stdout took the picture (`solve -o -`)."""
    if as_json:
        print_json(solve_json(puzzle, result) | named_file(picture), err)
        return
    from pipscover.render.terminal import draw_solution

    typer.echo(headline, err=err)
    for solution in result.solutions:
        typer.echo(draw_solution(puzzle, solution), err=err)
    if named_file(picture):
        typer.echo(wrote(puzzle.describe(), str(picture)))


def named_file(path: str | None) -> dict[str, str]:
    """The "file" a --json answer names, as `show` and `encode` name theirs: none when nothing was written, or
    it went to stdout (`-`)."""
    return {"file": path} if path is not None and path != "-" else {}


def write_output(path: str, text: str) -> None:
    """Write `text` to `path` (`-` for stdout) whole or not at all: a failed run leaves no half-written file
    (`pipscover.runtime.writes`: a FIFO or a device is written directly, a new file gets the umask's
    permissions)."""
    if path == "-":
        sys.stdout.write(text)
        sys.stdout.flush()
        return
    if not path:  # (Path("") is the current folder: it said ": is a folder")
        raise PipsError("-o '': an empty name; give a file name to write (- for stdout)")
    if Path(path).is_dir():
        raise PipsError(f"{path}: is a folder; give a file name to write")
    try:
        write_whole(path, text)
    except OSError as error:
        raise cannot_write(path, error) from None


def wrote(subject: str, path: str, details: str = "") -> str:
    """The line that says where a file went, as every command that writes one says it on stdout: `SUBJECT: wrote
    PATH: DETAILS`, the name on one line (`show -o` and `planted -o` said nothing).

    >>> wrote("first.txt", "first.svg")
    'first.txt: wrote first.svg'
    """
    return f"{subject}: wrote {on_one_line(printable_path(path))}" + (f": {details}" if details else "")


def show_progress() -> bool:
    """Progress bars go to a terminal only: piped or redirected output stays quiet."""
    return sys.stderr.isatty() and os.environ.get("CI") is None


PROGRESS_DELAY = 0.5  # seconds before a bar appears: a quick run shows none


@contextmanager
def progress_bar(description: str, total: int | None = None) -> Iterator[Callable[..., None]]:
    """A rich progress bar on stderr; yields `update(advance=1, **fields)`. Silent when not a terminal.

    The bar appears only once the run has taken `PROGRESS_DELAY` seconds, and its clock moves on its own.
    While it shows, lines printed to a terminal stdout are drawn above it, never wrapped (one JSON object
    stays one line). Use `description=` in `update` to change the text, e.g. a running count and rate.
    """
    if not show_progress():
        yield lambda advance=1, **fields: None
        return
    from rich.console import Console
    from rich.file_proxy import FileProxy
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    stdout = sys.stdout

    class TextLines(FileProxy):
        """Lines printed to a terminal stdout while the bar shows, drawn above it. Rich's own proxy takes bytes
        and names no encoding, so click (`typer.echo`) wrote past it to stdout's buffer, glued to the bar."""

        encoding = stdout.encoding
        errors = stdout.errors

        def write(self, text: str) -> int:
            if not isinstance(text, str):
                raise TypeError("text only")
            return super().write(text)

    columns = [TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn()]
    console = Console(stderr=True, soft_wrap=True)
    progress = Progress(*columns, console=console, transient=True, redirect_stdout=False, redirect_stderr=False)
    task = progress.add_task(description, total=total)
    showing = threading.Lock()  # held while the bar starts or stops, so that it never does both at once
    started, stopped = threading.Event(), threading.Event()

    def start() -> None:
        with showing:
            if not stopped.is_set():
                progress.start()
                if stdout.isatty():
                    sys.stdout = TextLines(console, stdout)
                started.set()

    timer = threading.Timer(PROGRESS_DELAY, start)
    timer.daemon = True
    timer.start()
    try:
        yield lambda advance=1, **fields: progress.update(task, advance=advance, **fields)
    finally:
        timer.cancel()
        with showing:
            stopped.set()
            if started.is_set():
                if isinstance(sys.stdout, TextLines):
                    sys.stdout.flush()
                    sys.stdout = stdout
                progress.stop()


def output_paths(output: str, puzzles: list[Puzzle]) -> list[str]:
    """Where each puzzle's output file goes: `output` for one puzzle; for several, one file each, named
    `NAME-TAG.SUFFIX` with TAG the difficulty (and the file's name when they come from several files).

    >>> from pipscover.model import Origin
    >>> day = [Puzzle((), (), Origin("day.json", None, d)) for d in ("easy", "hard")]
    >>> output_paths("out.svg", day)
    ['out-easy.svg', 'out-hard.svg']
    """
    if len(puzzles) < 2:  # (none: every file named failed to read, and each was reported)
        return [output] * len(puzzles)
    if output == "-":
        raise PipsError(
            f"{len(puzzles)} puzzles given and one stdout; write them to a file (-o NAME) or choose one with -d"
        )
    target = Path(output)
    files = {puzzle.origin.file for puzzle in puzzles}
    tags = []
    for index, puzzle in enumerate(puzzles, start=1):
        parts = [Path(puzzle.origin.file or str(index)).stem] if len(files) > 1 else []
        parts.append(puzzle.origin.difficulty or ("" if len(files) > 1 else str(index)))
        tags.append("-".join(part for part in parts if part))
    if len(set(tags)) < len(tags):  # the same file named twice: number them instead
        tags = [str(index) for index in range(1, len(puzzles) + 1)]
    return [str(target.with_name(f"{target.stem}-{tag}{target.suffix}")) for tag in tags]


# Suffixes whose format everyone knows: an output named so is written in that format or refused, never
# written in another (a picture named first.png that holds an SVG).
KNOWN_SUFFIXES = frozenset({".svg", ".png", ".pdf", ".jpg", ".jpeg", ".gif", ".webp", ".txt", ".json", ".csv",
                            ".cnf", ".dimacs", ".opb", ".html"})


def output_format(path: str | None, formats: dict[str, str], chosen: str | None = None, default: str = "") -> str:
    """The format to write `path` in: the one its suffix names among this command's `formats` (suffix ->
    format), which an option that chose one (`chosen`) must agree with; else `chosen`, else `default`, when
    the name has no suffix of a known format (stdout, /dev/null, `out`). A suffix of a format the command
    does not write here, or one that contradicts `chosen`, is refused in one line.

    >>> output_format("first.svg", {".svg": "svg"})
    'svg'
    >>> output_format("-", {".svg": "svg", ".txt": "text"}, None, "terminal")
    'terminal'
    """
    suffix = Path(path).suffix.lower() if path not in (None, "-") else ""
    named = formats.get(suffix)
    if named is None and suffix in KNOWN_SUFFIXES:
        raise PipsError(f"{path}: this command does not write {suffix} files here; name the file with "
                        f"{' or '.join(formats)}")
    if named is not None and chosen is not None and named != chosen:
        raise PipsError(f"{path}: the name says {named} ({suffix}) and the option asks for {chosen}; leave out the "
                        "option or rename the file")
    return named or chosen or default


PUZZLE_JSON = {".json": "json"}  # what the commands that make puzzles write (generate, planted, reduce)
PICTURE = {".svg": "svg"}  # what solve and hint write with -o


def picture_option(what: str) -> Any:
    """The -o of the commands that can also draw `what` of each puzzle as an SVG picture (solve, hint)."""
    return typer.Option("--output", "-o", callback=output_folder,
                        help=f"Also write {what} as an SVG picture, NAME.svg (NAME-hard.svg etc. "
                        "for several; - for stdout, the answers then on stderr).")


def picture_paths(output: str | None, puzzles: list[Puzzle]) -> list[str | None]:
    """Where `picture_option` draws each puzzle (NAME.svg, NAME-hard.svg etc.); None each without it."""
    return [*output_paths(output, puzzles)] if output is not None else [None] * len(puzzles)


def exit_code(status: Status) -> int:
    """The exit code for a search that ended with `status`."""
    return {Status.SOLVED: EXIT_OK, Status.UNSATISFIABLE: EXIT_NO, Status.TIMEOUT: EXIT_TIMEOUT,
            Status.UNKNOWN: EXIT_TIMEOUT, Status.INTERRUPTED: EXIT_INTERRUPTED}[status]


def exit_with(code: int) -> None:
    if code:
        raise typer.Exit(code)
