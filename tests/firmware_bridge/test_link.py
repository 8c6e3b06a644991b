"""The host link against the simulated microcontroller on a real pty, through real pyserial:
reconnects, resets, corruption; every event exactly once, no acknowledged command lost."""

from __future__ import annotations

import contextlib
import os
import queue
import threading
import time
import tty
from collections.abc import Iterator
from pathlib import Path

import pytest

from firmware_bridge.codec import FrameDecoder, Packet, encode_frame
from firmware_bridge.link import Link, LinkError
from firmware_bridge.messages import (
    Arm,
    Configure,
    Fire,
    Hello,
    HelloReply,
    Lights,
    Message,
    Paddle,
)
from firmware_bridge.ports import NoDeviceError, find_port
from firmware_bridge.protocol import HELLO_ATTEMPTS
from firmware_bridge.timesync import ClockSync
from hw_sim.mcu import Faults, SimulatedMcu

MS = 1_000_000


class Host:
    """A link plus a queue of what it delivered."""

    def __init__(self, port: str) -> None:
        self.events: queue.Queue[Message] = queue.Queue()
        self.sessions = 0
        self.link = Link(port, on_event=self.events.put, on_session=self._session)

    def _session(self, fresh: bool) -> None:
        self.sessions += 1
        self.link.send(Configure(60_000, 300, 0, 10_000, 500))

    def paddles(self, count: int, timeout_s: float = 10.0) -> list[Paddle]:
        found: list[Paddle] = []
        deadline = time.monotonic() + timeout_s
        while len(found) < count:
            message = self.events.get(timeout=max(deadline - time.monotonic(), 0.01))
            if isinstance(message, Paddle):
                found.append(message)
        return found

    def no_more_paddles(self) -> bool:
        # Anything still queued or arriving within a few retransmission periods would be a dup.
        deadline = time.monotonic() + 0.2
        while time.monotonic() < deadline:
            try:
                if isinstance(self.events.get(timeout=0.05), Paddle):
                    return False
            except queue.Empty:
                pass
        return True


@pytest.fixture
def mcu(tmp_path: Path) -> Iterator[SimulatedMcu]:
    with SimulatedMcu(link_path=tmp_path / "showdown-unit", seed=3) as sim:
        yield sim


@pytest.fixture
def host(mcu: SimulatedMcu) -> Iterator[Host]:
    host = Host(mcu.port)
    host.link.open()
    yield host
    host.link.close()


_next_edge_ns = [0]


def press_and_release(mcu: SimulatedMcu, count: int) -> None:
    """*count* presses alternating left and right, 40 ms apart, stamped after every earlier edge
    (real edges come in time order; the stamps may run ahead of the clock)."""
    base = max(time.monotonic_ns(), _next_edge_ns[0])
    for index in range(count):
        name = "paddle_left" if index % 2 == 0 else "paddle_right"
        mcu.press(name, base + index * 40 * MS)
        mcu.release(name, base + index * 40 * MS + 20 * MS)
    _next_edge_ns[0] = base + count * 40 * MS


def test_commands_and_events_cross_the_pty(mcu: SimulatedMcu, host: Host) -> None:
    host.link.send(Lights(1))
    assert host.link.wait_idle(5.0)
    assert mcu.pin("light_red").level == 1
    before = time.monotonic_ns()
    mcu.press("paddle_left", before)
    (paddle,) = host.paddles(1)
    assert (paddle.side, paddle.pressed) == (1, 1)
    # The edge's host time is the time it was injected, to within the round-trip uncertainty.
    assert abs(host.link.sync.to_host_ns(paddle.at_us) - before) < 5 * MS


def test_events_during_an_unplug_arrive_once_after_the_replug(
    mcu: SimulatedMcu, host: Host
) -> None:
    press_and_release(mcu, 2)
    first = host.paddles(4)
    mcu.unplug()
    press_and_release(mcu, 4)  # the MCU queues these while nobody listens
    mcu.plug()
    assert host.link.wait_connected(5.0)
    later = host.paddles(8)
    assert host.no_more_paddles()
    # The MCU's ticks_us wraps at 2**30 (about every 18 minutes): compare unwrapped times, as
    # the host's own time mapping does, so a wrap during the test is not a disorder.
    sync = ClockSync(tick_bits=mcu.utime.tick_bits)
    at_us = [sync.unwrap(p.at_us) for p in first + later]
    assert at_us == sorted(at_us)
    assert len({(p.side, p.pressed, p.at_us) for p in first + later}) == 12
    assert host.link.stats.reconnects >= 1 and host.sessions == 1


