"""The launcher's motor driver boards: their inputs, their datasheets' truth tables, and the order
in which a back end writes them.

A motor is never on a GPIO pin; a driver board stands between, and each kind takes different
inputs: a DIR/EN board a direction and an enable, a DRV8833 two inputs per bridge, a TB6612 two
inputs plus PWM and STBY, an L298N two inputs plus an enable. ``[unit] launcher_driver`` names the
board; ``[unit.pins]`` then holds exactly that board's inputs (:attr:`LauncherDriver.lines`).

Two tables per board, kept apart on purpose:

- :attr:`LauncherDriver.truth`: what the board does for each pattern of its inputs, copied row by
  row from its datasheet. The simulator's launcher reads the pins through it, and the tests decode
  every write a back end makes with it.
- The plan a back end follows: :attr:`LauncherDriver.drive` (from rest to driving toward a side),
  :attr:`LauncherDriver.end` (the one write that ends a pulse), then rest: every input inactive,
  written in :attr:`LauncherDriver.lines` order, the disabling input first.

Every pattern a back end passes through, one write at a time, is either rest, the board's own
stop (brake or coast), or driving toward the side asked for: never the other side, never a
glitch. Rest (every input inactive) is the safe state on every board: a DIR/EN board's enable is
off, a DRV8833 coasts, a TB6612 is in standby, an L298N's bridge is inhibited.

"Forward" on an IN1/IN2 board (IN1 high, IN2 low: OUT1 high, OUT2 low) throws toward the RIGHT
player, as DIR active does on a DIR/EN board; a motor wired the other way round throws the other
way: swap its two wires.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal, get_args

from showdown.unit.hardware import Side

__all__ = [
    "DRIVERS",
    "DRIVER_NAMES",
    "LAUNCHER_LINES",
    "DriverName",
    "LauncherDriver",
    "Motion",
    "Row",
]

DriverName = Literal["dir-enable", "drv8833", "tb6612", "l298n"]
"""The boards ``[unit] launcher_driver`` knows (:data:`DRIVERS` says what each is)."""
DRIVER_NAMES: tuple[DriverName, ...] = get_args(DriverName)

LAUNCHER_LINES = (
    "launcher_direction",
    "launcher_enable",
    "launcher_in1",
    "launcher_in2",
    "launcher_pwm",
    "launcher_stby",
    "launcher_ena",
)
"""Every ``[unit.pins]`` line that belongs to some launcher driver."""


class Motion(enum.Enum):
    """What a driver board does to the motor for one pattern of its inputs."""

    LEFT = "drives toward the left player"
    RIGHT = "drives toward the right player"
    BRAKE = "brake: outputs shorted, the motor stops fast"
    COAST = "coast: outputs off, the motor spins down freely"
    OFF = "off: the board's own stop (brake or coast, as the board does it)"

    @property
    def side(self) -> Side | None:
        """The side this motion throws toward, if it drives at all."""
        return {Motion.LEFT: Side.LEFT, Motion.RIGHT: Side.RIGHT}.get(self)


@dataclass(frozen=True)
class Row:
    """One row of a datasheet's truth table: input levels (``None``: either), and the result.

    Levels are logic levels at the board (``True``: its input reads high), which is the line's
    *active* level in the configuration.
    """

    inputs: Mapping[str, bool | None]
    motion: Motion
    datasheet: str
    """The row's own words in the datasheet (``"CW"``, ``"Short brake"``)."""

    def matches(self, levels: Mapping[str, bool]) -> bool:
        """Whether *levels* fall under this row."""
        return all(want is None or levels[line] is want for line, want in self.inputs.items())


Write = tuple[str, bool]
"""One pin write: a line and the logic level it gets."""


@dataclass(frozen=True)
class LauncherDriver:
    """One kind of motor driver board (see the module docstring)."""

    name: DriverName
    lines: tuple[str, ...]
    """Its ``[unit.pins]`` lines, in the order they go to rest (the one that disables first)."""
    labels: Mapping[str, str]
    """Line -> the input's name printed on the board."""
    truth: tuple[Row, ...]
    """Its datasheet's truth table; the first row that matches a pattern says what it does."""
    drive: Mapping[Side, tuple[Write, ...]]
    """From rest, the writes that drive toward a side, in order."""
    end: Mapping[Side, Write]
    """The one write that ends a pulse toward a side: the board's brake or coast."""
    brake_ms: int
    """How long a braking end is held before rest (0: the end is not a brake)."""
    pico_gpio: Mapping[str, int]
    """Line -> the Raspberry Pi Pico GPIO the reference firmware drives it on."""
    defaults: Mapping[str, tuple[str, Literal["high", "low"]]] = field(default_factory=dict)
    """Line -> (pin, active) when the configuration leaves it out (only the original wiring)."""

    def motion(self, levels: Mapping[str, bool]) -> Motion:
        """What the board does with its inputs at *levels* (line -> logic level)."""
        for row in self.truth:
            if row.matches(levels):
                return row.motion
        raise ValueError(f"{self.name}: no row of the truth table covers {dict(levels)}")

    def toward(self, levels: Mapping[str, bool]) -> Side | None:
        """The side the motor is driven toward with *levels*, or None if it is not driven."""
        return self.motion(levels).side

    @property
    def rest(self) -> tuple[Write, ...]:
        """The writes that bring every input to rest (inactive), disabling input first."""
        return tuple((line, False) for line in self.lines)

    @property
    def brakes(self) -> bool:
        """Whether a pulse ends with a held brake."""
        return self.brake_ms > 0


