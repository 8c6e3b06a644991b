"""The phone page served from a process of its own, fed by the service.

In the service's process the page's server would share the interpreter's lock with the unit's
back-end thread: fifty streams woken at every change, each framed and written by Python, and the
thread holding the lock descheduled by a busy machine, is time the back end's thread waits before
it runs again (docs/benchmark.md, "The phone page", measures both ways). So the service keeps
only the counting: the same :class:`~showdown.web.hub.Hub`, bumped from any thread, and one
thread (the feed) that sends each changed part's picture down a pipe, a picture per change (at
most one every :data:`FEED_INTERVAL_S`), whatever the number of phones. The page's process
renders, frames and writes to every phone.

What the page asks of the service (the PIN, an undo, an edit) goes up a second pipe and is
answered on another thread of the service, which also logs the page's log records as its own. The
page's process ends when told to, and when the service's end of the feed closes (the service
died, even while its page was still starting): it never outlives the service, and ends quietly,
with no traceback on a terminal the service has left.

The service need not wait for its page: started with ``wait=False``, the page's address is
bound at once (an address that cannot be had is still refused at once) and its process
launched, and a thread waits for it to serve. Starting the page's process is the slowest part
of the service's start on a busy Pi (a second interpreter importing the web stack, at
:data:`NICE`): the service sends ``READY=1`` without it, within systemd's start timeout, and
phones that come meanwhile wait in the socket's queue.
"""

from __future__ import annotations

import atexit
import contextlib
import logging
import multiprocessing
import os
import signal
import socket
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from multiprocessing.connection import Connection
from typing import Any, Literal

from showdown.web.hub import Hub, Versions
from showdown.web.server import DRAIN_S, WebError, WebServer, bind

__all__ = ["FEED_INTERVAL_S", "NICE", "PageProcess"]

log = logging.getLogger(__name__)

FEED_INTERVAL_S = 0.02
"""The feed sends at most fifty pictures a second: a burst of changes (a showdown's steps when
the simulator skips the countdown) costs the service one picture per part, not one per change.
Each stream then sends at most ten messages a second
(:data:`~showdown.web.stream.MIN_INTERVAL_S`)."""

NICE = 10
"""The page's process runs this much nicer than the service: on a busy Pi the scheduler gives
the unit's threads a core before the phones' streams (a phone waits a millisecond; a player
must not)."""

START_S = 30.0
"""How long the page's process may take to start (it imports the web stack first)."""

LATER_S = 300.0
"""How long a page started without waiting may take (a starved Pi, at :data:`NICE`): nothing
waits on it meanwhile."""

Kind = Literal["table", "event"]


