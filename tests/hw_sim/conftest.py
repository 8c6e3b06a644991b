"""The firmware tests run twice: under CPython with the stand-ins, and under the real MicroPython
interpreter (the unix port) with the shims in ``tests/hw_sim/micropython/``."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest

from tests.hw_sim.firmware_harness import Firmware
from tests.hw_sim.mpy_harness import MpyFirmware

FirmwareFactory = Callable[..., Any]


@pytest.fixture(params=["cpython", "micropython"])
def make_firmware(request: pytest.FixtureRequest) -> Iterator[FirmwareFactory]:
    """Builds a firmware harness on the interpreter of this run (same arguments as
    :class:`~tests.hw_sim.firmware_harness.Firmware`)."""
    made: list[MpyFirmware] = []

    def make(*args: Any, **kwargs: Any) -> Any:
        if request.param == "cpython":
            return Firmware(*args, **kwargs)
        firmware = MpyFirmware(*args, **kwargs)
        made.append(firmware)
        return firmware

    yield make
    for firmware in made:
        firmware.close()
