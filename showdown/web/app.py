"""The ASGI apps: the table's page (``showdown run``) and the event's (``showdown event``).

Starlette gives the routing, the static files and a test client; uvicorn serves it
(:mod:`showdown.web.server`). Every route reads, except the table's corrections, ``POST
/api/undo`` and ``POST /api/edit``, and the two that let a phone make them: ``POST /api/login``
exchanges the table's PIN for a session (an HttpOnly, SameSite=Strict cookie) and its first
one-time token, ``POST /api/token`` gives a session a fresh token (a page loaded again). Each
correction spends its token (:mod:`showdown.web.pin`); there is no other way to write, and the
event's page has none at all. A request that is not understood gets a status and one sentence,
never a trace.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import AsyncIterator, Callable, Mapping
from contextlib import asynccontextmanager
from datetime import datetime
from functools import partial
from typing import Any

from markupsafe import Markup
from pydantic import BaseModel, ConfigDict, Field, ValidationError
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import ClientDisconnect, Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Receive, Scope, Send

from showdown.game.messages import EntryRejected, Event, RoundEdited
from showdown.game.names import NAME_MAX
from showdown.web.chart import chart
from showdown.web.hub import Hub
from showdown.web.pin import SESSION_S, Guard
from showdown.web.render import STATIC_DIR, render, translate
from showdown.web.stream import LANGUAGE_COOKIE, SECURITY_HEADERS, LiveParts, language
from showdown.web.table import TableSide, seats, standings
from showdown.web.tournament import TournamentPicture, TournamentSide
from showdown.web.words import Words

__all__ = ["MAX_BODY", "SESSION_COOKIE", "table_app", "tournament_app"]

log = logging.getLogger(__name__)

MAX_BODY = 4096
"""The largest request body read (an edit of ten players is a few hundred bytes)."""

SESSION_COOKIE = "showdown_session"
"""The cookie that holds a phone's session (opened with the PIN; :mod:`showdown.web.pin`)."""

TOKEN_MAX = 64
"""The longest token read (the guard's are 32 characters)."""


def _page(html: str, picked: str | None) -> HTMLResponse:
    response = HTMLResponse(html, headers=SECURITY_HEADERS)
    if picked is not None:
        response.set_cookie(LANGUAGE_COOKIE, picked, max_age=365 * 86400, samesite="lax")
    return response


def _answer(status: int, message: str, headers: Mapping[str, str] | None = None,
            **more: Any) -> JSONResponse:
    return JSONResponse({"ok": status == 200, "message": message, **more}, status_code=status,
                        headers={**SECURITY_HEADERS, **(headers or {})})


class LoginRequest(BaseModel):
    """``POST /api/login``: the PIN shown on the table's scoreboard."""

    model_config = ConfigDict(extra="forbid")
    pin: str = Field(max_length=16)


class TokenRequest(BaseModel):
    """``POST /api/token``: nothing but the session's cookie."""

    model_config = ConfigDict(extra="forbid")


class UndoRequest(BaseModel):
    """``POST /api/undo``: the session's one-time token."""

    model_config = ConfigDict(extra="forbid")
    token: str = Field(max_length=TOKEN_MAX)


class EditRequest(BaseModel):
    """``POST /api/edit``: round ``round`` now has ``went_out`` going out, the others holding
    ``held`` points; with the session's one-time token."""

    model_config = ConfigDict(extra="forbid")
    token: str = Field(max_length=TOKEN_MAX)
    round: int = Field(ge=1, le=10_000)
    went_out: str = Field(min_length=1, max_length=NAME_MAX)
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
    try:
        async for chunk in request.stream():
            body += chunk
            if len(body) > MAX_BODY:
                return _answer(413, f"the body is larger than {MAX_BODY} bytes")
    except ClientDisconnect:  # half a body, then gone (or timed out): nobody hears the answer
        return _answer(400, "the body did not arrive whole")
    try:
        data = json.loads(body)
    except (ValueError, UnicodeDecodeError):
        return _answer(400, "the body is not JSON")
    if not isinstance(data, dict):
        return _answer(400, "the body is not a JSON object")
    return data


