"""Fetching days by date from a real HTTP server on 127.0.0.1 in the NYT layout: the cache, retries, failures,
and dates wherever a puzzle file goes. Nothing here reaches the internet."""

from __future__ import annotations

import csv
import json
import os
import socket
import threading
import time
from collections import Counter
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from pipscover.errors import PipsError
from pipscover.formats import load, load_one
from pipscover.formats.fetch import days_from, fetch_day, is_day, parse_day

# A day of three small puzzles, each with its one solution.
PUZZLE = {
    "dominoes": [[1, 3], [2, 2]],
    "regions": [
        {"indices": [[0, 0], [0, 1]], "type": "sum", "target": 4},
        {"indices": [[1, 0], [1, 1]], "type": "equals"},
    ],
    "solution": [[[0, 0], [0, 1]], [[1, 0], [1, 1]]],
}
DAY = {"printDate": "2025-09-15", "easy": PUZZLE, "medium": PUZZLE, "hard": PUZZLE}


class NytMirror(BaseHTTPRequestHandler):
    """Serves `days` at /svc/pips/v1/DATE.json; `flaky` days answer 503 that many times first; `broken` days
    always answer 500; `slow` days answer after a second; every request is counted in `hits`."""

    days: dict[str, str] = {}
    flaky: Counter = Counter()
    broken: set[str] = set()
    slow: set[str] = set()
    hits: Counter = Counter()

    def do_GET(self) -> None:
        day = self.path.removeprefix("/svc/pips/v1/").removesuffix(".json")
        self.hits[day] += 1
        if day in self.slow:
            time.sleep(1)
        if day in self.broken or self.flaky[day] > 0:
            self.flaky[day] -= 1
            self._answer(503 if day not in self.broken else 500, "busy")
        elif self.path.startswith("/svc/pips/v1/") and day in self.days:
            self._answer(200, self.days[day])
        else:
            self._answer(404, "not found")

    def _answer(self, status: int, body: str) -> None:
        data = body.encode()
        try:
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the client stopped waiting (a slow day's time-out): nothing to report, in whichever test runs now

    def log_message(self, *args) -> None:
        pass


@pytest.fixture
def mirror(monkeypatch, tmp_path):
    """A running mirror with 2025-09-15 and 2025-09-16; the environment points pipscover at it and at a
    fresh cache. Yields the handler class, whose attributes the test may change."""
    NytMirror.days = {d: json.dumps({**DAY, "printDate": d}) for d in ("2025-09-15", "2025-09-16")}
    NytMirror.flaky, NytMirror.broken, NytMirror.slow, NytMirror.hits = Counter(), set(), set(), Counter()
    server = ThreadingHTTPServer(("127.0.0.1", 0), NytMirror)
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True)
    thread.start()
    monkeypatch.setenv("PIPSCOVER_NYT_URL", f"http://127.0.0.1:{server.server_address[1]}")
    monkeypatch.setenv("PIPSCOVER_CACHE", str(tmp_path / "cache"))
    monkeypatch.setattr("pipscover.formats.fetch.BACKOFF", 0.01)
    yield NytMirror
    server.shutdown()
    server.server_close()


def cached(tmp_path, day: str):
    return tmp_path / "cache" / f"{day}.json"


def test_a_day_is_downloaded_into_the_cache_once(mirror, tmp_path):
    first = fetch_day(parse_day("2025-09-15"))
    again = fetch_day(parse_day("2025-09-15"))
    assert (first.downloaded, again.downloaded) == (True, False)
    assert first.path == cached(tmp_path, "2025-09-15")
    assert mirror.hits["2025-09-15"] == 1
    assert [p.origin.difficulty for p in load(first.path)] == ["easy", "medium", "hard"]


def test_server_errors_are_retried_until_the_day_comes(mirror):
    mirror.flaky["2025-09-15"] = 2
    assert fetch_day(parse_day("2025-09-15"), backoff=0.01).downloaded
    assert mirror.hits["2025-09-15"] == 3