def test_a_command_sent_while_unplugged_is_carried_out_after_the_replug(
    mcu: SimulatedMcu, host: Host
) -> None:
    mcu.unplug()
    host.link.send(Lights(2))
    mcu.plug()
    assert host.link.wait_connected(5.0)
    assert host.link.wait_idle(5.0)
    assert mcu.pin("light_green").level == 1


def test_a_reset_starts_a_fresh_session_and_never_fires_a_stale_launch(
    mcu: SimulatedMcu, host: Host
) -> None:
    fired = threading.Event()
    mcu.pin("launcher_enable").observers.append(lambda pin, level, at: level and fired.set())
    old_boot = host.link.boot_id
    mcu.unplug()
    host.link.send(Lights(2))
    host.link.send(Arm(5000))
    host.link.send(Fire(1, 100))
    mcu.reset()
    assert host.link.wait_connected(5.0)
    assert host.link.wait_idle(5.0)
    assert host.link.boot_id != old_boot and host.sessions == 2
    assert [type(m) for m in host.link.stats.dropped_commands] == [Arm, Fire]
    assert mcu.pin("light_green").level == 1  # the other command was re-sent
    assert not fired.is_set()


@pytest.mark.parametrize("firmware_resumes_anyway", [False, True])
def test_a_reset_that_draws_the_same_boot_id_is_still_a_fresh_session(
    mcu: SimulatedMcu, host: Host, firmware_resumes_anyway: bool
) -> None:
    host.link.send(Lights(1))
    assert host.link.wait_idle(5.0)
    press_and_release(mcu, 1)
    host.paddles(2)
    repeated = host.link.boot_id
    mcu.unplug()  # the host stays away until the MCU has rebooted
    mcu.reset(same_boot_id=True)
    if firmware_resumes_anyway:
        # A firmware without the "resume only what answered" rule: the host's own check must
        # see that the reply cannot belong to its session.
        mcu.link.answered = True
    deadline = time.monotonic() + 5.0
    while host.sessions < 2 and time.monotonic() < deadline:
        host.link.wait_connected(0.05)
    assert host.sessions == 2, "the host resumed a session the MCU no longer has"
    assert host.link.wait_idle(5.0), "Configure never acknowledged"
    host.link.send(Lights(2))
    assert host.link.wait_idle(5.0)
    assert mcu.pin("light_green").level == 1
    press_and_release(mcu, 1)
    assert [(p.side, p.pressed) for p in host.paddles(2)] == [(1, 1), (1, 0)]
    assert (host.link.boot_id == repeated) is firmware_resumes_anyway


def test_corrupted_and_lost_bytes_lose_nothing_and_duplicate_nothing(tmp_path: Path) -> None:
    faults = Faults(corrupt_rate=0.02, drop_rate=0.005, seed=11)
    with SimulatedMcu(link_path=tmp_path / "unit", faults=faults, seed=4) as mcu:
        host = Host(mcu.port)
        host.link.open(timeout_s=10.0)
        try:
            press_and_release(mcu, 30)
            for index in range(30):
                host.link.send(Lights(index % 3))
            paddles = host.paddles(60, timeout_s=30.0)
            assert host.no_more_paddles()
            assert host.link.wait_idle(10.0)
            assert mcu.pin("light_green").level == 1  # the last of 30 commands, in order
        finally:
            host.link.close()
    assert len({p.at_us for p in paddles}) == 60
    assert [p.at_us for p in paddles] == sorted(p.at_us for p in paddles)
    assert mcu.bytes_corrupted > 0 and host.link.stats.decode_errors > 0


