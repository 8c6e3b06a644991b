"""The link degrades, it does not die: a slow line settles, a lossy one still connects and carries
every command and event exactly once, a launch withdrawn while unplugged never lands, and its
owner hears once each time it goes down. Real pty, real pyserial, the reference firmware; the
link's own timing is real time, awaited on events (nothing sleeps)."""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from firmware_bridge.link import Link
from firmware_bridge.messages import Arm, Configure, Disarm, Fire, Lights, Message, Paddle
from hw_sim.mcu import Faults, SimulatedMcu

MS = 1_000_000


class Host:
    """A link plus what it delivered, and each time it went down."""

    def __init__(self, port: str) -> None:
        self.events: queue.Queue[Message] = queue.Queue()
        self.downs: list[str] = []
        self.link = Link(port, on_event=self.events.put, on_session=self._session,
                         on_down=self.downs.append)

    def _session(self, fresh: bool) -> None:
        self.link.send(Configure(60_000, 300, 0, 10_000, 500))

    def paddles(self, count: int, timeout_s: float) -> list[Paddle]:
        found: list[Paddle] = []
        deadline = time.monotonic() + timeout_s
        while len(found) < count:
            message = self.events.get(timeout=max(deadline - time.monotonic(), 0.01))
            if isinstance(message, Paddle):
                found.append(message)
        return found


def mcu_on(tmp_path: Path, faults: Faults) -> SimulatedMcu:
    return SimulatedMcu(link_path=tmp_path / "unit", faults=faults, seed=4).start()


@pytest.fixture
def clean(tmp_path: Path) -> Iterator[tuple[SimulatedMcu, Host]]:
    mcu = mcu_on(tmp_path, Faults())
    host = Host(mcu.port)
    host.link.open()
    yield mcu, host
    host.link.close()
    mcu.close()


def test_a_slow_line_settles_instead_of_reconnecting_for_ever(tmp_path: Path) -> None:
    # 300 ms on the way to the host: ten times the protocol's 30 ms retransmission timeout.
    mcu = mcu_on(tmp_path, Faults(delay_ms=300))
    host = Host(mcu.port)
    try:
        host.link.open(timeout_s=10.0)
        for index in range(10):
            host.link.send(Lights(index % 3))
        assert host.link.wait_idle(10.0)
        assert mcu.pin("light_green").level == 0 and mcu.pin("light_red").level == 0
        assert host.link.stats.reconnects == 0 and host.downs == []
        srtt = host.link.rto.srtt_s
        assert srtt is not None and 0.25 < srtt < 1.0
        assert host.link.rto.timeout_s > srtt  # the timeout follows the measured round trip
    finally:
        host.link.close()
        mcu.close()


def carries_everything(mcu: SimulatedMcu, host: Host, timeout_s: float) -> None:
    """20 presses and releases up, 20 commands down: all of them, once, in order."""
    base = time.monotonic_ns()
    for index in range(10):
        mcu.press("paddle_left", base + index * 40 * MS)
        mcu.release("paddle_left", base + index * 40 * MS + 20 * MS)
    for index in range(1, 21):
        host.link.send(Lights(index % 3))
    paddles = host.paddles(20, timeout_s=timeout_s)
    assert host.link.wait_idle(timeout_s)
    assert mcu.pin("light_green").level == 1  # the last of 20 commands, in order
    assert [p.at_us for p in paddles] == sorted(p.at_us for p in paddles)
    assert len({p.at_us for p in paddles}) == 20


LOSSY = [
    pytest.param(Faults(corrupt_rate=0.1, seed=5), id="corrupt-10"),
    pytest.param(Faults(drop_rate=0.1, seed=6), id="drop-10"),
    pytest.param(Faults(corrupt_rate=0.2, seed=7), id="corrupt-20", marks=pytest.mark.soak),
]


