"""The phone page served from a process of its own, fed by the service.

In the service's process the page's server would share the interpreter's lock with the unit's
back-end thread: fifty streams woken at every change, each framed and written by Python, and the
thread holding the lock descheduled by a busy machine, is time the back end's thread waits before
it runs again (docs/benchmark.md, "The phone page", measures both ways). So the service keeps
only the counting: the same :class:`~showdown.web.hub.Hub`, bumped from any thread, and one
thread (the feed) that sends each changed part's picture down a pipe, a picture per change (at
most one every :data:`FEED_INTERVAL_S`), whatever the number of phones. The page's process
renders, frames and writes to every phone.

What the page asks of the service (a PIN typed, a session's token, an undo, an edit) goes up a
second pipe and is answered on another thread of the service, which also logs the page's log
records as its own: the PIN's keeper (:class:`~showdown.web.pin.PinGuard`, its sessions and its
count of wrong PINs) lives in the service, so a page started again forgets none of it. The page's
process ends when told to, and when the service's end of the feed closes (the service died, even
while its page was still starting): it never outlives the service, and ends quietly, with no
traceback on a terminal the service has left.

The service keeps its page up: a thread of its own (the supervisor) waits for the page's process
to end, reaps it at once (no zombie), and starts another on the same listening socket (the
service keeps it open, so phones that connect meanwhile wait in its queue rather than being
refused) after a back-off: :data:`FIRST_BACKOFF_S`, doubled each time the page ends again soon
after starting, up to :data:`LONGEST_BACKOFF_S`, and back to the first once it has served for
:data:`STEADY_S`. The table plays on meanwhile; only the phones wait.

The service need not wait for its page: started with ``wait=False``, the page's address is
bound at once (an address that cannot be had is still refused at once) and the supervisor
starts its first process. Starting the page's process is the slowest part of the service's start
on a busy Pi (a second interpreter importing the web stack, at :data:`NICE`): the service sends
``READY=1`` without it, within systemd's start timeout, and phones that come meanwhile wait in
the socket's queue. A page still starting when it is stopped (or when the service exits) is
ended at once, quietly.
"""

from __future__ import annotations

import atexit
import contextlib
import logging
import multiprocessing
import os
import resource
import signal
import socket
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from multiprocessing.connection import Connection, wait
from typing import Any, Literal

from showdown.web.connections import Limits
from showdown.web.hub import Hub, Versions
from showdown.web.pin import Admission, Login
from showdown.web.server import DRAIN_S, WebError, WebServer, bind

__all__ = ["FEED_INTERVAL_S", "FIRST_BACKOFF_S", "LONGEST_BACKOFF_S", "NICE", "STEADY_S",
           "PageProcess"]

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

START_S = 300.0
"""How long the page's process may take to start (it imports the web stack first, at
:data:`NICE` on a starved Pi): the address is bound before, so a taken address is refused at
once, and only a process that never answers waits this long; started with or without a caller
waiting, a page gets the same time, whatever else the machine is doing."""

SUPERVISOR_STOP_S = 30.0
"""How long a stop waits for the supervisor, which may be starting a page (that one ends by
itself once the stop is seen)."""

FIRST_BACKOFF_S = 1.0
"""How long the supervisor waits before starting a page whose process ended."""

LONGEST_BACKOFF_S = 60.0
"""The longest wait between two starts of a page that keeps ending."""

STEADY_S = 60.0
"""A page that served this long before it ended is started again after the first back-off."""

Kind = Literal["table", "event"]


@dataclass
class _Run:
    """One page's process and the service's ends of its two pipes and its threads."""

    process: multiprocessing.process.BaseProcess
    feed: Connection
    requests: Connection
    threads: list[threading.Thread] = field(default_factory=list)
    over: bool = False
    """Set once it ended, or was ended: its closed pipes are no news."""


