"""``showdown run`` as systemd starts it: a test NOTIFY_SOCKET and WATCHDOG_USEC in its environment.

The real service in a real process (the simulated unit, headless): while it starts, it tells
systemd the start goes on, its status line naming each phase (what ``systemctl status`` shows of
a slow start); it must say READY=1 once
it is up and log how long each phase took, ping WATCHDOG=1 at half the watchdog period from its
main loop, fall silent while the process is frozen (systemd would kill it), resume when it thaws,
and say STOPPING=1 on SIGTERM.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.deploy.conftest import NotifySocket
from tests.showdown.web.test_process import _exited, _page_process

WATCHDOG_USEC = 1_000_000  # WatchdogSec=1s: a ping every 0.5 s
PHASES = ("the configuration", "the journal", "the tournament link", "the unit", "the phone page",
          "the scoreboard")


@contextlib.contextmanager
def _service(notify_socket: NotifySocket, tmp_path: Path, *, page: bool = True,
             env: dict[str, str] | None = None) -> Iterator[subprocess.Popen[str]]:
    """``showdown run`` as systemd starts it (its phone page on a free port, unless ``page`` is
    false), killed if still running and its pipe closed however the test ends."""
    environ = {key: value for key, value in os.environ.items()
               if not key.startswith(("SHOWDOWN_", "NOTIFY_", "WATCHDOG_"))}
    environ |= {"NOTIFY_SOCKET": notify_socket.env_value, "SDL_VIDEODRIVER": "dummy",
                **(env or {})}
    process = subprocess.Popen(
        [sys.executable, "-m", "showdown", "run", "--sim", "--headless", "--fast",
         "--db", str(tmp_path / "journal.db"), *(["--http", "127.0.0.1:0"] if page else [])],
        env=environ, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        yield process
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
        if process.stderr is not None:
            process.stderr.close()


def test_service_under_a_test_notify_socket(notify_socket: NotifySocket, tmp_path: Path) -> None:
    with _service(notify_socket, tmp_path, page=False, env={
            "WATCHDOG_USEC": str(WATCHDOG_USEC), "PYTHONFAULTHANDLER": "1"}) as process:
        *starting, last = notify_socket.receive_until("READY=1", timeout=60)
        # every word before READY=1 says the start goes on (imports, then each phase); the
        # status line names where it is
        assert all(m.splitlines()[0] == "EXTEND_TIMEOUT_USEC=120000000" for m in starting)
        said = [line for m in starting for line in m.splitlines() if line.startswith("STATUS=")]
        assert said == [f"STATUS=starting: {phase}" for phase in ("python and imports", *PHASES)]
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


def _page_port(process: subprocess.Popen[str]) -> int:
    """The phone page's port, from the service's log line that names its address."""
    assert process.stderr is not None
    for line in process.stderr:
        if "phone page: http://" in line:
            return int(line.rsplit(":", 1)[1].strip().rstrip("/"))
    raise AssertionError("the service never said where its phone page is")


def test_ready_does_not_wait_for_the_phone_page_which_serves_once_started(
        notify_socket: NotifySocket, tmp_path: Path) -> None:
    """On a starved Pi the page's process (a second interpreter, niced) is the slowest part of
    the start, and systemd's start timeout counts until READY=1: the service keeps score
    without waiting for it, and the page serves phones once its process has started."""
    with _service(notify_socket, tmp_path) as process:
        page = _page_process(process.pid)
        os.kill(page, signal.SIGSTOP)  # the page's process gets no CPU: a hog beside it
        port = _page_port(process)
        *_starting, ready = notify_socket.receive_until("READY=1", timeout=60)
        assert ready.splitlines()[0] == "READY=1"
        os.kill(page, signal.SIGCONT)
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=60) as answer:
            assert answer.status == 200 and 'id="part-table"' in answer.read().decode()
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=30) == 0
        assert _exited(page, 20)


def test_a_stop_while_the_page_still_starts_ends_its_process_too(
        notify_socket: NotifySocket, tmp_path: Path) -> None:
    """systemd stops the service while its page's process has not started yet (stopped here):
    the service stops cleanly, and takes the page's process with it."""
    with _service(notify_socket, tmp_path) as process:
        page = _page_process(process.pid)
        os.kill(page, signal.SIGSTOP)
        notify_socket.receive_until("READY=1", timeout=60)
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=30) == 0
        assert _exited(page, 20), "the page's process outlived its service"
        assert process.stderr is not None
        assert "Traceback" not in process.stderr.read()
