"""The simulated unit on the serial back end: wiring -> simulated microcontroller -> pty -> host.

The same simulated wiring as the gpiozero back end (:class:`~hw_sim.pins.SimFactory` pins, the
:class:`~hw_sim.launcher_model.LauncherModel`, edges from an :class:`~hw_sim.pins.EdgeFeeder`
thread) is connected to the pins of the simulated microcontroller (:mod:`hw_sim.mcu`, running the
reference firmware), as the unit's cables would be connected to a Pico: input lines drive the
firmware's pins (its interrupts stamp them), the firmware's outputs drive the wiring's output lines
(the launcher model sees the launcher move). The host side is the real
:class:`~showdown.unit.backends.serial.SerialUnit` over a pseudo-terminal opened with pyserial
through a
stable symlink, so faults (a :class:`~hw_sim.faults.FaultPlan`: damaged bytes, replugs, resets) hit
the real link code.
"""

from __future__ import annotations

import random
import shutil
import tempfile
import time
from pathlib import Path

from hw_sim.faults import FaultPlan
from hw_sim.launcher_model import LauncherModel, Throw
from hw_sim.mcu import Faults, SimulatedMcu
from hw_sim.micropython_standins import StandinPin
from hw_sim.pins import EdgeFeeder, SimFactory, SimPin
from showdown.unit.backends.serial import NACK_REASONS, SerialUnit
from showdown.unit.clock import JumpClock, ManualClock
from showdown.unit.config import LineConfig, UnitSettings
from showdown.unit.hardware import InputLine

__all__ = ["SIM_WATCHDOG_MS", "SerialSimUnit", "settle"]

_OPEN_TIMEOUT_S = 120.0
"""How long the first handshake may take on a line that damages bytes (a person would wait)."""

SIM_WATCHDOG_MS = 60_000
"""The simulator's clock jumps seconds over countdowns; a real unit keeps the 500 ms default."""

# Firmware line -> the configuration's line of the same wire; the launcher driver's inputs are
# wired by the Pico GPIO each has on that board (LauncherDriver.pico_gpio).
_INPUTS = ("paddle_left", "paddle_right", "timer_button", "count_left", "count_right")
_OUTPUTS = ("light_red", "light_green", "buzzer", "arrow_left", "arrow_right")


def settle(mcu: SimulatedMcu, unit: SerialUnit, timeout_s: float = 10.0) -> bool:
    """Wait until the firmware has run and nothing is in flight either way, twice in a row
    (a delivered event may queue a command), and the link's clock mapping has its first round
    trip (a jump of the clock during that one would skew every time after a reset); False on
    timeout. Retransmissions and reconnects happen meanwhile, on real time."""
    if not unit.link.connected and unit.link.idle() and mcu.quiescent():
        return mcu.wait_steps(2, timeout_s)
    deadline = time.monotonic() + timeout_s
    calm = 0
    while calm < 2:
        remaining = deadline - time.monotonic()
        if remaining <= 0 or not mcu.wait_steps(1, remaining):
            return False
        link = unit.link
        if mcu.quiescent() and link.idle() and link.connected and link.sync.ready:
            calm += 1
        else:
            calm = 0
    return True


