"""The ``unit_backend`` fixture: every state-machine test runs once per back end in ``BACKENDS``.

To add a back end, write a :class:`tests.showdown.rigs.UnitRig` subclass and add it here.
Tests that need other settings use the ``make_rig`` factory fixture with the same parameter.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest

from showdown.unit.config import UnitSettings
from tests.showdown.rigs import GpioRig, UnitRig
from tests.showdown.serial_rig import SerialRig

BACKENDS: dict[str, type[UnitRig]] = {"gpio": GpioRig, "serial": SerialRig}

RigFactory = Callable[..., UnitRig]


@pytest.fixture(params=sorted(BACKENDS))
def make_rig(request: pytest.FixtureRequest) -> Iterator[RigFactory]:
    """Build rigs of the parametrised back end with chosen settings; all closed afterwards."""
    made: list[UnitRig] = []

    def make(settings: UnitSettings | None = None, seed: int = 1) -> UnitRig:
        rig = BACKENDS[request.param](settings, seed)
        made.append(rig)
        return rig

    yield make
    for rig in made:
        rig.close()


@pytest.fixture
def unit_backend(make_rig: RigFactory) -> UnitRig:
    """A loaded rig with default settings, on the parametrised back end."""
    rig = make_rig()
    rig.load()
    return rig