class PageProcess:
    """A page (the table's or the event's) served by a process of its own until :meth:`stop`.

    ``pictures`` builds each part's picture in the service's process (``"table"``: the table's
    read model's :meth:`~showdown.game.table_model.TableModel.view`, ``"showdown"``: the
    showdown in progress, ``"event"``: the event's
    :func:`~showdown.web.tournament.picture`); ``calls`` answers the page's
    requests (``"pin"``, ``"undo"``, ``"edit"``), on the service's side.
    """

    def __init__(self, kind: Kind, hub: Hub, pictures: Mapping[str, Callable[[], object]],
                 host: str, port: int, *,
                 calls: Mapping[str, Callable[..., Any]] | None = None,
                 nice: int = NICE) -> None:
        self.kind = kind
        self.nice = nice
        self.hub = hub
        self.pictures = dict(pictures)
        self.calls = dict(calls or {})
        self.host = host
        self.requested_port = port
        self._port = port
        self.address: tuple[str, int] | None = None
        """Where the socket was bound (host, port), once started."""
        self._process: multiprocessing.process.BaseProcess | None = None
        self._feed: Connection | None = None
        self._requests: Connection | None = None
        self._streams: Any = None
        self._threads: list[threading.Thread] = []
        self._starter: threading.Thread | None = None
        """The thread waiting for a page started without waiting."""
        self._lock = threading.Lock()
        self._stopping = False
        self._exiting = False
        """Set by the exit hooks: the page's process is ended on purpose (a forced stop), so
        its closed pipe is no news."""

    @property
    def port(self) -> int:
        """The port served (the one the system chose when 0 was asked)."""
        return self._port

    @property
    def pid(self) -> int | None:
        """The page's process, while it runs."""
        return None if self._process is None else self._process.pid

    @property
    def thread_id(self) -> int | None:
        """The feed's thread (its native id), while it runs: the page's work in the service."""
        return self._threads[0].native_id if self._threads else None

    @property
    def streams(self) -> int:
        """Pages following now (open event streams), as the page's process last counted."""
        return 0 if self._streams is None else int(self._streams.value)

    def start(self, timeout_s: float | None = None, *, wait: bool = True) -> None:
        """Bind, start the page's process with the pictures as they stand, and return once it
        serves; an address that cannot be had, or a page that does not start (within
        ``timeout_s``, :data:`START_S` by default), is a
        :class:`~showdown.web.server.WebError`. Without ``wait``, return once the process is
        launched: a thread waits for it (:data:`LATER_S` by default), and a page that does not
        start is one line in the log, the service going on without it."""
        sock = bind(self.host, self.requested_port)
        self.address = sock.getsockname()[:2]
        self._port = int(sock.getsockname()[1])
        spawn = multiprocessing.get_context("spawn")  # never fork a process with threads
        # Registered after multiprocessing's own hook, so it runs first (last in, first out),
        # before the exit hooks end this page's process.
        atexit.register(self._exit_hook)
        feed, their_feed = spawn.Pipe()
        requests, their_requests = spawn.Pipe()
        self._streams = spawn.RawValue("i", 0)
        seen = self.hub.versions
        first = (seen, {part: build() for part, build in self.pictures.items()})
        level = logging.getLogger("showdown").getEffectiveLevel()
        self._process = spawn.Process(
            target=serve_page, name="showdown-page", daemon=True,
            args=(_Start(self.kind, sock, their_feed, their_requests, self._streams, first,
                         level, self.nice),))
        try:
            self._process.start()
        finally:
            sock.close()  # the page's process holds it now
            their_feed.close()
            their_requests.close()
        self._feed, self._requests = feed, requests
        if wait:
            self._started(seen, START_S if timeout_s is None else timeout_s)
            return
        self._starter = threading.Thread(
            target=self._started_later, args=(seen, LATER_S if timeout_s is None else timeout_s),
            name="web-start", daemon=True)
        self._starter.start()

    def _started(self, seen: Versions, timeout_s: float) -> None:
        """Wait for the page's process to serve, then feed it; a :class:`WebError` if it does
        not (nothing, once :meth:`stop` has begun or the process is exiting: either ends the
        page's process on purpose)."""
        assert self._feed is not None and self._process is not None
        began = time.monotonic()
        answer: object = None
        with contextlib.suppress(EOFError, OSError):
            if self._feed.poll(timeout_s):
                answer = self._feed.recv()
        with self._lock:
            if self._stopping or self._exiting:
                return
            if answer != ("started",):
                self._end()
                if isinstance(answer, tuple) and answer[:1] == ("failed",):
                    raise WebError(str(answer[1]))
                raise WebError(f"the phone page did not start on {self.host}:{self.port}")
            for target, name in ((self._send_changes, "web-feed"), (self._answer, "web-calls")):
                thread = threading.Thread(target=target,
                                          args=(seen,) if name == "web-feed" else (),
                                          name=name, daemon=True)
                thread.start()
                self._threads.append(thread)
        log.debug("phone page served on %s:%d by process %d, %.1f s after it was launched",
                  self.host, self.port, self._process.pid, time.monotonic() - began)

    def _started_later(self, seen: Versions, timeout_s: float) -> None:
        """The starter thread of a page started without waiting: one line if it fails."""
        try:
            self._started(seen, timeout_s)
        except WebError as error:
            log.warning("%s: running without the phone page", error)

    def _send_changes(self, seen: Versions) -> None:
        """The feed (the service's thread): each changed part's picture, then the close."""
        assert self._feed is not None
        try:
            while True:
                now = self.hub.wait_blocking(seen, 5.0)
                if now.parts != seen.parts:
                    changed = {part: self._picture(part) for part, v, _at in now.parts
                               if seen.version(part) != v and part in self.pictures}
                    self._feed.send(("parts", now, {part: picture for part, picture
                                                    in changed.items() if picture is not None}))
                    seen = now
                if self.hub.closing and self.hub.versions.parts == seen.parts:
                    self._feed.send(("close",))
                    return
                time.sleep(FEED_INTERVAL_S)  # a rate limit: what changes meanwhile goes as one
        except (OSError, EOFError, ValueError) as error:  # the page's process is gone
            if not (self.hub.closing or self._exiting):
                log.warning("the phone page stopped (%s)", error or type(error).__name__)

    def _exit_hook(self) -> None:
        self._exiting = True

    def _picture(self, part: str) -> object:
        """``part``'s picture now; None when it cannot be built (the page keeps the one it
        has, and the next change tries again)."""
        try:
            return self.pictures[part]()
        except Exception:
            log.exception("the phone page's %s cannot be drawn", part)
            return None

    def _answer(self) -> None:
        """The page's requests and log records (the service's thread), until it ends."""
        assert self._requests is not None
        with contextlib.suppress(EOFError, OSError):
            while True:
                message = self._requests.recv()
                if message[0] == "log":
                    _level, name, text = message[1:]
                    logging.getLogger(name).log(_level, "%s", text)
                    continue
                _call, name, args = message
                try:
                    reply: tuple[bool, object] = (True, self.calls[name](*args))
                except Exception as error:  # one request failed: the page says so, once
                    log.exception("the phone page's %s failed", name)
                    reply = (False, f"{type(error).__name__}: {error}")
                self._requests.send(reply)

    def stop(self, timeout_s: float = 5.0) -> None:
        """End every stream (each sends what is left first), stop the page's process, and
        return once it has ended; a page still starting is ended at once."""
        self.hub.close()
        with self._lock:
            self._stopping = True
            feed = self._threads[0] if self._threads else None
        if feed is not None:
            feed.join(timeout_s)
        if self._process is not None:
            if feed is None:  # still starting (or it never did): no stream to drain
                self._halt()
            else:
                self._process.join(DRAIN_S + timeout_s)
        if self._starter is not None:  # it returns once the page's process is gone
            self._starter.join(timeout_s)
            self._starter = None
        self._end()

    def _halt(self) -> None:
        """End the page's process: asked, then made to (a stopped process too)."""
        process = self._process
        if process is not None and process.is_alive():
            process.terminate()
            process.join(2.0)
            if process.is_alive():
                process.kill()
                process.join(2.0)

    def _end(self) -> None:
        atexit.unregister(self._exit_hook)
        self._halt()
        for connection in (self._feed, self._requests):
            if connection is not None:
                connection.close()
        for thread in self._threads[1:]:
            thread.join(2.0)
        self._threads = []