def _news(hub: Hub) -> float:
    """When the event's newest news came (its part's last change; s since the epoch)."""
    return hub.versions.stamp("event") or time.time()


def _client(request: Request) -> str:
    return request.client.host if request.client is not None else "unknown"


class TablePage:
    """The table's routes over one :class:`~showdown.web.table.TableSide`."""

    def __init__(self, source: TableSide, hub: Hub, guard: Guard,
                 event: TournamentSide | None = None) -> None:
        self.source = source
        self.hub = hub
        self.guard = guard
        self.event = event
        """The event the table plays in (its part below the game), if any."""
        self.live = LiveParts(hub, self._render_part)

    @property
    def streams(self) -> int:
        """Pages following the table now (open event streams)."""
        return self.live.streams

    def _render_part(self, part: str, words: Words) -> str:
        if part == "event":  # empty while the table is in no event
            event = None if self.event is None else self.event.picture()
            return "" if event is None else render("_tournament.html", words, event=event,
                                                   embedded=True, news_at=_news(self.hub))
        table = self.source.picture()
        if part == "showdown":
            return render("_showdown.html", words, live=table.showdown)
        marked = seats(table)
        return render("_table.html", words, table=table, seats=marked,
                      standings=standings(marked), chart=chart(table))

    async def page(self, request: Request) -> Response:
        """``GET /``: the whole page, already filled (it reads without scripts)."""
        words, picked = language(request)
        versions = self.hub.versions  # read first: a part rendered newer is sent again
        parts, _at = self.live.now(words)
        html = render("table.html", words, stamp=versions.stamp("table") or time.time(),
                      at={part: versions.stamp(part) * 1000 for part in parts},
                      # both rendered by our autoescaped templates just above
                      showdown_html=Markup(parts["showdown"]), table_html=Markup(parts["table"]),
                      tournament_html=Markup(parts["event"]) if parts.get("event") else None)
        return _page(html, picked)

    async def standings(self, request: Request) -> Response:
        """``GET /standings``: the standings and the rounds on a page to print."""
        words, picked = language(request)
        table = self.source.picture()
        printed = datetime.now().astimezone().strftime("%Y-%m-%d %H:%M")
        marked = seats(table)
        return _page(render("standings.html", words, table=table, seats=marked,
                            standings=standings(marked), printed=printed), picked)

    async def _parsed(self, request: Request, model: type[BaseModel]
                      ) -> tuple[BaseModel, Words] | Response:
        words, _picked = language(request)
        data = await _json_body(request)
        if isinstance(data, Response):
            return data
        try:
            return model.model_validate(data), words
        except ValidationError as error:
            return _answer(400, _problem(error))

    async def login(self, request: Request) -> Response:
        """``POST /api/login`` ``{"pin": "1234"}``: a session (its cookie) and its first token,
        or the PIN refused (wrong: the tries left; too many: how long to wait)."""
        checked = await self._parsed(request, LoginRequest)
        if isinstance(checked, Response):
            return checked
        parsed, words = checked
        assert isinstance(parsed, LoginRequest)
        verdict = await asyncio.to_thread(self.guard.login, _client(request), parsed.pin)
        if verdict.ok:
            response = _answer(200, words._("PIN accepted"), token=verdict.token)
            response.set_cookie(SESSION_COOKIE, verdict.session, max_age=int(SESSION_S),
                                path="/api", httponly=True, samesite="strict")
            return response
        wait = round(verdict.retry_after_s)
        if verdict.wrong and wait == 0:
            return _answer(403, words.ngettext(
                "Wrong PIN: {count} try left", "Wrong PIN: {count} tries left",
                verdict.tries_left).format(count=verdict.tries_left),
                tries_left=verdict.tries_left)
        log.warning("phone corrections refused for %s: too many wrong PINs", _client(request))
        return _answer(429, words._("Too many wrong PINs: try again in {seconds} s").format(
            seconds=max(1, wait)), retry_after=max(1, wait))

    def _no_session(self, words: Words) -> Response:
        return _answer(401, words._("Type the PIN shown on the table's scoreboard"))

    async def token(self, request: Request) -> Response:
        """``POST /api/token`` ``{}``: a fresh one-time token for the session (the one it had
        is void), or 401 when the PIN is needed again."""
        checked = await self._parsed(request, TokenRequest)
        if isinstance(checked, Response):
            return checked
        _parsed, words = checked
        session = request.cookies.get(SESSION_COOKIE, "")
        token = await asyncio.to_thread(self.guard.token, session) if session else None
        if token is None:
            return self._no_session(words)
        return _answer(200, "", token=token)

    async def _admitted(self, request: Request, model: type[BaseModel]
                        ) -> tuple[BaseModel, Words, str] | Response:
        """The correction's body, its reader's words and the session's next token, once its
        token was spent; else the refusal (no session: 401; a token spent already: 403)."""
        checked = await self._parsed(request, model)
        if isinstance(checked, Response):
            return checked
        parsed, words = checked
        session = request.cookies.get(SESSION_COOKIE, "")
        if not session:
            return self._no_session(words)
        admission = await asyncio.to_thread(self.guard.admit, session,
                                            str(getattr(parsed, "token", "")))
        if not admission.known:
            return self._no_session(words)
        if not admission.ok:
            log.warning("phone %s: a correction's token refused (sent again?)",
                        _client(request))
            return _answer(403, words._("This correction was sent already: nothing changed"))
        return parsed, words, admission.token

    def _result(self, events: list[Event], words: Words, done: str, token: str) -> Response:
        for event in events:
            if isinstance(event, EntryRejected):
                return _answer(409, translate(event.text or event.message, words), token=token)
        return _answer(200, done, token=token)

    async def undo(self, request: Request) -> Response:
        """``POST /api/undo`` ``{"token": "..."}``: take back the last entry."""
        checked = await self._admitted(request, UndoRequest)
        if isinstance(checked, Response):
            return checked
        _parsed, words, token = checked
        events = await asyncio.to_thread(self.source.undo)
        log.info("phone %s: undo", _client(request))
        return self._result(events, words, words._("The last entry was taken back"), token)

    async def edit(self, request: Request) -> Response:
        """``POST /api/edit``: replace a round."""
        checked = await self._admitted(request, EditRequest)
        if isinstance(checked, Response):
            return checked
        parsed, words, token = checked
        assert isinstance(parsed, EditRequest)
        events = await asyncio.to_thread(self.source.edit, parsed.round, parsed.went_out,
                                         parsed.held)
        log.info("phone %s: edit of round %d", _client(request), parsed.round)
        edited = any(isinstance(e, RoundEdited) for e in events)
        return self._result(events, words, words._("Round {number} corrected").format(
            number=parsed.round) if edited else words._("Done"), token)


