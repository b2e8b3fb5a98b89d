"""`pipscover serve` under load, on 127.0.0.1: heavy questions in parallel while the page is fetched (a
bounded number of each, and the test stops by itself), the bound on heavy work (503 with Retry-After past
it), deadlines counted from a question's arrival, and the server's memory after a burst."""

from __future__ import annotations

import asyncio
import os
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING

import psutil
import pytest

from pipscover.serve import play
from pipscover.serve.work import Full, Work

if TYPE_CHECKING:  # (not imported at run time: each xdist worker collects every test file)
    import httpx

HEAVY = 16  # stats asked at once: more than the server runs and queues (work.WORKERS + work.WAITING)
PAGE_FETCHES = 20


def server_memory(server) -> int:
    """The resident memory of the server's process and its workers, in bytes."""
    port = server.base_url.port
    (pid,) = {c.pid for c in psutil.net_connections("tcp") if c.laddr.port == port and c.status == "LISTEN"}
    process = psutil.Process(pid)
    return sum(p.memory_info().rss for p in [process, *process.children(recursive=True)])


def stats(server, hard) -> httpx.Response:
    return server.post("/api/stats", json={"puzzle": hard["puzzle"], "placed": []})


def test_the_page_is_served_while_heavy_questions_run_and_past_the_bound_they_are_refused(server, hard):
    with ThreadPoolExecutor(HEAVY) as pool:
        heavy = [pool.submit(stats, server, hard) for _ in range(HEAVY)]
        fetched = [[server.get(path).status_code for path in ("/", "/static/app.js", "/api/days")]
                   for _ in range(PAGE_FETCHES)]
        answers = [future.result() for future in heavy]
    assert all(statuses == [200, 200, 200] for statuses in fetched)
    assert {answer.status_code for answer in answers} <= {200, 503}
    refused = [answer for answer in answers if answer.status_code == 503]
    assert all(answer.headers["retry-after"].isdigit() and "ask again" in answer.json()["error"] for answer in refused)
    assert any(answer.status_code == 200 for answer in answers)


def test_memory_goes_back_near_its_baseline_after_a_burst(server, hard):
    stats(server, hard)
    baseline = server_memory(server)
    with ThreadPoolExecutor(8) as pool:
        list(pool.map(lambda _: stats(server, hard), range(8)))
    give_up = time.monotonic() + 30  # the last worker processes end
    while server_memory(server) >= baseline + 30 * 2**20 and time.monotonic() < give_up:
        time.sleep(0.05)
    assert server_memory(server) < baseline + 30 * 2**20


def test_past_the_bound_a_question_is_refused_at_once():
    async def main() -> None:
        work = Work(workers=1, waiting=0)
        try:
            running = asyncio.ensure_future(work.run(time.sleep, 0.5))
            await asyncio.sleep(0)  # it has taken the one place
            with pytest.raises(Full, match="ask again"):
                await work.run(time.sleep, 0)
            await running
            await work.run(time.sleep, 0)  # the place is free again
        finally:
            work.close()

    asyncio.run(main())


def test_a_deadline_counts_from_the_questions_arrival_not_from_when_its_work_starts(made):
    puzzle = made["hard"].puzzle
    arrived_long_ago = time.monotonic() - play.SECONDS["hint"]
    with pytest.raises(play.TooLong):
        play.answer("hint", puzzle, (), arrived_long_ago, False)


def test_questions_still_waiting_when_the_server_stops_are_refused_and_no_worker_outlives_it():
    """One question runs, the next is handed to the workers' queue, the third still waits in the pool: stopping
    cancelled the third, and its CancelledError reached the page as a 500 with a traceback, not the 503 the
    others get. When `close` returns, every worker has been told to end."""

    async def main() -> list[BaseException]:
        work = Work(workers=1, waiting=2)
        asked = [asyncio.ensure_future(work.run(time.sleep, 60)) for _ in range(3)]
        while not work._running:  # the first question has its process
            await asyncio.sleep(0.01)
        workers = [psutil.Process(process.pid) for process in work._running]
        work.close()
        answers = await asyncio.gather(*asked, return_exceptions=True)
        assert psutil.wait_procs(workers, timeout=30)[1] == []
        return answers

    answers = asyncio.run(main())
    assert [type(answer) for answer in answers] == [Full] * 3
    assert all("the server is stopping" in str(answer) for answer in answers)


def slow_to_end() -> None:
    """A question whose process takes half a second to end after it has answered (a finalizer it runs as it
    exits)."""
    from multiprocessing import util

    util.Finalize(None, time.sleep, (0.5,), exitpriority=1)


def test_closing_right_after_an_answer_raises_nothing_in_any_thread(monkeypatch):
    """The server stopped just after an answer, its question's process still ending: a `ProcessPoolExecutor`'s
    thread then went on to replace that worker in a pool its `shutdown(wait=False)` had already taken apart, and
    a TypeError traceback ended the server's output (CPython issue 119592)."""
    raised: list[threading.ExceptHookArgs] = []
    monkeypatch.setattr(threading, "excepthook", raised.append)

    async def main() -> None:
        work = Work(workers=1, waiting=0)
        await work.run(slow_to_end)
        work.close()
        await asyncio.sleep(1)  # (the process has ended, and whatever followed it)

    asyncio.run(main())
    assert [args.exc_value for args in raised] == []


async def started(work: Work, count: int = 1) -> list[psutil.Process]:
    """The processes of the questions being worked on, once there are `count`."""
    while len(work._running) < count:
        await asyncio.sleep(0.01)
    return [psutil.Process(process.pid) for process in work._running]


def test_a_question_cancelled_gives_its_place_up_and_its_process_ends():
    """What the server does when a question's client goes: the place is taken at once by the next question."""

    async def main() -> None:
        work = Work(workers=1, waiting=0)
        try:
            running = asyncio.ensure_future(work.run(time.sleep, 60))
            (process,) = await started(work)
            running.cancel()
            await asyncio.wait([running])
            assert await asyncio.wait_for(work.run(time.monotonic), 10) > 0  # not Full
            assert psutil.wait_procs([process], timeout=10)[1] == []
        finally:
            work.close()

    asyncio.run(main())


def test_a_question_asked_twice_is_worked_on_until_both_askers_have_gone():
    async def main() -> None:
        work = Work(workers=1, waiting=0)
        try:
            first, second = (asyncio.ensure_future(work.run(time.sleep, 60, asked="the same")) for _ in range(2))
            (process,) = await started(work)
            first.cancel()
            await asyncio.wait([first])
            assert psutil.wait_procs([process], timeout=0.5)[1] == [process]  # the second still waits for it
            second.cancel()
            await asyncio.wait([second])
            assert await asyncio.to_thread(psutil.wait_procs, [process], timeout=10) == ([process], [])
        finally:
            work.close()

    asyncio.run(main())


def pid_after(seconds: float) -> int:
    """The question's process, after `seconds`."""
    time.sleep(seconds)
    return os.getpid()


def test_a_question_asked_again_soon_after_its_asker_left_is_not_started_over():
    """A reloaded page asks its stats again a moment after the old page's request was cut off: it waits for
    the count under way, in the same process, rather than starting it over."""

    async def main() -> None:
        work = Work(workers=1, waiting=0)
        try:
            first = asyncio.ensure_future(work.run(pid_after, 0.5, asked="stats"))
            (process,) = await started(work)
            first.cancel()
            await asyncio.wait([first])
            assert await work.run(pid_after, 0.5, asked="stats") == process.pid
        finally:
            work.close()

    asyncio.run(main())
