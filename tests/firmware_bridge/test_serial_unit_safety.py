"""Safety through the whole serial path (SerialUnit -> pty -> the firmware), on a manual clock:
the firmware goes safe by itself when the host goes quiet, and refuses a fire without a go (which
the listener hears as the launcher staying off). The back end names the launcher's motor driver
board at every fresh session, and refuses, in one line naming the setting, a firmware that cannot
take the name when the board is not the DIR/EN one every firmware drives."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from firmware_bridge.link import LinkError
from firmware_bridge.messages import Nack
from firmware_bridge.protocol import CAP_DRIVERS, DRIVER_DIR_ENABLE, DRIVER_TB6612, NACK_NOT_ARMED
from hw_sim.mcu import SimulatedMcu
from showdown.app.config import load_settings
from showdown.unit.backends.serial import SerialUnit
from showdown.unit.clock import ManualClock, ms
from showdown.unit.config import TimingConfig, UnitSettings
from showdown.unit.hardware import Edge, Light, Side


class Recorder:
    """A listener that records what the back end reports."""

    def __init__(self) -> None:
        self.launcher: list[tuple[Side | None, int]] = []
        self.lights: list[Light] = []
        self.lost: list[bool] = []

    def edge(self, edge: Edge) -> None:
        pass

    def light_changed(self, light: Light, at_ns: int) -> None:
        self.lights.append(light)

    def launcher_changed(self, toward: Side | None, at_ns: int) -> None:
        self.launcher.append((toward, at_ns))

    def contact_lost(self, at_ns: int, *, restarted: bool) -> None:
        self.lost.append(restarted)


def level_event(mcu: SimulatedMcu, name: str, level: int) -> threading.Event:
    """Set when the firmware drives output *name* to *level*."""
    reached = threading.Event()
    mcu.pin(name).observers.append(lambda pin, value, at: value == level and reached.set())
    return reached


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock(ms(5_000))


@pytest.fixture
def mcu(clock: ManualClock, tmp_path: Path) -> Iterator[SimulatedMcu]:
    with SimulatedMcu(clock.now_ns, link_path=tmp_path / "showdown-unit") as sim:
        yield sim


def test_the_firmware_turns_the_launcher_off_when_the_host_goes_quiet(
    clock: ManualClock, mcu: SimulatedMcu
) -> None:
    settings = UnitSettings(timing=TimingConfig(launcher_pulse_ms=2000))
    unit = SerialUnit(settings, port=mcu.port, clock=clock, watchdog_ms=500)
    recorder = Recorder()
    unit.start(recorder)
    on = level_event(mcu, "launcher_enable", 1)
    off = level_event(mcu, "launcher_enable", 0)
    unit.countdown_light(Light.GREEN)
    unit.launch(Side.RIGHT, ms(2000))
    assert on.wait(5.0)
    unit.link.close(safe=False)  # the Pi hangs: no Safe, no more heartbeats
    # Let the firmware read whatever the host had already written (a last heartbeat) while the
    # clock stands still: heard after the jump, it would restart the watchdog's count.
    assert mcu.wait_steps(3)
    clock.advance(ms(450))
    assert mcu.wait_steps(3)
    assert not off.is_set(), "still within the watchdog time"
    clock.advance(ms(100))
    assert off.wait(5.0), "the firmware's watchdog must turn the launcher off"
    assert mcu.pin("light_green").level == 0
    assert mcu.unit.watchdog_tripped
    unit.close()


def test_a_fire_without_go_is_refused_by_the_firmware(
    clock: ManualClock, mcu: SimulatedMcu
) -> None:
    unit = SerialUnit(UnitSettings(), port=mcu.port, clock=clock, watchdog_ms=60_000)
    recorder = Recorder()
    unit.start(recorder)
    fired = level_event(mcu, "launcher_enable", 1)
    unit.countdown_light(Light.RED)
    unit.launch(Side.LEFT, ms(300))
    assert unit.link.wait_idle(5.0)
    assert mcu.wait_steps(3)
    assert not fired.is_set()
    assert mcu.link.rx_expected == 4  # Configure, LauncherDriver, Lights, Fire
    deadline_steps = 0
    while not unit.refusals and deadline_steps < 2000:
        mcu.wait_steps(1)
        deadline_steps += 1
    assert [n.reason for n in unit.refusals] == [NACK_NOT_ARMED]
    assert isinstance(unit.refusals[0], Nack)
    # the listener hears that the launcher stays off: a showdown waiting for it stops waiting
    assert recorder.launcher == [(None, clock.now_ns())]
    unit.close()
    assert mcu.pin("light_red").level == 0, "closing leaves every output off"


EXAMPLES = Path(__file__).resolve().parents[2] / "deploy" / "examples"


def tb6612() -> UnitSettings:
    return load_settings(EXAMPLES / "launcher-tb6612.toml").unit


def test_the_board_is_named_at_every_fresh_session(clock: ManualClock, mcu: SimulatedMcu) -> None:
    unit = SerialUnit(tb6612(), port=mcu.port, clock=clock, watchdog_ms=60_000)
    try:
        assert unit.link.wait_idle(5.0) and mcu.wait_steps(3)
        assert (mcu.unit.driver, mcu.unit.brake_ms) == (DRIVER_TB6612, 200)
        mcu.reset()  # the Pico restarts: it drives a DIR/EN board until told again
        assert mcu.unit.driver == DRIVER_DIR_ENABLE
        for _ in range(2000):
            if mcu.unit.driver == DRIVER_TB6612:
                break
            mcu.wait_steps(1)
        assert (mcu.unit.driver, mcu.unit.brake_ms) == (DRIVER_TB6612, 200)
    finally:
        unit.close()


def test_a_firmware_without_drivers_is_refused_for_another_board(
    clock: ManualClock, mcu: SimulatedMcu
) -> None:
    mcu.link.capabilities &= ~CAP_DRIVERS  # an older firmware
    with pytest.raises(LinkError) as caught:
        SerialUnit(tb6612(), port=mcu.port, clock=clock, watchdog_ms=60_000)
    assert str(caught.value) == (
        "unit.launcher_driver is 'tb6612', but the unit's firmware drives only a dir-enable "
        "launcher: reflash it (docs/firmware.md)")


def test_a_firmware_without_drivers_still_drives_a_dir_enable_board(
    clock: ManualClock, mcu: SimulatedMcu
) -> None:
    mcu.link.capabilities &= ~CAP_DRIVERS
    unit = SerialUnit(UnitSettings(), port=mcu.port, clock=clock, watchdog_ms=60_000)
    try:
        assert unit.link.wait_idle(5.0) and mcu.wait_steps(3)
        assert mcu.link.rx_expected == 1, "Configure only: no LauncherDriver it would refuse"
        assert unit.refusals == []
    finally:
        unit.close()