def test_a_day_the_server_does_not_have_is_one_error_and_no_file(mirror, tmp_path):
    with pytest.raises(PipsError, match="2025-01-01: the server has no puzzle for this day .*404"):
        fetch_day(parse_day("2025-01-01"))
    assert not (tmp_path / "cache").exists() or not list((tmp_path / "cache").iterdir())


def test_a_server_that_keeps_failing_is_given_up_after_a_few_tries(mirror):
    mirror.broken.add("2025-09-15")
    with pytest.raises(PipsError, match="answered 500 4 times"):
        fetch_day(parse_day("2025-09-15"), backoff=0.001)
    assert mirror.hits["2025-09-15"] == 4


def test_a_slow_server_times_out(mirror):
    mirror.slow.add("2025-09-15")
    with pytest.raises(PipsError, match="no answer from .* within 0.2 s"):
        fetch_day(parse_day("2025-09-15"), timeout=0.2)


def test_an_unreachable_server_is_one_error(tmp_path):
    with socket.socket() as closed:  # a port nobody listens on once this is closed
        closed.bind(("127.0.0.1", 0))
        port = closed.getsockname()[1]
    with pytest.raises(PipsError, match="cannot reach http://127.0.0.1"):
        fetch_day(parse_day("2025-09-15"), cache=tmp_path, base=f"http://127.0.0.1:{port}")


def test_an_answer_that_is_not_a_day_is_not_cached(mirror, tmp_path):
    mirror.days["2025-09-15"] = "<html>maintenance</html>"
    with pytest.raises(PipsError, match="malformed JSON"):
        fetch_day(parse_day("2025-09-15"))
    assert not cached(tmp_path, "2025-09-15").exists()


def test_days_and_ranges():
    assert is_day("today") and not is_day("puzzle.json")
    first, second = parse_day("2025-09-30"), parse_day("2025-10-01")
    assert days_from(first, second) == [first, second]
    with pytest.raises(PipsError, match="not a date"):
        parse_day("2025-13-40")


def test_fetch_command_reports_each_day_as_json(mirror, run_cli, tmp_path):
    result = run_cli("fetch", "--from", "2025-09-15", "--to", "2025-09-16", "--json")
    lines = [json.loads(line) for line in result.out.splitlines()]
    assert result.code == 0
    assert [(line["date"], line["downloaded"]) for line in lines] == [("2025-09-15", True), ("2025-09-16", True)]
    again = json.loads(run_cli("fetch", "2025-09-16", "--json").out)
    assert again["downloaded"] is False and again["file"] == str(cached(tmp_path, "2025-09-16"))


def test_fetch_command_takes_a_mirror_and_cache_on_the_command_line(mirror, run_cli, tmp_path, monkeypatch):
    base = os.environ["PIPSCOVER_NYT_URL"]
    monkeypatch.delenv("PIPSCOVER_NYT_URL")
    result = run_cli("fetch", "2025-09-15", "--base-url", base, "--cache-dir", tmp_path / "other")
    assert result.code == 0 and (tmp_path / "other" / "2025-09-15.json").is_file()


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["2025-01-01"], "2025-01-01: the server has no puzzle for this day"),
        (["someday"], "someday: not a date"),
        (["--to", "2025-09-16"], "--to needs --from"),
        ([], "name the days to fetch"),
        (["2025-09-15", "--timeout", "nan"], "--timeout nan: must be a number of seconds >= 0.001,"),  # was ">= 0,"
        (["2025-09-15", "--timeout", "0"], "--timeout 0.0: must be at least 0.001"),
        (["2025-09-15", "--base-url", "http://[::1"], "cannot reach http://[::1 (Invalid port"),  # a traceback
        (["2025-09-15", "--base-url", "http://127.0.0.1:1/a\nb"], "cannot reach http://127.0.0.1:1/a b (Invalid"),
    ],
)
def test_fetch_command_errors_are_one_line_and_exit_2(mirror, run_cli, arguments, message):
    result = run_cli("fetch", *arguments)
    assert result.code == 2
    assert result.err.count("\n") == 1 and message in result.err