class PageProcess:
    """A page (the table's or the event's) served by a process of its own until :meth:`stop`,
    started again whenever that process ends (see the module docstring).

    ``pictures`` builds each part's picture in the service's process (``"table"``: the table's
    read model's :meth:`~showdown.game.table_model.TableModel.view`, ``"showdown"``: the
    showdown in progress, ``"event"``: the event's
    :func:`~showdown.web.tournament.picture`); ``calls`` answers the page's
    requests (``"login"``, ``"token"``, ``"admit"``, ``"undo"``, ``"edit"``), on the service's
    side. ``limits`` and ``trusted`` go to the page's server
    (:class:`~showdown.web.server.WebServer`). ``pause`` waits between a page's end and its
    next start (default: that long, unless the page is being stopped) and ``clock`` times how
    long a page served: a test gives its own.
    """

    def __init__(self, kind: Kind, hub: Hub, pictures: Mapping[str, Callable[[], object]],
                 host: str, port: int, *,
                 calls: Mapping[str, Callable[..., Any]] | None = None,
                 nice: int = NICE, limits: Limits | None = None, trusted: tuple[str, ...] = (),
                 pause: Callable[[float], object] | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.kind = kind
        self.nice = nice
        self.hub = hub
        self.pictures = dict(pictures)
        self.calls = dict(calls or {})
        self.host = host
        self.requested_port = port
        self.limits = limits or Limits()
        self.trusted = trusted
        self._port = port
        self.address: tuple[str, int] | None = None
        """Where the socket was bound (host, port), once started."""
        self._stopping = threading.Event()
        self._pause = pause or self._stopping.wait
        self._clock = clock
        self._socket: socket.socket | None = None
        self._run: _Run | None = None
        self._launching: _Run | None = None
        """A page's process started and not yet serving."""
        self._lock = threading.Lock()
        """Orders a start's end against :meth:`stop`: either sees the other."""
        self._supervisor: threading.Thread | None = None
        self._ended: list[threading.Thread] = []
        """The feeds of pages that ended: each ends within a feed's wait, and stop joins it."""
        self._streams: Any = None
        self._started = threading.Condition()
        self.starts = 0
        """How many times a page's process started serving (1 after :meth:`start`)."""
        self._exiting = False
        """Set by the exit hooks: the page's process is ended on purpose (a forced stop), so
        its closed pipe is no news and it is not started again."""

    @property
    def port(self) -> int:
        """The port served (the one the system chose when 0 was asked)."""
        return self._port

    @property
    def pid(self) -> int | None:
        """The page's process, while it runs."""
        run = self._run
        return None if run is None else run.process.pid

    @property
    def thread_id(self) -> int | None:
        """The feed's thread (its native id), while it runs: the page's work in the service."""
        run = self._run
        return run.threads[0].native_id if run is not None and run.threads else None

    @property
    def streams(self) -> int:
        """Pages following now (open event streams), as the page's process last counted."""
        return 0 if self._streams is None else int(self._streams.value)

    def start(self, timeout_s: float | None = None, *, wait: bool = True) -> None:
        """Bind, start the page's process with the pictures as they stand, and return once it
        serves (then keep it up); an address that cannot be had, or a page that does not start
        (within ``timeout_s``, :data:`START_S` by default), is a
        :class:`~showdown.web.server.WebError`. Without ``wait``, return once the address is
        bound: the supervisor starts the page (within the same time), and a page that does not start
        is a line in the log, tried again after the back-off.
        """
        sock = bind(self.host, self.requested_port)
        self.address = sock.getsockname()[:2]
        self._port = int(sock.getsockname()[1])
        self._socket = sock
        # Registered after multiprocessing's own hook, so it runs first (last in, first out),
        # before the exit hooks end this page's process.
        atexit.register(self._exit_hook)
        first_s: float | None = None
        if wait:
            try:
                self._launch(START_S if timeout_s is None else timeout_s)
            except BaseException:
                self._close_socket()
                raise
        else:
            first_s = START_S if timeout_s is None else timeout_s
        self._supervisor = threading.Thread(target=self._supervise, args=(first_s,),
                                            name="web-supervisor", daemon=True)
        self._supervisor.start()

    def _launch(self, timeout_s: float = START_S) -> None:
        """One page's process, started and serving, with its feed and its calls' threads; none
        (quietly) if the page is stopped, or the service exits, while it starts."""
        assert self._socket is not None
        spawn = multiprocessing.get_context("spawn")  # never fork a process with threads
        feed, their_feed = spawn.Pipe()
        requests, their_requests = spawn.Pipe()
        if self._streams is None:
            self._streams = spawn.RawValue("i", 0)
        self._streams.value = 0
        seen = self.hub.versions
        first = (seen, {part: build() for part, build in self.pictures.items()})
        level = logging.getLogger("showdown").getEffectiveLevel()
        process = spawn.Process(
            target=serve_page, name="showdown-page", daemon=True,
            args=(_Start(self.kind, self._socket, their_feed, their_requests, self._streams,
                         first, level, self.nice, self.limits, self.trusted),))
        try:
            process.start()
        finally:
            their_feed.close()  # the page's process holds them now
            their_requests.close()
        run = _Run(process, feed, requests)
        with self._lock:
            over = self._over()
            if not over:
                self._launching = run  # stop ends it at once
        answer: object = None
        if not over:
            with contextlib.suppress(EOFError, OSError):
                if feed.poll(timeout_s):
                    answer = feed.recv()
        with self._lock:
            self._launching = None
            over = self._over()
            if not over and answer == ("started",):
                for target, name, args in ((self._send_changes, "web-feed", (run, seen)),
                                           (self._answer, "web-calls", (run,))):
                    thread = threading.Thread(target=target, args=args, name=name, daemon=True)
                    thread.start()
                    run.threads.append(thread)
                self._run = run
        if over:  # ended on purpose while it started: no news
            self._end(run)
            return
        if answer != ("started",):
            self._end(run)
            if isinstance(answer, tuple) and answer[:1] == ("failed",):
                raise WebError(str(answer[1]))
            raise WebError(f"the phone page did not start on {self.host}:{self.port}")
        with self._started:
            self.starts += 1
            self._started.notify_all()
        log.debug("phone page served on %s:%d by process %d", self.host, self.port,
                  process.pid)

    def wait_started(self, starts: int, timeout_s: float) -> bool:
        """Wait until the page's process has started serving ``starts`` times in all."""
        with self._started:
            return self._started.wait_for(lambda: self.starts >= starts, timeout_s)

    def _over(self) -> bool:
        """The page is being stopped, or the service exits: no page is started (again)."""
        return self._stopping.is_set() or self._exiting

    def _supervise(self, first_s: float | None) -> None:
        """The supervisor (the service's thread): start the first page if :meth:`start` did
        not wait for it (within ``first_s``), reap the page's process the moment it ends, and
        start another after the back-off, until the page is stopped."""
        backoff: float | None = FIRST_BACKOFF_S
        if first_s is not None:
            try:
                self._launch(first_s)
            except Exception as error:  # the table plays on: say so, and try again
                log.warning("the phone page did not start (%s); trying again in %g s",
                            error, backoff)
                backoff = self._start_again(FIRST_BACKOFF_S)
        while backoff is not None and not self._over():
            run = self._run
            if run is None:  # stopped while its first process started
                return
            began = self._clock()
            wait([run.process.sentinel])
            if self._over():
                return
            self._end(run)  # reaped: no zombie while the next one waits its turn
            if self._clock() - began >= STEADY_S:
                backoff = FIRST_BACKOFF_S
            log.warning("the phone page's process ended (%s); starting it again in %g s",
                        _how(run.process.exitcode), backoff)
            backoff = self._start_again(backoff)

    def _start_again(self, backoff: float) -> float | None:
        """Start a page after ``backoff``, doubled after each start, until one serves: the
        next back-off, or None once the page is being stopped."""
        while True:
            self._pause(backoff)
            backoff = min(LONGEST_BACKOFF_S, backoff * 2)
            if self._over():
                return None
            try:
                self._launch()
            except Exception as error:  # the page is down: say so, and try again
                log.warning("the phone page did not start again (%s); trying again in %g s",
                            error, backoff)
                continue
            if self._over():
                return None
            log.info("the phone page serves again (process %s)", self.pid)
            return backoff

    def _send_changes(self, run: _Run, seen: Versions) -> None:
        """The feed (the service's thread): each changed part's picture, then the close."""
        try:
            while not run.over:
                now = self.hub.wait_blocking(seen, 5.0)
                if now.parts != seen.parts:
                    changed = {part: self._picture(part) for part, v, _at in now.parts
                               if seen.version(part) != v and part in self.pictures}
                    run.feed.send(("parts", now, {part: picture for part, picture
                                                  in changed.items() if picture is not None}))
                    seen = now
                if self.hub.closing and self.hub.versions.parts == seen.parts:
                    run.feed.send(("close",))
                    return
                time.sleep(FEED_INTERVAL_S)  # a rate limit: what changes meanwhile goes as one
        except (OSError, EOFError, ValueError):  # the page's process is gone: the supervisor
            pass  # says so, and starts another

    def _exit_hook(self) -> None:
        self._exiting = True
        run = self._run
        if run is not None:
            run.over = True

    def _picture(self, part: str) -> object:
        """``part``'s picture now; None when it cannot be built (the page keeps the one it
        has, and the next change tries again)."""
        try:
            return self.pictures[part]()
        except Exception:
            log.exception("the phone page's %s cannot be drawn", part)
            return None

    def _answer(self, run: _Run) -> None:
        """The page's requests and log records (the service's thread), until it ends."""
        with contextlib.suppress(EOFError, OSError):
            while True:
                message = run.requests.recv()
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
                run.requests.send(reply)

    def stop(self, timeout_s: float = 5.0) -> None:
        """End every stream (each sends what is left first), stop the page's process, and
        return once it has ended; a page still starting is ended at once (killed: it has no
        stream to drain, and may be a stopped process)."""
        with self._lock:
            self._stopping.set()
            launching = self._launching
        self.hub.close()
        if launching is not None:
            with contextlib.suppress(OSError, ValueError):
                launching.process.kill()  # its start sees its pipe close, and reaps it
        run = self._run
        if run is not None:
            if run.threads:
                run.threads[0].join(timeout_s)
            run.process.join(DRAIN_S + timeout_s)
            self._end(run)  # ended, if it still runs: the supervisor wakes and returns
        if self._supervisor is not None:
            self._supervisor.join(SUPERVISOR_STOP_S)  # it may be starting one: that one ends
        if self._run is not None and self._run is not run:
            self._end(self._run)
        for thread in self._ended:
            thread.join(timeout_s)
        self._ended = []
        self._close_socket()

    def _close_socket(self) -> None:
        atexit.unregister(self._exit_hook)
        if self._socket is not None:
            self._socket.close()

    def _end(self, run: _Run) -> None:
        """``run``'s process ended (made to, if it still runs) and reaped, its pipes closed and
        its threads done."""
        run.over = True
        process = run.process
        if process.is_alive():
            process.terminate()
            process.join(2.0)
            if process.is_alive():
                process.kill()
        process.join(2.0)
        for connection in (run.feed, run.requests):
            connection.close()
        for thread in run.threads[1:]:
            thread.join(2.0)
        self._ended += run.threads[:1]  # it notices within its wait (stop wakes it at once)


def _how(exitcode: int | None) -> str:
    """How a process ended, in words."""
    if exitcode is None:
        return "still running"
    if exitcode < 0:
        with contextlib.suppress(ValueError):
            return f"killed by {signal.Signals(-exitcode).name}"
        return f"killed by signal {-exitcode}"
    return f"exit status {exitcode}"


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


class _Guard:
    """:class:`~showdown.web.pin.Guard` in the page's process: the service's keeper answers."""

    def __init__(self, service: _Service) -> None:
        self.service = service

    def login(self, client: str, typed: str) -> Login:
        answer: Login = self.service.call("login", client, typed)
        return answer

    def token(self, session: str) -> str | None:
        answer: str | None = self.service.call("token", session)
        return answer

    def admit(self, session: str, token: str) -> Admission:
        answer: Admission = self.service.call("admit", session, token)
        return answer


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
    limits: Limits
    """How long a request may take to arrive, how many connections may be open."""
    trusted: tuple[str, ...]
    """The proxies whose forwarded headers are believed."""


def serve_page(start: _Start) -> None:
    """The page's process: serve the page on ``start.sock`` from what ``start.feed`` brings."""
    kind, sock, feed, streams = start.kind, start.sock, start.feed, start.streams
    from showdown.web.app import table_app, tournament_app  # noqa: PLC0415 - the page's process only
    from showdown.web.render import compile_templates  # noqa: PLC0415

    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C reaches the service, which stops us
    with contextlib.suppress(OSError):
        os.nice(start.nice)
    if start.limits.files is not None:
        _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(start.limits.files, hard), hard))
    service = _Service(start.requests)
    root = logging.getLogger()
    root.handlers = [_Forward(service)]
    root.setLevel(start.level)
    versions, pictures = start.first
    hub = Hub(tuple(part for part, _v, _at in versions.parts))
    hub.update(versions)
    held = _Pictures(dict(pictures), service)
    if kind == "table":
        app = table_app(_Table(held), hub, _Guard(service),
                        event=_Tournament(held))  # no picture until the table is in an event
    else:
        app = tournament_app(_Tournament(held), hub)
    compile_templates()
    page = app.state.page
    page.live.counted = lambda count: setattr(streams, "value", count)
    host, port = sock.getsockname()[:2]
    server = WebServer(app, host, port, before_stop=hub.close,
                       drained=lambda: page.streams == 0, sock=sock, limits=start.limits,
                       trusted=start.trusted)
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
