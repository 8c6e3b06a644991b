"""The sd_notify datagrams reach a real socket, and stay silent where systemd is absent."""

from __future__ import annotations

import logging

import pytest
from hypothesis import given
from hypothesis import strategies as st

from showdown.app.sd_notify import (
    SystemdNotifier,
    WatchdogPinger,
    socket_address,
    watchdog_interval,
)
from tests.deploy.conftest import NotifySocket


class FakeClock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_ready_status_and_stopping_arrive_as_datagrams(notify_socket: NotifySocket) -> None:
    notifier = SystemdNotifier.from_environ({"NOTIFY_SOCKET": notify_socket.env_value})
    assert notifier.enabled
    assert notifier.ready("waiting for players")
    assert notify_socket.receive().splitlines() == ["READY=1", "STATUS=waiting for players"]
    assert notifier.status("showdown\nleft vs right")
    assert notify_socket.receive() == "STATUS=showdown left vs right"
    assert notifier.stopping()
    assert notify_socket.receive() == "STOPPING=1"
    notifier.close()


def test_abstract_namespace_socket_is_reached(abstract_notify_socket: NotifySocket) -> None:
    notifier = SystemdNotifier.from_environ({"NOTIFY_SOCKET": abstract_notify_socket.env_value})
    assert notifier.watchdog()
    assert abstract_notify_socket.receive() == "WATCHDOG=1"
    notifier.close()


def test_abstract_address_gets_a_leading_nul() -> None:
    assert socket_address("@/org/freedesktop/systemd1/notify") == (
        "\0/org/freedesktop/systemd1/notify"
    )
    assert socket_address("/run/systemd/notify") == "/run/systemd/notify"


def test_silent_without_notify_socket() -> None:
    notifier = SystemdNotifier.from_environ({"WATCHDOG_USEC": "1000000"})
    assert not notifier.enabled
    assert not notifier.ready()
    assert notifier.watchdog_interval is None
    assert not WatchdogPinger(notifier).tick()


def test_unreachable_socket_warns_once_and_never_raises(caplog: pytest.LogCaptureFixture) -> None:
    notifier = SystemdNotifier("/nonexistent/showdown/notify")
    with caplog.at_level(logging.WARNING, logger="showdown.app.sd_notify"):
        assert not notifier.ready()
        assert not notifier.watchdog()
    assert len([r for r in caplog.records if "cannot notify systemd" in r.message]) == 1


def test_watchdog_interval_is_half_of_watchdog_usec() -> None:
    assert watchdog_interval({"WATCHDOG_USEC": "20000000"}, pid=1) == 10.0
    assert watchdog_interval({"WATCHDOG_USEC": "20000000", "WATCHDOG_PID": "7"}, pid=7) == 10.0


def test_watchdog_meant_for_another_process_is_ignored() -> None:
    assert watchdog_interval({"WATCHDOG_USEC": "20000000", "WATCHDOG_PID": "8"}, pid=7) is None


@given(st.text())
def test_watchdog_usec_parser_never_raises(raw: str) -> None:
    interval = watchdog_interval({"WATCHDOG_USEC": raw}, pid=1)
    assert interval is None or interval > 0


@given(st.integers(min_value=1, max_value=10**12))
def test_watchdog_usec_positive_integers_give_half(usec: int) -> None:
    assert watchdog_interval({"WATCHDOG_USEC": str(usec)}, pid=1) == usec / 2_000_000


def test_pinger_sends_at_most_once_per_interval(notify_socket: NotifySocket) -> None:
    clock = FakeClock()
    notifier = SystemdNotifier(notify_socket.env_value, watchdog_interval=5.0)
    pinger = WatchdogPinger(notifier, clock)
    sent = []
    for _ in range(40):  # 40 loop iterations, 0.5 s apart: 20 s of service time
        sent.append(pinger.tick())
        clock.now += 0.5
    assert sent.count(True) == 4  # at 0, 5, 10 and 15 s
    assert [notify_socket.receive() for _ in range(4)] == ["WATCHDOG=1"] * 4
    notifier.close()
