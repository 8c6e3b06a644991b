"""A service loop under a test NOTIFY_SOCKET: READY=1, WATCHDOG=1 at the period, none when stuck."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

import pytest

from showdown.sd_notify import ServiceHeartbeat, SystemdNotifier
from tests.deploy.conftest import NotifySocket

WATCHDOG_USEC = 200_000  # systemd's WatchdogSec=0.2s: the service should ping every 0.1 s


def run_loop(notifier: SystemdNotifier, tick: Callable[[], None], stop: threading.Event) -> None:
    """The shape every service loop here has: ready once, then work + heartbeat per iteration."""
    heartbeat = ServiceHeartbeat(notifier)
    heartbeat.started("running")
    try:
        while not stop.is_set():
            tick()
            heartbeat.tick()
            stop.wait(0.005)  # the loop's own frame pacing
    finally:
        heartbeat.stopping()


def test_ready_then_watchdog_at_period_then_silent_while_stuck(
    notify_socket: NotifySocket,
) -> None:
    notifier = SystemdNotifier.from_environ(
        {"NOTIFY_SOCKET": notify_socket.env_value, "WATCHDOG_USEC": str(WATCHDOG_USEC)}
    )
    stuck = threading.Event()
    unstuck = threading.Event()
    entered_stuck = threading.Event()
    stop = threading.Event()

    def tick() -> None:
        if stuck.is_set():
            entered_stuck.set()
            unstuck.wait(30)

    loop = threading.Thread(target=run_loop, args=(notifier, tick, stop), daemon=True)
    loop.start()
    try:
        assert notify_socket.receive().splitlines()[0] == "READY=1"
        stamps = []
        for _ in range(4):
            assert notify_socket.receive() == "WATCHDOG=1"
            stamps.append(time.monotonic())
        # Three intervals of half WatchdogSec (0.3 s), with generous bounds: a late first receipt
        # may shorten the span by a little, a loaded machine may stretch it.
        span = stamps[-1] - stamps[0]
        assert 0.2 <= span < 1.5, span

        stuck.set()
        assert entered_stuck.wait(5)
        # Pings sent before the loop got stuck may still be queued; after those, none may come
        # for three whole watchdog periods: systemd would have restarted the service by now.
        notify_socket.drain()
        with pytest.raises(TimeoutError):
            notify_socket.receive(timeout=3 * WATCHDOG_USEC / 1e6)

        unstuck.set()
        stuck.clear()
        assert notify_socket.receive() == "WATCHDOG=1"  # a recovered loop pings again
    finally:
        unstuck.set()
        stop.set()
        loop.join(5)
    assert "STOPPING=1" in notify_socket.receive_until("STOPPING=1")[-1]
