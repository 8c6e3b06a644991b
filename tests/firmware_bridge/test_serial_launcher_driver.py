"""The serial back end names the launcher's motor driver board to the firmware at every fresh
session (``LauncherDriver`` after ``Configure``), and refuses, in one line naming the setting, a
firmware that cannot take the name when the board is not the DIR/EN one every firmware drives."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from firmware_bridge.link import LinkError
from firmware_bridge.protocol import CAP_DRIVERS, DRIVER_DIR_ENABLE, DRIVER_TB6612
from hw_sim.mcu import SimulatedMcu
from showdown.app.config import load_settings
from showdown.unit.backends.serial import SerialUnit
from showdown.unit.clock import ManualClock, ms
from showdown.unit.config import UnitSettings

EXAMPLES = Path(__file__).resolve().parents[2] / "deploy" / "examples"


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock(ms(5_000))


@pytest.fixture
def mcu(clock: ManualClock, tmp_path: Path) -> Iterator[SimulatedMcu]:
    with SimulatedMcu(clock.now_ns, link_path=tmp_path / "showdown-unit") as sim:
        yield sim


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
