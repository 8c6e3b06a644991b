"""Finding the unit's microcontroller by a name that survives unplugging.

Order: an explicit path or pyserial URL; the udev symlink ``/dev/showdown-unit``
(``deploy/``'s rule); a ``/dev/serial/by-id`` link to a port whose USB id is the Pico's
(``serial.tools.list_ports``). ``/dev/ttyACM0`` alone may change after a replug; these do not.
"""

from __future__ import annotations

import glob
import os

from serial.tools import list_ports

from firmware_bridge.protocol import STABLE_PATH, USB_PID, USB_VID

__all__ = ["NoDeviceError", "find_port"]


class NoDeviceError(LookupError):
    """No microcontroller is plugged in (or none with the expected USB id)."""


def find_port(explicit: str | None = None, *, stable_path: str = STABLE_PATH) -> str:
    """The path (or pyserial URL) to open; :class:`NoDeviceError` names what was tried."""
    if explicit:
        return explicit
    if os.path.exists(stable_path):
        return stable_path
    for info in list_ports.comports():
        if info.vid == USB_VID and info.pid == USB_PID:
            real = os.path.realpath(info.device)
            for link in sorted(glob.glob("/dev/serial/by-id/*")):
                if os.path.realpath(link) == real:
                    return link
            return str(info.device)
    raise NoDeviceError(
        f"no Showdown unit found: {stable_path} does not exist and no USB serial port has id "
        f"{USB_VID:04x}:{USB_PID:04x} (plug the unit in, or pass its port)"
    )
