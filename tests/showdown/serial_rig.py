"""The serial back end's test rig: the simulated microcontroller (running the reference firmware)
on a pseudo-terminal, and :class:`~showdown.unit.backends.serial.SerialUnit` talking to it with
pyserial.

The microcontroller's clock is the rig's :class:`~showdown.unit.clock.ManualClock`, so tests control
both ends' time. Commands and events cross real threads and a real pty; the rig waits for them
with :meth:`SerialRig.settle` (a barrier on the firmware's main loop and the link's queues) after
every edge and after every batch of timers, so a test sees what a player would see once the
unit has caught up, without sleeping.
"""

from __future__ import annotations

import shutil
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from hw_sim.mcu import SimulatedMcu
from showdown.unit.backends.serial import SerialUnit
from showdown.unit.clock import ManualClock
from showdown.unit.hardware import InputLine, Light, Side, UnitHardware
from tests.showdown.rigs import START_NS, Outputs, UnitRig

_LINE_PINS = {
    InputLine.PADDLE_LEFT: "paddle_left",
    InputLine.PADDLE_RIGHT: "paddle_right",
    InputLine.TIMER_BUTTON: "timer_button",
    InputLine.COUNT_LEFT: "count_left",
    InputLine.COUNT_RIGHT: "count_right",
}
SIM_WATCHDOG_MS = 60_000
"""The rig's clock jumps seconds at a time; the watchdog has its own tests (test_watchdog)."""


class SettlingClock(ManualClock):
    """A manual clock that lets the serial link catch up after every batch of due timers."""

    def __init__(self, start_ns: int, rig: SerialRig) -> None:
        super().__init__(start_ns)
        self._rig = rig

    def run_due(self) -> int:
        """Run due timers, then wait until the commands they queued have taken effect."""
        count = super().run_due()
        if count:
            self._rig.settle()
        return count


class SerialRig(UnitRig):
    """The serial back end against the simulated microcontroller. See the module docstring."""

    def make_hardware(self) -> UnitHardware:
        self.clock = SettlingClock(START_NS, self)
        self._tmp = Path(tempfile.mkdtemp(prefix="showdown-serial-"))
        self.mcu = SimulatedMcu(self.clock.now_ns, link_path=self._tmp / "showdown-unit").start()
        self.serial = SerialUnit(
            self.settings, port=self.mcu.port, clock=self.clock, watchdog_ms=SIM_WATCHDOG_MS
        )
        return self.serial

    def settle(self, timeout_s: float = 5.0) -> None:
        """Wait until the firmware has run, every command is acknowledged and every event
        delivered, twice in a row (a delivered event may have queued a command). While the board
        is deaf (``mcu.deaf``) nothing can be acknowledged: only the firmware's loop is awaited."""
        if not self.serial.link.connected or self.mcu.deaf:
            assert self.mcu.wait_steps(2, timeout_s), "the firmware loop stopped"
            return
        deadline = time.monotonic() + timeout_s
        calm = 0
        while calm < 2:
            assert time.monotonic() < deadline, "the serial link never settled"
            assert self.mcu.wait_steps(1, timeout_s), "the firmware loop stopped"
            if self.mcu.quiescent() and self.serial.link.idle():
                calm += 1
            else:
                calm = 0

    def wait_until(self, condition: Callable[[], bool], timeout_s: float = 5.0) -> None:
        """Wait, a firmware loop pass at a time, until *condition* holds (the host's reader
        thread has handled what the board sent)."""
        deadline = time.monotonic() + timeout_s
        while not condition():
            assert time.monotonic() < deadline, "the condition never held"
            assert self.mcu.wait_steps(1, timeout_s), "the firmware loop stopped"

    def deliver(self, line: InputLine, active: bool, at_ns: int) -> None:
        self.mcu.pin(_LINE_PINS[line]).drive(0 if active else 1, at_ns)
        self.settle()

    def _high(self, name: str) -> bool:
        return bool(self.mcu.pin(name).level)

    def outputs(self) -> Outputs:
        self.settle()
        light = Light.OFF
        if self._high("light_red"):
            light = Light.RED
        if self._high("light_green"):
            light = Light.GREEN
        arrow = Side.LEFT if self._high("arrow_left") else None
        if self._high("arrow_right"):
            arrow = Side.RIGHT
        driver = self.settings.driver
        launcher = driver.toward({
            line: bool(self.mcu.machine.pin(gpio).level) for line, gpio in driver.pico_gpio.items()
        })
        return Outputs(light, arrow, launcher, self._high("buzzer"))

    def close(self) -> None:
        super().close()
        self.mcu.close()
        shutil.rmtree(self._tmp, ignore_errors=True)
