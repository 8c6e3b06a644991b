"""The ``[unit]`` section of the configuration: which pin each line is on, and every timing.

Every duration is in milliseconds, with a finite range stated on its field (``ge``/``gt`` and
``le``), and every default is documented on its field; the defaults are what a unit out of the box
does. ``true`` is not a number here, and neither is ``inf``. Pins use Broadcom numbering
(``"GPIO17"``; ``17`` and ``"BCM17"`` are accepted and normalised; ASCII digits only). Each
line says which level means "active" (``"high"`` or ``"low"``); inputs get the pull resistor
opposite to their active level.
"""

from __future__ import annotations

import re
from typing import Annotated, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, model_validator

from showdown.unit.drivers import (
    DRIVER_NAMES,
    DRIVERS,
    LAUNCHER_LINES,
    DriverName,
    LauncherDriver,
)

__all__ = [
    "RESERVED_PINS",
    "LineConfig",
    "PinsConfig",
    "TimingConfig",
    "ToneConfig",
    "UnitSettings",
    "normalise_pin",
]

#: Pins the Raspberry Pi board keeps for itself: GPIO0 and GPIO1 read the HAT ID EEPROM.
RESERVED_PINS = frozenset({"GPIO0", "GPIO1"})
_HIGHEST_GPIO = 27  # the 40-pin header exposes GPIO0..GPIO27
_PIN_NAME = re.compile(r"^(?:GPIO|BCM)?([0-9]+)$", re.IGNORECASE)  # ASCII digits only


def normalise_pin(value: object) -> str:
    """``17``, ``"17"``, ``"BCM17"``, ``"gpio17"`` -> ``"GPIO17"``; anything else is refused."""
    text = str(value).strip()
    match = _PIN_NAME.match(text)
    if match is None or isinstance(value, bool):
        raise ValueError(f"unknown pin name {text!r} (use Broadcom names like 'GPIO17')")
    number = int(match.group(1))
    if number > _HIGHEST_GPIO:
        raise ValueError(f"unknown pin name {text!r}: the header has GPIO0 to GPIO{_HIGHEST_GPIO}")
    name = f"GPIO{number}"
    if name in RESERVED_PINS:
        raise ValueError(f"{name} is reserved by the board (HAT ID EEPROM); pick another pin")
    return name


PinName = Annotated[str, BeforeValidator(normalise_pin)]


def _number(value: object) -> object:
    """Refuse ``true``/``false`` where a number belongs (Python would take them for 1 and 0)."""
    if isinstance(value, bool):
        raise ValueError("a number is needed here, not true or false")
    return value


Ms = Annotated[float, BeforeValidator(_number), Field(allow_inf_nan=False)]
"""A duration in milliseconds: a finite number (its field states its range)."""

Count = Annotated[int, BeforeValidator(_number)]
"""A whole number (its field states its range); never a boolean."""


BackendName = Literal["gpio", "serial"]
"""The unit's back ends by name (:data:`showdown.unit.backends.BACKENDS` says what each is)."""


