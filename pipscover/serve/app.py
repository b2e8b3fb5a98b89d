"""The web app behind `pipscover serve`: the page (static files shipped in the package) and its JSON API.

Routes (the README documents the API):
- `GET /` the page; `GET /static/...` its script, style and icon, and nothing outside that folder;
- `GET /api/first` the game a new tab opens on, the puzzle given on the command line (null without one);
- `GET /api/days` the days in the fetch cache; `GET /api/day/{date}/{difficulty}` one of them, fetched first
  when missing (with `fetch`'s mirror and cache settings);
- `POST /api/open` a puzzle file's text; `POST /api/generate`, then `GET /api/jobs/{id}` until it is done;
- `POST /api/hint`, `/api/check`, `/api/reveal`, `/api/stats` with `{"puzzle": ..., "placed": [...]}`.

Every POST body has a declared shape (`shapes`), at most `MAX_BODY` bytes; every refusal is a 4xx with
`{"error": one sentence}` (a 503 with Retry-After when the server is full, a 502 when the fetch source cannot
give a day): a bad request never reaches a 500 or a traceback. `guard` refuses what other web pages could make
the server do. Heavy questions run in worker processes (`work`), so the page's files and light questions never
wait behind them; one whose client has gone before its answer is cancelled, and its place is free at once.
"""

from __future__ import annotations

import asyncio
import random
import socket
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import BaseRoute, Mount, Route
from starlette.staticfiles import StaticFiles

from pipscover.errors import PipsError, is_written_whole_number
from pipscover.formats import NothingToChoose, parse
from pipscover.formats.fetch import NoSuchDay, cache_folder, fetch_day, is_day, parse_day
from pipscover.formats.nyt import parse_json
from pipscover.model import Difficulty
from pipscover.model.results import checked_seed
from pipscover.serve import play
from pipscover.serve.guard import Guard
from pipscover.serve.jobs import Busy, Jobs
from pipscover.serve.shapes import NewPuzzle, OpenFile, Question, read
from pipscover.serve.work import RETRY_AFTER, Full, Work

STATIC = Path(__file__).parent / "static"
MAX_BODY = 2**20  # bytes: an NYT day is 10-20 KB, a page's question a few KB
GONE = 499  # the status of an answer nobody is left to read (nginx's "client closed request"), for the logs
Endpoint = Callable[[Request], Awaitable[Response]]


def make_app(
    cache: str | None = None, base: str | None = None, hosts: tuple[str, ...] = ("127.0.0.1", "localhost"),
    first: dict[str, Any] | None = None,
) -> Starlette:
    """The app; `cache` and `base` as `pipscover fetch`'s --cache-dir and --base-url; `hosts`, the names it
    answers to; `first`, the game a new tab opens on (the puzzle given on the command line)."""
    work = Work()

    async def first_game(request: Request) -> Response:
        return JSONResponse({"game": first})

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        work.start()  # (not awaited: the first page is answered meanwhile)
        yield
        work.close()

    routes = [Route("/", _index), Mount("/static", StaticFiles(directory=STATIC), name="static"),
              Route("/api/first", first_game),
              *_day_routes(cache, base), *_job_routes(Jobs()),
              *(Route(f"/api/{kind}", _question(work, kind), methods=["POST"]) for kind in play.SECONDS)]
    handlers: dict[Any, Callable[..., Any]] = {HTTPException: _refused, PipsError: _refused, play.TooLong: _refused}
    made = Starlette(routes=routes, exception_handlers=handlers, middleware=[Middleware(Guard, hosts=hosts)],
                     lifespan=lifespan)
    made.state.work = work
    return made


