"""Whether a real window can open here, asked before and after SDL starts.

On a machine with no screen SDL does not fail: it quietly falls back to its ``offscreen`` (or
``dummy``) driver, so a scoreboard "opens", is never seen, still costs CPU, and SDL prints a
confusing line about ``XDG_RUNTIME_DIR``. So the scoreboard asks first (no X11, no Wayland and no
KMS console: do not even start SDL) and checks the driver SDL picked. A driver named on purpose
in ``SDL_VIDEODRIVER`` (``dummy`` in the tests, ``kmsdrm`` in the Pi's service) is always trusted.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping
from pathlib import Path

import pygame

INVISIBLE_DRIVERS = frozenset({"offscreen", "dummy"})
"""SDL video drivers that draw into memory only: nobody sees their window."""


class NoWindowError(Exception):
    """No window anyone could see can open here; the message says why, in one line."""


def requested_driver(environ: Mapping[str, str] = os.environ) -> str:
    """The video driver asked for by name in ``SDL_VIDEODRIVER`` ('' when SDL chooses)."""
    return environ.get("SDL_VIDEODRIVER", "").strip().lower()


def check_environment(
    environ: Mapping[str, str] = os.environ, dri: Path = Path("/dev/dri"),
    platform: str = sys.platform,
) -> None:
    """Raise :class:`NoWindowError` when, before SDL starts, no screen can be reached on Linux."""
    if requested_driver(environ) or platform != "linux":
        return
    if environ.get("DISPLAY") or environ.get("WAYLAND_DISPLAY"):
        return
    if dri.is_dir() and any(dri.glob("card*")):  # a KMS/DRM console (the Pi's panel)
        return
    raise NoWindowError("no DISPLAY or WAYLAND_DISPLAY and no KMS console (/dev/dri)")


def check_driver(environ: Mapping[str, str] = os.environ) -> None:
    """After ``pygame.display.init()``: raise :class:`NoWindowError` when SDL fell back by itself to
    a driver whose window nobody sees."""
    driver = pygame.display.get_driver().lower()
    if driver in INVISIBLE_DRIVERS and requested_driver(environ) != driver:
        raise NoWindowError(f"SDL found no screen and fell back to its {driver!r} video driver")
