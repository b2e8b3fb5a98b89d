"""Shared fixtures: the real NYT puzzles beside the checkout, skipped where they are absent."""

from __future__ import annotations

import functools
import os
import signal
import socket
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
import typer
from hypothesis import HealthCheck, settings

from pipscover import cli
from pipscover.cli import main, readable

# Property tests draw the same examples on every run, so a failure reproduces and the suite's time is bounded;
# an example may take as long as it needs on a loaded machine. `--hypothesis-profile=explore` draws new ones.
settings.register_profile("suite", derandomize=True, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("explore", settings.get_profile("suite"), derandomize=False)
settings.load_profile("suite")

# The files that take the most CPU (measured per file, `encodings/benchmarks.md`), heaviest first: they are
# collected first, and with `--no-loadscope-reorder` (pyproject) xdist hands files to its workers in that order,
# so the last files to start are short ones and both workers finish together. (By default xdist starts the
# files with the most tests first, which left the heaviest, with few tests each, to the end on one worker.)
# test_sweep.py comes third: xdist gives a worker its next file when two of its tests are left, and the
# worker of test_count_cluster.py gets there (its last two tests, the killed workers) long before the worker
# of test_against_brute_force.py does, so the sweep's tests on the stock cluster follow the count's there and
# share its cluster (`scheduler`), rather than start a second one (8 s of CPU). test_style.py comes next:
# mypy without its cache (a fresh clone, CI) takes 12 s of CPU, with it 1 s; it starts at about a quarter of
# the run, so that what it costs is evened out by the many files still to come, whatever the cache held.
# The last four (5 to 11 s each) came among the other files, in alphabetical order: test_sampling.py started
# at about 175 s of 185 (by an idle run's durations), and under load it was the run's last file, its worker
# ending 17 s after the other; now they start by about 155 s, with 30 s of short files still to come.
HEAVY_FIRST = ("test_count_cluster.py", "test_against_brute_force.py", "test_sweep.py", "test_style.py",
               "test_page.py", "test_hostile.py", "test_hints.py", "test_serve.py", "test_structural_core.py",
               "test_inclusion_exclusion.py", "test_sat.py", "test_counting.py", "test_count_frontier.py",
               "test_generate.py", "test_serve_load.py", "test_count_portfolio.py", "test_sampling.py",
               "test_certify.py", "test_honest.py", "test_plot.py")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The heavy files' tests first (`HEAVY_FIRST`); within a file, and among the others, the collected order.
    A name there that is no file of the suite (renamed, removed) stops the run rather than silently ranking
    nothing."""
    missing = [name for name in HEAVY_FIRST if not (Path(__file__).parent / name).is_file()]
    if missing:
        raise pytest.UsageError(f"tests/conftest.py: HEAVY_FIRST names no test file: {', '.join(missing)}")
    rank = {name: place for place, name in enumerate(HEAVY_FIRST)}
    items.sort(key=lambda item: rank.get(item.path.name, len(HEAVY_FIRST)))


NYT_FOLDER = Path(__file__).resolve().parents[2] / "shared" / "puzzles" / "nyt"
BIN = Path(sys.executable).parent  # pipscover, dask: the commands of this venv
EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def nyt_files() -> list[Path]:
    """Every NYT day file beside the checkout, or none."""
    return sorted(NYT_FOLDER.glob("*.json")) if NYT_FOLDER.is_dir() else []


needs_nyt = pytest.mark.skipif(not nyt_files(), reason=f"no NYT puzzles in {NYT_FOLDER}")


@dataclass(frozen=True)
class CliResult:
    code: int
    out: str
    err: str


# Typer turns the app into a click group on every run, building every command whose module is loaded (in a
# worker that has run most commands, 90 ms of a bad-input test's 100); the tests build it once for each set
# of loaded commands, and make each command's placeholders readable once, as a process does. (`pipscover` run
# as a process, as the subprocess tests do, still builds the one command it runs.)
_build_group = typer.main.get_group
_humanize = readable.humanize
_humanized: dict[int, object] = {}  # id -> command (held, so that an id is never reused)


@functools.cache
def _built_group(app: typer.Typer, registered: int):  # a click group (typer carries its own click)
    return _build_group(app)


def _group_once(app: typer.Typer):
    return _built_group(app, len(app.registered_commands) + len(app.registered_groups))


def _humanize_once(command, help_names=None) -> None:
    if id(command) not in _humanized:
        _humanized[id(command)] = command
        _humanize(command, help_names)


@pytest.fixture
def run_cli(monkeypatch, capsys):
    """Run `pipscover ARGS...` in this process; returns its exit code, stdout and stderr."""

    def run(*args: str) -> CliResult:
        monkeypatch.setattr(typer.main, "get_group", _group_once)
        monkeypatch.setattr(readable, "humanize", _humanize_once)  # (it calls itself on subcommands)
        monkeypatch.setattr(cli, "humanize", _humanize_once)
        monkeypatch.setattr(sys, "argv", ["pipscover", *map(str, args)])
        code = 0
        try:
            main()
        except SystemExit as done:
            code = done.code if isinstance(done.code, int) else (0 if done.code is None else 1)
        captured = capsys.readouterr()
        return CliResult(code, captured.out, captured.err)

    return run


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    """The real `pipscover serve` and the puzzles it serves (tests/serving.py), for one test module."""
    from serving import day_server

    with day_server(tmp_path_factory.mktemp("served")) as served:
        yield served


@pytest.fixture(scope="module")
def made(served):
    return served[1]


@pytest.fixture(scope="module")
def server(served):
    """An HTTP client of the served app, sending JSON as the page does (a POST of any other type is refused)."""
    import httpx

    with httpx.Client(base_url=served[0], timeout=60, headers={"Content-Type": "application/json"}) as client:
        yield client


@pytest.fixture(scope="module")
def hard(server):
    """The served day's hard puzzle, as the page gets it."""
    from serving import DAY

    return server.get(f"/api/day/{DAY}/hard").json()


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def stop_session(process: subprocess.Popen) -> None:
    """Stop a process started in its own session, and everything it started."""
    for sig, wait in ((signal.SIGTERM, 10), (signal.SIGKILL, 5)):
        try:
            os.killpg(process.pid, sig)
            process.wait(wait)
            return
        except ProcessLookupError:
            return
        except subprocess.TimeoutExpired:
            continue


# --- One stock Dask cluster for the tests that ask for `scheduler` (test_count_cluster.py, test_sweep.py) ---
# Starting one costs about 7 s of CPU (five processes: the scheduler, two nannies and their workers, each
# importing distributed), and idle it still takes about a sixth of a core (heartbeats, the workers' profilers):
# so it is started at the first test that asks for it, shared by the tests that follow, and stopped as soon as
# the next test (in this xdist worker) does not ask for it. Each test finds both workers there, a worker killed
# by an earlier test being restarted by its nanny first; a cluster with a process ended is started again.


class StockCluster:
    """A stock `dask scheduler` and two stock `dask worker`s, started as a user would (each worker with a
    nanny, in a daemonic process, a thread per core: Dask's defaults), in their own sessions, on 127.0.0.1."""

    def __init__(self) -> None:
        self.address = ""
        self.processes: list[subprocess.Popen] = []

    def ready(self) -> str:
        """The scheduler's address, both workers connected (the cluster started, or started again, if need be)."""
        from distributed import Client

        if self.processes and any(process.poll() is not None for process in self.processes):
            self.stop()
        started = not self.processes
        if started:
            self._start()
        with Client(self.address, timeout=30) as client:
            client.wait_for_workers(2, timeout=60)
            # Dask's default, which sweeps must take:
            assert not started or all(client.run(lambda: __import__("multiprocessing").current_process().daemon)
                                      .values())
        return self.address

    def _start(self) -> None:
        self.address = f"tcp://127.0.0.1:{free_port()}"
        port = self.address.rsplit(":", 1)[1]
        self.processes.append(subprocess.Popen(
            [BIN / "dask", "scheduler", "--host", "127.0.0.1", "--port", port, "--no-dashboard",
             "--dashboard-address", "127.0.0.1:0"],  # its HTTP server, not on 8787
            start_new_session=True, stderr=subprocess.DEVNULL))
        for name in ("w1", "w2"):
            self.processes.append(subprocess.Popen(
                [BIN / "dask", "worker", self.address, "--name", name, "--host", "127.0.0.1",
                 "--no-dashboard"], start_new_session=True, stderr=subprocess.DEVNULL))

    def stop(self) -> None:
        for process in reversed(self.processes):
            stop_session(process)
        self.processes = []


_stock_cluster = StockCluster()


@pytest.fixture(scope="session")
def _stock_cluster_stopped_at_the_end():
    yield
    _stock_cluster.stop()


@pytest.fixture
def scheduler(_stock_cluster_stopped_at_the_end) -> str:
    """The address of the shared stock cluster (`StockCluster`), where `pipscover sweep` and `count
    --scheduler` run."""
    return _stock_cluster.ready()


@pytest.hookimpl(trylast=True)
def pytest_runtest_teardown(item: pytest.Item, nextitem: pytest.Item | None) -> None:
    """Stop the shared cluster once no test that comes next asks for it."""
    if nextitem is None or "scheduler" not in getattr(nextitem, "fixturenames", ()):
        _stock_cluster.stop()