def listen(host: str, port: int) -> socket.socket:
    """A socket listening on `host`:`port` (0: any free port), bound before serving so that the address printed
    is the real one. Its connections send each piece of an answer at once (TCP_NODELAY, which they inherit):
    otherwise the body, written after the headers, waited for the client's delayed acknowledgement, 40 ms on
    every answer after a connection's first (uvicorn sets it only on the sockets it binds itself). An IPv6
    address (`::1`) gets an IPv6 socket; `::`, all addresses, takes IPv4 ones too where the system can."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    both = host == "::" and socket.has_dualstack_ipv6()
    listener = socket.create_server((host, port), family=family, dualstack_ipv6=both)
    listener.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    return listener


def run(app: Starlette, listener: socket.socket) -> None:
    """Serve `app` on `listener` until Ctrl-C, which ends the questions being worked on at once (each is
    answered 503) instead of waiting for them: a count may run for a minute."""
    import uvicorn

    class Server(uvicorn.Server):
        async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
            app.state.work.close()
            await super().shutdown(sockets)

    Server(uvicorn.Config(app, log_level="warning")).run(sockets=[listener])


async def _index(request: Request) -> Response:
    return FileResponse(STATIC / "index.html")


def _day_routes(cache: str | None, base: str | None) -> list[BaseRoute]:
    """The days in the cache, one day's puzzle (fetched when missing) and a puzzle file opened."""

    async def days(request: Request) -> Response:
        folder = cache_folder(cache)
        found = sorted(path.stem for path in folder.glob("*.json") if is_day(path.stem)) if folder.is_dir() else []
        return JSONResponse({"days": found})

    async def day(request: Request) -> Response:
        chosen, difficulty = request.path_params["date"], _difficulty(request.path_params["difficulty"])
        when = parse_day(chosen)
        try:
            fetched = await run_in_threadpool(fetch_day, when, cache, base)
        except NoSuchDay as error:
            raise HTTPException(404, str(error)) from None
        except PipsError as error:  # the source unreachable or broken: the page may ask again later
            raise HTTPException(502, str(error)) from None
        text = await run_in_threadpool(fetched.path.read_text, "utf-8")
        (puzzle,) = parse(text, f"{when.isoformat()}", difficulty)
        return JSONResponse(play.view(puzzle))

    async def open_file(request: Request) -> Response:
        """The file's puzzle: `difficulty` chooses as `-d` does on the command line (a file whose puzzles name
        none refuses it), `prefer` (the page's choice) only among several; a file of several with neither is
        refused with the difficulties they name."""
        opened = read(OpenFile, await _json(request))
        difficulty = None if opened.difficulty is None else _difficulty(opened.difficulty)
        preferred = None if opened.prefer is None else _difficulty(opened.prefer)
        try:
            puzzles = parse(opened.text.removeprefix("\ufeff"), opened.name, difficulty)
        except NothingToChoose as error:  # its "drop -d" is the command line's word
            raise PipsError(f"{error.reason}; leave 'difficulty' out") from None
        named = [puzzle.origin.difficulty for puzzle in puzzles]
        if len(puzzles) > 1 and difficulty is None and preferred is not None and None not in named:
            puzzles = [puzzle for puzzle in puzzles if puzzle.origin.difficulty == preferred]
            if not puzzles:
                raise PipsError(f"{opened.name} has no {preferred} puzzle (it has {', '.join(map(str, named))})")
        if len(puzzles) == 1:
            return JSONResponse(play.view(puzzles[0]))
        if difficulty is not None or None in named:
            raise PipsError(f"{opened.name} holds {len(puzzles)} puzzles that no difficulty tells apart; "
                            "open them one to a file")
        return JSONResponse({"error": f"{opened.name} holds {len(puzzles)} puzzles; choose easy, medium or hard.",
                             "difficulties": named}, status_code=400)

    return [Route("/api/days", days), Route("/api/day/{date}/{difficulty}", day),
            Route("/api/open", open_file, methods=["POST"])]