class SerialSimUnit:
    """A whole simulated unit behind the serial back end (see the module docstring)."""

    def __init__(
        self,
        settings: UnitSettings,
        *,
        clock: JumpClock | ManualClock | None = None,
        seed: int = 0,
        physical: bool = True,
        spread: float = 0.1,
        jam_probability: float = 0.02,
        faults: FaultPlan | None = None,
        watchdog_ms: int = SIM_WATCHDOG_MS,
    ) -> None:
        self.settings = settings
        self.faults = faults if faults is not None else FaultPlan()
        self.edges_posted = 0
        self.replugs = 0
        self.resets = 0
        self.clock = clock if clock is not None else JumpClock(threaded=False)
        self.factory = SimFactory(self.clock)
        self.feeder = EdgeFeeder()
        self._tmp = Path(tempfile.mkdtemp(prefix="showdown-sim-"))
        plan = self.faults
        line = Faults(corrupt_rate=plan.corrupt, drop_rate=plan.drop, delay_ms=plan.delay_ms,
                      seed=plan.seed or seed)
        self.mcu = SimulatedMcu(
            self.clock.now_ns, link_path=self._tmp / "showdown-unit", faults=line, seed=seed
        )
        self._wire()
        self.mcu.start()
        try:
            self.hardware = SerialUnit(
                settings, port=self.mcu.port, clock=self.clock, watchdog_ms=watchdog_ms,
                open_timeout_s=_OPEN_TIMEOUT_S if plan.damages_bytes else 3.0,
            )
        except BaseException:
            self.mcu.close()
            raise
        self.serial = self.hardware
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

    def _line(self, name: str) -> tuple[SimPin, LineConfig]:
        config: LineConfig = getattr(self.settings.pins, name)
        return self.factory.sim_pin(config.pin), config

    def _wire(self) -> None:
        for name in _INPUTS:
            wire, config = self._line(name)
            wire.function = "input"
            wire.pull = "down" if config.active_high else "up"
            mcu_pin = self.mcu.pin(name)

            def follow(pin: SimPin, state: float, ticks: float, *, target: StandinPin = mcu_pin,
                       active_high: bool = config.active_high) -> None:
                active = bool(state) == active_high
                target.drive(0 if active else 1, round(ticks * 1e9))  # firmware: active-low

            wire.observers.append(follow)
        outputs = [(self.mcu.pin(name), name) for name in _OUTPUTS]
        outputs += [(self.mcu.machine.pin(gpio), name)
                    for name, gpio in self.settings.driver.pico_gpio.items()]
        for mcu_pin, name in outputs:
            wire, config = self._line(name)
            wire.function = "output"
            wire.state = not config.active_high

            def drive(pin: StandinPin, level: int, at_ns: int, *, target: SimPin = wire,
                      active_high: bool = config.active_high) -> None:
                target.state = active_high if level else not active_high

            mcu_pin.observers.append(drive)

    # -- SimulatedUnit ------------------------------------------------------------------------

    def edge(self, line: InputLine, active: bool, at_ns: int | None = None) -> int:
        """Queue an edge on the wiring stamped *at_ns* (None: now); the feeder thread drives it
        into the firmware's pin, whose interrupt stamps it. Returns the stamp.

        The fault plan's replugs and resets are done right after the edge they follow reached the
        firmware: faults land in the middle of showdowns."""
        wire, config = self._line(line.value)
        stamp = self.feeder.post(wire, active == config.active_high, at_ns)
        self.edges_posted += 1
        action = self.faults.action(self.edges_posted)
        if action is not None:
            self.feeder.wait_idle(10.0)
            if action == "replug":
                self.replugs += 1
                self.mcu.replug()
            else:
                self.resets += 1
                self.mcu.reset()
        return stamp

    def wait_idle(self, timeout_s: float = 10.0) -> bool:
        """Wait until queued edges reached the firmware and the link has carried everything."""
        return self.feeder.wait_idle(timeout_s) and settle(self.mcu, self.serial, timeout_s)

    def load_launcher(self, cards: int) -> None:
        """Clip *cards* cards into the launcher model."""
        if self.launcher is not None:
            self.launcher.load(cards)

    def throws(self) -> list[Throw]:
        """Every fire of the launcher so far, with where the cards really landed."""
        return [] if self.launcher is None else self.launcher.throws

    def launch_trouble(self) -> list[str]:
        """Every command the firmware refused, with its reason, and every ``Fire`` or ``Arm``
        the host withdrew before it was acknowledged (the showdown ended first)."""
        refused = [f"command {nack.refused_sequence} refused: "
                   f"{NACK_REASONS.get(nack.reason, str(nack.reason))}"
                   for nack in self.serial.refusals]
        withdrawn = [f"{type(message).__name__} withdrawn unacknowledged"
                     for message in self.serial.link.stats.dropped_commands]
        return refused + withdrawn

    def line_figures(self) -> dict[str, int]:
        """What the line went through: faults done to it and what the link did about them."""
        stats = self.serial.link.stats
        return {
            "resets": self.resets,
            "replugs": self.replugs,
            "boots": self.mcu.boots,
            "bytes_corrupted": self.mcu.bytes_corrupted,
            "bytes_dropped": self.mcu.bytes_dropped,
            "bad_frames": stats.decode_errors,
            "retransmit_rounds": stats.retransmit_rounds,
            "go_backs": stats.go_backs,
            "reconnects": stats.reconnects,
            "fresh_sessions": stats.fresh_sessions,
            "duplicates_dropped": stats.duplicates_dropped,
            "commands_withdrawn": len(stats.dropped_commands),
            "srtt_us": round(1e6 * (self.serial.link.rto.srtt_s or 0.0)),
        }

    def close(self) -> None:
        """Outputs safe (through the link), threads stopped, the pty closed."""
        self.hardware.close()
        self.feeder.close()
        self.mcu.close()
        self.clock.close()
        shutil.rmtree(self._tmp, ignore_errors=True)
