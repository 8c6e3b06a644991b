"""Where the showdowns come from, behind one type: the simulated unit played from the keyboard,
the simulated unit with virtual players, or the real unit (on the Pi's pins or behind a Pico).

Whatever the kind, the rest of the service gets a :class:`UnitSource`: the state machine to
mirror, the link's figures for the stats line, and the one
:class:`~showdown.game.recorder.UnitRecorder` that turns the unit's outcomes into entries (built by
:func:`record_outcomes` here and nowhere else). Its closing goes in the shutdown's unit phase:
the outputs are made safe before anything that may take its time.
"""

from __future__ import annotations

import enum
import importlib
import logging
import os
import threading
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING

from showdown.app.errors import UserError
from showdown.app.parts.shutdown import Phase, Shutdown
from showdown.app.stats import LinkSource
from showdown.game.recorder import UnitRecorder
from showdown.game.session import Session
from showdown.unit.backends import BACKENDS
from showdown.unit.backends.serial import SerialUnit
from showdown.unit.config import UnitSettings
from showdown.unit.hardware import UnitHardware
from showdown.unit.machine import ShowdownMachine

if TYPE_CHECKING:
    from showdown.playtest.panel import KeyboardUnit
    from showdown.playtest.referee import SimulatedReferee

__all__ = ["PI_MODEL", "Kind", "UnitSource", "choose_backend", "link_source", "open_keyboard",
           "open_real", "open_simulated", "record_outcomes"]

log = logging.getLogger("showdown.run")

PI_MODEL = Path("/proc/device-tree/model")


class Kind(enum.Enum):
    """Which unit the showdowns come from."""

    KEYBOARD = "the simulated unit, played from the keyboard"
    SIMULATED = "the simulated unit with virtual players"
    REAL = "the unit at this table"


@dataclass(frozen=True)
class UnitSource:
    """The unit the service drives, whichever kind (see the module docstring)."""

    kind: Kind
    machine: ShowdownMachine
    link: LinkSource
    """The serial link's figures for the stats line, or why there is no link."""
    recorder: UnitRecorder | None = None
    """Records the unit's outcomes; None where the virtual players' referee records them."""
    referee: SimulatedReferee | None = None
    """The simulated unit the virtual players play on (:attr:`Kind.SIMULATED` only)."""
    keyboard: KeyboardUnit | None = None
    """The unit drawn beside the scoreboard and played by keys (:attr:`Kind.KEYBOARD` only)."""

    @property
    def loaded_by_people(self) -> bool:
        """Whether people at the paddles load the unit from the scoreboard (the virtual players
        load the simulated unit themselves)."""
        return self.kind is not Kind.SIMULATED

    def retry(self) -> None:
        """From the main loop: store again the outcomes the journal could not take yet."""
        if self.recorder is not None:
            self.recorder.retry()


def record_outcomes(session: Session, machine: ShowdownMachine) -> UnitRecorder:
    """The one recorder of ``machine``'s outcomes into ``session``, subscribed; its showdown ids
    join the unit's numbers with this moment, so a restart never records one twice."""
    recorder = UnitRecorder(session, datetime.now(UTC).strftime("%Y%m%dT%H%M%S.%f"))
    machine.subscribe(recorder)
    return recorder


def open_keyboard(settings: UnitSettings, session: Session, shutdown: Shutdown) -> UnitSource:
    """The simulated unit played from the keyboard beside the scoreboard (``--interactive``)."""
    panel = importlib.import_module("showdown.playtest.panel")  # pygame only when drawn
    keyboard: KeyboardUnit = panel.KeyboardUnit(settings)
    shutdown.add(Phase.UNIT, keyboard.close, "closing the keyboard's unit")
    log.info("unit back end: the simulated unit played from the keyboard (--interactive)")
    recorder = record_outcomes(session, keyboard.machine)
    return UnitSource(Kind.KEYBOARD, keyboard.machine,
                      no_link("none (the simulated unit, played from the keyboard)"),
                      recorder=recorder, keyboard=keyboard)


def open_simulated(settings: UnitSettings, shutdown: Shutdown, *, why: str, seed: int,
                   fast: bool, speed: float, stop: threading.Event) -> UnitSource:
    """The simulated unit the virtual players play on: its referee records each showdown
    through the bot table, so no recorder here."""
    from showdown.playtest.referee import SimulatedReferee  # noqa: PLC0415 - only when simulating

    referee = SimulatedReferee(settings, seed=seed, fast=fast, stop=stop, speed=speed)
    shutdown.add(Phase.UNIT, referee.close, "closing the simulated unit")
    log.info("unit back end: the simulated unit with virtual players (%s)", why)
    return UnitSource(Kind.SIMULATED, referee.machine, no_link("none (the simulated unit)"),
                      referee=referee)


def open_real(settings: UnitSettings, session: Session, shutdown: Shutdown, *,
              why: str) -> UnitSource:
    """The unit at this table on its configured back end; one that cannot be opened is one
    line saying why."""
    backend = BACKENDS[settings.backend]
    try:
        hardware = backend.open(settings, port=settings.serial_port)
    except Exception as error:  # no lgpio, pins busy, link down: say so, no trace
        hint = "; use --sim to simulate" if backend.name == "gpio" else ""
        raise UserError(f"cannot drive the unit through {backend.describe} ({error}){hint}"
                        ) from None
    shutdown.add(Phase.UNIT, hardware.close, "closing the unit's back end")
    log.info("unit back end: %s (%s)", backend.describe, why)
    machine = ShowdownMachine(hardware, settings)
    shutdown.add(Phase.UNIT, machine.close, "closing the showdown state machine")
    recorder = record_outcomes(session, machine)
    return UnitSource(Kind.REAL, machine, link_source(hardware), recorder=recorder)


def choose_backend(
    sim: bool, model_file: Path = PI_MODEL, backend: str = "gpio"
) -> tuple[bool, str]:
    """(use the simulator?, why) - the reason goes into the one log line about it.

    Only the ``gpio`` back end needs a Pi: a unit behind a microcontroller on USB (``serial``)
    can be run from any Linux machine."""
    if sim:
        return True, "--sim was given"
    factory = os.environ.get("GPIOZERO_PIN_FACTORY", "")
    if factory.lower() == "mock":
        return True, "GPIOZERO_PIN_FACTORY=mock"
    if backend != "gpio":
        return False, f"unit.backend is {backend!r}"
    try:
        model = model_file.read_text(encoding="utf-8", errors="replace").strip("\x00\n ")
    except OSError:
        return True, f"no Raspberry Pi found ({model_file} is absent)"
    if "Raspberry Pi" not in model:
        return True, f"no Raspberry Pi found ({model_file} says {model!r})"
    return False, f"running on a {model}"


def link_source(hardware: UnitHardware) -> LinkSource:
    """Where the stats line takes the serial link's figures from (a unit on the Pi's own pins
    has no link)."""
    if isinstance(hardware, SerialUnit):
        unit = hardware
        return lambda: (unit.link.figures(), len(unit.faults))
    return no_link("none (the unit is on the Pi's own pins)")


def no_link(why: str) -> LinkSource:
    """A link source for a unit without a serial link: the stats line says why."""
    return lambda: why
