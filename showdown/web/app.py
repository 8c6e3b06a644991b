"""The ASGI apps: the table's page (``showdown run``) and the event's (``showdown event``).

Starlette gives the routing, the static files and a test client; uvicorn serves it
(:mod:`showdown.web.server`). Every route reads, except ``POST /api/undo`` and
``POST /api/edit``, which need the table's PIN (:mod:`showdown.web.pin`); there is no other way
to write. A request that is not understood gets a status and one sentence, never a trace.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import AsyncIterator, Callable, Mapping
from contextlib import asynccontextmanager
from datetime import datetime
from typing import Any

from markupsafe import Markup
from pydantic import BaseModel, ConfigDict, Field, ValidationError
from sse_starlette import EventSourceResponse, ServerSentEvent
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from showdown.game.messages import EntryRejected, Event, RoundEdited
from showdown.web.chart import chart
from showdown.web.hub import Hub, Versions
from showdown.web.pin import PinGuard
from showdown.web.render import STATIC_DIR, Fragments, render, translate
from showdown.web.table import TableSource
from showdown.web.words import LANGUAGES, Words, negotiate

__all__ = ["HEARTBEAT_S", "MAX_BODY", "SECURITY_HEADERS", "language", "table_app"]

log = logging.getLogger(__name__)

HEARTBEAT_S = 5.0
"""With nothing new, a stream still says it is alive this often: the page marks itself out of
date when it has heard nothing for a few of these."""

MIN_INTERVAL_S = 0.1
"""A stream sends at most ten messages a second: changes closer together go out as one (at a
table a showdown's steps are a second apart; a burst costs the unit's thread nothing more)."""

RETRY_MS = 2000
"""How soon a browser reconnects after the stream broke (the server restarting)."""

MAX_BODY = 4096
"""The largest request body read (an edit of ten players is a few hundred bytes)."""

LANGUAGE_COOKIE = "lang"

SECURITY_HEADERS = {
    "Content-Security-Policy": (
        "default-src 'self'; script-src 'self'; style-src 'self'; style-src-attr 'unsafe-inline'; "
        "img-src 'self' data: blob:; connect-src 'self'; frame-ancestors 'none'; "
        "base-uri 'none'; form-action 'self'"),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}
"""Only the Pi's own scripts and styles run on the page (no CDN, nothing inline)."""


def language(request: Request) -> tuple[Words, str | None]:
    """The reader's language: ``?lang=`` (then kept in a cookie), the cookie, or the browser's
    Accept-Language. The second value is a code to store in the cookie, if one was picked."""
    picked = request.query_params.get("lang")
    if picked in LANGUAGES:
        return Words.of(picked), picked
    kept = request.cookies.get(LANGUAGE_COOKIE)
    if kept in LANGUAGES:
        return Words.of(kept), None
    return Words.of(negotiate(request.headers.get("accept-language"))), None


def _page(html: str, picked: str | None) -> HTMLResponse:
    response = HTMLResponse(html, headers=SECURITY_HEADERS)
    if picked is not None:
        response.set_cookie(LANGUAGE_COOKIE, picked, max_age=365 * 86400, samesite="lax")
    return response


def _answer(status: int, message: str, **more: Any) -> JSONResponse:
    return JSONResponse({"ok": status == 200, "message": message, **more}, status_code=status,
                        headers=SECURITY_HEADERS)


class UndoRequest(BaseModel):
    """``POST /api/undo``."""

    model_config = ConfigDict(extra="forbid")
    pin: str = Field(max_length=16)


class EditRequest(BaseModel):
    """``POST /api/edit``: round ``round`` now has ``went_out`` going out, the others holding
    ``held`` points."""

    model_config = ConfigDict(extra="forbid")
    pin: str = Field(max_length=16)
    round: int = Field(ge=1, le=10_000)
    went_out: str = Field(min_length=1, max_length=40)
    held: dict[str, int] = Field(max_length=10)


def _problem(error: ValidationError) -> str:
    first = error.errors()[0]
    where = ".".join(str(part) for part in first["loc"]) or "body"
    return f"{where}: {first['msg']}"


