"""Loading the reference firmware (``firmware_bridge/pico/``) into CPython, unchanged.

The firmware's modules import each other by their flat MicroPython names (``import sdfw_proto``),
so they are loaded by path from the installed package data (found with
:mod:`importlib.resources`, so a non-editable install works as well as a checkout) and registered
in ``sys.modules`` under those same names, prefixed ``sdfw_`` so they cannot shadow anything.
``main.py`` (the Pico's entry point, which imports ``machine``) is
never loaded here: the simulator builds the firmware's objects itself with stand-ins
(:mod:`hw_sim.micropython_standins`). The modules are untyped MicroPython-subset code, so this
module hands them out as ``Any``; mypy checks ``hw_sim`` and leaves ``firmware_bridge/pico/``
to ruff.
"""

from __future__ import annotations

import importlib.resources
import importlib.util
import sys
import threading
from pathlib import Path
from types import ModuleType
from typing import Any

__all__ = ["FIRMWARE_DIR", "FIRMWARE_MODULES", "firmware_module"]

FIRMWARE_DIR = Path(str(importlib.resources.files("firmware_bridge") / "pico"))
"""The firmware's sources: package data of :mod:`firmware_bridge`, in a checkout or installed."""

FIRMWARE_MODULES = ("sdfw_proto", "sdfw_unit", "sdfw_link")
"""The firmware's modules in dependency order (``main.py`` is Pico-only)."""

_lock = threading.Lock()


def firmware_module(name: str) -> Any:
    """The firmware module *name* (``"sdfw_unit"``), loaded once from :data:`FIRMWARE_DIR`."""
    if name not in FIRMWARE_MODULES:
        raise ValueError(f"{name!r} is not a firmware module ({', '.join(FIRMWARE_MODULES)})")
    with _lock:
        for each in FIRMWARE_MODULES:
            if each not in sys.modules:
                _load(each)
            if each == name:
                break
        return sys.modules[name]


def _load(name: str) -> ModuleType:
    path = FIRMWARE_DIR / f"{name}.py"
    if not path.is_file():
        raise FileNotFoundError(
            f"the reference firmware is not at {FIRMWARE_DIR}: the installed package is "
            "incomplete (reinstall uno-showdown)"
        )
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        del sys.modules[name]
        raise
    return module
