"""A service loop under a test NOTIFY_SOCKET: READY=1, WATCHDOG=1 at the period, none when stuck."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from showdown.app.sd_notify import ServiceHeartbeat
from showdown.app.service import Service
from showdown.game.journal import Journal
from showdown.game.session import Session
from tests.deploy.conftest import NotifySocket

WATCHDOG_USEC = 200_000  # systemd's WatchdogSec=0.2s: the service should ping every 0.1 s


def serve(
    journal_path: Path,
    notify_env: dict[str, str],
    stuck: threading.Event,
    unstuck: threading.Event,
    entered_stuck: threading.Event,
) -> Service:
    """The real service main loop, headless, with the heartbeat as its tick.

    The tick blocks while ``stuck`` is set, the way a main loop hangs on a lock or a device: the
    heartbeat is fed from the same place, so the pings must stop with it.
    """
    heartbeat = ServiceHeartbeat.from_environ(notify_env)

    def tick() -> None:
        if stuck.is_set():
            entered_stuck.set()
            unstuck.wait(30)
        heartbeat.tick()

    journal = Journal.open(journal_path)
    service = Service(Session(journal), tick=tick, on_stop=[heartbeat.stopping, journal.close])
    service.IDLE_WAIT_S = 0.01  # iterate often, so the pings come at their own period
    heartbeat.started("running")
    return service


def test_ready_then_watchdog_at_period_then_silent_while_stuck(
    notify_socket: NotifySocket, tmp_path: Path
) -> None:
    stuck = threading.Event()
    unstuck = threading.Event()
    entered_stuck = threading.Event()
    env = {"NOTIFY_SOCKET": notify_socket.env_value, "WATCHDOG_USEC": str(WATCHDOG_USEC)}
    service = serve(tmp_path / "journal.db", env, stuck, unstuck, entered_stuck)
    stop = service.stop

    loop = threading.Thread(target=service.run, daemon=True)
    loop.start()
    try:
        assert notify_socket.receive().splitlines()[0] == "READY=1"
        for _ in range(4):
            assert notify_socket.receive() == "WATCHDOG=1"
        # Three intervals of half WatchdogSec (0.3 s), from the kernel's arrival stamps so that a
        # reader delayed on a loaded machine does not squeeze them together. Pings on every loop
        # iteration (0.01 s) would span well under 0.2 s; a loaded machine may stretch the span.
        stamps = notify_socket.arrivals[-4:]
        assert len(stamps) == 4
        span = stamps[-1] - stamps[0]
        assert 0.2 <= span < 3.0, span

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