def _job_routes(jobs: Jobs) -> list[BaseRoute]:
    """A new puzzle made in the background, and how far it has come."""

    async def generate(request: Request) -> Response:
        asked = read(NewPuzzle, await _json(request))
        seed = random.randrange(10**6) if asked.seed is None else asked.seed
        checked_seed(seed)  # as the command line's --seed
        difficulty = None if asked.difficulty is None else _difficulty(asked.difficulty)
        return JSONResponse({"job": jobs.start(asked.dominoes, difficulty, seed)}, status_code=202)

    async def job(request: Request) -> Response:
        status = jobs.status(request.path_params["job"])
        if status is None:
            raise HTTPException(404, "No such job: it finished long ago, or never started.")
        return JSONResponse(status)

    return [Route("/api/generate", generate, methods=["POST"]), Route("/api/jobs/{job}", job)]


def _question(work: Work, kind: str) -> Endpoint:
    """The endpoint of one of the page's heavy questions: read here, answered in a worker process by the
    deadline counted from the request's arrival."""

    async def endpoint(request: Request) -> Response:
        deadline = time.monotonic() + play.SECONDS[kind]
        asked = read(Question, await _json(request))
        puzzle, placed = play.read_request(asked)
        answer = asyncio.ensure_future(work.run(play.answer, kind, puzzle, placed, deadline, asked.all,
                                                asked=(kind, puzzle, placed, asked.all)))
        if await _left_before(answer, request):
            return Response(status_code=GONE)
        return JSONResponse(answer.result())

    return endpoint


async def _left_before(answer: asyncio.Future[Any], request: Request) -> bool:
    """Whether the client went away (its connection closed: a tab closed or reloaded, a fetch given up) before
    `answer`, which is then cancelled: a question nobody waits for gives its place to the next, where a closed
    tab's count held it for up to its minute and other users were answered 503."""
    left = asyncio.ensure_future(_disconnected(request))
    try:
        await asyncio.wait([answer, left], return_when=asyncio.FIRST_COMPLETED)
    finally:
        left.cancel()
        gone = not answer.done()
        answer.cancel()
    return gone


async def _disconnected(request: Request) -> None:
    """Returns once the client has closed its connection (the request's body has been read)."""
    while (await request.receive())["type"] != "http.disconnect":
        pass


async def _refused(request: Request, error: Exception) -> Response:
    """A refusal as JSON, in one sentence: 503 (with Retry-After when asking again helps), else 4xx."""
    if isinstance(error, HTTPException):
        return JSONResponse({"error": _sentence(str(error.detail))}, status_code=error.status_code,
                            headers=error.headers)
    if isinstance(error, Full | Busy):
        return JSONResponse({"error": _sentence(str(error))}, status_code=503,
                            headers={"Retry-After": str(RETRY_AFTER)})
    return JSONResponse({"error": _sentence(str(error))}, status_code=503 if isinstance(error, play.TooLong) else 400)


def _difficulty(name: str) -> str:
    if name not in set(Difficulty):
        raise PipsError(f"{name!r} is not a difficulty; choose easy, medium or hard")
    return name


async def _body(request: Request) -> bytes:
    """The request's body, refused (413) past `MAX_BODY` bytes before more is read."""
    declared = request.headers.get("content-length", "")
    if is_written_whole_number(declared) and int(declared) > MAX_BODY:
        raise HTTPException(413, f"The request is larger than {MAX_BODY // 2**10} KiB; puzzles are far smaller.")
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > MAX_BODY:
            raise HTTPException(413, f"The request is larger than {MAX_BODY // 2**10} KiB; puzzles are far smaller.")
        chunks.append(chunk)
    return b"".join(chunks)


async def _json(request: Request) -> Any:
    return parse_json((await _body(request)).decode("utf-8", errors="replace"), "the request")


def _sentence(text: str) -> str:
    """One sentence, with its full stop (a message may start with a file's name: its case is kept)."""
    text = " ".join(text.split())
    return text if text.endswith((".", "!", "?")) else text + "."