def _lifespan(hub: Hub) -> Callable[[Starlette], Any]:
    @asynccontextmanager
    async def lifespan(_app: Starlette) -> AsyncIterator[Mapping[str, Any]]:
        hub.attach(asyncio.get_running_loop())
        yield {}
        hub.close()

    return lifespan


READS = "GET, HEAD"
"""The methods every path of a page answers (but the table's two corrections)."""


def _refusal(method: str, writes: str) -> str:
    return f"{method} is not allowed here: this page only reads{writes}"


async def _not_allowed(writes: str, request: Request, exc: Exception) -> Response:
    allow = getattr(exc, "headers", None) or {"Allow": READS}
    return _answer(405, _refusal(request.method, writes), headers={"Allow": allow["Allow"]})


class _ReadsOnly:
    """Every write the routes do not take, on any path, answered 405 with ``Allow: GET, HEAD``
    (docs/web.md says so). The router alone answered a write to a path it has no route for
    with 404, "nothing here", where what the client needs to hear is that this page takes no
    writes: ``POST /api/undo`` on the event's page is refused for its method, the path being
    the table's."""

    def __init__(self, app: ASGIApp, writes: frozenset[str], sentence: str) -> None:
        self.app = app
        self.writes = writes
        self.sentence = sentence

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if (scope["type"] == "http" and scope["method"] not in ("GET", "HEAD")
                and scope["path"] not in self.writes):
            refused = _answer(405, _refusal(scope["method"], self.sentence),
                              headers={"Allow": READS})
            await refused(scope, receive, send)
            return
        await self.app(scope, receive, send)


