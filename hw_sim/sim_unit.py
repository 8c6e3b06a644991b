"""A whole simulated unit: a back end on simulated wiring, a physical launcher, a clock that jumps.

:class:`SimulatedUnit` is what the duel runner and ``showdown run`` on the simulator use; it hides
which back end is underneath. :class:`GpioSimUnit` is the gpiozero back end on
:class:`~hw_sim.pins.SimFactory` pins with a :class:`~hw_sim.launcher_model.LauncherModel` on the
launcher's pins. ``SIM_BACKENDS`` maps a back-end name to a builder; the serial back end adds
``"serial"`` (a simulated microcontroller on a pseudo-terminal).

The default clock is a :class:`~showdown.unit.clock.JumpClock` without a timer thread: its owner
(the
duel runner) jumps it and runs due timers. For a simulated unit in real time (``showdown run`` with
no hardware), pass ``clock=JumpClock()``: its own thread then runs the timers as time passes.

Without a launcher model (``physical=False``) it is the plain simulator: it records what was
commanded (each :class:`~hw_sim.pins.SimPin` keeps its ``states``) and nothing flies.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, Protocol

from hw_sim.faults import FaultPlan
from hw_sim.launcher_model import LauncherModel, Throw
from hw_sim.pins import EdgeFeeder, SimFactory
from showdown.unit.backends import BackendName
from showdown.unit.backends.gpio import GpioUnit
from showdown.unit.clock import Clock, JumpClock, ManualClock
from showdown.unit.config import UnitSettings
from showdown.unit.hardware import InputLine, Side, UnitHardware

__all__ = ["SIM_BACKENDS", "GpioSimUnit", "SimulatedUnit", "make_sim_unit"]


class SimulatedUnit(Protocol):
    """What the duel runner needs from a simulated unit, whatever the back end."""

    hardware: UnitHardware
    clock: JumpClock | ManualClock

    def edge(self, line: InputLine, active: bool, at_ns: int | None = None) -> int:
        """Queue a raw edge on *line* stamped *at_ns* (None: now), delivered from the wiring's
        own thread; return the stamp."""

    def wait_idle(self, timeout_s: float = 5.0) -> bool:
        """Wait until every queued edge has been handled."""

    def load_launcher(self, cards: int) -> None:
        """Clip *cards* cards into the physical launcher."""

    def throws(self) -> list[Throw]:
        """Every fire of the launcher so far, with where the cards really landed."""

    def line_figures(self) -> dict[str, int]:
        """What the line to the unit went through (resets, reconnects...); empty if no line."""

    def launch_trouble(self) -> list[str]:
        """Why a launch may not have happened, so far, in words (a command the unit refused, a
        ``Fire`` withdrawn before it was acknowledged); empty where nothing can go wrong."""

    def close(self) -> None:
        """Close the back end and stop the wiring's threads."""


class GpioSimUnit:
    """The gpiozero back end on simulated pins (see the module docstring)."""

    def __init__(
        self,
        settings: UnitSettings,
        *,
        clock: JumpClock | ManualClock | None = None,
        seed: int = 0,
        physical: bool = True,
        spread: float = 0.1,
        jam_probability: float = 0.02,
    ) -> None:
        self.settings = settings
        self.clock = clock if clock is not None else JumpClock(threaded=False)
        self.factory = SimFactory(self.clock)
        self.feeder = EdgeFeeder()
        self.hardware: UnitHardware = GpioUnit(settings, clock=self.clock, pin_factory=self.factory)
        self.launcher: LauncherModel | None = None
        if physical:
            self.launcher = LauncherModel(
                self.factory,
                settings,
                self.clock,
                self.feeder,
                random.Random(seed),
                spread=spread,
                jam_probability=jam_probability,
            )

    def edge(self, line: InputLine, active: bool, at_ns: int | None = None) -> int:
        """Queue an edge; the feeder thread drives the pin with that timestamp."""
        config = getattr(self.settings.pins, line.value)
        pin = self.factory.sim_pin(config.pin)
        return self.feeder.post(pin, active == config.active_high, at_ns)

    def press(self, side: Side, at_ns: int | None = None) -> int:
        """Press *side*'s paddle at *at_ns* (None: now)."""
        return self.edge(InputLine.paddle(side), True, at_ns)

    def wait_idle(self, timeout_s: float = 5.0) -> bool:
        """Wait for the feeder to drain."""
        return self.feeder.wait_idle(timeout_s)

    def load_launcher(self, cards: int) -> None:
        """Clip cards into the launcher model."""
        if self.launcher is not None:
            self.launcher.load(cards)

    def throws(self) -> list[Throw]:
        """The launcher model's record."""
        return [] if self.launcher is None else self.launcher.throws

    def forget(self) -> None:
        """Drop the record of past throws: a simulator that plays for days (the service on the
        simulated table) keeps only what the showdown in progress needs."""
        if self.launcher is not None:
            with self.launcher.lock:
                self.launcher.throws.clear()

    def line_figures(self) -> dict[str, int]:
        """Nothing: the pins are wired to the Pi."""
        return {}

    def launch_trouble(self) -> list[str]:
        """Nothing: a launch on the Pi's own pins is never refused or withdrawn."""
        return []

    def close(self) -> None:
        """Outputs safe, threads stopped."""
        self.hardware.close()
        self.feeder.close()
        self.clock.close()


def _gpio(settings: UnitSettings, seed: int, clock: JumpClock | ManualClock | None,
          faults: FaultPlan | None) -> GpioSimUnit:
    if faults is not None and faults.active:
        raise ValueError("faults on the line need the serial back end (--backend serial)")
    return GpioSimUnit(settings, clock=clock, seed=seed)


SimBuilder = Callable[
    [UnitSettings, int, "JumpClock | ManualClock | None", "FaultPlan | None"], SimulatedUnit
]

def _serial(settings: UnitSettings, seed: int, clock: JumpClock | ManualClock | None,
            faults: FaultPlan | None) -> Any:
    # imported here: the serial simulator loads the firmware and opens a pseudo-terminal
    from hw_sim.serial_sim import SerialSimUnit  # noqa: PLC0415

    return SerialSimUnit(settings, clock=clock, seed=seed, faults=faults)


#: Back-end name -> builder of a simulated unit on it.
SIM_BACKENDS: dict[BackendName, SimBuilder] = {"gpio": _gpio, "serial": _serial}


def make_sim_unit(
    backend: str,
    settings: UnitSettings,
    seed: int = 0,
    clock: Clock | None = None,
    faults: FaultPlan | None = None,
) -> SimulatedUnit:
    """A simulated unit on the named back end; *faults* (serial only) hit its line."""
    try:
        builder = SIM_BACKENDS[backend]  # type: ignore[index]  # a name from outside: checked here
    except KeyError:
        known = ", ".join(sorted(SIM_BACKENDS))
        raise ValueError(f"unknown back end {backend!r} (known: {known})") from None
    assert clock is None or isinstance(clock, JumpClock | ManualClock)
    return builder(settings, seed, clock, faults)