def test_a_firmware_of_another_version_is_refused_with_a_clear_message() -> None:
    master, slave = os.openpty()
    tty.setraw(slave)

    def firmware_v9() -> None:
        decoder = FrameDecoder()
        while True:
            try:
                data = os.read(master, 256)
            except OSError:
                return
            for item in decoder.feed(data):
                if isinstance(item, Packet) and isinstance(item.message, Hello):
                    os.write(master, encode_frame(HelloReply(0, 0x7F, 9, 30, 0, 0, 0)))

    threading.Thread(target=firmware_v9, daemon=True).start()
    link = Link(os.ttyname(slave), on_event=lambda m: None)
    with pytest.raises(LinkError, match="reflash"):
        link.open(timeout_s=3.0)
    os.close(master)
    os.close(slave)


def test_hellos_go_out_at_the_retransmission_rate_until_one_is_answered() -> None:
    # On a line that damages a fifth of the bytes about one hello and reply in 600 get through
    # whole: how often the link says hello decides how soon it is up. It says it every
    # retransmission timeout (30 ms before any round trip is measured), not once per 200 ms.
    master, slave = os.openpty()
    tty.setraw(slave)
    link = Link(os.ttyname(slave), on_event=lambda m: None)
    with pytest.raises(LinkError, match="no answer"):
        link.open(timeout_s=1.0)  # a unit that never answers: one port's second of hellos
    os.set_blocking(master, False)
    written = b""
    with contextlib.suppress(BlockingIOError):
        while chunk := os.read(master, 4096):
            written += chunk
    os.close(master)
    os.close(slave)
    hellos = [item for item in FrameDecoder().feed(written)
              if isinstance(item, Packet) and isinstance(item.message, Hello)]
    assert len(hellos) > 2 * HELLO_ATTEMPTS
    assert {hello.message for hello in hellos} == {Hello(1, 1, 0)}


def test_no_unit_plugged_in_is_a_clear_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("firmware_bridge.ports.list_ports.comports", lambda: [])
    with pytest.raises(NoDeviceError, match="2e8a:0005"):
        find_port(stable_path=str(tmp_path / "showdown-unit"))
    link = Link(str(tmp_path / "missing"), on_event=lambda m: None)
    with pytest.raises(LinkError, match="no answer"):
        link.open(timeout_s=0.3)


def test_the_unit_is_found_by_its_usb_id_when_the_udev_name_is_missing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from serial.tools.list_ports_common import ListPortInfo

    other = ListPortInfo("/dev/ttyUSB0")
    other.vid, other.pid = 0x0403, 0x6001
    pico = ListPortInfo("/dev/ttyACM3")
    pico.vid, pico.pid = 0x2E8A, 0x0005
    monkeypatch.setattr("firmware_bridge.ports.list_ports.comports", lambda: [other, pico])
    assert find_port(stable_path=str(tmp_path / "showdown-unit")) == "/dev/ttyACM3"
    stable = tmp_path / "showdown-unit"
    stable.write_text("")
    assert find_port(stable_path=str(stable)) == str(stable)
    assert find_port("socket://localhost:7777") == "socket://localhost:7777"


def test_a_slow_line_delays_but_loses_nothing(tmp_path: Path) -> None:
    # 15 ms on the way to the host: retransmissions must not duplicate, and the one-way delay
    # shows up in the time mapping as at most that delay (the offset assumes a symmetric trip).
    with SimulatedMcu(link_path=tmp_path / "unit", faults=Faults(delay_ms=15), seed=6) as mcu:
        host = Host(mcu.port)
        host.link.open(timeout_s=10.0)
        try:
            before = time.monotonic_ns()
            mcu.press("paddle_left", before)
            (paddle,) = host.paddles(1)
            host.link.send(Lights(2))
            assert host.link.wait_idle(5.0)
            assert mcu.pin("light_green").level == 1
            assert host.no_more_paddles()
            error_ns = host.link.sync.to_host_ns(paddle.at_us) - before
            assert abs(error_ns) <= 16 * MS
        finally:
            host.link.close()


def test_no_device_error_names_what_was_tried(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("firmware_bridge.ports.STABLE_PATH", str(tmp_path / "showdown-unit"))
    monkeypatch.setattr("firmware_bridge.ports.list_ports.comports", lambda: [])
    link = Link(lambda: find_port(stable_path=str(tmp_path / "showdown-unit")),
                on_event=lambda m: None)
    with pytest.raises(LinkError, match="no Showdown unit found"):
        link.open(timeout_s=0.3)