class LineConfig(BaseModel):
    """One wire: the pin it is on and the level that means active (pressed, lit, energised)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    pin: PinName
    active: Literal["high", "low"] = Field(
        description="'high' if the line is active at 3.3 V, 'low' if active at 0 V"
    )

    @property
    def active_high(self) -> bool:
        """True when the line is active at the high level."""
        return self.active == "high"


def _line(pin: str, active: Literal["high", "low"]) -> LineConfig:
    return LineConfig(pin=pin, active=active)


class PinsConfig(BaseModel):
    """Every line of the unit. Defaults suit the reference wiring in ``deploy/``."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    timer_button: LineConfig = _line("GPIO4", "low")
    paddle_left: LineConfig = _line("GPIO17", "low")
    paddle_right: LineConfig = _line("GPIO27", "low")
    count_left: LineConfig = _line("GPIO22", "high")
    count_right: LineConfig = _line("GPIO23", "high")
    light_red: LineConfig = _line("GPIO5", "high")
    light_green: LineConfig = _line("GPIO6", "high")
    buzzer: LineConfig = _line("GPIO12", "high")
    arrow_left: LineConfig = _line("GPIO20", "high")
    arrow_right: LineConfig = _line("GPIO21", "high")
    # The launcher's motor driver inputs: exactly those of ``[unit] launcher_driver``
    # (showdown/unit/drivers.py); UnitSettings checks the set and fills in the dir-enable defaults.
    launcher_direction: LineConfig | None = Field(
        default=None, description="dir-enable: DIR/PH; active: throw toward the RIGHT player"
    )
    launcher_enable: LineConfig | None = Field(default=None, description="dir-enable: EN/PWM")
    launcher_in1: LineConfig | None = Field(
        default=None, description="drv8833, tb6612, l298n: IN1; active with IN2 inactive: "
        "throw toward the RIGHT player"
    )
    launcher_in2: LineConfig | None = Field(default=None, description="drv8833, tb6612, l298n: IN2")
    launcher_pwm: LineConfig | None = Field(default=None, description="tb6612: PWMA")
    launcher_stby: LineConfig | None = Field(default=None, description="tb6612: STBY")
    launcher_ena: LineConfig | None = Field(default=None, description="l298n: ENA")

    @model_validator(mode="after")
    def _no_shared_pins(self) -> PinsConfig:
        seen: dict[str, str] = {}
        for name, line in self.lines().items():
            if line.pin in seen:
                raise ValueError(
                    f"{name}: {line.pin} is already used by {seen[line.pin]}; "
                    "each line needs its own pin"
                )
            seen[line.pin] = name
        return self

    def lines(self) -> dict[str, LineConfig]:
        """Line name -> its configuration, for every line wired (a launcher driver's own)."""
        wired = {name: getattr(self, name) for name in type(self).model_fields}
        return {name: line for name, line in wired.items() if line is not None}


