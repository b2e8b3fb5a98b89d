"""`pipscover sweep` on a real Dask scheduler and workers (subprocesses on 127.0.0.1), on a LocalCluster and in
process: every row written once, even when a worker is killed mid-job; resume; time limits; Ctrl-C."""

from __future__ import annotations

import csv
import json
import os
import signal
import subprocess
import sys
import threading
import time
from functools import partial
from pathlib import Path

import psutil
import pytest

from conftest import BIN, EXAMPLES, stop_session
from pipscover import count, load_one
from pipscover.formats import puzzle_to_nyt
from pipscover.generate.generator import generate
from pipscover.hints.rating import rate
from pipscover.sweep import Summary
from pipscover.sweep.jobs import COMMON_COLUMNS

OPEN_BOARD = "4\n######\n######\n######\n######\n0\n12\n" + "".join(
    f"{a} {b}\n"
    for a, b in [(0, 1), (0, 2), (0, 3), (0, 4), (0, 5), (0, 6), (1, 2), (1, 3), (1, 4), (1, 5), (1, 6), (2, 3)]
)


@pytest.fixture(scope="module")
def puzzles(tmp_path_factory) -> Path:
    """A folder of eleven small puzzles: ten generated ones (3 to 7 dominoes) and examples/first.txt."""
    folder = tmp_path_factory.mktemp("puzzles")
    for seed in range(10):
        made = generate(dominoes=3 + seed % 5, seed=seed)
        (folder / f"g{seed}.json").write_text(json.dumps(puzzle_to_nyt(made.puzzle, made.solution)))
    (folder / "first.txt").write_text((EXAMPLES / "first.txt").read_text())
    return folder


@pytest.fixture
def sweep_here(run_cli):
    """`pipscover sweep ARGS...` in this process (`run_cli`): the processes it starts (jobs', a LocalCluster's
    workers) are processes all the same."""
    return partial(run_cli, "sweep")


def _rows(path: Path) -> list[dict[str, str]]:
    with path.open(newline="") as stream:
        return list(csv.DictReader(stream))


def _files(rows: list[dict[str, str]]) -> list[str]:
    return sorted(Path(row["file"]).name for row in rows)


# --- On the shared stock scheduler and workers (conftest's `scheduler`), first, one test after another: it runs
# only while they do (and on from test_count_cluster.py's, when that file ends just before in this process).
# The sweeps that need no other process beside them run in this one (`sweep_here`). ---

def test_sweep_on_a_scheduler_writes_one_row_per_puzzle_with_the_columns(sweep_here, scheduler, puzzles, tmp_path):
    out = tmp_path / "counts.csv"
    done = sweep_here("count", puzzles, "--scheduler", scheduler, "--output", out, "--json")
    assert done.code == 0, done.err
    assert json.loads(done.out)["statuses"] == {"counted": 11}
    rows = _rows(out)
    assert list(rows[0])[: len(COMMON_COLUMNS)] == list(COMMON_COLUMNS)
    assert list(rows[0])[len(COMMON_COLUMNS):] == ["dominoes", "regions", "method"]
    assert _files(rows) == sorted(path.name for path in puzzles.iterdir())
    for row in rows:
        assert (row["task"], row["backend"], row["status"], row["exact"]) == ("count", "auto", "counted", "true")
        assert int(row["count"]) == count(load_one(row["file"])).count
        assert row["worker"].startswith("tcp://127.0.0.1:")
        assert float(row["seconds"]) >= 0 and float(row["cpu_seconds"]) >= 0


def test_bench_runs_every_backend_named_on_each_puzzle(sweep_here, scheduler, puzzles, tmp_path):
    out = tmp_path / "bench.csv"
    done = sweep_here("bench", puzzles / "first.txt", "-b", "dlx", "-b", "minisat", "--scheduler", scheduler,
                  "--output", out, "--timeout", "20")
    assert done.code == 0, done.err
    rows = _rows(out)
    assert sorted(row["backend"] for row in rows) == ["dlx", "minisat"]
    assert {row["status"] for row in rows} == {"solved"}
    assert len({row["worker"] for row in rows}) == 1  # the backends of one puzzle run side by side