def _rows(names: tuple[str, ...], *rows: tuple[str, Motion, str]) -> tuple[Row, ...]:
    """Rows from compact patterns: one character per input of *names* (``1``, ``0``, ``x``)."""
    built = []
    for pattern, motion, words in rows:
        levels = {name: {"1": True, "0": False, "x": None}[char]
                  for name, char in zip(names, pattern, strict=True)}
        built.append(Row(levels, motion, words))
    return tuple(built)


_BRAKE_MS = 200
"""How long a braking board holds its brake after a pulse before it rests: a chosen figure, not one
measured on a launcher motor; well inside the default 2 s cool-down, so the board is at rest before
the next throw can come."""

DIR_ENABLE = LauncherDriver(
    name="dir-enable",
    lines=("launcher_enable", "launcher_direction"),
    labels={"launcher_direction": "DIR / PH", "launcher_enable": "EN / PWM"},
    truth=_rows(
        ("launcher_direction", "launcher_enable"),
        ("x0", Motion.OFF, "EN low: the board's own stop (a DRV8838 brakes, both outputs low)"),
        ("11", Motion.RIGHT, "EN high, DIR high"),
        ("01", Motion.LEFT, "EN high, DIR low"),
    ),
    drive={
        Side.RIGHT: (("launcher_direction", True), ("launcher_enable", True)),
        Side.LEFT: (("launcher_direction", False), ("launcher_enable", True)),
    },
    end={Side.RIGHT: ("launcher_enable", False), Side.LEFT: ("launcher_enable", False)},
    brake_ms=0,
    pico_gpio={"launcher_enable": 15, "launcher_direction": 16},
    defaults={"launcher_direction": ("GPIO24", "high"), "launcher_enable": ("GPIO25", "high")},
)

DRV8833 = LauncherDriver(
    name="drv8833",
    lines=("launcher_in1", "launcher_in2"),
    labels={"launcher_in1": "AIN1", "launcher_in2": "AIN2"},
    truth=_rows(
        ("launcher_in1", "launcher_in2"),
        ("00", Motion.COAST, "Coast/fast decay (outputs Z)"),
        ("01", Motion.LEFT, "Reverse (OUT1 L, OUT2 H)"),
        ("10", Motion.RIGHT, "Forward (OUT1 H, OUT2 L)"),
        ("11", Motion.BRAKE, "Brake/slow decay (both outputs L)"),
    ),
    drive={Side.RIGHT: (("launcher_in1", True),), Side.LEFT: (("launcher_in2", True),)},
    # Its brake is both inputs high, and from there every way back to rest passes through a
    # drive pattern, one write at a time: so a pulse ends by coasting, one write from drive.
    end={Side.RIGHT: ("launcher_in1", False), Side.LEFT: ("launcher_in2", False)},
    brake_ms=0,
    pico_gpio={"launcher_in1": 16, "launcher_in2": 17},
)

TB6612 = LauncherDriver(
    name="tb6612",
    lines=("launcher_stby", "launcher_pwm", "launcher_in1", "launcher_in2"),
    labels={"launcher_in1": "AIN1", "launcher_in2": "AIN2", "launcher_pwm": "PWMA",
            "launcher_stby": "STBY"},
    truth=_rows(
        ("launcher_in1", "launcher_in2", "launcher_pwm", "launcher_stby"),
        ("xxx0", Motion.COAST, "Standby (outputs OFF, high impedance)"),
        ("11x1", Motion.BRAKE, "Short brake"),
        ("1011", Motion.RIGHT, "CW (OUT1 H, OUT2 L)"),
        ("1001", Motion.BRAKE, "Short brake (PWM low)"),
        ("0111", Motion.LEFT, "CCW (OUT1 L, OUT2 H)"),
        ("0101", Motion.BRAKE, "Short brake (PWM low)"),
        ("00x1", Motion.COAST, "Stop (outputs OFF, high impedance)"),
    ),
    drive={
        Side.RIGHT: (("launcher_in1", True), ("launcher_pwm", True), ("launcher_stby", True)),
        Side.LEFT: (("launcher_in2", True), ("launcher_pwm", True), ("launcher_stby", True)),
    },
    end={Side.RIGHT: ("launcher_pwm", False), Side.LEFT: ("launcher_pwm", False)},
    brake_ms=_BRAKE_MS,
    pico_gpio={"launcher_pwm": 15, "launcher_in1": 16, "launcher_in2": 17, "launcher_stby": 18},
)

L298N = LauncherDriver(
    name="l298n",
    lines=("launcher_ena", "launcher_in1", "launcher_in2"),
    labels={"launcher_in1": "IN1", "launcher_in2": "IN2", "launcher_ena": "ENA"},
    truth=_rows(
        ("launcher_in1", "launcher_in2", "launcher_ena"),
        ("xx0", Motion.COAST, "Ven = L: free running motor stop"),
        ("101", Motion.RIGHT, "Ven = H, C = H, D = L: forward"),
        ("011", Motion.LEFT, "Ven = H, C = L, D = H: reverse"),
        ("001", Motion.BRAKE, "Ven = H, C = D: fast motor stop"),
        ("111", Motion.BRAKE, "Ven = H, C = D: fast motor stop"),
    ),
    drive={
        Side.RIGHT: (("launcher_in1", True), ("launcher_ena", True)),
        Side.LEFT: (("launcher_in2", True), ("launcher_ena", True)),
    },
    end={Side.RIGHT: ("launcher_in1", False), Side.LEFT: ("launcher_in2", False)},
    brake_ms=_BRAKE_MS,
    pico_gpio={"launcher_ena": 15, "launcher_in1": 16, "launcher_in2": 17},
)

DRIVERS: dict[DriverName, LauncherDriver] = {
    driver.name: driver for driver in (DIR_ENABLE, DRV8833, TB6612, L298N)
}
assert tuple(DRIVERS) == DRIVER_NAMES
