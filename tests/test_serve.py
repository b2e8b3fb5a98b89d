"""`pipscover serve`'s JSON API, over real HTTP to the real command: answers, refusals (a 4xx with one
sentence, never a 500), deadlines, several clients at once, and nothing served outside the page and the API.

httpx and the server's own modules (Starlette) are imported by the tests that use them, not at the top: each
xdist worker collects every test file, and only one runs these."""

from __future__ import annotations

import contextlib
import json
import re
import signal
import socket
import subprocess
import sys
import threading
import time

import psutil
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from serving import DAY, MIRRORED, start_server, stop_server

from conftest import EXAMPLES
from pipscover.formats import puzzle_to_nyt
from pipscover.generate.generator import generate
from pipscover.model import Placement, Puzzle
from pipscover.model.check import problems
from pipscover.serve.jobs import made_view


def ask(server, path, view, placed=(), **extra):
    return server.post(path, json={"puzzle": view["puzzle"], "placed": [p.as_json() for p in placed], **extra})


def assert_refused(response, status, says):
    assert response.status_code == status, response.text
    error = response.json()["error"]
    assert says in error and error.endswith(".") and "\n" not in error and "Traceback" not in error


def test_it_listens_on_127_0_0_1_by_default(server):
    assert str(server.base_url).startswith("http://127.0.0.1:")


def test_its_connections_send_each_answer_at_once():
    """The body of an answer, written after its headers, once waited for the client's delayed acknowledgement
    of them (Nagle's algorithm): 40 ms on every answer of a connection but its first."""
    from pipscover.serve.app import listen

    with listen("127.0.0.1", 0) as listener, socket.create_connection(listener.getsockname()):
        accepted, _ = listener.accept()
        with accepted:
            assert accepted.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY)


def test_the_days_in_the_cache_are_listed_and_a_missing_one_is_fetched_from_the_mirror(server):
    assert server.get("/api/days").json() == {"days": [DAY]}
    fetched = server.get(f"/api/day/{MIRRORED}/easy")
    assert fetched.status_code == 200 and fetched.json()["origin"]["date"] == MIRRORED
    assert server.get("/api/days").json() == {"days": [DAY, MIRRORED]}  # now in the cache


def test_a_day_gives_the_puzzle_and_how_to_draw_it(server, hard, made):
    assert hard["origin"] == {"file": DAY, "date": DAY, "difficulty": "hard"}
    assert len(hard["dominoes"]) == len(made["hard"].puzzle.dominoes)
    assert all(region["fill"].startswith("#") for region in hard["regions"])


def test_a_day_the_mirror_does_not_have_is_a_404_in_one_sentence(server):
    assert_refused(server.get("/api/day/2025-01-04/easy"), 404, "has no puzzle for this day")


def test_a_day_whose_source_cannot_be_reached_is_a_502_not_a_404(tmp_path):
    """A network failure was a 404, as if the day did not exist: the page may ask again later."""
    import httpx

    process, url = start_server(tmp_path, "http://127.0.0.1:9")  # the discard port: nothing listens
    try:
        with httpx.Client(base_url=url, timeout=60) as client:
            assert_refused(client.get("/api/day/2025-01-04/easy"), 502, "cannot reach http://127.0.0.1:9")
    finally:
        stop_server(process)


@pytest.mark.parametrize(("path", "says"), [
    ("/api/day/2025-13-45/easy", "not a date"),
    ("/api/day/yesterday/easy", "not a date"),
    (f"/api/day/{DAY}/expert", "not a difficulty"),
])
def test_a_bad_day_or_difficulty_is_a_400(server, path, says):
    assert_refused(server.get(path), 400, says)


@pytest.mark.parametrize(("body", "says"), [
    (b"{not json", "malformed JSON"),
    (b"[1, 2]", "must be a JSON object"),
    (b'{"placed": []}', "the request needs 'puzzle'"),
    (b'{"puzzle": {"dominoes": [[1, 2]], "regions": "x"}}', "'regions' must be a list"),
    (b"\xff\xfe", "malformed JSON"),
])
def test_a_malformed_question_is_a_400(server, body, says):
    assert_refused(server.post("/api/hint", content=body), 400, says)