def test_a_worker_killed_mid_job_has_its_job_run_elsewhere_and_written_once(sweep_here, scheduler, tmp_path):
    """The jobs have a time limit: each runs in a process that its worker, a daemonic process, forks. (Killed,
    a job without one is run again as surely: Dask runs a task again whatever it ran.) The sweep runs in this
    process, a thread here killing a worker as soon as it holds a job. Last on the cluster: the next test that
    asks for it finds the killed worker restarted by its nanny."""
    from distributed import Client

    out, swept, watching, killed = tmp_path / "generated.csv", threading.Event(), threading.Event(), {}

    def kill_a_busy_worker() -> None:
        with Client(scheduler, timeout=30) as client:
            watching.set()
            deadline = time.monotonic() + 120
            while not swept.is_set() and time.monotonic() < deadline:
                busy = {worker: keys for worker, keys in client.processing().items() if keys}
                if busy:
                    victim = next(iter(busy))
                    os.kill(client.run(os.getpid, workers=[victim])[victim], signal.SIGKILL)
                    killed[victim] = busy[victim]
                    return
                time.sleep(0.02)

    killer = threading.Thread(target=kill_a_busy_worker)
    killer.start()
    watching.wait(60)  # connected before the sweep starts, as in test_count_cluster.py: a fast sweep may not wait
    try:
        # Eight puzzles of 8 dominoes, sent at once: two rounds on the workers' four threads of 0.16 s of CPU a job
        # and its fork, long enough to catch a worker holding one (10 dominoes, 0.28 s a job, added nothing).
        done = sweep_here("generate", "--seeds", "1-8", "-n", "8", "--timeout", "60", "--scheduler", scheduler,
                          "--output", out)
    finally:
        swept.set()
        killer.join()
    assert killed, done  # it ended before any worker held a job: refused, or failed
    assert done.code == 0, done.err
    [(victim, keys)] = killed.items()
    rows = _rows(out)
    assert sorted(int(row["seed"]) for row in rows) == list(range(1, 9))  # each once
    assert {row["status"] for row in rows} == {"generated"}
    killed_rows = [row for row in rows if any(key.endswith(f"-seed {row['seed']}") for key in keys)]
    assert killed_rows and all(row["worker"] != victim for row in killed_rows)


# --- On a LocalCluster and in this process ---


def test_local_cluster_counts_grids(sweep_here, puzzles, tmp_path):
    out = tmp_path / "grids.csv"
    done = sweep_here("grids", puzzles, "--jobs", "2", "--output", out)
    assert done.code == 0, done.err
    assert "11 of 11 jobs done (11 counted)" in done.out
    rows = _rows(out)
    assert _files(rows) == sorted(path.name for path in puzzles.iterdir())
    assert all(row["worker"].startswith("tcp://127.0.0.1:") for row in rows)
    assert all(int(row["count"]) == count(load_one(row["file"]), distinct="grids").count for row in rows)


def test_a_rerun_skips_the_rows_already_written(sweep_here, puzzles, tmp_path):
    out = tmp_path / "resumed.csv"
    first = sorted(puzzles.iterdir())[:4]
    assert sweep_here("count", *first, "--jobs", "1", "--output", out).code == 0
    with out.open("a") as stream:
        stream.write(f"{puzzles / 'g9.json'},,,count,auto,coun")  # a line cut off by a crash mid-write
    again = sweep_here("count", puzzles, "--jobs", "1", "--output", out, "--json")
    assert again.code == 0, again.err
    assert (json.loads(again.out)["jobs"], json.loads(again.out)["skipped"]) == (7, 4)
    assert _files(_rows(out)) == sorted(path.name for path in puzzles.iterdir())


def test_the_puzzles_of_one_text_file_are_rows_of_their_own_and_resume_as_such(sweep_here, tmp_path):
    two, out = tmp_path / "two.txt", tmp_path / "two.csv"
    two.write_text((EXAMPLES / "first.txt").read_text() + "\n" + (EXAMPLES / "first.txt").read_text())
    assert sweep_here("count", two, "--jobs", "1", "--output", out).code == 0
    assert [row["number"] for row in _rows(out)] == ["1", "2"]
    again = sweep_here("count", two, "--jobs", "1", "--output", out, "--json")
    assert json.loads(again.out)["skipped"] == 2 and len(_rows(out)) == 2


def test_a_file_named_twice_runs_once_and_is_not_said_to_be_in_the_table(sweep_here, tmp_path):
    """`sweep count FILE FILE -o new.csv` said "1 already in new.csv" of a table it had just made."""
    out = tmp_path / "new.csv"
    first = EXAMPLES / "first.txt"
    done = sweep_here("count", first, first, "--jobs", "1", "--output", out, "--json")
    summary = json.loads(done.out)
    assert (summary["jobs"], summary["skipped"], summary["repeated"], len(_rows(out))) == (1, 0, 1, 1)
    said = sweep_here("count", first, first, "--jobs", "1", "--output", tmp_path / "said.csv").out
    assert "0 already in" in said and "1 repeated (run once)" in said


