"""``showdown run`` as systemd starts it: a test NOTIFY_SOCKET and WATCHDOG_USEC in its environment.

The real service in a real process (the simulated unit, headless): while it starts, its status
line names each phase (what ``systemctl status`` shows of a slow start); it must say READY=1 once
it is up and log how long each phase took, ping WATCHDOG=1 at half the watchdog period from its
main loop, fall silent while the process is frozen (systemd would kill it), resume when it thaws,
and say STOPPING=1 on SIGTERM.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.deploy.conftest import NotifySocket

WATCHDOG_USEC = 1_000_000  # WatchdogSec=1s: a ping every 0.5 s
PHASES = ("the configuration", "the journal", "the event link", "the unit", "the phone page",
          "the scoreboard")


def test_service_under_a_test_notify_socket(notify_socket: NotifySocket, tmp_path: Path) -> None:
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("SHOWDOWN_", "NOTIFY_", "WATCHDOG_"))
    }
    env |= {
        "NOTIFY_SOCKET": notify_socket.env_value,
        "WATCHDOG_USEC": str(WATCHDOG_USEC),
        "SDL_VIDEODRIVER": "dummy",
        "PYTHONFAULTHANDLER": "1",
    }
    command = [sys.executable, "-m", "showdown", "run", "--sim", "--headless", "--fast"]
    process = subprocess.Popen(
        [*command, "--db", str(tmp_path / "journal.db")],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        *starting, last = notify_socket.receive_until("READY=1", timeout=60)
        assert starting == [f"STATUS=starting: {phase}" for phase in PHASES]
        ready = last.splitlines()
        assert ready[0] == "READY=1", ready
        assert ready[1] == "STATUS=keeping score"  # headless: no scoreboard
        stamps = []
        for _ in range(3):
            assert notify_socket.receive(timeout=10) == "WATCHDOG=1"
            stamps.append(time.monotonic())
        assert 0.5 <= stamps[-1] - stamps[0] < 6.0  # two intervals of 0.5 s, generously

        process.send_signal(signal.SIGSTOP)  # the whole service hangs
        notify_socket.drain()
        with pytest.raises(TimeoutError):
            notify_socket.receive(timeout=3 * WATCHDOG_USEC / 1e6)
        process.send_signal(signal.SIGCONT)
        assert notify_socket.receive(timeout=10) == "WATCHDOG=1"

        process.send_signal(signal.SIGTERM)
        assert notify_socket.receive_until("STOPPING=1", timeout=20)
        assert process.wait(timeout=30) == 0, process.stderr.read() if process.stderr else ""
        assert process.stderr is not None
        took = [line for line in process.stderr.read().splitlines() if " started in " in line]
        assert len(took) == 1, took
        assert took[0].split(": ", 1)[1].split(", ")[0].startswith("python and imports ")
        assert [part.rsplit(" ", 2)[0] for part in took[0].split(": ", 1)[1].split(", ")[1:]] \
            == list(PHASES)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
        if process.stderr is not None:
            process.stderr.close()
