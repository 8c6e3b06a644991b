"""Test rigs: one unit back end on a manual clock, driven in the showdown's own words.

:class:`UnitRig` holds the helpers every state-machine test uses (``arm``, ``run_to_go``,
``press_left(after_go_ms=...)``, ``advance(ms)``, ``launcher()``...). A back end supplies only
:meth:`UnitRig.deliver` (put one edge on the wire, delivered from another thread, and wait until it
has been handled) and :meth:`UnitRig.outputs` (what the unit's outputs show now). :class:`GpioRig`
is the gpiozero back end on the simulator's ``MockFactory``; the serial back end adds its own rig
and registers it in ``conftest.py``'s ``BACKENDS`` so the whole suite runs on both.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import Any

from hw_sim.pins import EdgeFeeder, SimFactory
from showdown.unit.backends.gpio import GpioUnit
from showdown.unit.clock import ManualClock, ms
from showdown.unit.config import UnitSettings
from showdown.unit.events import Go, ShowdownEvent, ShowdownOutcome
from showdown.unit.hardware import InputLine, Light, Side, UnitHardware
from showdown.unit.machine import ShowdownMachine

START_NS = ms(10_000)


@dataclass(frozen=True)
class Outputs:
    """What the unit shows: light, arrow (side or None), launcher (side or None), buzzer on."""

    light: Light
    arrow: Side | None
    launcher: Side | None
    buzzing: bool


class UnitRig(ABC):
    """A back end plus a :class:`ShowdownMachine` on a :class:`ManualClock`, with domain helpers."""

    def __init__(self, settings: UnitSettings | None = None, seed: int = 1) -> None:
        self.settings = settings or UnitSettings()
        self.clock = ManualClock(START_NS)
        self.hardware = self.make_hardware()
        self.machine = ShowdownMachine(self.hardware, self.settings, rng=random.Random(seed))
        self.events: list[ShowdownEvent] = []
        self.machine.subscribe(self.events.append)

    # -- what a back end provides -----------------------------------------------------------

    @abstractmethod
    def make_hardware(self) -> UnitHardware:
        """The back end under test, on ``self.clock``."""

    @abstractmethod
    def deliver(self, line: InputLine, active: bool, at_ns: int) -> None:
        """Put one raw edge on *line* at *at_ns*, delivered from another thread; wait for it."""

    @abstractmethod
    def outputs(self) -> Outputs:
        """The outputs as the wires show them now."""

    def close(self) -> None:
        """Close the machine and the back end."""
        self.machine.close()
        self.hardware.close()

    # -- domain helpers ---------------------------------------------------------------------

    def now_ns(self) -> int:
        """The rig's time."""
        return self.clock.now_ns()

    def advance(self, milliseconds: float) -> None:
        """Let *milliseconds* pass (timers run; nothing sleeps)."""
        self.clock.advance(ms(milliseconds))

    def edge(self, line: InputLine, active: bool, at_ns: int | None = None) -> None:
        """An edge at *at_ns* (default now); time moves up to it first (edges are never future)."""
        when = self.now_ns() if at_ns is None else at_ns
        self.clock.advance_to(when)
        self.deliver(line, active, when)

    def load(self, left: str | None = "ann", right: str | None = "bob", cards: int = 3) -> None:
        """Load two players and some cards."""
        self.machine.load(left, right, cards)

    def arm(self) -> None:
        """Press and release the timer button."""
        self.edge(InputLine.TIMER_BUTTON, True)
        self.advance(50)
        self.edge(InputLine.TIMER_BUTTON, False)

    def run_to_go(self, limit_ms: float = 20_000) -> int:
        """Advance until the light turns green; return the go time."""
        end = self.now_ns() + ms(limit_ms)
        while (go := self.go_ns()) is None:
            deadline = self.clock.next_deadline_ns()
            assert deadline is not None and deadline <= end, "go can never come"
            self.clock.advance_to(deadline)
        return go

    def go_ns(self) -> int | None:
        """The go time of the current showdown, once it came."""
        gos = [event for event in self.events if isinstance(event, Go)]
        if gos and gos[-1].showdown_id == self.machine.showdown_id:
            return gos[-1].at_ns
        return None

    def _at(self, after_go_ms: float | None, at_ns: int | None) -> int | None:
        if after_go_ms is None:
            return at_ns
        go = self.go_ns()
        assert go is not None, "no go yet"
        return go + ms(after_go_ms)

    def press(
        self, side: Side, *, after_go_ms: float | None = None, at_ns: int | None = None
    ) -> None:
        """Press *side*'s paddle (at go + *after_go_ms*, at *at_ns*, or now)."""
        self.edge(InputLine.paddle(side), True, self._at(after_go_ms, at_ns))

    def release(self, side: Side, *, at_ns: int | None = None) -> None:
        """Release *side*'s paddle."""
        self.edge(InputLine.paddle(side), False, at_ns)

    def press_left(self, *, after_go_ms: float | None = None, at_ns: int | None = None) -> None:
        """Press the left paddle."""
        self.press(Side.LEFT, after_go_ms=after_go_ms, at_ns=at_ns)

    def press_right(self, *, after_go_ms: float | None = None, at_ns: int | None = None) -> None:
        """Press the right paddle."""
        self.press(Side.RIGHT, after_go_ms=after_go_ms, at_ns=at_ns)

    def cards_land(self, side: Side, count: int, spacing_ms: float = 20) -> None:
        """*count* cards cross *side*'s count line, one pulse each."""
        for _ in range(count):
            self.advance(spacing_ms)
            self.edge(InputLine.count(side), True)
            self.advance(1)
            self.edge(InputLine.count(side), False)

    def results(self) -> list[ShowdownOutcome]:
        """Every result so far."""
        return [event for event in self.events if isinstance(event, ShowdownOutcome)]

    def finish(self, limit_ms: float = 20_000) -> ShowdownOutcome:
        """Advance until the current showdown's one result; fail if it can never come."""
        end = self.now_ns() + ms(limit_ms)
        while not any(r.showdown_id == self.machine.showdown_id for r in self.results()):
            deadline = self.clock.next_deadline_ns()
            assert deadline is not None and deadline <= end, "no result can ever come"
            self.clock.advance_to(deadline)
        return self.results()[-1]