async def _not_found(request: Request, exc: Exception) -> Response:
    return _answer(404, f"nothing at {request.url.path}")


def _app(routes: list[Route | Mount], hub: Hub, page: object, writes: str = "") -> Starlette:
    written = frozenset(route.path for route in routes
                        if isinstance(route, Route) and route.methods and "POST" in route.methods)
    routes = [*routes, Mount("/static", StaticFiles(directory=STATIC_DIR), name="static")]
    app = Starlette(routes=routes, lifespan=_lifespan(hub),
                    middleware=[Middleware(_ReadsOnly, writes=written, sentence=writes)],
                    exception_handlers={405: partial(_not_allowed, writes), 404: _not_found})
    app.state.page = page  # how many follow it: the server drains them, the benchmark waits
    return app


def table_app(source: TableSide, hub: Hub, guard: Guard,
              event: TournamentSide | None = None) -> Starlette:
    """The table's page (see the module docstring); a table in an ``event`` shows it too."""
    page = TablePage(source, hub, guard, event)
    routes: list[Route | Mount] = [
        Route("/", page.page, methods=["GET"]),
        Route("/standings", page.standings, methods=["GET"]),
        Route("/events", page.live.events, methods=["GET"]),
        Route("/api/login", page.login, methods=["POST"]),
        Route("/api/token", page.token, methods=["POST"]),
        Route("/api/undo", page.undo, methods=["POST"]),
        Route("/api/edit", page.edit, methods=["POST"]),
    ]
    return _app(routes, hub, page, writes=", corrections go to POST /api/undo and /api/edit "
                "after POST /api/login with the PIN")


class TournamentPage:
    """The event's routes over one :class:`~showdown.web.tournament.TournamentWatch`: reading
    only."""

    def __init__(self, watch: TournamentSide, hub: Hub) -> None:
        self.watch = watch
        self.hub = hub
        self.live = LiveParts(hub, self._render_part)

    @property
    def streams(self) -> int:
        """Pages following the event now (open event streams)."""
        return self.live.streams

    def _picture(self) -> TournamentPicture:
        return self.watch.picture() or TournamentPicture()  # the host always has one

    def _render_part(self, part: str, words: Words) -> str:
        return render("_tournament.html", words, event=self._picture(), embedded=False,
                      news_at=_news(self.hub))

    async def page(self, request: Request) -> Response:
        """``GET /``: the event, already filled."""
        words, picked = language(request)
        parts, at = self.live.now(words)
        event = self._picture()
        return _page(render("tournament.html", words, stamp=at, title=event.name,
                            tournament_html=Markup(parts["event"])), picked)

    async def standings(self, request: Request) -> Response:
        """``GET /standings``: the event's standings on a page to print."""
        words, picked = language(request)
        printed = datetime.now().astimezone().strftime("%Y-%m-%d %H:%M")
        return _page(render("tournament_standings.html", words, event=self._picture(),
                            printed=printed), picked)


def tournament_app(watch: TournamentSide, hub: Hub) -> Starlette:
    """The event's page: standings, the tables online or not, the next seating."""
    page = TournamentPage(watch, hub)
    routes: list[Route | Mount] = [
        Route("/", page.page, methods=["GET"]),
        Route("/standings", page.standings, methods=["GET"]),
        Route("/events", page.live.events, methods=["GET"]),
    ]
    return _app(routes, hub, page)