class ToneConfig(BaseModel):
    """A beep: a pitch and an on/off pattern (ms: on, off, on, ...)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    hz: Annotated[float, BeforeValidator(_number)] = Field(gt=20, le=20_000)
    pattern_ms: tuple[Annotated[Ms, Field(gt=0, le=10_000)], ...] = Field(
        min_length=1, max_length=32
    )

    @property
    def length_ms(self) -> float:
        """How long the whole pattern takes."""
        return sum(self.pattern_ms)


LAUNCH_WINDOW_MARGIN_MS = 1000
"""Added to the race timeout, the launch wait and the pulse for the launcher's arm window, so a
``Fire`` the state machine still waits for is never refused as late."""
REACTION_FLOOR_MS = 100
"""No one presses within this long of go (the fastest human reactions are about 100 ms): the race
must last at least this long after the anticipation window, or no showdown can be won."""
LAUNCH_WINDOW_MAX_MS = 65_535
"""The longest arm window a microcontroller can be given (the protocol's 16-bit field)."""


class TimingConfig(BaseModel):
    """Every duration and window of a showdown, in milliseconds."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    beats: Count = Field(default=3, ge=1, le=10, description="red flashes with a beep")
    beat_period_ms: Ms = Field(
        default=1000, gt=0, le=10_000, description="time from one beat to the next"
    )
    beat_flash_ms: Ms = Field(
        default=400, gt=0, le=10_000, description="how long red is lit in each beat"
    )
    hold_min_ms: Ms = Field(
        default=1000, ge=0, le=60_000, description="shortest random hold before go"
    )
    hold_max_ms: Ms = Field(
        default=3000, ge=0, le=60_000, description="longest random hold before go"
    )
    anticipation_ms: Ms = Field(
        default=0, ge=0, le=1000,
        description="a press this soon after go is a false start (0: off; 100)",
    )
    tie_window_ms: Ms = Field(
        default=1.0, ge=0, le=1000,
        description="presses closer than this are a tie: side counts decide",
    )
    timeout_ms: Ms = Field(
        default=5000, gt=0, le=600_000, description="no press this long after go: replay"
    )
    launcher_pulse_ms: Ms = Field(
        default=300, gt=0, le=2000, description="longest time the launcher is energised per fire"
    )
    launcher_cooldown_ms: Ms = Field(
        default=2000, ge=0, le=600_000,
        description="shortest time from one fire's end to the next fire",
    )
    count_settle_ms: Ms = Field(
        default=1500, gt=0, le=60_000,
        description="how long the side-count lines count after a launch",
    )
    launch_wait_ms: Ms = Field(
        default=10_000, gt=0, le=60_000,
        description="longest wait after the winning press for the launcher to report firing "
        "(a Fire resent over a bad serial line); the count runs from that report",
    )
    bounce_ms: Ms = Field(
        default=5, ge=0, le=100,
        description="paddle/button bounces this soon after an edge are ignored",
    )
    count_bounce_ms: Ms = Field(
        default=0.5, ge=0, le=100,
        description="side-count line bounces this soon after a pulse are ignored",
    )
    late_edge_grace_ms: Ms = Field(
        default=20, ge=0, le=1000,
        description="wait for late-delivered earlier presses after a false start",
    )
    arrow_blink_ms: Ms = Field(
        default=250, gt=0, le=10_000, description="arrow blink half-period"
    )
    release_paddle_ms: Ms = Field(
        default=2000, gt=0, le=60_000,
        description="how long the arrow blinks when a paddle is held at arm",
    )

    @model_validator(mode="after")
    def _hold_range(self) -> TimingConfig:
        if self.hold_max_ms < self.hold_min_ms:
            raise ValueError(
                f"hold_max_ms: {self.hold_max_ms:g} is below hold_min_ms ({self.hold_min_ms:g})"
            )
        if self.beat_flash_ms > self.beat_period_ms:
            raise ValueError(
                f"beat_flash_ms: {self.beat_flash_ms:g} is longer than beat_period_ms "
                f"({self.beat_period_ms:g})"
            )
        if self.timeout_ms < self.anticipation_ms + REACTION_FLOOR_MS:
            raise ValueError(
                f"timeout_ms: {self.timeout_ms:g} leaves no time to press: a press before "
                f"anticipation_ms ({self.anticipation_ms:g}) is a false start, and no one "
                f"presses within {REACTION_FLOOR_MS:g} ms of go, so timeout_ms must be at least "
                f"{self.anticipation_ms + REACTION_FLOOR_MS:g} or every showdown is replayed"
            )
        if self.launch_window_ms > LAUNCH_WINDOW_MAX_MS:
            limit = LAUNCH_WINDOW_MAX_MS - self.launcher_pulse_ms - LAUNCH_WINDOW_MARGIN_MS
            raise ValueError(
                f"timeout_ms: {self.timeout_ms:g} plus launch_wait_ms ({self.launch_wait_ms:g}) "
                f"is more than the {limit:g} ms a unit keeps its launcher armed after go"
            )
        return self

    @property
    def launch_window_ms(self) -> float:
        """How long after go the launcher may fire at all: the race, the wait for the launcher's
        report, the pulse and a margin (the serial back end's ``Arm`` window)."""
        return (self.timeout_ms + self.launch_wait_ms + self.launcher_pulse_ms
                + LAUNCH_WINDOW_MARGIN_MS)


def _driver_name(value: object) -> object:
    """Refuse an unknown launcher driver in one line that lists the known ones."""
    if value not in DRIVER_NAMES:
        known = ", ".join(DRIVER_NAMES)
        raise ValueError(f"unknown motor driver {value!r} (known: {known}; docs/drivers.md)")
    return value


class UnitSettings(BaseModel):
    """The ``[unit]`` section: pins, timings and the two sounds."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    launcher_driver: Annotated[DriverName, BeforeValidator(_driver_name)] = Field(
        default="dir-enable",
        description="the launcher's motor driver board: 'dir-enable' (DIR and EN), 'drv8833' "
        "(IN1, IN2), 'tb6612' (IN1, IN2, PWM, STBY), 'l298n' (IN1, IN2, ENA); its inputs go in "
        "[unit.pins] (docs/drivers.md)",
    )
    pins: PinsConfig = PinsConfig()
    timing: TimingConfig = TimingConfig()
    buzzer_kind: Literal["tonal", "plain"] = Field(
        default="tonal", description="'tonal': a PWM TonalBuzzer; 'plain': an on/off Buzzer"
    )
    beat_tone: ToneConfig = ToneConfig(hz=440, pattern_ms=(150,))
    go_tone: ToneConfig = Field(
        default=ToneConfig(hz=880, pattern_ms=(80, 60, 80, 60, 400)),
        description="must differ from beat_tone in pitch AND pattern: players who cannot tell "
        "red from green rely on it",
    )
    edge_thread_priority: Count = Field(
        default=10,
        ge=0,
        le=99,
        description="SCHED_FIFO priority of the thread delivering edges (0: normal scheduling); "
        "needs root or CAP_SYS_NICE, else a warning and normal scheduling",
    )
    gil_switch_interval_ms: Ms = Field(
        default=0.5, ge=0, le=100,
        description="Python's GIL switch interval (0: Python's default, 5 ms)",
    )
    hold_seed: Annotated[Count, Field(ge=0, lt=2**64)] | None = Field(
        default=None, description="seed of the random hold (None: a fresh seed each start)"
    )
    backend: BackendName = Field(
        default="gpio",
        description="'gpio': the parts on the Pi's own pins; 'serial': behind a Pico on USB "
        "(firmware_bridge, docs/firmware.md)",
    )
    serial_port: str | None = Field(
        default=None,
        description="with backend 'serial': a path or pyserial URL (None: /dev/showdown-unit, "
        "else the Pico's USB id)",
    )

    @model_validator(mode="before")
    @classmethod
    def _launcher_pins(cls, data: object) -> object:
        """``[unit.pins]`` holds exactly the launcher driver's inputs: a missing or a foreign one
        is refused, naming it; the original DIR/EN wiring keeps its default pins."""
        if not isinstance(data, dict):
            return data
        name = data.get("launcher_driver", "dir-enable")
        pins = data.get("pins", {})
        if name not in DRIVERS or not isinstance(pins, dict | PinsConfig):
            return data  # the field's own check names what is wrong
        driver = DRIVERS[name]
        if isinstance(pins, PinsConfig):
            given = {line for line, config in pins.lines().items() if line in LAUNCHER_LINES}
        else:
            given = {line for line, config in pins.items()
                     if line in LAUNCHER_LINES and config is not None}
        inputs = [line for line in LAUNCHER_LINES if line in driver.lines]
        needs = ", ".join(inputs)
        for line in LAUNCHER_LINES:
            if line in given and line not in driver.lines:
                raise ValueError(
                    f"pins.{line}: not an input of the {name} launcher driver, which takes "
                    f"{needs}; remove it or change launcher_driver"
                )
        for line in inputs:
            if line not in given and line not in driver.defaults:
                raise ValueError(
                    f"pins.{line}: missing; the {name} launcher driver needs {needs} "
                    "(docs/drivers.md)"
                )
        missing = [line for line in driver.lines if line not in given]
        if missing and isinstance(pins, dict):
            filled = dict(pins)
            for line in missing:
                pin, active = driver.defaults[line]
                filled[line] = {"pin": pin, "active": active}
            data = {**data, "pins": filled}
        return data

    @property
    def driver(self) -> LauncherDriver:
        """The launcher's motor driver board (``launcher_driver``)."""
        return DRIVERS[self.launcher_driver]

    def launcher_lines(self) -> dict[str, LineConfig]:
        """The launcher driver's inputs, in the order they go to rest."""
        return {line: getattr(self.pins, line) for line in self.driver.lines}

    @model_validator(mode="after")
    def _go_is_distinct(self) -> UnitSettings:
        if self.go_tone.hz == self.beat_tone.hz:
            raise ValueError("go_tone: its pitch must differ from beat_tone's")
        if self.go_tone.pattern_ms == self.beat_tone.pattern_ms:
            raise ValueError("go_tone: its pattern must differ from beat_tone's")
        return self