class _Service:
    """The page's process's line to the service: one request or log record at a time."""

    def __init__(self, connection: Connection) -> None:
        self._connection = connection
        self._lock = threading.Lock()

    def call(self, name: str, *args: object) -> Any:
        with self._lock:
            self._connection.send(("call", name, args))
            ok, value = self._connection.recv()
        if not ok:
            raise RuntimeError(f"the service could not {name}: {value}")
        return value

    def log(self, level: int, name: str, text: str) -> None:
        with self._lock:
            self._connection.send(("log", level, name, text))


class _Forward(logging.Handler):
    """The page's log records, logged by the service."""

    def __init__(self, service: _Service) -> None:
        super().__init__()
        self.service = service

    def emit(self, record: logging.LogRecord) -> None:
        text = record.getMessage()
        if record.exc_info:
            text += "\n" + logging.Formatter().formatException(record.exc_info)
        with contextlib.suppress(OSError, EOFError, ValueError):
            self.service.log(record.levelno, record.name, text)


class _Pictures:
    """The latest picture of each part, as the service sent them (the page's process)."""

    def __init__(self, pictures: dict[str, Any], service: _Service) -> None:
        self._lock = threading.Lock()
        self._pictures = pictures
        self.service = service

    def take(self, pictures: dict[str, Any]) -> None:
        with self._lock:
            self._pictures.update(pictures)

    def get(self, part: str) -> Any:
        with self._lock:
            return self._pictures.get(part)


