"""What stands between the app and other web pages the user visits, checked before any route runs.

- Only the host names the server was started for are answered (a page elsewhere cannot reach it through a
  name of its own: DNS rebinding); another name gets the JSON error every refusal has. A server opened to
  the network (`*`) answers to any name: its users reach it by names and addresses it cannot know.
- A POST must say `Content-Type: application/json` (a browser sends a `text/plain` or form body from any
  page without asking; JSON from another origin needs its permission, which this server never gives) and,
  when a browser says where it comes from (`Origin`, `Sec-Fetch-Site`), come from the page itself. So must
  every request of the API, a GET too: another page's `<img src=".../api/day/DATE/easy">` made the server
  download that day into the cache. The page and its files stay open to links from anywhere.
- Every answer carries the headers a local app should send: a Content-Security-Policy that allows only the
  page's own files (no inline script or style), `nosniff`, no referrer, and no framing by other pages.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from starlette.datastructures import Headers
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

POLICY = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
          "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'")
HEADERS = [(b"content-security-policy", POLICY.encode()), (b"x-content-type-options", b"nosniff"),
           (b"referrer-policy", b"no-referrer"), (b"x-frame-options", b"DENY"),
           (b"cross-origin-resource-policy", b"same-origin")]
# What a browser's Sec-Fetch-Site says of a request the page itself made (or the user typed).
OWN_SITE = ("same-origin", "none")
ELSEWHERE = "Only the page this server serves may ask it questions."


class Guard:
    """ASGI middleware: refuses what another web page could make the server do (see the module's docstring)."""

    def __init__(self, app: ASGIApp, hosts: tuple[str, ...]) -> None:
        self.app = app
        self.hosts = hosts

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", []), *HEADERS]
            await send(message)

        refusal = self.refusal(scope)
        if refusal is None:
            await self.app(scope, receive, with_headers)
        else:
            status, error = refusal
            await JSONResponse({"error": error}, status_code=status)(scope, receive, with_headers)

    def refusal(self, scope: Scope) -> tuple[int, str] | None:
        """The status and sentence to refuse a request with, or None to answer it."""
        headers = Headers(scope=scope)
        host = headers.get("host", "")
        if "*" not in self.hosts and host_name(host) not in self.hosts:
            names = " or ".join(dict.fromkeys(self.hosts))
            return 400, f"This server answers to {names} only, not to {host or 'a request without a host'}."
        site = headers.get("sec-fetch-site")
        if scope["path"].startswith("/api/") and site is not None and site not in OWN_SITE:
            return 403, ELSEWHERE
        if scope["method"] != "POST":
            return None
        if headers.get("content-type", "").split(";")[0].strip().lower() != "application/json":
            return 415, "A question must be sent as application/json."
        origin = headers.get("origin")
        if origin is not None and origin != f"http://{host}":
            return 403, ELSEWHERE
        return None


def host_name(host: str) -> str:
    """The name in a Host header, without its port and an IPv6 address's brackets ("[::1]:8000" is "::1"), or
    "" where it is none."""
    try:
        return urlsplit(f"//{host}").hostname or ""
    except ValueError:  # "[::1" and the like
        return ""
