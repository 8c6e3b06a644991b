"""The ``unit_backend`` fixture: every state-machine test runs once per back end in ``BACKENDS``.

To add a back end, write a :class:`tests.showdown.rigs.UnitRig` subclass and add it here.
Tests that need other settings use the ``make_rig`` factory fixture with the same parameter;
``make_rig(watched=True)`` puts :class:`tests.showdown.watched.WatchedHardware` around the back end.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest

from showdown.unit.config import UnitSettings
from tests.showdown.rigs import GpioRig, UnitRig
from tests.showdown.serial_rig import SerialRig
from tests.showdown.watched import watched_rig

BACKENDS: dict[str, type[UnitRig]] = {"gpio": GpioRig, "serial": SerialRig}

RigFactory = Callable[..., UnitRig]


@pytest.fixture(params=sorted(BACKENDS))
def make_rig(request: pytest.FixtureRequest) -> Iterator[RigFactory]:
    """Build rigs of the parametrised back end with chosen settings; all closed afterwards."""
    made: list[UnitRig] = []

    def make(
        settings: UnitSettings | None = None, seed: int | None = 1, *, watched: bool = False
    ) -> UnitRig:
        backend = BACKENDS[request.param]
        rig = watched_rig(backend, settings, seed) if watched else backend(settings, seed)
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