@pytest.mark.timeout(1800)
@pytest.mark.parametrize("faults", LOSSY)
def test_a_lossy_line_is_slower_not_dead(tmp_path: Path, faults: Faults) -> None:
    mcu = mcu_on(tmp_path, Faults())
    host = Host(mcu.port)
    try:
        host.link.open()
        mcu.faults = faults  # the cable goes bad under way (the motor's noise, a worn plug)
        started = time.monotonic()
        carries_everything(mcu, host, timeout_s=600.0)
        batch = time.monotonic() - started
        # Slower, not dead: the link never gave up on the lossy line...
        assert host.link.stats.reconnects == 0 and host.downs == []
        assert host.link.stats.decode_errors > 0 and host.link.stats.retransmit_rounds > 0
        # ... and a replug on it reconnects: the unit is there, on a noisy line.
        mcu.replug()
        started = time.monotonic()
        while not host.downs:  # the host notices at its next read (a barrier, not a sleep)
            assert mcu.wait_steps(1) and time.monotonic() - started < 10.0
        assert host.link.wait_connected(900.0)
        back = time.monotonic() - started
        carries_everything(mcu, host, timeout_s=600.0)
        assert len(host.downs) == 1
        print(f"\n{faults}: a batch in {batch:.1f} s, back after a replug in {back:.1f} s")
    finally:
        host.link.close()
        mcu.close()


COLD = [
    pytest.param(Faults(corrupt_rate=0.1, seed=7), id="corrupt-10"),
    pytest.param(Faults(corrupt_rate=0.05, drop_rate=0.05, seed=8), id="corrupt-5-drop-5",
                 marks=pytest.mark.soak),
    pytest.param(Faults(corrupt_rate=0.15, seed=9), id="corrupt-15", marks=pytest.mark.soak),
    pytest.param(Faults(corrupt_rate=0.2, seed=10), id="corrupt-20", marks=pytest.mark.soak),
    pytest.param(Faults(drop_rate=0.2, seed=11), id="drop-20", marks=pytest.mark.soak),
]


@pytest.mark.timeout(1800)
@pytest.mark.parametrize("faults", COLD)
def test_a_lossy_line_connects_from_cold(tmp_path: Path, faults: Faults) -> None:
    mcu = mcu_on(tmp_path, faults)
    host = Host(mcu.port)
    try:
        started = time.monotonic()
        host.link.open(timeout_s=600.0)
        took = time.monotonic() - started
        carries_everything(mcu, host, timeout_s=120.0)
        print(f"\n{faults}: connected in {took:.1f} s, {host.link.stats}")
    finally:
        host.link.close()
        mcu.close()


def test_a_launch_withdrawn_while_unplugged_never_lands(
    clean: tuple[SimulatedMcu, Host],
) -> None:
    mcu, host = clean
    fired = threading.Event()
    mcu.pin("launcher_enable").observers.append(lambda pin, level, at: level and fired.set())
    mcu.unplug()
    host.link.send(Lights(2))
    host.link.send(Arm(5000))
    host.link.send(Fire(1, 100))
    assert host.link.withdraw((Fire, Arm), Disarm()) == 2
    mcu.plug()  # the same boot: the session resumes and the queue is sent as it stands
    assert host.link.wait_connected(5.0) and host.link.wait_idle(5.0)
    assert host.link.stats.fresh_sessions == 1
    assert mcu.pin("light_green").level == 1 and not fired.is_set()
    assert [type(m) for m in host.link.stats.dropped_commands] == [Arm, Fire]


def test_the_owner_hears_once_each_time_the_link_goes_down(
    clean: tuple[SimulatedMcu, Host],
) -> None:
    mcu, host = clean
    for expected in (1, 2):
        mcu.replug()
        assert host.link.wait_connected(5.0)
        host.link.send(Lights(1))
        assert host.link.wait_idle(5.0)
        assert len(host.downs) == expected
    assert all("failed" in why for why in host.downs)
