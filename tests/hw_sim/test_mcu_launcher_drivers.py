"""The firmware drives each launcher motor driver board by its datasheet's truth table, on both
interpreters: the pin writes of a launch and of every way a pulse ends (its time is up, the host's
``Disarm``, the watchdog, the host's ``Safe`` on close, a crash), and the pins at power-up.

The expected writes are spelled out here from the datasheets, on the Pico's GPIO numbers, apart
from the firmware's own tables: a wrong row there fails these tests. Each pattern the pins pass
through is also read back through the datasheet's table below, which must never see the motor
driven toward the wrong side or driven at all once the pulse has ended.
"""

from __future__ import annotations

from typing import Any

import pytest

from firmware_bridge.messages import (
    Arm,
    Configure,
    Disarm,
    Fault,
    Fire,
    Heartbeat,
    Hello,
    LauncherDriver,
    Lights,
    Nack,
    OutputChanged,
    Safe,
)
from firmware_bridge.protocol import (
    DRIVER_DIR_ENABLE,
    DRIVER_DRV8833,
    DRIVER_L298N,
    DRIVER_TB6612,
    FAULT_CRASH,
    NACK_BAD_PAYLOAD,
    OUTPUT_LAUNCHER,
    SIDE_LEFT,
    SIDE_RIGHT,
)
from tests.hw_sim.conftest import FirmwareFactory
from tests.hw_sim.mpy_harness import MpyApp

# The Pico's launcher pins (docs/drivers.md, "On a Pico").
GP15, GP16, GP17, GP18 = 15, 16, 17, 18
LAUNCHER = {GP15, GP16, GP17, GP18}
BRAKE_MS = 200


def dir_enable(levels: dict[int, int]) -> str:
    """A DIR/EN board: EN (GP15) low is its own stop; high drives the way DIR (GP16) says."""
    if not levels[GP15]:
        return "off"
    return "right" if levels[GP16] else "left"


def drv8833(levels: dict[int, int]) -> str:
    """DRV8833 H-bridge logic: xIN1 (GP16), xIN2 (GP17)."""
    return {(0, 0): "coast", (0, 1): "left", (1, 0): "right", (1, 1): "brake"}[
        (levels[GP16], levels[GP17])]


def tb6612(levels: dict[int, int]) -> str:
    """TB6612FNG: IN1 (GP16), IN2 (GP17), PWM (GP15), STBY (GP18)."""
    in1, in2, pwm, stby = levels[GP16], levels[GP17], levels[GP15], levels[GP18]
    if not stby:
        return "coast"  # standby
    if in1 == in2:
        return "brake" if in1 else "coast"  # short brake / stop
    if not pwm:
        return "brake"  # short brake
    return "right" if in1 else "left"  # CW / CCW


def l298n(levels: dict[int, int]) -> str:
    """L298N: IN1 (GP16), IN2 (GP17), ENA (GP15)."""
    if not levels[GP15]:
        return "coast"  # free running motor stop
    if levels[GP16] == levels[GP17]:
        return "brake"  # fast motor stop
    return "right" if levels[GP16] else "left"


BOARDS: dict[str, Any] = {
    # name: (code, brake_ms, datasheet, toward the right, toward the left,
    #        end toward the right, end toward the left, rest after each), as (gpio, level) writes
    "dir-enable": (DRIVER_DIR_ENABLE, 0, dir_enable,
                   [(GP16, 1), (GP15, 1)], [(GP15, 1)],
                   [(GP15, 0)], [(GP15, 0)],
                   [(GP16, 0)], []),
    "drv8833": (DRIVER_DRV8833, 0, drv8833,
                [(GP16, 1)], [(GP17, 1)],
                [(GP16, 0)], [(GP17, 0)],
                [], []),
    "tb6612": (DRIVER_TB6612, BRAKE_MS, tb6612,
               [(GP16, 1), (GP15, 1), (GP18, 1)], [(GP17, 1), (GP15, 1), (GP18, 1)],
               [(GP15, 0)], [(GP15, 0)],
               [(GP18, 0), (GP16, 0)], [(GP18, 0), (GP17, 0)]),
    "l298n": (DRIVER_L298N, BRAKE_MS, l298n,
              [(GP16, 1), (GP15, 1)], [(GP17, 1), (GP15, 1)],
              [(GP16, 0)], [(GP17, 0)],
              [(GP15, 0)], [(GP15, 0)]),
}
FIRES = [(name, side) for name in BOARDS for side in ("right", "left")]