async def _json_body(request: Request) -> dict[str, Any] | Response:
    """The request's JSON object, or the response refusing it."""
    words, _picked = language(request)
    origin = request.headers.get("origin")
    if origin is not None and origin.split("://", 1)[-1] != request.headers.get("host"):
        return _answer(403, words._("Corrections come from this page only"))
    if request.headers.get("content-type", "").split(";")[0].strip() != "application/json":
        return _answer(415, "send JSON (Content-Type: application/json)")
    length = request.headers.get("content-length")
    if length is not None and (not length.isascii() or not length.isdigit()
                               or int(length) > MAX_BODY):
        return _answer(413, f"the body is larger than {MAX_BODY} bytes")
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_BODY:
            return _answer(413, f"the body is larger than {MAX_BODY} bytes")
    try:
        data = json.loads(body)
    except (ValueError, UnicodeDecodeError):
        return _answer(400, "the body is not JSON")
    if not isinstance(data, dict):
        return _answer(400, "the body is not a JSON object")
    return data


def _client(request: Request) -> str:
    return request.client.host if request.client is not None else "unknown"


class TablePage:
    """The table's routes over one :class:`TableSource`."""

    def __init__(self, source: TableSource, hub: Hub, guard: PinGuard) -> None:
        self.source = source
        self.hub = hub
        self.guard = guard
        self.fragments = Fragments(self._render_part)
        self.streams = 0
        """Pages following the table now (open event streams)."""
        self._messages: dict[tuple[object, ...], str] = {}

    def _render_part(self, part: str, words: Words) -> str:
        table = self.source.picture()
        if part == "showdown":
            return render("_showdown.html", words, live=table.live)
        return render("_table.html", words, table=table, chart=chart(table))

    async def page(self, request: Request) -> Response:
        """``GET /``: the whole page, already filled (it reads without scripts)."""
        words, picked = language(request)
        versions = self.hub.versions
        parts = self.fragments.all({p: v for p, v, _at in versions.parts}, words)
        html = render("table.html", words, stamp=versions.stamp("table") or time.time(),
                      # both rendered by our autoescaped templates just above
                      showdown_html=Markup(parts["showdown"]), table_html=Markup(parts["table"]))
        return _page(html, picked)

    async def standings(self, request: Request) -> Response:
        """``GET /standings``: the standings and the rounds on a page to print."""
        words, picked = language(request)
        table = self.source.picture()
        printed = datetime.now().astimezone().strftime("%Y-%m-%d %H:%M")
        return _page(render("standings.html", words, table=table, printed=printed), picked)

    async def events(self, request: Request) -> Response:
        """``GET /events``: the live parts by Server-Sent Events."""
        words, _picked = language(request)
        return EventSourceResponse(self._stream(words), headers=SECURITY_HEADERS,
                                   ping=HEARTBEAT_S * 3)

    async def _stream(self, words: Words) -> AsyncIterator[ServerSentEvent]:
        self.streams += 1
        try:
            async for event in self._events(words):
                yield event
        finally:
            self.streams -= 1

    async def _events(self, words: Words) -> AsyncIterator[ServerSentEvent]:
        seen: Versions | None = None
        while True:
            now = self.hub.versions if seen is None else await self.hub.wait(seen, HEARTBEAT_S)
            if self.hub.closing and seen is not None and now.parts == seen.parts:
                return  # stopping, and everything was sent (the game's last entry too)
            if seen is not None and now.parts == seen.parts:
                yield ServerSentEvent(json.dumps({"now": time.time() * 1000}), event="alive")
                continue
            message = self._message(seen, now, words)
            seen = now
            yield ServerSentEvent(message, event="parts", retry=RETRY_MS)
            await asyncio.sleep(MIN_INTERVAL_S)

    def _message(self, seen: Versions | None, now: Versions, words: Words) -> str:
        """The message taking a page from ``seen`` to ``now``: built once for every page that
        is there (most are: they all saw the last one), whatever their number."""
        key = (None if seen is None else seen.parts, now.parts, words.code)
        kept = self._messages.get(key)
        if kept is not None:
            return kept
        changed = {part: v for part, v, _at in now.parts
                   if seen is None or seen.version(part) != v}
        message = json.dumps({
            "html": self.fragments.all(changed, words),
            "at": {part: now.stamp(part) * 1000 for part in changed},
            "now": time.time() * 1000,
        })
        if len(self._messages) > 32:
            self._messages.clear()
        self._messages[key] = message
        return message

    async def _checked(self, request: Request, model: type[BaseModel]
                       ) -> tuple[BaseModel, Words] | Response:
        words, _picked = language(request)
        data = await _json_body(request)
        if isinstance(data, Response):
            return data
        try:
            parsed = model.model_validate(data)
        except ValidationError as error:
            return _answer(400, _problem(error))
        verdict = self.guard.check(_client(request), str(getattr(parsed, "pin", "")))
        if not verdict.ok:
            wait = round(verdict.retry_after_s)
            if verdict.wrong and wait == 0:
                return _answer(403, words.ngettext(
                    "Wrong PIN: {count} try left", "Wrong PIN: {count} tries left",
                    verdict.tries_left).format(count=verdict.tries_left),
                    tries_left=verdict.tries_left)
            log.warning("phone corrections refused for %s: too many wrong PINs",
                        _client(request))
            return _answer(429, words._("Too many wrong PINs: try again in {seconds} s").format(
                seconds=max(1, wait)), retry_after=max(1, wait))
        return parsed, words

    def _result(self, events: list[Event], words: Words, done: str) -> Response:
        for event in events:
            if isinstance(event, EntryRejected):
                return _answer(409, translate(event.text or event.message, words))
        return _answer(200, done)

    async def undo(self, request: Request) -> Response:
        """``POST /api/undo`` ``{"pin": "1234"}``: take back the last entry."""
        checked = await self._checked(request, UndoRequest)
        if isinstance(checked, Response):
            return checked
        _parsed, words = checked
        events = await asyncio.to_thread(self.source.undo)
        log.info("phone %s: undo", _client(request))
        return self._result(events, words, words._("The last entry was taken back"))

    async def edit(self, request: Request) -> Response:
        """``POST /api/edit``: replace a round."""
        checked = await self._checked(request, EditRequest)
        if isinstance(checked, Response):
            return checked
        parsed, words = checked
        assert isinstance(parsed, EditRequest)
        events = await asyncio.to_thread(self.source.edit, parsed.round, parsed.went_out,
                                         parsed.held)
        log.info("phone %s: edit of round %d", _client(request), parsed.round)
        edited = any(isinstance(e, RoundEdited) for e in events)
        return self._result(events, words, words._("Round {number} corrected").format(
            number=parsed.round) if edited else words._("Done"))