def test_the_summary_is_one_line_whatever_the_table_is_named_and_writes_its_counts_for_people(sweep_here, tmp_path):
    """A table named with a line break made the summary two lines ("0 already in two" and "lines.csv; ...");
    its counts had no thousands separators where every other command's have them."""
    said = sweep_here("count", EXAMPLES / "first.txt", "--jobs", "1", "--output", tmp_path / "two\nlines.csv").out
    assert said.count("\n") == 1 and "already in " in said and "two\\nlines.csv; " in said, said
    many = Summary("generate", "made.csv", jobs=10_000, done=1_200, skipped=3_000, statuses={"generated": 1_200})
    assert many.describe().startswith("sweep generate: 1,200 of 10,000 jobs done (1,200 generated), 3,000 already")


def test_a_bad_file_among_good_ones_is_an_error_row_and_the_sweep_goes_on(sweep_here, tmp_path):
    """A folder with a bad file stopped the sweep there with exit 2 and no table; now that file's row says what
    is wrong, the others are counted, and the exit code (1) says some rows failed."""
    folder, out = tmp_path / "mixed", tmp_path / "mixed.csv"
    folder.mkdir()
    for name in ("a.txt", "c.txt"):
        (folder / name).write_text((EXAMPLES / "first.txt").read_text())
    (folder / "b.json").write_text('{"dominoes": [[1, 2]]}')
    done = sweep_here("count", folder, "--jobs", "1", "--output", out)
    assert done.code == 1 and "2 counted, 1 error" in done.out, (done.out, done.err)
    rows = {Path(row["file"]).name: row for row in _rows(out)}
    assert [rows[name]["status"] for name in ("a.txt", "b.json", "c.txt")] == ["counted", "error", "counted"]
    assert rows["b.json"]["error"].endswith("b.json: the puzzle is blank or incomplete: it needs 'dominoes' and "
                                            "'regions'")
    again = sweep_here("count", folder, "--jobs", "1", "--output", out, "--json")
    assert json.loads(again.out)["skipped"] == 3 and len(_rows(out)) == 3  # its row resumes as the others do


def test_rate_writes_the_rating_steps_guesses_and_hardest_rule_of_each_puzzle(sweep_here, puzzles, tmp_path):
    unsolvable, out = tmp_path / "none.txt", tmp_path / "ratings.csv"
    unsolvable.write_text("1\nAA\n1\nA SUM 9\n1\n1 2\n")
    done = sweep_here("rate", puzzles / "first.txt", puzzles / "g3.json", unsolvable, "--jobs", "1", "--output", out)
    assert done.code == 0, done.err
    rows = _rows(out)
    assert list(rows[0])[len(COMMON_COLUMNS):] == ["dominoes", "regions", "rating", "steps", "guesses",
                                                   "hardest_rule", "level"]
    for row in rows:
        rating = rate(load_one(row["file"]))
        if rating.difficulty is None:
            assert (row["status"], row["rating"], row["steps"]) == ("unsatisfiable", "", "0")
            continue
        assert (row["status"], row["rating"], row["hardest_rule"]) == ("rated", rating.difficulty, rating.hardest.name)
        assert (int(row["steps"]), int(row["guesses"]), int(row["level"])) == (
            rating.steps, rating.guesses, rating.hardest.level)
    assert sorted(row["status"] for row in rows) == ["rated", "rated", "unsatisfiable"]


def test_retry_runs_the_rows_of_a_status_again(sweep_here, tmp_path):
    board, out = tmp_path / "open.txt", tmp_path / "timeouts.csv"
    board.write_text(OPEN_BOARD)
    done = sweep_here("count", board, "-b", "minisat", "--timeout", "0.3", "--jobs", "1", "--output", out)
    assert done.code == 3  # 551,319,345,561,600 solutions: far too many to list by blocking clauses
    [row] = _rows(out)
    assert (row["status"], row["exact"]) == ("timeout", "false") and int(row["count"]) >= 0
    assert sweep_here("count", board, "--jobs", "1", "--output", out).code == 0  # another backend: a new row
    assert sweep_here("count", board, "-b", "minisat", "--timeout", "0.3", "--jobs", "1", "--output", out,
                      "--json").out.count('"jobs": 0')
    retried = sweep_here("count", board, "-b", "minisat", "--timeout", "0.3", "--jobs", "1", "--output", out,
                         "--retry", "timeout", "--json")
    assert json.loads(retried.out)["jobs"] == 1
    assert sorted(row["status"] for row in _rows(out)) == ["counted", "timeout"]


