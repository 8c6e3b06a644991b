"""A slow start is not a hung one: while the modules import, and as each phase of the start
begins, systemd is told the start goes on (EXTEND_TIMEOUT_USEC), so a starved Pi is not stopped
half way and started again from the beginning; what stops making progress stops telling it."""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

import pytest

from showdown.app.sd_notify import SystemdNotifier
from showdown.app.startup import STALL_S, ImportProgress, stop_watching_imports, watch_imports
from tests.deploy.conftest import NotifySocket

EXTEND = f"EXTEND_TIMEOUT_USEC={round(STALL_S * 1_000_000)}"


class Ticks:
    """A clock the test moves."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_imports_are_progress_told_at_most_every_five_seconds(
        notify_socket: NotifySocket) -> None:
    clock = Ticks()
    watcher = ImportProgress(SystemdNotifier(notify_socket.env_value), clock)
    for now in (0.0, 4.9, 5.0, 6.0, 9.9, 10.0, 40.0):
        clock.now = now
        assert watcher.find_spec(f"module_at_{now}", None) is None  # it finds nothing itself
    assert notify_socket.drain() == [EXTEND] * 3  # at 5, 10 and 40 s


def test_the_start_says_it_begins_and_each_import_then_counts_until_it_is_over(
        notify_socket: NotifySocket, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("progress_first", "progress_second"):
        (tmp_path / f"{name}.py").write_text("")
    monkeypatch.syspath_prepend(str(tmp_path))
    clock = Ticks()
    before = list(sys.meta_path)
    watcher = watch_imports({"NOTIFY_SOCKET": notify_socket.env_value}, clock)
    try:
        assert watcher is not None and sys.meta_path[0] is watcher
        assert notify_socket.receive().splitlines() == [EXTEND, "STATUS=starting: python and "
                                                                "imports"]
        clock.now = 7.0
        importlib.import_module("progress_first")
        assert notify_socket.receive() == EXTEND
    finally:
        stop_watching_imports()
    assert sys.meta_path == before
    clock.now = 30.0
    importlib.import_module("progress_second")  # the start is over: imports say nothing
    assert notify_socket.drain() == []


def test_outside_systemd_nothing_is_watched() -> None:
    before = list(sys.meta_path)
    assert watch_imports({}) is None
    assert sys.meta_path == before