def test_a_placement_off_the_board_or_across_a_gap_is_a_400(server, hard):
    off = Placement(tuple(hard["dominoes"][0]), ((40, 40), (40, 41)))
    assert_refused(ask(server, "/api/hint", hard, [off]), 400, "is not on the board")
    first = tuple(hard["regions"][0]["cells"][0])
    apart = Placement(tuple(hard["dominoes"][0]), (first, (first[0] + 5, first[1] + 5)))
    assert_refused(ask(server, "/api/hint", hard, [apart]), 400, "")


def test_a_domino_the_puzzle_does_not_have_is_a_400(server, hard, made):
    placement = made["hard"].solution.placements[0]
    assert_refused(ask(server, "/api/hint", hard, [Placement((99, 98), placement.cells)]), 400, "no such domino")


def test_a_300_mb_upload_is_refused_with_413_before_it_is_read(server):
    host, port = server.base_url.host, server.base_url.port
    with socket.create_connection((host, port), timeout=10) as connection:
        connection.sendall(b"POST /api/open HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                           b"Content-Length: 314572800\r\n\r\n{")
        answer = ""
        while not answer.endswith("}"):
            received = connection.recv(65536).decode()
            if not received:
                break
            answer += received
    assert answer.startswith("HTTP/1.1 413") and "larger than 1024 KiB" in answer


def test_an_upload_without_a_length_is_refused_past_the_limit(server):
    import httpx

    def stream():  # chunked: the size shows only as the bytes arrive
        for _ in range(8):
            yield b" " * 2**20

    try:
        response = server.post("/api/open", content=stream())
    except httpx.TransportError:  # the server answered and closed while the client was still sending
        return
    assert_refused(response, 413, "larger than")


def test_a_file_opens_and_a_day_file_needs_a_difficulty(server, made, tmp_path):
    cells = [[0, 0], [0, 1]]
    text = json.dumps({"easy": {"dominoes": [[1, 2]], "regions": [{"indices": cells, "type": "sum", "target": 3}]},
                       "hard": {"dominoes": [[1, 2]], "regions": [{"indices": cells, "type": "empty"}]}})
    opened = server.post("/api/open", json={"name": "two.json", "difficulty": "easy", "text": text})
    assert opened.json()["regions"][0]["label"] == "3"
    several = server.post("/api/open", json={"name": "two.json", "text": text})
    assert_refused(several, 400, "choose easy")
    assert several.json()["difficulties"] == ["easy", "hard"]
    preferred = server.post("/api/open", json={"name": "two.json", "prefer": "hard", "text": text}).json()
    assert preferred["regions"][0]["rule"] == "empty"  # the page's choice picks among a day file's puzzles
    assert_refused(server.post("/api/open", json={"name": "two.json", "prefer": "medium", "text": text}), 400,
                   "two.json has no medium puzzle (it has easy, hard)")
    assert_refused(server.post("/api/open", json={"name": "bad.txt", "text": "\x89PNG\r\n"}), 400, "bad.txt")
    lone = b'{"name": "\\ud800.txt", "text": "1\\nAA\\n1\\nA SUM 3\\n1\\n1 2"}'  # its name was quoted in a 500
    assert_refused(server.post("/api/open", content=lone), 400, "half a character")


def test_a_difficulty_is_honoured_on_a_file_of_one_puzzle_as_the_command_line_does(server):
    """`/api/open` ignored `difficulty` on a file of one puzzle: a hard one opened as easy, and one naming no
    difficulty opened where `solve FILE -d hard` refuses (whose "drop -d" the API's caller, who sent no -d,
    was told too)."""
    plain = "1\nAA\n1\nA SUM 3\n1\n1 2"
    assert server.post("/api/open", json={"name": "plain.txt", "text": plain}).json()["regions"][0]["label"] == "3"
    no_difficulty = server.post("/api/open", json={"name": "plain.txt", "text": plain, "difficulty": "hard"})
    assert_refused(no_difficulty, 400, "plain.txt: its puzzle names no difficulty, so there is no hard one to choose; "
                   "leave 'difficulty' out")
    assert "-d" not in no_difficulty.json()["error"]
    hard = "hard\n" + plain
    assert server.post("/api/open", json={"name": "hard.txt", "text": hard, "difficulty": "hard"}).status_code == 200
    assert_refused(server.post("/api/open", json={"name": "hard.txt", "text": hard, "difficulty": "easy"}), 400,
                   "hard.txt: has no 'easy' puzzle (it has hard)")
    for text in (plain, hard):  # the page's choice, unlike -d, gives way to a file of one puzzle
        assert server.post("/api/open", json={"name": "one.txt", "text": text, "prefer": "easy"}).status_code == 200
    assert_refused(server.post("/api/open", json={"name": "one.txt", "text": plain, "prefer": "expert"}), 400,
                   "'expert' is not a difficulty")


@pytest.mark.parametrize("text", ["1\nAA\n1\nA SUM 3\n1\n1 9007199254740993",
                                  "1\nAA\n1\nA SUM 9007199254740993\n1\n1 2"])
def test_a_file_with_a_number_javascript_would_round_is_refused(server, text):
    """The page's JavaScript reads 2**53 + 1 as 2**53 and sends the puzzle back so: every question about it
    was refused ("the puzzle has no such domino") or answered about another puzzle."""
    opened = server.post("/api/open", json={"name": "big.txt", "text": text})
    assert_refused(opened, 400, "big.txt: 9007199254740993 is past the largest number the page holds exactly")


def test_a_hint_goes_on_from_the_position(server, hard, made):
    solution = made["hard"].solution
    answer = ask(server, "/api/hint", hard, solution.placements[:2]).json()["step"]
    assert answer["rule"] not in ("wrong-placement", "no-solution") and answer["cells"]
    assert all(made["hard"].solution.grid[tuple(cell)] == pip for *cell, pip in answer["pips"])


def test_a_wrong_placement_is_named_and_check_says_wrong(server, hard, made):
    solution = made["hard"].solution
    wrong = next(Placement(p.domino[::-1], p.cells) for p in solution.placements if p.domino[0] != p.domino[1])
    step = ask(server, "/api/hint", hard, [wrong]).json()["step"]
    assert step["rule"] == "wrong-placement" and sorted(map(tuple, step["cells"])) == sorted(wrong.cells)
    checked = ask(server, "/api/check", hard, [wrong]).json()
    assert checked["status"] == "wrong" and checked["step"]["reason"] == step["reason"]


def test_check_says_right_then_solved(server, hard, made):
    placements = made["hard"].solution.placements
    assert ask(server, "/api/check", hard, placements[:3]).json() == {"status": "right"}
    assert ask(server, "/api/check", hard, placements).json() == {"status": "solved"}


def test_reveal_one_then_all_completes_a_valid_solution(server, hard, made):
    puzzle = made["hard"].puzzle
    placed = list(made["hard"].solution.placements[:1])
    one = ask(server, "/api/reveal", hard, placed).json()["placements"]
    assert len(one) == 1
    placed += [Placement(tuple(p["domino"]), tuple(map(tuple, p["cells"]))) for p in one]
    rest = ask(server, "/api/reveal", hard, placed, all=True).json()["placements"]
    placed += [Placement(tuple(p["domino"]), tuple(map(tuple, p["cells"]))) for p in rest]
    assert len(placed) == len(puzzle.dominoes) and problems(puzzle, tuple(placed)) == []


def test_stats_count_solutions_and_grids_and_rate(server, hard):
    stats = ask(server, "/api/stats", hard).json()
    assert stats["solutions"] == {"count": "1", "exact": True} and stats["grids"] == {"count": "1", "exact": True}
    assert stats["rating"] in ("easy", "medium", "hard")


def test_a_new_puzzle_is_made_in_the_background(server):
    job = server.post("/api/generate", json={"dominoes": 4, "seed": 1, "difficulty": None})
    assert job.status_code == 202
    for _ in range(200):
        status = server.get(f"/api/jobs/{job.json()['job']}").json()
        if status["status"] != "running":
            break
        time.sleep(0.1)
    assert status["status"] == "done" and len(status["puzzle"]["dominoes"]) == 4
    made = status["puzzle"]  # its title says its rating, and that any difficulty was asked ("(easy)" said neither)
    rated = made["rating"]
    assert made["asked"] is made["origin"]["difficulty"] is None and rated in ("easy", "medium", "hard")
    assert made["title"].endswith(f" (rated {rated}; any difficulty asked)")


def test_a_new_puzzle_made_at_the_difficulty_asked_is_titled_so():
    rated = generate(dominoes=5, seed=3).difficulty  # asked of the same seed, the same puzzle comes first
    view = made_view(generate(dominoes=5, seed=3, difficulty=rated))
    assert view["asked"] == view["origin"]["difficulty"] == view["rating"] == rated
    assert view["title"].endswith(f" (rated {rated}, as asked)")


def test_a_new_puzzle_out_of_reach_is_said_in_the_pages_words(server):
    """It said "generate: 5 dominoes is out of reach ... (try --dominoes 13)": a command and a flag the page has
    not, where its own control says "13 dominoes"."""
    job = server.post("/api/generate", json={"dominoes": 5, "seed": 1, "difficulty": "hard"}).json()["job"]
    for _ in range(200):
        status = server.get(f"/api/jobs/{job}").json()
        if status["status"] != "running":
            break
        time.sleep(0.1)
    assert status["status"] == "failed" and status["error"] == (
        "5 dominoes is out of reach for a hard puzzle: NYT hard puzzles have 6-16 dominoes, 13 as a rule "
        "(try 13 dominoes).")


@pytest.mark.parametrize(("body", "says"), [({"dominoes": 500}, "from 2 to 40"), ({"dominoes": "x"}, "whole number"),
                                        ({"dominoes": 4, "difficulty": "nightmare"}, "not a difficulty")])
def test_a_bad_request_for_a_new_puzzle_is_a_400(server, body, says):
    assert_refused(server.post("/api/generate", json=body), 400, says)


def test_an_unknown_job_is_a_404(server):
    assert_refused(server.get("/api/jobs/nope"), 404, "No such job")


@pytest.mark.parametrize("path", ["/static/../pyproject.toml", "/static/%2e%2e/app.py", "/etc/passwd",
                                  "/api/nothing", "/static/nothing.js", "/pipscover/serve/app.py"])
def test_nothing_outside_the_page_and_the_api_is_served(server, path):
    response = server.get(path)
    assert response.status_code == 404 and "import" not in response.text


def test_the_page_and_its_files_are_served(server):
    page = server.get("/")
    assert page.status_code == 200 and '<script src="/static/app.js">' in page.text
    assert "http" not in page.text.replace("http://www.w3.org", "")  # nothing from elsewhere
    for name in ("app.js", "style.css", "icon.svg"):
        assert server.get(f"/static/{name}").status_code == 200


def test_a_request_for_another_host_name_is_refused_in_json(server):
    refused = server.get("/api/days", headers={"Host": "evil.example"})
    assert_refused(refused, 400, "answers to 127.0.0.1 or localhost only, not to evil.example")


def ipv6_loopback() -> bool:
    try:
        socket.create_server(("::1", 0), family=socket.AF_INET6).close()
    except OSError:
        return False
    return True


@pytest.mark.parametrize("host", ["0.0.0.0", "::1"])
def test_a_server_on_another_address_answers_at_the_address_it_prints(tmp_path, host):
    """0.0.0.0 opens the page to the network: it answered no name at all (every request a 400), and an IPv6
    address could not be listened on."""
    if ":" in host and not ipv6_loopback():
        pytest.skip("this system has no IPv6 loopback")
    import httpx

    process, url = start_server(tmp_path, "http://127.0.0.1:9", "--host", host)
    try:
        with httpx.Client(base_url=url, timeout=60) as client:
            assert client.get("/api/days").json() == {"days": []}
            if host == "0.0.0.0":  # a name only the network knows, as a phone on the same Wi-Fi would use
                port = url.rstrip("/").rsplit(":", 1)[1]
                assert client.get("/api/days", headers={"Host": f"pips.lan:{port}"}).status_code == 200
            question = {"Content-Type": "application/json", "Origin": "http://evil.example"}
            assert_refused(client.post("/api/check", content=b"{}", headers=question), 403, "Only the page")
    finally:
        stop_server(process)


def test_a_puzzle_given_on_the_command_line_is_the_game_a_new_tab_opens_on(tmp_path, server, run_cli):
    """`pipscover serve first.txt` was "got unexpected extra argument(s)": every other command reads a puzzle
    argument, and the page could open a file only through its picker."""
    import httpx

    puzzle = str(EXAMPLES / "first.txt")
    process, url = start_server(tmp_path, "http://127.0.0.1:9", puzzle)
    try:
        game = httpx.get(url + "api/first", timeout=60).json()["game"]
        assert game["title"] == puzzle and len(game["dominoes"]) == 8
    finally:
        stop_server(process)
    assert server.get("/api/first").json() == {"game": None}  # started without one
    refused = run_cli("serve", str(tmp_path / "missing.txt"), "--port", "0")
    assert refused.code == 2 and refused.err.count("\n") == 1 and "missing.txt" in refused.err


@pytest.mark.parametrize("path", ["/api/generate", "/api/hint", "/api/open", "/api/stats"])
@pytest.mark.parametrize("content_type", ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data"])
def test_a_post_a_web_page_may_send_without_asking_is_refused_before_any_work(server, path, content_type):
    # Not JSON: read, it would be a 400; a job would start (202) or a hint be given (200).
    body = b'{"dominoes": 4, "seed": 1}' if path == "/api/generate" else b"{not json"
    response = server.post(path, content=body, headers={"Content-Type": content_type})
    assert_refused(response, 415, "application/json")


@pytest.mark.parametrize("headers", [{"Origin": "http://evil.example"}, {"Origin": "null"},
                                     {"Sec-Fetch-Site": "cross-site"}, {"Sec-Fetch-Site": "same-site"}])
def test_a_post_from_another_origin_is_refused_before_any_work(server, headers):
    response = server.post("/api/generate", content=b"{not json", headers=headers)
    assert_refused(response, 403, "Only the page")


@pytest.mark.parametrize("site", ["cross-site", "same-site"])
def test_a_get_of_the_api_from_another_page_is_refused_and_the_page_itself_is_not(server, site):
    """Another page's `<img src=".../api/day/DATE/easy">` made the server download that day into its cache."""
    elsewhere = {"Sec-Fetch-Site": site, "Sec-Fetch-Mode": "no-cors", "Sec-Fetch-Dest": "image"}
    assert_refused(server.get(f"/api/day/{MIRRORED}/easy", headers=elsewhere), 403, "Only the page")
    assert_refused(server.get("/api/days", headers=elsewhere), 403, "Only the page")
    link = {"Sec-Fetch-Site": site, "Sec-Fetch-Mode": "navigate", "Sec-Fetch-Dest": "document"}
    assert server.get("/", headers=link).status_code == 200  # a link to the page, from anywhere


def test_a_post_from_the_page_itself_is_answered(server, hard):
    origin = {"Origin": str(server.base_url).rstrip("/"), "Sec-Fetch-Site": "same-origin"}
    response = server.post("/api/check", json={"puzzle": hard["puzzle"], "placed": []}, headers=origin)
    assert response.status_code == 200 and response.json() == {"status": "right"}


@pytest.mark.parametrize("path", ["/", "/static/app.js", "/api/days", "/api/nothing"])
def test_every_answer_has_the_headers_a_local_app_should_send(server, path):
    headers = server.get(path).headers
    policy = headers["content-security-policy"]
    assert "default-src 'self'" in policy and "unsafe-inline" not in policy and "frame-ancestors 'none'" in policy
    assert headers["x-content-type-options"] == "nosniff" and headers["referrer-policy"] == "no-referrer"


def test_the_page_has_no_inline_script_or_style(server):
    page = server.get("/").text
    assert re.findall(r"<script(?![^>]*\bsrc=)", page) == [] and "<style" not in page
    assert re.findall(r"\s(?:style|on[a-z]+)=", page) == []


@pytest.mark.parametrize(("path", "body", "says"), [
    ("/api/generate", {"dominoes": 8, "difficulty": ["hard"]}, "'difficulty' must be a text or null, not a list"),
    ("/api/generate", {"dominoes": {"a": 1}}, "'dominoes' must be a whole number, not an object"),
    ("/api/generate", {"dominoes": 8, "colour": "red"}, "no field 'colour'"),
    ("/api/hint", {"puzzle": [], "placed": []}, "'puzzle' must be an object, not a list"),
    ("/api/hint", {"puzzle": {}, "placed": {}}, "'placed' must be a list"),
    ("/api/reveal", {"puzzle": {}, "all": "yes"}, "'all' must be true or false"),
    ("/api/open", {"name": "a.json"}, "needs 'text'"),
    ("/api/open", {"text": 5}, "'text' must be a text"),
])
def test_a_body_of_the_wrong_shape_is_a_400_naming_the_field(server, path, body, says):
    assert_refused(server.post(path, json=body), 400, says)


def test_several_clients_at_once_all_get_answers(server, hard, made):
    import httpx

    placements = made["hard"].solution.placements
    answers: list[int] = []

    def play(count: int) -> None:
        with httpx.Client(base_url=server.base_url, timeout=30) as client:
            for end in range(count):
                answers.append(ask(client, "/api/hint", hard, placements[:end]).status_code)

    threads = [threading.Thread(target=play, args=(4,)) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert answers == [200] * 16


# Run in a fresh process that has imported what the server's fork server preloads (`work.PRELOAD`): each of the
# page's questions about each of the day's puzzles, with none and with half of its solution placed; prints the
# modules they imported.
QUESTIONS = """
import json, sys, time
for name in sys.argv[1:]:
    __import__(name)
from pipscover.formats.nyt import read_nyt
from pipscover.formats.solution import placements_in
from pipscover.serve import play

loaded = set(sys.modules)
for view, placed in json.load(sys.stdin):
    (puzzle,) = read_nyt(json.dumps(view), "the puzzle")
    for kind in play.SECONDS:
        play.answer(kind, puzzle, placements_in(placed, ValueError), time.monotonic() + 60, True)
print(sorted(set(sys.modules) - loaded))
"""


def test_a_question_imports_nothing_its_fork_server_has_not(made):
    """A question runs in a process forked for it from one that imported `PRELOAD`: what a question imports, it
    imports every time (with the play module alone preloaded, a count, a check or a reveal spent 40-90 ms of
    CPU importing the counters, the solvers and pysat's encoders)."""
    from pipscover.serve.work import PRELOAD

    asked = [(puzzle_to_nyt(day.puzzle), [p.as_json() for p in day.solution.placements[:half]])
             for day in made.values() for half in (0, len(day.solution.placements) // 2)]
    done = subprocess.run([sys.executable, "-c", QUESTIONS, *PRELOAD], input=json.dumps(asked), capture_output=True,
                          text=True, timeout=120)
    assert done.stdout.strip() == "[]", done.stdout + done.stderr


def test_the_fork_server_and_a_spare_process_start_with_the_server(tmp_path):
    """Started by the first question, the fork server imported `PRELOAD` (0.2-0.5 s) with the event loop
    held, and every other answer waited. Now it and a spare process (its child) are started as the server
    starts, in a thread, before any question."""
    import httpx

    process, url = start_server(tmp_path, "http://127.0.0.1:9")  # (nothing is fetched)
    try:
        assert httpx.get(url).status_code == 200
        server = psutil.Process(process.pid)
        for _ in range(400):
            spares = [spare for child in server.children() for spare in child.children()]
            if spares:
                break
            time.sleep(0.05)
        assert spares, "no spare process within 20 s of the start"
    finally:
        stop_server(process)


def test_ctrl_c_stops_the_server_at_once_and_ends_the_count_it_is_working_on(tmp_path):
    """A count may run to its 60 s deadline (on an empty 4 x 8 board the grids are not counted in time): Ctrl-C
    once waited for it to end, and a kill left its worker counting on, past the server. Now the question is
    answered 503 at once and its worker ends with the server."""
    import httpx

    board = [(row, column) for row in range(4) for column in range(8)]
    puzzle = Puzzle.build([("empty", board, None)], [(a, b) for a in range(4) for b in range(a, 4)] + [(5, 6)] * 6)
    process, url = start_server(tmp_path, "http://127.0.0.1:9")  # (nothing is fetched)
    try:
        answers: list[httpx.Response] = []
        asking = threading.Thread(target=lambda: answers.append(httpx.post(
            f"{url}api/stats", json={"puzzle": puzzle_to_nyt(puzzle), "placed": []}, timeout=120)))
        asking.start()
        server = psutil.Process(process.pid)
        for _ in range(1200):  # until a worker is counting: a child of the server's fork server, beside the
            workers = [worker for child in server.children() for worker in child.children()]  # spare started then
            if len(workers) >= 2:
                break
            time.sleep(0.05)
        assert workers, "no worker started within 60 s"
        process.send_signal(signal.SIGINT)
        process.wait(timeout=30)  # (the count had 50 s and more to run)
        asking.join()
        assert_refused(answers[0], 503, "the server is stopping")
        assert psutil.wait_procs(workers, timeout=10)[1] == []
    finally:
        stop_server(process)


@pytest.mark.parametrize(("stop", "code", "says"), [(signal.SIGINT, 130, "pipscover: stopped by Ctrl-C\n"),
                                                   (signal.SIGTERM, -signal.SIGTERM, "")], ids=["ctrl-c", "sigterm"])
def test_the_server_stopped_right_after_answers_exits_cleanly(tmp_path, made, stop, code, says):
    """Stopped as its questions' processes were ending (three clients asking hints one after another), the
    server sometimes printed a TypeError traceback from its process pool's thread; now only its own line."""
    import httpx

    hint = {"puzzle": puzzle_to_nyt(made["easy"].puzzle), "placed": []}
    process, url = start_server(tmp_path, "http://127.0.0.1:9")  # (nothing is fetched)
    answered = threading.Semaphore(0)

    def keep_asking() -> None:
        with httpx.Client(base_url=url, timeout=30) as client, contextlib.suppress(httpx.TransportError):
            while client.post("/api/hint", json=hint).status_code == 200:  # until the server stops
                answered.release()

    askers = [threading.Thread(target=keep_asking) for _ in range(3)]
    try:
        for asker in askers:
            asker.start()
        for _ in range(6):
            assert answered.acquire(timeout=30)
        process.send_signal(stop)
        assert process.wait(timeout=30) == code
        assert process.stderr.read() == says
    finally:
        stop_server(process)
        for asker in askers:
            asker.join()


def test_a_question_asked_again_while_it_is_worked_on_waits_for_the_same_answer(tmp_path):
    """A page reloaded on a large puzzle asks for its stats again each time. Each such question once took a
    place of its own for up to its minute, so after eight reloads the server refused every other question
    (503 "8 questions are being worked on"). Now a question asked again waits for the answer being worked on."""
    import httpx

    from pipscover.serve.work import WAITING, WORKERS

    board = [(row, column) for row in range(4) for column in range(8)]  # its grids are not counted in a minute
    puzzle = Puzzle.build([("empty", board, None)], [(a, b) for a in range(4) for b in range(a, 4)] + [(5, 6)] * 6)
    process, url = start_server(tmp_path, "http://127.0.0.1:9")  # (nothing is fetched)
    try:
        stats = {"puzzle": puzzle_to_nyt(puzzle), "placed": []}
        given_up: list[bool] = []

        def reload() -> None:  # the client gives up, as a reloaded page does
            try:
                httpx.post(f"{url}api/stats", json=stats, timeout=1)
            except httpx.TimeoutException:
                given_up.append(True)

        reloads = [threading.Thread(target=reload) for _ in range(WORKERS + WAITING)]
        for thread in reloads:
            thread.start()
        for thread in reloads:
            thread.join()
        assert len(given_up) == WORKERS + WAITING  # none was answered, not even a 503
        assert httpx.post(f"{url}api/hint", json=stats, timeout=30).status_code == 200
    finally:
        stop_server(process)


def test_a_question_whose_client_has_gone_gives_its_place_to_the_next(tmp_path, made):
    """Tabs closed while their counts ran (clients that gave up after a second) once held every place until the
    counts' deadline, a minute, and every other question was answered 503 meanwhile. Now the places are free
    once the counts have gone unasked for `work.ASKED_AGAIN` seconds."""
    import httpx

    from pipscover.serve.work import WAITING, WORKERS

    board = [(row, column) for row in range(4) for column in range(8)]  # its grids are not counted in a minute
    puzzle = puzzle_to_nyt(Puzzle.build([("empty", board, None)],
                                        [(a, b) for a in range(4) for b in range(a, 4)] + [(5, 6)] * 6))
    process, url = start_server(tmp_path, "http://127.0.0.1:9")  # (nothing is fetched)
    try:
        def ask_and_leave(row: int, column: int) -> None:  # a question of its own: the domino placed differs
            placed = [{"domino": [5, 6], "cells": [[row, column], [row, column + 1]]}]
            with contextlib.suppress(httpx.TimeoutException):
                httpx.post(f"{url}api/stats", json={"puzzle": puzzle, "placed": placed}, timeout=1)

        leaving = [threading.Thread(target=ask_and_leave, args=divmod(place, 4)) for place in range(WORKERS + WAITING)]
        for thread in leaving:
            thread.start()
        for thread in leaving:
            thread.join()
        hint = {"puzzle": puzzle_to_nyt(made["easy"].puzzle), "placed": []}
        asked, give_up = time.monotonic(), time.monotonic() + 10
        while (answer := httpx.post(f"{url}api/hint", json=hint, timeout=30)).status_code == 503:
            assert time.monotonic() < give_up, answer.text
            time.sleep(0.1)
        assert answer.status_code == 200
        assert time.monotonic() - asked < 10
    finally:
        stop_server(process)


JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False)
                    | st.text(max_size=8),
                    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
                    max_leaves=12)
FIELDS = ["puzzle", "placed", "all", "dominoes", "difficulty", "seed", "text", "name", "domino", "cells"]


@st.composite
def bodies(draw, hard):
    """Any JSON, or objects with the fields the shapes declare holding any JSON, or the day's puzzle with any
    placements: each reaches a different layer of the checks."""
    kind = draw(st.sampled_from(["any", "fields", "placed"]))
    if kind == "any":
        return draw(JSON)
    if kind == "fields":
        return draw(st.dictionaries(st.sampled_from(FIELDS), JSON, max_size=3))
    cell = st.lists(st.integers(-2, 8), min_size=2, max_size=2)
    placement = st.fixed_dictionaries({"domino": st.lists(st.integers(0, 6), max_size=3),
                                       "cells": st.lists(cell, max_size=3)}) | JSON
    return {"puzzle": hard["puzzle"], "placed": draw(st.lists(placement, max_size=3))}


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
@pytest.mark.parametrize("path", ["/api/hint", "/api/check", "/api/reveal", "/api/stats", "/api/open",
                                  "/api/generate"])
def test_no_json_body_makes_any_post_fail_with_a_5xx(server, hard, path, data):
    response = server.post(path, json=data.draw(bodies(hard)))
    if response.status_code == 503:  # the server is full or the question too big: said so, never a crash
        assert "error" in response.json()
        return
    assert response.status_code < 500, response.text
    assert response.status_code in (200, 202) or response.json()["error"].endswith(".")


def test_stats_count_grids_as_exactly_as_the_command_line(server):
    """A 2 x 7 board with no rules and 7 dominoes has 6,773,760 placements but 4,900,576 distinct grids
    (`pipscover count --distinct grids`): too many to list, so the server counts them by the command line's
    grid search, as it does 2025-09-15 hard's 1,025,428 (in about 10 s). The page once said "at least 0", or
    a lower bound that changed with each try."""
    board = [(row, column) for row in range(2) for column in range(7)]
    puzzle = Puzzle.build([("empty", board, None)], [(0, 1), (2, 3), (4, 5), (0, 2), (1, 3), (5, 6), (6, 6)])
    stats = ask(server, "/api/stats", {"puzzle": puzzle_to_nyt(puzzle)}).json()
    assert stats["solutions"] == {"count": "6773760", "exact": True}
    assert stats["grids"] == {"count": "4900576", "exact": True}


@pytest.mark.parametrize(("body", "says"), [
    ({"dominoes": 8, "seed": 10**4000}, "the seed must be a whole number from -(2^64 - 1) to 2^64 - 1, not 1000"),
    ({"dominoes": 8, "seed": 2**64}, "the seed must be a whole number"),
    ({"dominoes": 10**4000}, "dominoes must be from 2 to 40, not 1000"),
])
def test_a_number_past_what_the_command_line_takes_is_a_400_in_a_short_sentence(server, body, says):
    """A 4,000-digit seed started a job, whose status echoed it back whole (as the refusal of 4,000-digit
    dominoes did); `generate --seed` refuses it in the same words."""
    response = server.post("/api/generate", content=json.dumps(body).encode())
    assert_refused(response, 400, says)
    assert len(response.json()["error"]) < 200
