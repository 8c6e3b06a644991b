"""Tell systemd the service is ready, alive and stopping (the ``sd_notify`` datagram protocol).

Why our own few lines rather than a package: the protocol is one ``AF_UNIX`` datagram of
``KEY=value`` lines sent to the socket named in ``$NOTIFY_SOCKET`` (a path, or ``@name`` for the
Linux abstract namespace). Under ``Type=notify`` systemd waits for ``READY=1`` (a start that
goes on longer than ``TimeoutStartSec=`` is kept alive by ``EXTEND_TIMEOUT_USEC=`` messages,
each saying how long until the next; :mod:`showdown.app.startup` sends them); with
``WatchdogSec=`` it restarts the service when ``WATCHDOG=1`` stops arriving within that time and
passes the period as ``$WATCHDOG_USEC``. Everything here is silent where ``$NOTIFY_SOCKET`` is
unset, so the same code runs from a terminal, in the tests and under systemd.

The watchdog is fed by :class:`WatchdogPinger`, whose :meth:`~WatchdogPinger.tick` the service's
main loop calls once per iteration: a stuck main loop stops the pings and systemd restarts it. A
background thread pinging on a timer would keep a hung service "alive", which is why there is none.
"""

from __future__ import annotations

import logging
import os
import socket
import time
from collections.abc import Callable, Mapping

log = logging.getLogger(__name__)

Clock = Callable[[], float]


def socket_address(notify_socket: str) -> str:
    """The ``sendto`` address for a ``$NOTIFY_SOCKET`` value: ``@name`` is abstract (a NUL byte)."""
    if notify_socket.startswith("@"):
        return "\0" + notify_socket[1:]
    return notify_socket


def watchdog_interval(environ: Mapping[str, str], pid: int) -> float | None:
    """Seconds between pings: half of ``$WATCHDOG_USEC``, as ``sd_watchdog_enabled(3)`` advises.

    ``None`` when no watchdog is asked for, when the value is not a positive integer, or when
    ``$WATCHDOG_PID`` names another process (the variable was inherited, not meant for us).
    """
    raw = environ.get("WATCHDOG_USEC", "").strip()
    if not raw:
        return None
    owner = environ.get("WATCHDOG_PID", "").strip()
    if owner and owner != str(pid):
        return None
    try:
        usec = int(raw)
    except ValueError:
        log.warning("ignoring WATCHDOG_USEC=%r: not a whole number of microseconds", raw)
        return None
    if usec <= 0:
        return None
    return usec / 2_000_000


class SystemdNotifier:
    """Sends notification datagrams to systemd; every method is a no-op without a socket.

    Failures to send are logged once and otherwise ignored: a service must never stop because
    its supervisor is unreachable.
    """

    def __init__(self, notify_socket: str | None, watchdog_interval: float | None = None) -> None:
        """Notify ``notify_socket`` (a ``$NOTIFY_SOCKET`` value, or ``None`` to stay silent)."""
        self.address = socket_address(notify_socket) if notify_socket else None
        self.watchdog_interval = watchdog_interval if self.address else None
        self._sock: socket.socket | None = None
        self._warned = False

    @classmethod
    def from_environ(
        cls, environ: Mapping[str, str] | None = None, pid: int | None = None
    ) -> SystemdNotifier:
        """A notifier set up from ``$NOTIFY_SOCKET``, ``$WATCHDOG_USEC`` and ``$WATCHDOG_PID``."""
        env = os.environ if environ is None else environ
        interval = watchdog_interval(env, os.getpid() if pid is None else pid)
        return cls(env.get("NOTIFY_SOCKET") or None, interval)

    @property
    def enabled(self) -> bool:
        """True when running under a service manager that listens for notifications."""
        return self.address is not None

    def send(self, *assignments: str) -> bool:
        """Send ``KEY=value`` lines as one datagram; ``True`` if it was handed to the socket."""
        if self.address is None or not assignments:
            return False
        message = "\n".join(assignments).encode("utf-8")
        try:
            if self._sock is None:
                self._sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC)
            self._sock.sendto(message, self.address)
        except OSError as exc:
            if not self._warned:
                log.warning("cannot notify systemd at %r: %s", self.address, exc)
                self._warned = True
            return False
        return True

    def ready(self, status: str | None = None) -> bool:
        """``READY=1``: start-up is complete (systemd holds dependants until this arrives)."""
        return self.send("READY=1", *([f"STATUS={status}"] if status else []))

    def extend(self, seconds: float, status: str | None = None) -> bool:
        """``EXTEND_TIMEOUT_USEC=``: the start goes on; the next message comes within
        *seconds* (past ``TimeoutStartSec=``, systemd stops a start that sends none by then)."""
        return self.send(f"EXTEND_TIMEOUT_USEC={round(seconds * 1_000_000)}",
                         *([f"STATUS={status}"] if status else []))

    def watchdog(self) -> bool:
        """``WATCHDOG=1``: the service is alive; resets systemd's watchdog timer."""
        return self.send("WATCHDOG=1")

    def stopping(self, status: str | None = None) -> bool:
        """``STOPPING=1``: a clean shutdown has begun (not a hang, not a crash)."""
        return self.send("STOPPING=1", *([f"STATUS={status}"] if status else []))

    def status(self, text: str) -> bool:
        """``STATUS=...``: one line shown by ``systemctl status``."""
        return self.send(f"STATUS={' '.join(text.split())}")

    def close(self) -> None:
        """Close the socket (it is reopened on the next send)."""
        if self._sock is not None:
            self._sock.close()
            self._sock = None