@pytest.mark.parametrize("timeout", ["inf", "1e12"])
def test_fetch_with_no_time_limit_waits_for_the_answer(mirror, run_cli, tmp_path, timeout):
    """`--timeout inf` (or 1e12), the way every other command says "no limit", was an OverflowError traceback
    from the socket."""
    result = run_cli("fetch", "2025-09-15", "--timeout", timeout)
    assert (result.code, result.err) == (0, "") and cached(tmp_path, "2025-09-15").is_file()


@pytest.mark.parametrize("timeout", [float("nan"), 0.0, -1.0])
def test_fetch_day_refuses_a_timeout_that_is_no_wait(mirror, timeout):
    with pytest.raises(PipsError, match=r"^timeout must be a number of seconds >= 0.001 \(inf: no limit\), not "):
        fetch_day(parse_day("2025-09-15"), timeout=timeout)
    assert not mirror.hits


def test_a_day_among_several_that_cannot_be_fetched_is_one_line_and_the_others_come(mirror, run_cli, tmp_path):
    """`fetch 2025-01-01 2025-09-15` ended with exit 2 at the day the server does not have, fetching none after
    it; now that day is one line (an entry of --json), the others are fetched, and the exit code is 1."""
    mirror.broken.add("2025-09-16")
    done = run_cli("fetch", "2025-01-01", "2025-09-15", "2025-09-16")
    lines = done.out.splitlines()
    assert (done.code, done.err, len(lines)) == (1, "", 3)
    assert lines[0].startswith("not fetched: 2025-01-01: the server has no puzzle for this day")
    assert lines[1].startswith("2025-09-15: downloaded to") and cached(tmp_path, "2025-09-15").is_file()
    assert lines[2].startswith("not fetched: 2025-09-16: ") and "answered 500" in lines[2]
    entries = [json.loads(line) for line in run_cli("fetch", "--from", "2024-12-31", "--to", "2025-01-01",
                                                    "2025-09-15", "--json").out.splitlines()]
    assert [(entry["date"], entry["downloaded"], "error" in entry) for entry in entries] == [
        ("2025-09-15", False, False), ("2024-12-31", False, True), ("2025-01-01", False, True)]


def test_a_server_that_cannot_be_reached_ends_a_fetch_of_several_days_in_one_line(run_cli, tmp_path):
    """Every day would fail the same way: one line and exit code 2, not a line per day of the range."""
    with socket.socket() as closed:  # a port nobody listens on once this is closed
        closed.bind(("127.0.0.1", 0))
        port = closed.getsockname()[1]
    done = run_cli("fetch", "--from", "2025-09-01", "--to", "2025-09-30", "--base-url", f"http://127.0.0.1:{port}",
                   "--cache-dir", tmp_path)
    assert (done.code, done.out, done.err.count("\n")) == (2, "", 1) and "2025-09-01: cannot reach" in done.err


def test_a_range_of_more_than_ten_years_is_refused_before_a_request(mirror, run_cli):
    """`fetch --from 0001-01-01` asked the server for every day since (739,509 requests, now that a day it does
    not have is a line and the others go on)."""
    done = run_cli("fetch", "--from", "0001-01-01", "--to", "2025-09-15")
    assert (done.code, done.out) == (2, "") and "spans 739,509 days; fetch at most 3,660" in done.err
    assert not mirror.hits


def test_a_date_works_where_a_puzzle_file_does(mirror, run_cli):
    solved = run_cli("solve", "2025-09-16", "-d", "hard", "--json")
    assert solved.code == 0
    document = json.loads(solved.out)
    assert document["puzzle"]["date"] == "2025-09-16" and document["status"] == "solved"
    assert run_cli("check", "2025-09-16", "-d", "easy", "--help").code == 0
    assert mirror.hits["2025-09-16"] == 1


def test_check_decode_and_load_one_take_a_date(mirror, run_cli, tmp_path):
    solution = tmp_path / "sol.json"
    solution.write_text(run_cli("solve", "2025-09-15", "-d", "hard", "--json").out)
    assert run_cli("check", "2025-09-15", solution).code == 0
    assert run_cli("check", "2025-09-15", solution, "-d", "hard").code == 0
    assert load_one("2025-09-15", "hard").origin.difficulty == "hard"
    model = tmp_path / "model.txt"
    model.write_text("s UNSATISFIABLE\n")
    decoded = run_cli("decode", "2025-09-15", model, "-d", "easy")
    assert decoded.code == 1 and "unsatisfiable" in decoded.out
    assert mirror.hits["2025-09-15"] == 1


