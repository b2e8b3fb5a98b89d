"""The web app behind `pipscover serve`: the page (static files shipped in the package) and its JSON API.

Routes (the README documents the API):
- `GET /` the page; `GET /static/...` its script, style and icon, and nothing outside that folder;
- `GET /api/days` the days in the fetch cache; `GET /api/day/{date}/{difficulty}` one of them, fetched first
  when missing (with `fetch`'s mirror and cache settings);
- `POST /api/open` a puzzle file's text (at most `MAX_BODY` bytes); `POST /api/generate`, then
  `GET /api/jobs/{id}` until it is done;
- `POST /api/hint`, `/api/check`, `/api/reveal`, `/api/stats` with `{"puzzle": ..., "placed": [...]}`.

Every refusal is a 4xx with `{"error": one sentence}`: a bad request never reaches a 500 or a traceback.
Work runs in worker threads (`run_in_threadpool`) within the deadlines of `play`, so one request cannot
hold the others, and several tabs play at once. Only the host names the server was started for are answered
(a web page elsewhere cannot reach it through a name of its own: DNS rebinding).
"""

from __future__ import annotations

import random
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from pipscover.errors import PipsError
from pipscover.formats import parse
from pipscover.formats.fetch import cache_folder, fetch_day, is_day, parse_day
from pipscover.formats.nyt import parse_json
from pipscover.model import Difficulty, Placement, Puzzle
from pipscover.serve import play
from pipscover.serve.jobs import Busy, Jobs

STATIC = Path(__file__).parent / "static"
# A question's answer from the puzzle, the placed dominoes and the whole request (for its options).
Answer = Callable[[Puzzle, tuple[Placement, ...], dict[str, Any]], dict[str, Any]]
MAX_BODY = 2**20  # bytes: an NYT day is 10-20 KB, a page's question a few KB


