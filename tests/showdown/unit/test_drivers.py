"""The launcher's motor driver boards: their truth tables against the datasheets, and the
configuration that names one (``[unit] launcher_driver`` with exactly its pins)."""

from __future__ import annotations

import itertools
import os
import re
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from showdown.app.config import ConfigError, load_settings
from showdown.unit.config import UnitSettings
from showdown.unit.drivers import DRIVER_NAMES, DRIVERS, LAUNCHER_LINES, Motion
from tests.showdown.unit.test_gpio_launcher_drivers import dir_enable, drv8833, l298n, tb6612

DATASHEETS: dict[str, Callable[[dict[str, bool]], str]] = {
    "dir-enable": dir_enable, "drv8833": drv8833, "tb6612": tb6612, "l298n": l298n,
}
MOTIONS = {"right": Motion.RIGHT, "left": Motion.LEFT, "brake": Motion.BRAKE,
           "coast": Motion.COAST, "off": Motion.OFF}
BASE = "[unit]\n{driver}\n[unit.pins]\n{pins}"
FREE = ["GPIO13", "GPIO26", "GPIO16", "GPIO19", "GPIO18", "GPIO7", "GPIO8"]  # not the DIR/EN pins


@pytest.fixture(autouse=True)
def _no_environment() -> Iterator[None]:
    saved = {name: value for name, value in os.environ.items() if name.startswith("SHOWDOWN_")}
    for name in saved:
        del os.environ[name]
    yield
    os.environ.update(saved)


@pytest.mark.parametrize("name", DRIVER_NAMES)
def test_every_input_pattern_does_what_the_datasheet_says(name: str) -> None:
    driver = DRIVERS[name]
    for levels in itertools.product((False, True), repeat=len(driver.lines)):
        pattern = dict(zip(driver.lines, levels, strict=True))
        assert driver.motion(pattern) is MOTIONS[DATASHEETS[name](pattern)], pattern


@pytest.mark.parametrize("name", DRIVER_NAMES)
def test_rest_is_every_input_inactive_and_never_drives(name: str) -> None:
    driver = DRIVERS[name]
    assert driver.rest == tuple((line, False) for line in driver.lines)
    assert driver.toward(dict.fromkeys(driver.lines, False)) is None


def write_config(tmp_path: Path, driver: str | None, pins: dict[str, str]) -> Path:
    lines = "\n".join(f'{line} = {{ pin = "{pin}", active = "high" }}'
                      for line, pin in pins.items())
    path = tmp_path / "showdown.toml"
    path.write_text(BASE.format(
        driver="" if driver is None else f'launcher_driver = "{driver}"', pins=lines))
    return path


def test_a_configuration_without_a_driver_keeps_the_dir_enable_wiring(tmp_path: Path) -> None:
    unit = load_settings(write_config(tmp_path, None, {})).unit
    assert unit.launcher_driver == "dir-enable"
    assert {line: config.pin for line, config in unit.launcher_lines().items()} == {
        "launcher_enable": "GPIO25", "launcher_direction": "GPIO24"}
    moved = load_settings(write_config(tmp_path, None, {"launcher_enable": "GPIO26"})).unit
    assert moved.pins.launcher_enable is not None and moved.pins.launcher_enable.pin == "GPIO26"
    assert UnitSettings().launcher_driver == "dir-enable"


def test_a_bad_driver_name_is_one_line_naming_the_setting_and_the_known_ones(
    tmp_path: Path,
) -> None:
    path = write_config(tmp_path, "drv8835", {})
    with pytest.raises(ConfigError) as caught:
        load_settings(path)
    message = str(caught.value)
    assert "\n" not in message
    assert message == (f"{path}:2: unit.launcher_driver: unknown motor driver 'drv8835' (known: "
                       "dir-enable, drv8833, tb6612, l298n; docs/drivers.md)")


@pytest.mark.parametrize("name", ["drv8833", "tb6612", "l298n"])
def test_each_missing_pin_is_named(tmp_path: Path, name: str) -> None:
    needed = [line for line in LAUNCHER_LINES if line in DRIVERS[name].lines]
    for missing in needed:
        pins = {line: FREE[index] for index, line in enumerate(needed) if line != missing}
        with pytest.raises(ConfigError) as caught:
            load_settings(write_config(tmp_path, name, pins))
        message = str(caught.value)
        assert "\n" not in message
        assert f": unit.pins.{missing}: missing; the {name} launcher driver needs " in message


@pytest.mark.parametrize("name", DRIVER_NAMES)
def test_a_pin_the_board_does_not_have_is_refused_by_name(tmp_path: Path, name: str) -> None:
    own = [line for line in LAUNCHER_LINES if line in DRIVERS[name].lines]
    for extra in (line for line in LAUNCHER_LINES if line not in own):
        pins = {line: FREE[index] for index, line in enumerate([*own, extra])}
        path = write_config(tmp_path, name, pins)
        with pytest.raises(ConfigError) as caught:
            load_settings(path)
        text = path.read_text().splitlines()
        number = 1 + next(i for i, line in enumerate(text) if line.startswith(f"{extra} ="))
        assert str(caught.value).startswith(
            f"{path}:{number}: unit.pins.{extra}: not an input of the {name} launcher driver")


@settings(max_examples=60, deadline=None)
@given(name=st.sampled_from(DRIVER_NAMES),
       chosen=st.sets(st.sampled_from(LAUNCHER_LINES)),
       active=st.sampled_from(["high", "low"]))
def test_any_set_of_launcher_pins_is_taken_exactly_when_it_fits_the_board(
    tmp_path_factory: pytest.TempPathFactory, name: str, chosen: set[str], active: str
) -> None:
    driver = DRIVERS[name]
    pins = {line: FREE[index] for index, line in enumerate(sorted(chosen))}
    path = write_config(tmp_path_factory.mktemp("config"), name, pins)
    path.write_text(path.read_text().replace('"high"', f'"{active}"'))
    fits = chosen <= set(driver.lines) and (chosen == set(driver.lines) or name == "dir-enable")
    try:
        unit = load_settings(path).unit
    except ConfigError as error:
        assert not fits
        assert "\n" not in str(error)
        assert re.search(r": unit\.pins\.launcher_\w+: (missing|not an input)", str(error))
    else:
        assert fits
        assert list(unit.launcher_lines()) == list(driver.lines)
        assert all(config.active == active for line, config in unit.launcher_lines().items()
                   if line in chosen)