class _Table:
    """:class:`~showdown.web.table.TableSide` in the page's process."""

    def __init__(self, pictures: _Pictures) -> None:
        self.pictures = pictures

    def picture(self) -> Any:
        return replace(self.pictures.get("table"), showdown=self.pictures.get("showdown"))

    def undo(self) -> Any:
        return self.pictures.service.call("undo")

    def edit(self, number: int, went_out: str, points: dict[str, int]) -> Any:
        return self.pictures.service.call("edit", number, went_out, points)


class _Tournament:
    """:class:`~showdown.web.tournament.TournamentSide` in the page's process (None: no event
    yet)."""

    def __init__(self, pictures: _Pictures) -> None:
        self.pictures = pictures

    def picture(self) -> Any:
        return self.pictures.get("event")


@dataclass(frozen=True)
class _Start:
    """What the page's process is started with."""

    kind: Kind
    sock: socket.socket
    feed: Connection
    requests: Connection
    streams: Any
    """A shared int: the open streams, as the page counts them."""
    first: tuple[Versions, dict[str, Any]]
    """The versions and every part's picture when the service started the page."""
    level: int
    """The service's log level."""
    nice: int
    """How much nicer than the service the page's process runs."""


def serve_page(start: _Start) -> None:
    """The page's process: serve the page on ``start.sock`` from what ``start.feed`` brings."""
    kind, sock, feed, streams = start.kind, start.sock, start.feed, start.streams
    from showdown.web.app import table_app, tournament_app  # noqa: PLC0415 - the page's process only
    from showdown.web.pin import PinGuard  # noqa: PLC0415
    from showdown.web.render import compile_templates  # noqa: PLC0415

    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C reaches the service, which stops us
    with contextlib.suppress(OSError):
        os.nice(start.nice)
    service = _Service(start.requests)
    root = logging.getLogger()
    root.handlers = [_Forward(service)]
    root.setLevel(start.level)
    versions, pictures = start.first
    hub = Hub(tuple(part for part, _v, _at in versions.parts))
    hub.update(versions)
    held = _Pictures(dict(pictures), service)
    if kind == "table":
        app = table_app(_Table(held), hub, PinGuard(lambda: str(service.call("pin"))),
                        event=_Tournament(held))  # no picture until the table is in an event
    else:
        app = tournament_app(_Tournament(held), hub)
    compile_templates()
    page = app.state.page
    page.live.counted = lambda count: setattr(streams, "value", count)
    host, port = sock.getsockname()[:2]
    server = WebServer(app, host, port, before_stop=hub.close,
                       drained=lambda: page.streams == 0, sock=sock)
    try:
        server.start()
    except WebError as error:
        with contextlib.suppress(OSError):  # the service is gone: no one to tell
            feed.send(("failed", str(error)))
        return
    try:
        feed.send(("started",))
    except OSError:  # the service died while its page started: end quietly, serving no one
        server.stop()
        return
    with contextlib.suppress(EOFError, OSError):  # the service is gone: so is its page
        while (message := feed.recv())[0] == "parts":
            _parts, now, changed = message
            held.take(changed)
            hub.update(now)
    server.stop()
