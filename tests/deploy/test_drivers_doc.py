"""docs/drivers.md says what the code does: each board's wiring table is its example
configuration's pins (with the Pico GPIO the firmware drives), each truth table is the one in
``showdown/unit/drivers.py``, and each section shows its diagram and names its example."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from hw_sim.firmware import firmware_module
from showdown.app.config import load_settings
from showdown.unit.drivers import DRIVER_NAMES, DRIVERS
from showdown.unit.wiring import physical_pin

REPO = Path(__file__).resolve().parents[2]
DOC = (REPO / "docs" / "drivers.md").read_text(encoding="utf-8")
WIRING_ROW = re.compile(r"^\| `(launcher_\w+)` \| (GPIO\d+) \| (\d+) \| ([^|]+?) \| GP(\d+) \|$")


def section(name: str) -> str:
    """The part of docs/drivers.md under ``## <name>``."""
    return DOC.split(f"\n## {name}\n", 1)[1].split("\n## ", 1)[0]


def truth_rows(text: str) -> list[list[str]]:
    """The rows of the truth table in *text*: the level cells, then the board's words."""
    table = text.split("Truth table", 1)[1].split("\n\n", 2)[1]
    return [[cell.strip() for cell in line.strip("|").split("|")]
            for line in table.splitlines()[2:]]


@pytest.mark.parametrize("name", DRIVER_NAMES)
def test_the_wiring_table_is_the_example_configuration(name: str) -> None:
    driver = DRIVERS[name]
    unit = load_settings(REPO / "deploy" / "examples" / f"launcher-{name}.toml").unit
    documented = {match[1]: (match[2], int(match[3]), match[4], int(match[5]))
                  for line in section(name).splitlines() if (match := WIRING_ROW.match(line))}
    expected = {line: (config.pin, physical_pin(config.pin), driver.labels[line],
                       driver.pico_gpio[line])
                for line, config in unit.launcher_lines().items()}
    assert documented == expected


@pytest.mark.parametrize("name", DRIVER_NAMES)
def test_the_truth_table_is_the_codes(name: str) -> None:
    driver = DRIVERS[name]
    inputs = list(driver.truth[0].inputs)
    rows = truth_rows(section(name))
    assert len(rows) == len(driver.truth)
    for cells, row in zip(rows, driver.truth, strict=True):
        levels = [{True: "1", False: "0", None: "x"}[row.inputs[line]] for line in inputs]
        assert cells[:-1] == levels, cells
        side = row.motion.side
        if side is not None:
            assert f"toward the {side.value} player" in cells[-1]


@pytest.mark.parametrize("name", DRIVER_NAMES)
def test_each_section_shows_its_diagram_and_its_example(name: str) -> None:
    text = section(name)
    assert f"](drivers/{name}.png)" in text
    assert f"`deploy/examples/launcher-{name}.toml`" in DOC
    assert f"held {DRIVERS[name].brake_ms} ms" in text or not DRIVERS[name].brakes


def test_the_pico_table_is_the_firmwares_pins() -> None:
    pins = firmware_module("sdfw_unit").PINS
    launcher = {pins[name] for name in ("launcher_enable", "launcher_in1", "launcher_in2",
                                        "launcher_stby")}
    assert launcher == {15, 16, 17, 18}
    for driver in DRIVERS.values():
        assert set(driver.pico_gpio.values()) <= launcher