class Board:
    """One board on one firmware: its writes in order, each pattern read by its datasheet."""

    def __init__(self, fw: Any, name: str) -> None:
        self.fw = fw
        (self.code, self.brake_ms, self.datasheet, right, left, end_right, end_left,
         rest_right, rest_left) = BOARDS[name]
        self.drive = {"right": right, "left": left}
        self.end = {"right": end_right, "left": end_left}
        self.rest = {"right": rest_right, "left": rest_left}
        self.levels = dict.fromkeys(LAUNCHER, 0)

    def writes(self) -> tuple[list[tuple[int, int]], list[str]]:
        """The launcher pin writes since the last look, and what the board did after each."""
        changes = self.fw.output_changes(LAUNCHER)
        motions = []
        for gpio, level in changes:
            self.levels[gpio] = level
            motions.append(self.datasheet(self.levels))
        return changes, motions

    def fire(self, side: str, pulse_ms: int = 300) -> None:
        """Go, arm, fire toward *side*: the drive writes, and only the last one drives."""
        self.fw.send(Lights(2))
        self.fw.send(Arm(5000))
        self.fw.send(Fire(SIDE_RIGHT if side == "right" else SIDE_LEFT, pulse_ms))
        changes, motions = self.writes()
        assert changes == self.drive[side]
        assert motions[-1] == side and side not in motions[:-1]
        assert other(side) not in motions

    def ended(self, side: str) -> None:
        """The pulse has just ended: the board's own stop, held for the brake, then rest (at
        once without a brake)."""
        if not self.brake_ms:
            changes, motions = self.writes()
            assert changes == self.end[side] + self.rest[side]
            assert motions[0] in ("coast", "off")
            self.rested_at(motions)
            return
        changes, motions = self.writes()
        assert changes == self.end[side]
        assert motions == ["brake"]
        self.fw.advance(self.brake_ms - 1)
        assert self.writes() == ([], []), "the brake is held for brake_ms"
        self.fw.advance(1)
        self.rested(side)

    def rested_at(self, motions: list[str]) -> None:
        assert all(motion not in ("right", "left") for motion in motions)
        assert self.levels == dict.fromkeys(LAUNCHER, 0), "at rest every launcher pin is low"

    def rested(self, side: str) -> None:
        """Every launcher pin has gone to rest since the last look, never driving."""
        changes, motions = self.writes()
        assert changes == self.rest[side]
        self.rested_at(motions)


def other(side: str) -> str:
    return "left" if side == "right" else "right"


def connect(fw: Any, name: str, *, watchdog_ms: int = 60_000) -> Board:
    fw.send(Hello(1, 1, 0))
    fw.send(Configure(watchdog_ms=watchdog_ms, max_pulse_ms=1000, cooldown_ms=0, bounce_us=0,
                      count_bounce_us=0))
    board = Board(fw, name)
    fw.send(LauncherDriver(board.code, board.brake_ms))
    fw.ack_all()
    assert board.writes() == ([], []), "naming the board moves no pin"
    return board


def launcher_reports(fw: Any) -> list[int]:
    """The launcher's on/off reports the firmware sent (each once, however often resent)."""
    reports = {packet.sequence: packet.message for packet in fw.received()
               if isinstance(packet.message, OutputChanged)
               and packet.message.output == OUTPUT_LAUNCHER}
    return [message.value for _sequence, message in sorted(reports.items())]


def test_every_launcher_pin_is_a_low_output_from_power_up(make_firmware: FirmwareFactory) -> None:
    fw = make_firmware()
    for name in ("launcher_enable", "launcher_in1", "launcher_in2", "launcher_stby"):
        assert fw.level(name) == 0, name
    assert {fw.pins[name] for name in ("launcher_enable", "launcher_in1", "launcher_in2",
                                       "launcher_stby")} == LAUNCHER


@pytest.mark.parametrize(("name", "side"), FIRES)
def test_a_pulse_whose_time_is_up(make_firmware: FirmwareFactory, name: str, side: str) -> None:
    fw = make_firmware()
    board = connect(fw, name)
    board.fire(side, pulse_ms=300)
    fw.advance(299)
    assert board.writes() == ([], [])
    fw.stall(1)  # the main loop is stuck: the one-shot timer's interrupt ends the pulse
    changes, motions = board.writes()
    assert changes == board.end[side]
    assert motions == ["brake" if board.brake_ms else motions[0]]
    assert motions[0] in ("brake", "coast", "off")
    fw.step()
    if board.brake_ms:
        assert board.writes() == ([], []), "the brake is held for brake_ms"
        fw.advance(board.brake_ms)
    board.rested(side)
    code = SIDE_RIGHT if side == "right" else SIDE_LEFT
    assert launcher_reports(fw) == [code, 0]