@pytest.mark.parametrize("command", ["show", "solve", "count", "encode", "hint", "rate", "bench"])
def test_every_puzzle_command_takes_a_date(mirror, run_cli, command):
    result = run_cli(command, "2025-09-16", "-d", "easy")
    assert result.code == 0, result.err


def test_a_day_written_as_text_reads_back_as_three_puzzles(mirror, run_cli, tmp_path):
    shown = run_cli("show", "2025-09-15", "-f", "text")
    (tmp_path / "day.txt").write_text(shown.out)
    solved = [json.loads(line) for line in run_cli("solve", tmp_path / "day.txt", "--json").out.splitlines()]
    assert [(d["puzzle"]["difficulty"], d["status"]) for d in solved] == [
        ("easy", "solved"), ("medium", "solved"), ("hard", "solved")]
    assert run_cli("show", "2025-09-15", "-o", tmp_path / "again.txt").code == 0
    assert (tmp_path / "again.txt").read_text() == shown.out
    assert len(run_cli("solve", tmp_path / "day.txt", "-d", "hard", "--json").out.splitlines()) == 1


@pytest.mark.parametrize("args", [["count", "DAY"], ["check", "DAY", "ANSWER"], ["decode", "DAY", "ANSWER"]])
def test_a_missing_date_as_a_puzzle_is_one_line_and_exit_2(mirror, run_cli, tmp_path, args):
    (tmp_path / "answer.txt").write_text("s UNSATISFIABLE\n")
    result = run_cli(*[{"DAY": "2024-01-01", "ANSWER": tmp_path / "answer.txt"}.get(arg, arg) for arg in args])
    assert result.code == 2 and result.err.count("\n") == 1 and "2024-01-01: the server has no puzzle" in result.err


def test_sweep_takes_dates_from_the_cache_and_fetches_the_missing_ones(mirror, run_cli, tmp_path):
    out = tmp_path / "counts.csv"
    done = run_cli("sweep", "count", "2025-09-15", "2025-09-16", "--jobs", "1", "--output", out, "--json")
    assert done.code == 0, done.err
    rows = list(csv.DictReader(out.open(newline="")))
    assert sorted((row["date"], row["difficulty"]) for row in rows) == [
        (day, level) for day in ("2025-09-15", "2025-09-16") for level in ("easy", "hard", "medium")]
    assert {row["file"] for row in rows} == {str(cached(tmp_path, "2025-09-15")), str(cached(tmp_path, "2025-09-16"))}
    assert {(row["status"], row["count"]) for row in rows} == {("counted", "2")}  # [1|3] either way round
    again = run_cli("sweep", "count", "2025-09-15", "2025-09-16", "--jobs", "1", "--output", out, "--json")
    assert again.code == 0 and json.loads(again.out)["skipped"] == 6
    assert (mirror.hits["2025-09-15"], mirror.hits["2025-09-16"]) == (1, 1)  # read from the cache the second time


def test_sweep_over_a_date_the_server_does_not_have_is_one_line_and_exit_2(mirror, run_cli, tmp_path):
    done = run_cli("sweep", "count", "2025-09-15", "2024-01-01", "--jobs", "1", "--output", tmp_path / "never.csv")
    assert (done.code, done.out) == (2, "")
    assert done.err.count("\n") == 1 and "2024-01-01: the server has no puzzle for this day" in done.err
    assert not (tmp_path / "never.csv").exists()


def test_a_cache_that_is_a_file_is_named_so(mirror, run_cli, tmp_path):
    """It said "cannot write to the cache (File exists)", mkdir's words, of a --cache-dir that is a file."""
    taken = tmp_path / "taken"
    taken.write_text("not a folder")
    result = run_cli("fetch", "2025-09-15", "--cache-dir", taken)
    assert result.code == 2 and result.err == (
        f"pipscover: error: {taken}: cannot write to the cache (it is a file, not a folder)\n")
