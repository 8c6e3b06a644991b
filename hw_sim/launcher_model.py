"""The physical launcher: when its motor is driven, the loaded cards fly and cross the lines.

It watches the motor driver board's input pins and reads them through that board's datasheet truth
table (:mod:`showdown.unit.drivers`), as the board itself would: no shortcut through the software
above. Each time the motor starts being driven toward a side, it sends each loaded card that way,
lets a configurable share stray
to the other side, sometimes jams one card, and pulses that side's count line once per card, at the
card's flight time, on the simulator's clock. What really landed where is kept as ground truth.
"""

from __future__ import annotations

import random
import threading
from dataclasses import dataclass, field
from functools import partial

from hw_sim.pins import EdgeFeeder, SimFactory, SimPin
from showdown.unit.clock import Clock, ms
from showdown.unit.config import UnitSettings
from showdown.unit.drivers import Motion
from showdown.unit.hardware import Side

__all__ = ["LauncherModel", "Throw"]


@dataclass
class Throw:
    """One fire of the launcher: toward which side, and where the cards really went."""

    toward: Side
    at_ns: int
    landed: dict[Side, int] = field(default_factory=lambda: {Side.LEFT: 0, Side.RIGHT: 0})
    jammed: int = 0


class LauncherModel:
    """Simulated launcher mechanics on :class:`~hw_sim.pins.SimPin` pins (see module docstring)."""

    def __init__(
        self,
        factory: SimFactory,
        settings: UnitSettings,
        clock: Clock,
        feeder: EdgeFeeder,
        rng: random.Random,
        *,
        spread: float = 0.1,
        jam_probability: float = 0.02,
        flight_ms: tuple[float, float] = (60.0, 400.0),
        pulse_ms: float = 2.0,
    ) -> None:
        self._pins = settings.pins
        self._driver = settings.driver
        self._clock = clock
        self._feeder = feeder
        self._rng = rng
        self.spread = spread
        self.jam_probability = jam_probability
        self.flight_ms = flight_ms
        self.pulse_ms = pulse_ms
        self.loaded = 0
        self.throws: list[Throw] = []
        self.lock = threading.Lock()
        """Held while a fire is recorded in :attr:`throws`."""
        self._inputs = {
            line: (factory.sim_pin(config.pin), config.active_high)
            for line, config in settings.launcher_lines().items()
        }
        self._count_pins = {
            Side.LEFT: factory.sim_pin(settings.pins.count_left.pin),
            Side.RIGHT: factory.sim_pin(settings.pins.count_right.pin),
        }
        self.motion = self._read()
        """What the board does with its inputs as they are now."""
        for pin, _active_high in self._inputs.values():
            pin.observers.append(self._input_changed)

    def load(self, cards: int) -> None:
        """Clip *cards* cards into the launcher."""
        self.loaded = cards

    def _read(self) -> Motion:
        """The board's truth table applied to its input pins' logic levels now."""
        inputs = self._inputs.items()
        return self._driver.motion(
            {line: bool(pin.state) == active_high for line, (pin, active_high) in inputs})

    def _input_changed(self, pin: SimPin, state: float, ticks: float) -> None:
        motion = self._read()
        before, self.motion = self.motion, motion
        toward = motion.side
        if toward is None or motion is before:
            return
        at_ns = round(ticks * 1e9)
        with self.lock:
            throw = Throw(toward, at_ns)
            self.throws.append(throw)
            cards, self.loaded = self.loaded, 0
            if cards and self._rng.random() < self.jam_probability:
                throw.jammed = 1
                cards -= 1
            for _ in range(cards):
                side = toward.other if self._rng.random() < self.spread else toward
                throw.landed[side] += 1
                crossing = at_ns + ms(self._rng.uniform(*self.flight_ms))
                self._clock.call_at(crossing, partial(self._pulse, side, crossing))

    def _pulse(self, side: Side, at_ns: int) -> None:
        pin = self._count_pins[side]
        active_high = self._pins.count_left if side is Side.LEFT else self._pins.count_right
        high = active_high.active_high
        self._feeder.post(pin, high, at_ns)
        self._feeder.post(pin, not high, at_ns + ms(self.pulse_ms))
