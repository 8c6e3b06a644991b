"""The back ends of :class:`~showdown.unit.hardware.UnitHardware`, one module each, and the one
registry of them by name.

``unit.backend`` in the configuration, ``showdown run``, ``showdown check``, the simulator's
builders (:data:`hw_sim.sim_unit.SIM_BACKENDS`) and the tests' rigs all use the names in
:data:`BACKENDS`; a test checks that each of them knows every name. A back end's module is
imported only when that back end is opened, so gpiozero or pyserial load only when needed.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import get_args

from showdown.unit.config import BackendName, UnitSettings
from showdown.unit.hardware import UnitHardware

__all__ = ["BACKENDS", "Backend", "BackendName", "open_backend"]



@dataclass(frozen=True)
class Backend:
    """One back end: where its class lives and what it drives."""

    name: BackendName
    module: str
    cls: str
    describe: str

    def open(self, settings: UnitSettings, port: str | None = None) -> UnitHardware:
        """Open the unit through this back end (``port``: the serial one's device or URL)."""
        opener = getattr(importlib.import_module(self.module), self.cls)
        hardware: UnitHardware = (
            opener(settings, port=port) if self.name == "serial" else opener(settings)
        )
        return hardware


BACKENDS: dict[BackendName, Backend] = {
    "gpio": Backend("gpio", "showdown.unit.backends.gpio", "GpioUnit",
                    "gpiozero on the Pi's own pins"),
    "serial": Backend("serial", "showdown.unit.backends.serial", "SerialUnit",
                      "a Pico on USB serial (firmware_bridge)"),
}
assert set(BACKENDS) == set(get_args(BackendName))


def open_backend(
    name: BackendName, settings: UnitSettings, port: str | None = None
) -> UnitHardware:
    """Open the unit on the back end called *name* (see :data:`BACKENDS`)."""
    return BACKENDS[name].open(settings, port)