@pytest.mark.parametrize(("name", "side"), FIRES)
def test_a_pulse_stopped_by_the_host(make_firmware: FirmwareFactory, name: str, side: str) -> None:
    fw = make_firmware()
    board = connect(fw, name)
    board.fire(side)
    fw.send(Disarm())
    board.ended(side)


@pytest.mark.parametrize(("name", "side"), FIRES)
def test_a_pulse_cut_by_the_watchdog(make_firmware: FirmwareFactory, name: str, side: str) -> None:
    fw = make_firmware()
    board = connect(fw, name, watchdog_ms=100)
    board.fire(side, pulse_ms=1000)
    fw.advance(101)  # the host has gone quiet
    assert any(isinstance(m, Fault) for m in fw.messages())
    board.ended(side)


@pytest.mark.parametrize(("name", "side"), FIRES)
def test_a_pulse_ended_by_the_hosts_safe_on_close(
    make_firmware: FirmwareFactory, name: str, side: str
) -> None:
    fw = make_firmware()
    board = connect(fw, name)
    board.fire(side)
    fw.send(Safe())
    board.ended(side)


@pytest.mark.parametrize("name", ["tb6612", "l298n"])
def test_a_fire_during_the_brake_rests_first(make_firmware: FirmwareFactory, name: str) -> None:
    fw = make_firmware()
    board = connect(fw, name)
    board.fire("right")
    fw.send(Disarm())
    changes, _motions = board.writes()
    assert changes == board.end["right"]
    fw.send(Lights(2))
    fw.send(Arm(5000))
    fw.send(Fire(SIDE_LEFT, 300))
    changes, motions = board.writes()
    assert changes == board.rest["right"] + board.drive["left"]
    assert "right" not in motions and motions[-1] == "left"


@pytest.mark.parametrize("name", list(BOARDS))
def test_another_board_named_mid_pulse_stops_and_rests_first(
    make_firmware: FirmwareFactory, name: str
) -> None:
    fw = make_firmware()
    board = connect(fw, name)
    board.fire("right")
    fw.send(LauncherDriver(DRIVER_DRV8833 if name != "drv8833" else DRIVER_TB6612, 0))
    changes, motions = board.writes()
    assert changes == board.end["right"] + board.rest["right"]
    assert motions[-1] not in ("right", "left")
    assert launcher_reports(fw) == [SIDE_RIGHT, 0]


def test_an_unknown_board_is_refused_and_changes_nothing(make_firmware: FirmwareFactory) -> None:
    fw = make_firmware()
    board = connect(fw, "tb6612")
    sequence = fw.send(LauncherDriver(9, 0))
    assert [(m.refused_sequence, m.reason) for m in fw.messages() if isinstance(m, Nack)] == [
        (sequence, NACK_BAD_PAYLOAD)]
    board.fire("left")  # still driven as a TB6612


def test_without_a_launcher_driver_message_the_firmware_drives_dir_enable(
    make_firmware: FirmwareFactory,
) -> None:
    fw = make_firmware()
    fw.connect()  # an older host: Hello and Configure only
    board = Board(fw, "dir-enable")
    board.fire("right")
    fw.send(Disarm())
    board.ended("right")


@pytest.mark.parametrize(("name", "side"), FIRES)
def test_a_crash_mid_pulse_puts_every_launcher_pin_low_at_once(name: str, side: str) -> None:
    app = MpyApp()
    try:
        app.send(Hello(1, 1, 0))
        app.send(Configure(watchdog_ms=60_000, max_pulse_ms=1000, cooldown_ms=0,
                           bounce_us=1000, count_bounce_us=500))
        board = Board(app, name)
        app.send(LauncherDriver(board.code, board.brake_ms))
        app.send(Heartbeat(1))
        app.messages()
        board.writes()
        board.fire(side, pulse_ms=900)
        high = [gpio for gpio in (GP18, GP15, GP16, GP17) if board.levels[gpio]]
        app.command("usb_fail")
        result = app.command("app_run")
        assert "OSError" in result["failed"]
        changes, motions = board.writes()
        # every launcher pin low at once, the disabling one first: no brake, nothing is trusted
        assert [gpio for gpio, _level in changes] == high
        assert all(level == 0 for _gpio, level in changes)
        assert other(side) not in motions and motions[-1] != side
        faults = [m for m in app.messages() if isinstance(m, Fault)]
        assert [f.code for f in faults] == [FAULT_CRASH]
    finally:
        app.close()