def test_a_job_that_ignores_its_time_limit_is_stopped(sweep_here, tmp_path):
    out = tmp_path / "generated.csv"
    start = time.monotonic()
    done = sweep_here("generate", "--seeds", "1", "-n", "150", "--timeout", "0.2", "--jobs", "1", "--output", out)
    assert done.code == 3, done.err
    assert time.monotonic() - start < 20
    [row] = _rows(out)
    assert (row["status"], row["seed"], row["dominoes"]) == ("timeout", "1", "150")


def test_a_generated_rows_rating_is_named_rating_as_rates_rows_name_it(sweep_here, tmp_path):
    """Its `difficulty` column held the rating, where a rate row's `difficulty` is the puzzle's own label and
    `rating` what `rate` gives: now `rating` holds it, and `difficulty` still does (plot --kind difficulty reads
    it, as the README shows on generated.csv)."""
    out = tmp_path / "generated.csv"
    assert sweep_here("generate", "--seeds", "1-2", "-n", "5", "--jobs", "1", "--output", out).code == 0
    rows = _rows(out)
    assert [row["rating"] for row in rows] == [row["difficulty"] for row in rows] == [
        str(generate(dominoes=5, seed=seed).difficulty) for seed in (1, 2)]


def test_a_generated_table_from_before_the_rating_column_goes_on(sweep_here, tmp_path):
    """A rerun on a table written before `rating` was added was refused ("holds a table with other columns"):
    its rows are kept, rewritten with the column filled from `difficulty` (which held the rating), and the
    new rows go on after them."""
    from pipscover.sweep.jobs import columns

    out = tmp_path / "generated.csv"
    assert sweep_here("generate", "--seeds", "1-2", "-n", "5", "--jobs", "1", "--output", out).code == 0
    written, older = _rows(out), [name for name in columns("generate") if name != "rating"]
    with out.open("w", newline="") as stream:
        writer = csv.DictWriter(stream, older, extrasaction="ignore")
        writer.writeheader()
        writer.writerows(written)
    done = sweep_here("generate", "--seeds", "1-3", "-n", "5", "--jobs", "1", "--output", out)
    assert done.code == 0 and "2 already in" in done.out
    rows = _rows(out)
    assert tuple(rows[0]) == columns("generate") and [row["seed"] for row in rows] == ["1", "2", "3"]
    assert [row["rating"] for row in rows] == [row["difficulty"] for row in rows] == [
        str(generate(dominoes=5, seed=seed).difficulty) for seed in (1, 2, 3)]


def test_seeds_may_be_negative_as_generates_seed_may(sweep_here, tmp_path):
    """`generate --seed -1` makes a puzzle, and `sweep generate --seeds -1` said "not a seed or range"."""
    out = tmp_path / "negative.csv"
    assert sweep_here("generate", "--seeds=-2--1,3", "-n", "4", "--jobs", "1", "--output", out).code == 0
    assert [(row["seed"], row["status"]) for row in _rows(out)] == [("-2", "generated"), ("-1", "generated"),
                                                                    ("3", "generated")]


@pytest.mark.parametrize(("args", "message"), [
    (["count", "nowhere.json"], "nowhere.json: no such file"),
    (["generate", "--seeds", "5-1"], "is empty"),
    (["generate"], "needs --seeds"),
    (["count", str(EXAMPLES / "first.txt"), "--jobs", "2", "--scheduler", "tcp://127.0.0.1:1"], "--jobs"),
])
def test_bad_input_is_one_line_and_exit_code_2(run_cli, tmp_path, args, message):
    done = run_cli("sweep", *args, "--output", tmp_path / "never.csv")
    assert (done.code, done.out) == (2, "")
    assert done.err.count("\n") == 1 and message in done.err
    assert not (tmp_path / "never.csv").exists()


def test_a_table_of_another_task_is_refused(sweep_here, puzzles, tmp_path):
    out = tmp_path / "counts.csv"
    assert sweep_here("count", puzzles / "first.txt", "--jobs", "1", "--output", out).code == 0
    done = sweep_here("solve", puzzles / "first.txt", "--jobs", "1", "--output", out)
    assert done.code == 2 and "other columns" in done.err


def _until(condition, seconds: float) -> bool:
    """Whether `condition()` came true within `seconds` (asked every 50 ms): a bound for a loaded machine."""
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