def make_app(
    cache: str | None = None, base: str | None = None, hosts: tuple[str, ...] = ("127.0.0.1", "localhost")
) -> Starlette:
    """The app; `cache` and `base` as `pipscover fetch`'s --cache-dir and --base-url; `hosts`, the names it
    answers to."""
    jobs = Jobs()

    async def days(request: Request) -> Response:
        folder = cache_folder(cache)
        found = sorted(path.stem for path in folder.glob("*.json") if is_day(path.stem)) if folder.is_dir() else []
        return JSONResponse({"days": found})

    async def day(request: Request) -> Response:
        chosen, difficulty = request.path_params["date"], _difficulty(request.path_params["difficulty"])
        when = parse_day(chosen)
        try:
            fetched = await run_in_threadpool(fetch_day, when, cache, base)
        except PipsError as error:
            raise HTTPException(404, str(error)) from None
        text = await run_in_threadpool(fetched.path.read_text, "utf-8")
        (puzzle,) = parse(text, f"{when.isoformat()}", difficulty)
        return JSONResponse(play.view(puzzle))

    async def open_file(request: Request) -> Response:
        name = request.query_params.get("name") or "the file"
        try:
            text = (await _body(request)).decode("utf-8-sig")
        except UnicodeDecodeError:
            raise PipsError(f"{name}: not a text file (not UTF-8)") from None
        puzzles = parse(text, name)
        if len(puzzles) > 1:  # a day file: the page's difficulty chooses
            difficulty = request.query_params.get("difficulty")
            if not difficulty:
                raise PipsError(f"{name} holds {len(puzzles)} puzzles; choose easy, medium or hard")
            chosen = [p for p in puzzles if p.origin.difficulty == _difficulty(difficulty)]
            if not chosen:
                raise PipsError(f"{name} has no {difficulty} puzzle")
            puzzles = chosen
        return JSONResponse(play.view(puzzles[0]))

    async def generate(request: Request) -> Response:
        document = await _json(request)
        dominoes, seed = document.get("dominoes", 8), document.get("seed")
        if not isinstance(dominoes, int) or isinstance(dominoes, bool):
            raise PipsError("'dominoes' must be a whole number")
        if seed is None:
            seed = random.randrange(10**6)
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise PipsError("'seed' must be a whole number")
        difficulty = document.get("difficulty")
        job = jobs.start(dominoes, None if difficulty is None else _difficulty(difficulty), seed)
        return JSONResponse({"job": job}, status_code=202)

    async def job(request: Request) -> Response:
        status = jobs.status(request.path_params["job"])
        if status is None:
            raise HTTPException(404, "No such job: it finished long ago, or never started.")
        return JSONResponse(status)

    def question(answer: Answer) -> Callable[[Request], Awaitable[Response]]:
        """An endpoint that reads the puzzle and the placed dominoes, and answers in a worker thread."""

        async def endpoint(request: Request) -> Response:
            document = await _json(request)
            puzzle, placed = play.read_request(document)
            return JSONResponse(await run_in_threadpool(answer, puzzle, placed, document))

        return endpoint

    def reveal(puzzle: Puzzle, placed: tuple[Placement, ...], asked: dict[str, Any]) -> dict[str, Any]:
        return play.reveal(puzzle, placed, every=asked.get("all") is True)

    async def index(request: Request) -> Response:
        return FileResponse(STATIC / "index.html")

    async def refused(request: Request, error: Exception) -> Response:
        status = {Busy: 429, play.TooLong: 503}.get(type(error), 400)
        if isinstance(error, HTTPException):
            status = error.status_code
            return JSONResponse({"error": _sentence(str(error.detail))}, status_code=status, headers=error.headers)
        return JSONResponse({"error": _sentence(str(error))}, status_code=status)

    routes = [
        Route("/", index),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
        Route("/api/days", days),
        Route("/api/day/{date}/{difficulty}", day),
        Route("/api/open", open_file, methods=["POST"]),
        Route("/api/generate", generate, methods=["POST"]),
        Route("/api/jobs/{job}", job),
        Route("/api/hint", question(lambda puzzle, placed, _: play.hint_for(puzzle, placed)), methods=["POST"]),
        Route("/api/check", question(lambda puzzle, placed, _: play.check(puzzle, placed)), methods=["POST"]),
        Route("/api/reveal", question(reveal), methods=["POST"]),
        Route("/api/stats", question(lambda puzzle, _, __: play.stats(puzzle)), methods=["POST"]),
    ]
    handlers: dict[Any, Callable[..., Any]] = {
        HTTPException: refused, PipsError: refused, play.TooLong: refused,
    }
    middleware = [Middleware(TrustedHostMiddleware, allowed_hosts=list(hosts))]
    return Starlette(routes=routes, exception_handlers=handlers, middleware=middleware)


def _difficulty(name: str) -> str:
    if name not in set(Difficulty):
        raise PipsError(f"{name!r} is not a difficulty; choose easy, medium or hard")
    return name


async def _body(request: Request) -> bytes:
    """The request's body, refused (413) past `MAX_BODY` bytes before more is read."""
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > MAX_BODY:
        raise HTTPException(413, f"The request is larger than {MAX_BODY // 2**10} KiB; puzzles are far smaller.")
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > MAX_BODY:
            raise HTTPException(413, f"The request is larger than {MAX_BODY // 2**10} KiB; puzzles are far smaller.")
        chunks.append(chunk)
    return b"".join(chunks)


async def _json(request: Request) -> dict[str, Any]:
    document = parse_json((await _body(request)).decode("utf-8", errors="replace"), "the request")
    if not isinstance(document, dict):
        raise PipsError("the request must be a JSON object")
    return document


def _sentence(text: str) -> str:
    """One sentence, with its full stop (a message may start with a file's name: its case is kept)."""
    text = " ".join(text.split())
    return text if text.endswith((".", "!", "?")) else text + "."