class GpioRig(UnitRig):
    """The gpiozero back end on :class:`hw_sim.pins.SimFactory` pins; edges from a feeder thread."""

    def make_hardware(self) -> UnitHardware:
        self.factory = SimFactory(self.clock)
        self.feeder = EdgeFeeder()
        return GpioUnit(self.settings, clock=self.clock, pin_factory=self.factory)

    def _pin(self, name: str) -> Any:
        line = getattr(self.settings.pins, name)
        return self.factory.sim_pin(line.pin), line.active_high

    def deliver(self, line: InputLine, active: bool, at_ns: int) -> None:
        pin, active_high = self._pin(line.value)
        self.feeder.post(pin, active == active_high, at_ns)
        assert self.feeder.wait_idle(5.0), "edge never delivered"
        assert not self.feeder.errors, self.feeder.errors

    def _level(self, name: str) -> bool:
        pin, active_high = self._pin(name)
        return bool(pin.state) == active_high

    def outputs(self) -> Outputs:
        light = Light.OFF
        if self._level("light_red"):
            light = Light.RED
        if self._level("light_green"):
            light = Light.GREEN
        arrow = Side.LEFT if self._level("arrow_left") else None
        if self._level("arrow_right"):
            arrow = Side.RIGHT
        driver = self.settings.driver
        launcher = driver.toward({line: self._level(line) for line in driver.lines})
        buzzer_pin, _ = self._pin("buzzer")
        return Outputs(light, arrow, launcher, bool(buzzer_pin.state))

    def close(self) -> None:
        super().close()
        self.feeder.close()