def _running_in_session(session: int) -> list[str]:
    """The processes of a session still running, each as its pid and whole command line (a zombie is left to
    init to reap). Read with psutil: `ps` cuts its lines at 80 columns when piped, which hid the command's end
    in a checkout at a long path."""
    running = []
    for process in psutil.process_iter(["pid", "status", "cmdline"]):
        try:
            if os.getsid(process.pid) == session and process.info["status"] != psutil.STATUS_ZOMBIE:
                running.append(f"{process.pid} {' '.join(process.info['cmdline'] or [])}")
        except (ProcessLookupError, PermissionError):  # ended meanwhile
            continue
    return running


def _long_generate_sweep(out: Path) -> subprocess.Popen:
    """A sweep of 2,000 generate jobs on a LocalCluster of two workers, in its own process group (as a terminal
    runs it, with SIGINT's default action even when the suite runs in the background), writing its table to
    `out`: long enough to be interrupted at any point (6 dominoes, 0.05 s of CPU a job: a minute and a half in
    all; with 8, 0.16 s a job, the workers spent three times as long on the jobs before the third row)."""
    return subprocess.Popen([BIN / "pipscover", "sweep", "generate", "--seeds", "1-2000", "-n", "6", "--jobs", "2",
                             "-o", out], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True, preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))


def test_ctrl_c_keeps_the_rows_written_and_leaves_no_process(tmp_path):
    out = tmp_path / "interrupted.csv"
    sweep = _long_generate_sweep(out)
    try:
        assert _until(lambda: sweep.poll() is not None or out.exists() and len(_rows(out)) >= 3, 120)
        assert sweep.poll() is None, sweep.communicate()
        os.killpg(sweep.pid, signal.SIGINT)  # as a terminal does: to every process of the group
        output, errors = sweep.communicate(timeout=60)  # it takes a second or two; a minute means it hangs
        left = [] if _until(lambda: not _running_in_session(sweep.pid), 30) else _running_in_session(sweep.pid)
    finally:
        stop_session(sweep)
    assert sweep.returncode == 130, errors
    assert errors == "" and "stopped by Ctrl-C" in output
    rows = _rows(out)
    assert len(rows) >= 3 and len({row["seed"] for row in rows}) == len(rows)
    assert left == []


def test_ctrl_c_while_the_workers_start_ends_the_sweep_at_once(tmp_path):
    """SIGINT to the group once a worker process exists but before the table does (the cluster is starting)."""
    out = tmp_path / "never.csv"
    sweep = _long_generate_sweep(out)
    try:
        starting = _until(lambda: any("multiprocessing.spawn" in line for line in _running_in_session(sweep.pid)), 120)
        assert starting and not out.exists(), (starting, out.exists(), _running_in_session(sweep.pid))
        os.killpg(sweep.pid, signal.SIGINT)
        pressed = time.monotonic()
        output, errors = sweep.communicate(timeout=60)
        took = time.monotonic() - pressed
        left = [] if _until(lambda: not _running_in_session(sweep.pid), 30) else _running_in_session(sweep.pid)
    finally:
        stop_session(sweep)
    assert sweep.returncode == 130 and errors == "" and "stopped by Ctrl-C" in output, (output, errors)
    assert took < 20 and left == []


HEAVY_MODULES = {"dask", "distributed", "matplotlib", "numpy", "networkx", "pysat", "httpx", "pydantic", "platformdirs",
                 "multiprocessing", "pipscover.cnf.dimacs"}  # (the last two: a worker, the SAT commands' DIMACS)


def test_the_command_line_starts_without_the_heavy_modules():
    """Every command pays for what `import pipscover.cli` loads: none of the big libraries (start-up is
    ~0.15 s, see encodings/benchmarks.md); `solve FILE` loads only what it uses. The commands run one after
    another in one fresh process, each one's heavy modules noted as it ends: none loaded by one is loaded
    before the next."""
    commands = [[], ["--help"], ["solve", str(EXAMPLES / "first.txt")], ["count", str(EXAMPLES / "first.txt")]]
    code = (f"import sys, pipscover.cli, contextlib, io\nloaded = {{}}\nfor command in {commands!r}:\n"
            f"    with contextlib.redirect_stdout(io.StringIO()):\n        pipscover.cli.run(command)\n"
            f"    loaded[' '.join(command)] = sorted(set({sorted(HEAVY_MODULES)!r}) & set(sys.modules))\n"
            f"print(loaded)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.stdout.strip() == repr({" ".join(command): [] for command in commands}), done.stderr
