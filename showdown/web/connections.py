"""What one connection to the page may hold, so that a few clients cannot take the page from
everyone: a time limit on a request arriving, and a cap on open connections below the process's
limit on open files.

uvicorn closes a connection idle between two requests (``timeout_keep_alive``), but nothing
times a request that never arrives whole: a client that connects and sends nothing, or half a
request a byte at a time, holds its connection (and a file) for ever. Its ``limit_concurrency``
answers 503 only once a request arrives, so idle connections still pile up: 1,030 of them under
the usual limit of 1,024 open files left the page unable to accept anyone, with a traceback per
refused accept. So the page's HTTP protocol (:func:`guarded`, uvicorn's h11 protocol and two
rules) adds:

- a request must arrive whole (its head and its body) within :attr:`Limits.request_s` of the
  connection being made, or of its own first byte: else it is answered 408 and closed;
- at most :attr:`Limits.connections` connections are open, kept :data:`SPARE_FILES` below the
  limit on open files, counted from the moment each is accepted (:class:`Gate`): near the cap
  each new connection closes the oldest one waiting for a request (a phone's live stream is
  never one), and at the cap, with every connection busy, a new one is answered 503 and closed
  at once. A new phone is served, and the process never runs out of files.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import resource
import socket
from dataclasses import dataclass
from typing import Any

import h11
from uvicorn.config import Config
from uvicorn.protocols.http.h11_impl import H11Protocol
from uvicorn.server import ServerState

__all__ = ["ACCEPT_BATCH", "KEEP_ALIVE_S", "MAX_CONNECTIONS", "MAX_HEAD", "REQUEST_S",
           "SPARE_FILES", "Gate",
           "GatedSocket", "Limits", "connection_cap", "guarded"]

log = logging.getLogger(__name__)

REQUEST_S = 10.0
"""A request arrives whole within this (a phone sends one in milliseconds)."""

KEEP_ALIVE_S = 5
"""A connection waits this long for its next request (uvicorn's ``timeout_keep_alive``)."""

MAX_HEAD = 8192
"""The largest request head (line and headers) read, in bytes (h11's limit; a phone's is well
under 2 KiB)."""

MAX_CONNECTIONS = 500
"""Connections open at once, at most: fifty phones at a table hold fifty live streams, an
evening's page a few hundred."""

SPARE_FILES = 32
"""Files kept free below the process's limit for what else it opens (its pipes, the listening
socket, a static file being sent)."""


def connection_cap() -> int:
    """The cap on open connections in this process: :data:`MAX_CONNECTIONS`, or fewer when the
    limit on open files (``RLIMIT_NOFILE``, the service's ``LimitNOFILE``) is lower."""
    soft, _hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY:
        return MAX_CONNECTIONS
    return max(1, min(MAX_CONNECTIONS, soft - SPARE_FILES))


@dataclass(frozen=True)
class Limits:
    """How long a request may take to arrive, and how many connections may be open."""

    request_s: float = REQUEST_S
    connections: int | None = None
    """None: :func:`connection_cap` in the process that serves."""
    files: int | None = None
    """The page's process lowers its own limit on open files to this at its start (as a unit's
    ``LimitNOFILE`` would), so the cap follows it; None: the limit it inherits."""


def _refusal(status: bytes, sentence: str) -> bytes:
    body = sentence.encode()
    return (b"HTTP/1.1 " + status + b"\r\ncontent-type: text/plain; charset=utf-8\r\n"
            b"connection: close\r\ncontent-length: " + str(len(body)).encode() + b"\r\n\r\n"
            + body)


TIMED_OUT = _refusal(b"408 Request Timeout", "the request did not arrive whole in time")
BUSY = _refusal(b"503 Service Unavailable", "too many connections: try again in a moment")


class Gate:
    """The connections open on one server, counted from the moment each is accepted (the
    listening socket's :meth:`GatedSocket.accept`) to the moment its file is closed: asyncio
    accepts a burst of connections before it tells their protocols, so a cap checked only when
    a connection is made would let the burst take every file first."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self.cap = limits.connections or connection_cap()
        self.accepted = 0
        """Accepted, their protocol not told yet."""
        self.made: dict[Any, None] = {}
        """The connections made and not lost, oldest first (a dict keeps the order)."""
        self._refused = 0

    @property
    def open(self) -> int:
        """Connections holding a file now."""
        return self.accepted + len(self.made)

    def admit(self, conn: socket.socket) -> bool:
        """Whether a connection just accepted may stay: else, the cap reached with every
        connection busy, it is answered 503 and closed at once, before it holds a file any
        longer."""
        if self.open < self.cap:
            self.accepted += 1
            return True
        self._refused += 1
        if self._refused in (1, 10, 100) or self._refused % 1000 == 0:
            log.warning("the page refused a connection: %d open, none waiting (%d refused)",
                        self.cap, self._refused)
        with contextlib.suppress(OSError):
            conn.setblocking(False)
            conn.send(BUSY)
        conn.close()
        return False

    def made_one(self, connection: Any) -> None:
        """``connection`` is made: counted, and room kept for the next ones (:data:`ROOM`
        below the cap) by closing the oldest connections waiting for a request."""
        self.accepted = max(0, self.accepted - 1)
        self.made[connection] = None
        excess = self.open - max(1, self.cap - ROOM)
        for older in list(self.made):
            if excess <= 0 or older is connection:
                return
            if older.transport.is_closing():
                excess -= 1  # its file is closed when it is lost, in a moment
            elif older.waiting:
                older.transport.close()
                excess -= 1

    def lost(self, connection: Any) -> None:
        """``connection`` is lost (asyncio closes its file right after)."""
        self.made.pop(connection, None)

    def wrap(self, sock: socket.socket) -> socket.socket:
        """``sock`` (listening) as a socket whose ``accept`` goes through this gate."""
        return GatedSocket(self, sock)


ACCEPT_BATCH = 4
"""Connections accepted in one turn of the event loop (uvicorn's ``backlog``, which asyncio
takes for both the queue and the turn); the queue itself stays :data:`QUEUE` long. A
connection's protocol hears of it two turns after it was accepted, and its file is let go a turn
after it was closed: small turns keep what is in between small."""

QUEUE = 128
"""Connections the system keeps waiting to be accepted (``listen``)."""

ROOM = 8 * ACCEPT_BATCH
"""Connections kept free below the cap, by closing the oldest waiting ones as new ones are made,
so that those accepted in the next few turns find room at once."""


class GatedSocket(socket.socket):
    """A listening socket whose accepted connections pass through a :class:`Gate`."""

    def __init__(self, gate: Gate, sock: socket.socket) -> None:
        super().__init__(sock.family, sock.type, sock.proto, fileno=sock.detach())
        self.gate = gate

    def listen(self, backlog: int = QUEUE) -> None:
        """Listen with a queue of :data:`QUEUE` at least (asyncio asks for the accept batch)."""
        super().listen(max(backlog, QUEUE))

    def accept(self) -> tuple[socket.socket, Any]:
        """The next connection the gate lets stay (those it refuses are closed meanwhile)."""
        while True:
            conn, address = super().accept()  # BlockingIOError when none is waiting
            if self.gate.admit(conn):
                return conn, address


def guarded(gate: Gate) -> type[H11Protocol]:
    """uvicorn's h11 protocol with the two rules of the module docstring, counted by ``gate``."""
    limits = gate.limits

    class Guarded(H11Protocol):
        """One connection, timed and counted."""

        def __init__(self, config: Config, server_state: ServerState, app_state: dict[str, Any],
                     _loop: asyncio.AbstractEventLoop | None = None) -> None:
            super().__init__(config, server_state, app_state, _loop)
            self._deadline: asyncio.TimerHandle | None = None

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            gate.made_one(self)
            self._arm()

        @property
        def waiting(self) -> bool:
            """Waiting for a request: nothing is being answered on it."""
            return self.cycle is None or self.cycle.response_complete

        def data_received(self, data: bytes) -> None:
            super().data_received(data)
            if self.conn.their_state in (h11.IDLE, h11.SEND_BODY):
                self._arm()  # a request under way: it has until the deadline to arrive
            else:
                self._disarm()

        def _arm(self) -> None:
            if self._deadline is None and not self.transport.is_closing():
                self._deadline = self.loop.call_later(limits.request_s, self._too_slow)

        def _disarm(self) -> None:
            if self._deadline is not None:
                self._deadline.cancel()
                self._deadline = None

        def on_response_complete(self) -> None:
            self._disarm()  # the keep-alive timeout waits for the next request
            super().on_response_complete()

        def connection_lost(self, exc: Exception | None) -> None:
            self._disarm()
            gate.lost(self)
            super().connection_lost(exc)

        def _too_slow(self) -> None:
            self._deadline = None
            if self.transport.is_closing() or self.conn.their_state not in (h11.IDLE,
                                                                            h11.SEND_BODY):
                return
            if self.cycle is None or self.cycle.response_complete:
                self.transport.write(TIMED_OUT)  # nothing answered yet: say why
            self.transport.close()

    return Guarded
