"""Where each configured line lands on the Raspberry Pi's 40-pin header, and how it is wired.

The configuration names pins by their Broadcom (GPIO) number; a builder holding a jumper wire
counts physical header pins. This module maps one to the other so that ``showdown check``, the
pin tables of ``docs/unit.md`` and the wiring diagram (``tools/diagrams/wiring.py``) all say both,
from the same facts.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["HEADER", "LINE_PARTS", "WiredLine", "physical_pin", "wired_lines"]

#: Physical header pin -> what it carries (the same on every 40-pin Raspberry Pi, 1B+ to 5).
HEADER: dict[int, str] = {
    1: "3V3", 2: "5V", 3: "GPIO2", 4: "5V", 5: "GPIO3", 6: "GND", 7: "GPIO4", 8: "GPIO14",
    9: "GND", 10: "GPIO15", 11: "GPIO17", 12: "GPIO18", 13: "GPIO27", 14: "GND", 15: "GPIO22",
    16: "GPIO23", 17: "3V3", 18: "GPIO24", 19: "GPIO10", 20: "GND", 21: "GPIO9", 22: "GPIO25",
    23: "GPIO11", 24: "GPIO8", 25: "GND", 26: "GPIO7", 27: "GPIO0", 28: "GPIO1", 29: "GPIO5",
    30: "GND", 31: "GPIO6", 32: "GPIO12", 33: "GPIO13", 34: "GND", 35: "GPIO19", 36: "GPIO16",
    37: "GPIO26", 38: "GPIO20", 39: "GND", 40: "GPIO21",
}  # fmt: skip

_PHYSICAL = {name: pin for pin, name in HEADER.items() if name.startswith("GPIO")}

#: Configuration line name -> (the part, how its other side is wired).
LINE_PARTS: dict[str, tuple[str, str]] = {
    "timer_button": ("timer button", "push button to GND"),
    "paddle_left": ("left paddle", "switch to GND"),
    "paddle_right": ("right paddle", "switch to GND"),
    "count_left": ("left side-count line", "optical sensor OUT; sensor on 3V3 and GND"),
    "count_right": ("right side-count line", "optical sensor OUT; sensor on 3V3 and GND"),
    "light_red": ("countdown light, red", "LED + 330 ohm to GND"),
    "light_green": ("countdown light, green", "LED + 330 ohm to GND"),
    "buzzer": ("buzzer", "passive piezo (+), other lead to GND"),
    "arrow_left": ("false-start arrow, left", "LED + 330 ohm to GND"),
    "arrow_right": ("false-start arrow, right", "LED + 330 ohm to GND"),
    "launcher_direction": ("launcher motor driver, DIR/PH", "driver input; high throws right"),
    "launcher_enable": ("launcher motor driver, EN", "driver enable; motor supply separate"),
    "launcher_in1": ("launcher motor driver, IN1", "driver input; high (IN2 low) throws right"),
    "launcher_in2": ("launcher motor driver, IN2", "driver input; high (IN1 low) throws left"),
    "launcher_pwm": ("launcher motor driver, PWMA", "TB6612 bridge A's PWM: high drives"),
    "launcher_stby": ("launcher motor driver, STBY", "TB6612 standby: low is off"),
    "launcher_ena": ("launcher motor driver, ENA", "L298N enable A (jumper removed)"),
}


def physical_pin(gpio: str) -> int:
    """The header pin of ``"GPIO17"`` (11); ``KeyError`` for a name not on the header."""
    return _PHYSICAL[gpio]


@dataclass(frozen=True, slots=True)
class WiredLine:
    """One configured line as a builder wires it."""

    line: str
    part: str
    gpio: str
    header_pin: int
    active: str
    direction: str
    how: str


_INPUTS = frozenset({"timer_button", "paddle_left", "paddle_right", "count_left", "count_right"})


def wired_lines(pins: dict[str, tuple[str, str]]) -> list[WiredLine]:
    """Rows for a pin table from ``line -> (gpio, active)``, in header-pin order."""
    rows = []
    for line, (gpio, active) in pins.items():
        part, how = LINE_PARTS.get(line, (line.replace("_", " "), ""))
        rows.append(
            WiredLine(
                line=line,
                part=part,
                gpio=gpio,
                header_pin=physical_pin(gpio),
                active=active,
                direction="in" if line in _INPUTS else "out",
                how=how,
            )
        )
    return sorted(rows, key=lambda row: row.header_pin)
