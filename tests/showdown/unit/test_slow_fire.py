"""A ``Fire`` that a bad serial line brings late, or never: the winner's cards still fly, counted
from the launch, and a showdown waits for them only so long. (A fire the board refuses is
reported as the launcher staying off: ``test_serial_unit_safety.py``.)

The simulated board is made deaf (every byte from the host lost) between the winning press and
its ``Fire``, while the rig's manual clock moves on; then it hears again and the link's resend
gets through, as on a line that went bad at the worst moment.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator

import pytest

from firmware_bridge.messages import Fire
from showdown.unit.clock import ms
from showdown.unit.config import TimingConfig, UnitSettings
from showdown.unit.events import Counting, Launching
from showdown.unit.hardware import InputLine, Side
from showdown.unit.machine import MachinePhase
from showdown.unit.verdict import Reason
from tests.showdown.serial_rig import SerialRig
from tests.showdown.watched import WatchedHardware, watched_rig

RigMaker = Callable[..., SerialRig]


@pytest.fixture
def make_serial_rig() -> Iterator[RigMaker]:
    rigs: list[SerialRig] = []

    def make(**timing: float) -> SerialRig:
        rig = SerialRig(UnitSettings(timing=TimingConfig(**timing)))  # type: ignore[arg-type]
        rigs.append(rig)
        return rig

    yield make
    for rig in rigs:
        rig.close()


def launcher_levels(rig: SerialRig) -> list[int]:
    """Every level the board drives its launcher enable to from now on."""
    levels: list[int] = []
    rig.mcu.pin("launcher_enable").observers.append(lambda pin, level, at: levels.append(level))
    return levels


def press_unheard(rig: SerialRig, side: Side, after_go_ms: float) -> int:
    """*side* wins the race while the board hears nothing from the host: the host has fired
    (its ``Fire`` is waiting in the link) and the launcher has not moved. Returns the press time."""
    rig.mcu.deaf = True
    rig.press(side, after_go_ms=after_go_ms)
    rig.wait_until(lambda: rig.machine.phase is MachinePhase.COUNTING
                   and not rig.serial.link.idle())
    go = rig.go_ns()
    assert go is not None
    return go + ms(after_go_ms)


def test_a_fire_the_line_delays_still_launches_and_the_cards_are_counted_from_the_launch(
    make_serial_rig: RigMaker,
) -> None:
    rig = make_serial_rig()
    rig.load(cards=3)
    rig.arm()
    rig.run_to_go()
    levels = launcher_levels(rig)
    press = press_unheard(rig, Side.LEFT, after_go_ms=200)
    rig.advance(3000)  # twice the side counts' settle time
    assert rig.results() == [], "the showdown ended with the winner's cards still loaded"
    assert 1 not in levels
    rig.mcu.deaf = False
    rig.settle()  # the link's resend arrives
    assert 1 in levels, "the launcher never fired"
    launching = [e for e in rig.events if isinstance(e, Launching)]
    assert len(launching) == 1 and launching[0].toward is Side.RIGHT
    rig.cards_land(Side.RIGHT, 3)
    result = rig.finish()
    assert (result.winner, result.loser, result.reason) == (Side.LEFT, Side.RIGHT, Reason.RACE)
    assert result.launcher_on_ns is not None and result.launcher_on_ns >= press + ms(3000)
    assert result.counts == {Side.RIGHT: 3, Side.LEFT: 0}, "cards counted from the launch"
    assert not result.possible_jam
    assert result.at_ns >= result.launcher_on_ns + ms(TimingConfig().count_settle_ms)


def test_a_fire_that_never_arrives_ends_the_showdown_at_the_wait_and_never_flies_late(
    make_serial_rig: RigMaker, caplog: pytest.LogCaptureFixture
) -> None:
    rig = make_serial_rig(launch_wait_ms=4000)
    rig.load(cards=2)
    rig.arm()
    rig.run_to_go()
    levels = launcher_levels(rig)
    press = press_unheard(rig, Side.RIGHT, after_go_ms=250)
    with caplog.at_level(logging.WARNING, logger="showdown.unit.machine"):
        rig.advance(3900)
        assert rig.results() == []
        rig.advance(200)
    (result,) = rig.results()
    assert (result.winner, result.loser, result.reason) == (Side.RIGHT, Side.LEFT, Reason.RACE)
    assert result.launcher_on_ns is None
    assert press + ms(4000) <= result.at_ns < press + ms(4100)
    assert ("showdown 1: the launcher did not report firing within 4000 ms of the winning press; "
            "the cards stay loaded") in [r.getMessage() for r in caplog.records]
    rig.mcu.deaf = False
    rig.settle()
    rig.advance(20_000)
    assert 1 not in levels, "a fire withdrawn at the showdown's end flew after it"
    assert any(isinstance(m, Fire) for m in rig.serial.link.stats.dropped_commands)


def test_an_off_report_while_the_fire_is_on_its_way_ends_the_wait_and_counts_as_usual(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """The back end answers a ``Fire`` the board refused with the launcher staying off: the
    showdown stops waiting for a launch that will not come, counts for the usual settle time from
    that answer, and is decided on the presses with no launch. A pulse on a count line while the
    fire was on its way was no card of this showdown."""
    rig = watched_rig(SerialRig, UnitSettings(timing=TimingConfig(launch_wait_ms=8000)))
    try:
        hardware = rig.hardware
        assert isinstance(hardware, WatchedHardware)
        rig.load(cards=2)
        rig.arm()
        rig.run_to_go()
        press_unheard(rig, Side.RIGHT, after_go_ms=250)
        rig.advance(50)
        rig.cards_land(Side.LEFT, 1)
        rig.wait_until(lambda: any(e.line is InputLine.COUNT_LEFT
                                   for e in hardware.edges_handled))
        rig.advance(50)
        refused_at = rig.now_ns()
        with caplog.at_level(logging.WARNING, logger="showdown.unit.machine"):
            rig.machine.launcher_changed(None, refused_at)  # as the back end reports a refusal
            rig.advance(200)
            rig.machine.launcher_changed(None, rig.now_ns())  # and the same report again
        result = rig.finish()
    finally:
        rig.close()
    assert "showdown 1: the unit refused to fire the launcher" in [
        r.getMessage() for r in caplog.records]
    assert (result.winner, result.reason, result.launcher_on_ns) == (Side.RIGHT, Reason.RACE, None)
    assert result.at_ns == refused_at + ms(TimingConfig().count_settle_ms)
    assert [e.at_ns for e in rig.events if isinstance(e, Counting)] == [refused_at]
    assert not any(isinstance(e, Launching) for e in rig.events)
    assert result.counts == {Side.LEFT: 0, Side.RIGHT: 0}