def _lifespan(hub: Hub) -> Callable[[Starlette], Any]:
    @asynccontextmanager
    async def lifespan(_app: Starlette) -> AsyncIterator[Mapping[str, Any]]:
        hub.attach(asyncio.get_running_loop())
        yield {}
        hub.close()

    return lifespan


async def _not_allowed(request: Request, exc: Exception) -> Response:
    return _answer(405, f"{request.method} is not allowed here: this page only reads, "
                   "corrections go to POST /api/undo and /api/edit with the PIN")


async def _not_found(request: Request, exc: Exception) -> Response:
    return _answer(404, f"nothing at {request.url.path}")


def table_app(source: TableSource, hub: Hub, guard: PinGuard) -> Starlette:
    """The table's page (see the module docstring)."""
    page = TablePage(source, hub, guard)
    routes = [
        Route("/", page.page, methods=["GET"]),
        Route("/standings", page.standings, methods=["GET"]),
        Route("/events", page.events, methods=["GET"]),
        Route("/api/undo", page.undo, methods=["POST"]),
        Route("/api/edit", page.edit, methods=["POST"]),
        Mount("/static", StaticFiles(directory=STATIC_DIR), name="static"),
    ]
    app = Starlette(routes=routes, lifespan=_lifespan(hub),
                    exception_handlers={405: _not_allowed, 404: _not_found})
    app.state.page = page  # how many follow it: the benchmark waits for its phones
    return app
