"""``main.py`` itself, from a flash of ``.mpy`` modules, under the real MicroPython interpreter,
talking to the host's real :class:`~firmware_bridge.link.Link` over a pty: the handshake, every
command, paddle and count events, a reset, an unplug, 1 % byte faults, a host that speaks before
the firmware is up, and pull-ups that take time."""

from __future__ import annotations

import queue
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from firmware_bridge.link import Link
from firmware_bridge.messages import (
    Arm,
    Arrow,
    Buzzer,
    Configure,
    Disarm,
    Fire,
    Lights,
    Message,
    OutputChanged,
    Paddle,
    Safe,
    SideCount,
    TimerButton,
)
from hw_sim.mcu import Faults
from tests.hw_sim.pico_process import PicoProcess, flash_image

CONFIGURE = Configure(watchdog_ms=2000, max_pulse_ms=300, cooldown_ms=0, bounce_us=2000,
                      count_bounce_us=500)


class Host:
    """The host side: a Link and the events it delivered, in order."""

    def __init__(self, port: Path) -> None:
        self.events: queue.Queue[Message] = queue.Queue()
        self.sessions = 0
        self.link = Link(str(port), on_event=self.events.put, on_session=self._fresh)

    def _fresh(self, fresh: bool) -> None:
        self.sessions += 1
        self.link.send(CONFIGURE)

    def next_event(self, kind: type[Message], timeout_s: float = 10.0) -> Message:
        """The next delivered event of *kind* (others are dropped)."""
        deadline = time.monotonic() + timeout_s
        while True:
            event = self.events.get(timeout=max(deadline - time.monotonic(), 0.01))
            if isinstance(event, kind):
                return event


@pytest.fixture
def flash(tmp_path: Path) -> Path:
    return flash_image(tmp_path / "flash")


@pytest.fixture
def pico(flash: Path, tmp_path: Path) -> Iterator[PicoProcess]:
    board = PicoProcess(flash, tmp_path / "showdown-unit")
    yield board
    board.close()


@pytest.fixture
def host(pico: PicoProcess) -> Iterator[Host]:
    host = Host(pico.link_path)
    host.link.open(timeout_s=10.0)
    assert host.link.wait_idle(10.0)
    assert pico.wait_inputs_up()
    yield host
    host.link.close()


def output(host: Host, number: int) -> OutputChanged:
    while True:
        event = host.next_event(OutputChanged)
        assert isinstance(event, OutputChanged)
        if event.output == number:
            return event


def test_every_command_and_every_input_over_the_pty(pico: PicoProcess, host: Host) -> None:
    assert host.sessions == 1
    for message, name, number in ((Lights(1), "light_red", 1), (Lights(2), "light_green", 1),
                                  (Arrow(2, 0), "arrow_right", 3)):
        host.link.send(message)
        output(host, number)
        assert pico.wait_level(name, 1) == 1
    host.link.send(Buzzer(440, 0))
    assert host.link.wait_idle(5.0)
    pico.wait_event("gpio")
    host.link.send(Arm(5000))
    host.link.send(Fire(1, 200))
    on, off = output(host, 4), output(host, 4)
    assert (on.value, off.value) == (1, 0)
    # Not cut short, and cut well before the configured ceiling. The exact length is checked on
    # a manual clock (test_mcu_firmware.py); here the board's clock is real time, and a loaded
    # host runs the simulated alarm late.
    assert 200_000 - 100 <= (off.at_us - on.at_us) % (1 << 30) < CONFIGURE.max_pulse_ms * 1000
    host.link.send(Disarm())
    for name, kind in (("paddle_left", Paddle), ("count_right", SideCount),
                       ("timer_button", TimerButton)):
        pico.press(name)
        pressed = host.next_event(kind)
        pico.release(name)
        if kind is not SideCount:
            released = host.next_event(kind)
            assert getattr(released, "pressed", None) == 0
        assert getattr(pressed, "pressed", 1) == 1
    host.link.send(Safe())
    assert host.link.wait_idle(5.0)
    assert pico.exit_status is None, pico.stderr()


def test_a_reset_starts_a_fresh_session_and_an_unplug_resumes(
    pico: PicoProcess, host: Host
) -> None:
    first = host.link.boot_id
    pico.reset()
    assert host.link.wait_connected(10.0)
    deadline = time.monotonic() + 10
    while host.link.boot_id == first and time.monotonic() < deadline:
        host.link.wait_connected(1.0)
    assert host.link.boot_id not in (0, first)
    assert host.sessions == 2
    second = host.link.boot_id
    assert pico.wait_inputs_up()  # a press before then is a paddle held at power-up
    pico.unplug()
    pico.press("paddle_right")  # while the cable is out
    pico.plug()
    event = host.next_event(Paddle)
    assert isinstance(event, Paddle) and (event.side, event.pressed) == (2, 1)
    assert host.link.boot_id == second and host.sessions == 2


def test_one_percent_of_bytes_damaged_loses_and_repeats_nothing(
    flash: Path, tmp_path: Path
) -> None:
    pico = PicoProcess(flash, tmp_path / "unit", faults=Faults(corrupt_rate=0.01, seed=5))
    host = Host(pico.link_path)
    try:
        host.link.open(timeout_s=10.0)
        assert pico.wait_inputs_up()
        got: list[tuple[int, int]] = []
        for _ in range(40):
            pico.press("paddle_left")
            pressed = host.next_event(Paddle)
            pico.release("paddle_left")
            released = host.next_event(Paddle)
            assert isinstance(pressed, Paddle) and isinstance(released, Paddle)
            got += [(pressed.pressed, pressed.at_us), (released.pressed, released.at_us)]
        assert [pressed for pressed, _ in got] == [1, 0] * 40
        assert len(set(got)) == 80
        assert host.link.stats.decode_errors > 0
    finally:
        host.link.close()
        pico.close()


def test_a_host_that_speaks_while_main_py_starts_cannot_interrupt_it(
    flash: Path, tmp_path: Path
) -> None:
    pico = PicoProcess(flash, tmp_path / "unit", pause=True)
    host = Host(pico.link_path)
    try:
        pico.wait_event("paused")  # main.py is importing its modules
        with open(pico.link_path, "r+b", buffering=0) as port:
            port.write(bytes.fromhex("02 01 03 01 01 01 01 01 03 99 1c 00"))  # a Hello
            assert pico.wait_forwarded(12)
            pico.go()
        host.link.open(timeout_s=10.0)
        assert host.link.connected
        assert pico.interrupts_sent == 0, "0x03 reached the interpreter as Ctrl-C"
    finally:
        host.link.close()
        pico.close()


def test_a_slow_pull_up_on_the_timer_button_still_starts_the_protocol(
    flash: Path, tmp_path: Path
) -> None:
    pico = PicoProcess(flash, tmp_path / "unit", pull_up_us=15_000)
    host = Host(pico.link_path)
    try:
        host.link.open(timeout_s=10.0)
        assert host.link.connected
    finally:
        host.link.close()
        pico.close()
