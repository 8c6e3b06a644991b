"""Serving an app with uvicorn on a thread of its own, beside the service's main loop.

The socket is bound here, before uvicorn starts, so an address that cannot be had (in use, not
this machine's) is one clear :class:`WebError` at start, not a log line from a dying thread.
Stopping ends every live stream first (:meth:`~showdown.web.hub.Hub.close`), so uvicorn's
shutdown does not wait on phones that never hang up.

Each connection is timed and counted (:mod:`showdown.web.connections`), and a forwarded header
(``X-Forwarded-For``, ``Forwarded``) is believed only from a proxy named in ``trusted``: uvicorn
believes one from 127.0.0.1 by default, so any program on the Pi, or a proxy passing on what its
client wrote, could name itself another client (and get another client's tries at the PIN).
"""

from __future__ import annotations

import logging
import re
import socket
import threading
import time
from collections.abc import Callable

import uvicorn
from starlette.types import ASGIApp

from showdown.web.connections import (
    ACCEPT_BATCH,
    KEEP_ALIVE_S,
    MAX_HEAD,
    Gate,
    Limits,
    guarded,
)

__all__ = ["DEFAULT_PORT", "WebError", "WebServer", "bind", "parse_address"]

log = logging.getLogger(__name__)

DRAIN_S = 2.0
"""How long a stopping server lets its streams send what is left."""

DEFAULT_PORT = 8080
"""The page's port when ``--http`` names none: the usual unprivileged HTTP port (80 needs root)."""


_PORT = re.compile(r"[0-9]{1,5}")


class WebError(RuntimeError):
    """The page cannot be served (the message says why, in one line)."""


def parse_address(text: str, default_host: str = "0.0.0.0") -> tuple[str, int]:
    """``HOST:PORT``, ``HOST``, ``:PORT`` or ``PORT`` (``[::1]:8080`` for IPv6) as (host, port).

    >>> parse_address("127.0.0.1:8765"), parse_address("8081"), parse_address("[::1]")
    (('127.0.0.1', 8765), ('0.0.0.0', 8081), ('::1', 8080))
    """
    text = text.strip()
    host, port = default_host, str(DEFAULT_PORT)
    if text.startswith("["):
        inside, bracket, rest = text[1:].partition("]")
        if not bracket:
            raise WebError(f"not an address: {text!r} (HOST:PORT, or [IPv6]:PORT)")
        host = inside
        if rest:
            if not rest.startswith(":"):
                raise WebError(f"not an address: {text!r} (HOST:PORT, or [IPv6]:PORT)")
            port = rest[1:]
    elif _PORT.fullmatch(text):
        port = text
    elif text.count(":") == 1:
        host, port = text.split(":")
        host = host or default_host
    elif text and ":" not in text:
        host = text
    else:
        raise WebError(f"not an address: {text!r} (HOST:PORT, or [IPv6]:PORT)")
    if not host or any(c.isspace() for c in host):
        raise WebError(f"not an address: {text!r} (HOST:PORT)")
    if not _PORT.fullmatch(port) or not 0 <= int(port) <= 65535:
        raise WebError(f"not a port: {port!r} in {text!r} (0-65535)")
    return host, int(port)


def bind(host: str, port: int) -> socket.socket:
    """A listening socket on ``host``:``port``, or one clear :class:`WebError`."""
    try:
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        sock = socket.socket(family, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
        sock.listen(128)
        sock.set_inheritable(True)
    except OSError as error:
        raise WebError(f"cannot serve the phone page on {host}:{port} "
                       f"({error.strerror or error})") from None
    return sock


class WebServer:
    """One app on one address, served until :meth:`stop`."""

    def __init__(self, app: ASGIApp, host: str, port: int, *,
                 before_stop: Callable[[], None] | None = None,
                 drained: Callable[[], bool] | None = None,
                 sock: socket.socket | None = None, limits: Limits | None = None,
                 trusted: tuple[str, ...] = ()) -> None:
        """``before_stop`` ends the live streams (they send what is left, then finish);
        ``drained`` says when they have, and the server stops after it (at most
        :data:`DRAIN_S`). ``sock``: a socket already bound (:func:`bind`) to serve on.
        ``limits``: how long a request may take to arrive, how many connections may be open.
        ``trusted``: the proxies whose forwarded headers name the client (none: the client is
        whoever connected)."""
        self.host = host
        self.requested_port = port
        self.before_stop = before_stop
        self.drained = drained
        self._gate = Gate(limits or Limits())
        self._config = uvicorn.Config(
            app, log_level="warning", access_log=False, lifespan="on",
            timeout_graceful_shutdown=3, http=guarded(self._gate),
            proxy_headers=bool(trusted), forwarded_allow_ips=list(trusted) or None,
            timeout_keep_alive=KEEP_ALIVE_S, h11_max_incomplete_event_size=MAX_HEAD,
            backlog=ACCEPT_BATCH, server_header=False)
        self._server = uvicorn.Server(self._config)
        self._socket: socket.socket | None = sock
        self._thread: threading.Thread | None = None

    @property
    def port(self) -> int:
        """The port served (the one the system chose when 0 was asked)."""
        if self._socket is None:
            return self.requested_port
        return int(self._socket.getsockname()[1])

    @property
    def thread_id(self) -> int | None:
        """The server's thread (its native id), while it runs."""
        return None if self._thread is None else self._thread.native_id

    def start(self, timeout_s: float = 15.0) -> None:
        """Bind (unless given a socket), then serve on a daemon thread; returns once uvicorn is
        up."""
        if self._socket is None:
            self._socket = bind(self.host, self.requested_port)
        sock = self._socket = self._gate.wrap(self._socket)
        self._thread = threading.Thread(target=self._serve, args=(sock,), name="web",
                                        daemon=True)
        self._thread.start()
        deadline = time.monotonic() + timeout_s
        pause = threading.Event()  # uvicorn sets a flag, not an event: look every 20 ms
        while not self._server.started and self._thread.is_alive() \
                and time.monotonic() < deadline:
            pause.wait(0.02)
        if not self._server.started:
            self.stop()
            raise WebError(f"the phone page did not start on {self.host}:{self.port}")
        log.debug("phone page served on %s:%d", self.host, self.port)  # the caller says where

    def _serve(self, sock: socket.socket) -> None:
        self._server.run(sockets=[sock])

    def stop(self, timeout_s: float = 5.0) -> None:
        """End every stream, stop uvicorn, close the socket."""
        if self.before_stop is not None:
            self.before_stop()
        deadline = time.monotonic() + DRAIN_S
        pause = threading.Event()
        while self.drained is not None and not self.drained() and time.monotonic() < deadline:
            pause.wait(0.02)  # uvicorn would cut a stream still sending a game's last entry
        self._server.should_exit = True
        if self._thread is not None:
            self._thread.join(timeout_s)
            if self._thread.is_alive():
                self._server.force_exit = True
                self._thread.join(timeout_s)
        if self._socket is not None:
            self._socket.close()