class WatchdogPinger:
    """Feeds systemd's watchdog from the loop that calls :meth:`tick`, at most once per interval.

    Call :meth:`tick` once per iteration of the main loop. It reads the clock and sends
    ``WATCHDOG=1`` when the interval has passed since the last ping; it never blocks. With no
    watchdog configured it does nothing.
    """

    def __init__(self, notifier: SystemdNotifier, clock: Clock = time.monotonic) -> None:
        """Ping through ``notifier`` at its ``watchdog_interval``, timed by ``clock`` (seconds)."""
        self.notifier = notifier
        self.clock = clock
        self._last: float | None = None

    @property
    def interval(self) -> float | None:
        """Seconds between pings, or ``None`` when systemd asked for no watchdog."""
        return self.notifier.watchdog_interval

    def tick(self) -> bool:
        """Ping if due; ``True`` when a ``WATCHDOG=1`` was sent."""
        interval = self.interval
        if interval is None:
            return False
        now = self.clock()
        if self._last is not None and now - self._last < interval:
            return False
        self._last = now
        return self.notifier.watchdog()


class ServiceHeartbeat:
    """The three calls a service's main loop makes to systemd, in one object.

    ``started()`` once everything is up (``READY=1``), ``tick()`` once per iteration of the main
    loop (``WATCHDOG=1`` when due), ``stopping()`` when shutting down cleanly. Silent outside
    systemd. Example::

        heartbeat = ServiceHeartbeat.from_environ()
        heartbeat.started("waiting for players")
        try:
            while running:
                ...one iteration...
                heartbeat.tick()
        finally:
            heartbeat.stopping()
    """

    def __init__(self, notifier: SystemdNotifier, clock: Clock = time.monotonic) -> None:
        """Notify through ``notifier``; ``clock`` (seconds) times the watchdog pings."""
        self.notifier = notifier
        self.pinger = WatchdogPinger(notifier, clock)

    @classmethod
    def from_environ(
        cls, environ: Mapping[str, str] | None = None, clock: Clock = time.monotonic
    ) -> ServiceHeartbeat:
        """A heartbeat set up from ``$NOTIFY_SOCKET`` and ``$WATCHDOG_USEC``."""
        return cls(SystemdNotifier.from_environ(environ), clock)

    def starting(self, phase: str, within_s: float) -> None:
        """A phase of the start begins: shown as the status line, and systemd is told the
        start goes on (the next message within *within_s*)."""
        self.notifier.extend(within_s, f"starting: {phase}")

    def started(self, status: str | None = None) -> None:
        """Start-up is complete: ``READY=1`` (and a status line), then the first ping."""
        self.notifier.ready(status)
        self.pinger.tick()

    def tick(self) -> None:
        """Call once per main-loop iteration: pings the watchdog when due."""
        self.pinger.tick()

    def status(self, text: str) -> None:
        """A status line for ``systemctl status``."""
        self.notifier.status(text)

    def stopping(self, status: str | None = None) -> None:
        """A clean shutdown has begun: ``STOPPING=1``; the socket is closed."""
        self.notifier.stopping(status)
        self.notifier.close()
