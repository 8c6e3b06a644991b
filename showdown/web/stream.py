"""A page's live parts, sent to every reader by Server-Sent Events (``GET /events``).

The table's page and the event's page differ in what they draw, not in how they stay live: each
names its parts, a :class:`~showdown.web.hub.Hub` counts their changes, and :class:`LiveParts`
renders a changed part once per language (:class:`~showdown.web.render.Fragments`) and builds
one message for every reader that needs it, whatever their number.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator, Callable

from sse_starlette import EventSourceResponse, ServerSentEvent
from starlette.requests import Request
from starlette.responses import Response

from showdown.web.hub import Hub, Versions
from showdown.web.render import Fragments
from showdown.web.words import LANGUAGES, Words, negotiate

__all__ = ["HEARTBEAT_S", "LANGUAGE_COOKIE", "MIN_INTERVAL_S", "RETRY_MS", "SECURITY_HEADERS",
           "LiveParts", "language"]

HEARTBEAT_S = 5.0
"""With nothing new, a stream still says it is alive this often: the page marks itself out of
date when it has heard nothing for a few of these."""

MIN_INTERVAL_S = 0.1
"""A stream sends at most ten messages a second: changes closer together go out as one (at a
table a showdown's steps are a second apart; a burst costs the unit's thread nothing more)."""

RETRY_MS = 2000
"""How soon a browser reconnects after the stream broke (the server restarting)."""

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


class LiveParts:
    """The live parts of one page over one hub (see the module docstring)."""

    def __init__(self, hub: Hub, render_part: Callable[[str, Words], str]) -> None:
        self.hub = hub
        self.fragments = Fragments(render_part)
        self.streams = 0
        """Pages following now (open event streams)."""
        self.counted: Callable[[int], None] | None = None
        """Told the number of streams each time it changes (the page's own process tells the
        service, which waits for the benchmark's phones and drains them on stopping)."""
        self._messages: dict[tuple[object, ...], str] = {}

    def now(self, words: Words) -> tuple[dict[str, str], float]:
        """Every part as it stands, in ``words``' language, and when it last changed."""
        versions = self.hub.versions
        parts = self.fragments.all({p: v for p, v, _at in versions.parts}, words)
        return parts, max((at for _p, _v, at in versions.parts), default=0.0) or time.time()

    async def events(self, request: Request) -> Response:
        """``GET /events``: the live parts by Server-Sent Events."""
        words, _picked = language(request)
        return EventSourceResponse(self._stream(words), headers=SECURITY_HEADERS,
                                   ping=HEARTBEAT_S * 3)

    async def _stream(self, words: Words) -> AsyncIterator[ServerSentEvent]:
        self._count(+1)
        try:
            async for event in self._events(words):
                yield event
        finally:
            self._count(-1)

    def _count(self, step: int) -> None:
        self.streams += step
        if self.counted is not None:
            self.counted(self.streams)

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
