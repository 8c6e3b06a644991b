"""The back end's reports of the launcher, taken for what they are: one launch per showdown.

A serial line can bring a "launcher on" report twice, late, or after the showdown is over, and a
unit can report a launch nobody asked for. Only the first report of the fire a winning press
asked for is the showdown's launch: it is announced once, the cards are counted from it, and the
result carries its time. Every other report leaves the showdown as it was. The reports are given
as a back end gives them, through the machine's listener interface.
"""

from __future__ import annotations

import pytest

from showdown.unit.clock import ms
from showdown.unit.config import TimingConfig, UnitSettings
from showdown.unit.events import Counting, Launching
from showdown.unit.hardware import Side
from showdown.unit.verdict import Reason
from tests.showdown.conftest import RigFactory
from tests.showdown.rigs import UnitRig

SETTLE_MS = TimingConfig().count_settle_ms


def launchings(rig: UnitRig) -> list[Launching]:
    return [e for e in rig.events if isinstance(e, Launching)]


def report(rig: UnitRig, toward: Side | None) -> None:
    """The back end reports the launcher on toward *toward* (None: off) now."""
    rig.machine.launcher_changed(toward, rig.now_ns())


@pytest.mark.parametrize("again", [Side.RIGHT, Side.LEFT])
def test_a_second_on_report_in_the_same_showdown_is_not_a_second_launch(
    unit_backend: UnitRig, again: Side
) -> None:
    rig = unit_backend
    rig.arm()
    rig.run_to_go()
    rig.press_left(after_go_ms=200)
    (first,) = launchings(rig)
    rig.advance(600)  # the throw is over; the count goes on
    report(rig, again)  # the same report again, or a stray one
    rig.advance(1)
    report(rig, None)
    rig.cards_land(Side.RIGHT, 3)
    result = rig.finish()
    assert launchings(rig) == [first]
    assert (result.launcher_on_ns, result.launched_toward) == (first.at_ns, Side.RIGHT)
    assert result.at_ns == first.at_ns + ms(SETTLE_MS), "the count was not started again"
    assert [e.at_ns for e in rig.events if isinstance(e, Counting)] == [first.at_ns]
    assert result.counts == {Side.RIGHT: 3, Side.LEFT: 0}


def test_on_reports_before_the_race_is_won_are_no_launch(unit_backend: UnitRig) -> None:
    rig = unit_backend
    rig.arm()
    rig.advance(500)
    report(rig, Side.LEFT)  # during the countdown
    rig.advance(1)
    report(rig, None)
    rig.run_to_go()
    rig.advance(100)
    report(rig, Side.RIGHT)  # during the race, nobody has pressed
    rig.advance(1)
    report(rig, None)
    result = rig.finish()
    assert result.reason is Reason.TIMEOUT
    assert launchings(rig) == []
    assert (result.launcher_on_ns, result.launched_toward) == (None, None)


def test_an_on_report_after_the_result_is_no_launch_of_that_showdown(
    make_rig: RigFactory,
) -> None:
    """The second showdown's fire is refused (cooling down), so it is decided without a launch;
    a report that comes after its result does not make one out of it, nor of the next."""
    rig = make_rig(UnitSettings(timing=TimingConfig(launcher_cooldown_ms=60_000)))
    rig.load()
    for _ in range(2):
        rig.arm()
        rig.run_to_go()
        rig.press_left(after_go_ms=200)
        rig.release(Side.LEFT)
        rig.finish()
    first, second = rig.results()
    assert first.launcher_on_ns is not None and second.launcher_on_ns is None
    report(rig, Side.RIGHT)
    rig.advance(1)
    report(rig, None)
    rig.advance(5000)
    assert [e.showdown_id for e in launchings(rig)] == [first.showdown_id]
    assert len(rig.results()) == 2



def test_a_stray_off_report_does_not_restart_the_count_of_a_showdown_whose_fire_was_refused(
    make_rig: RigFactory,
) -> None:
    rig = make_rig(UnitSettings(timing=TimingConfig(launcher_cooldown_ms=60_000)))
    rig.load()
    rig.arm()
    rig.run_to_go()
    rig.press_left(after_go_ms=200)
    rig.release(Side.LEFT)
    rig.finish()
    rig.arm()
    rig.run_to_go()
    rig.press_left(after_go_ms=200)
    pressed = rig.now_ns()  # this fire was refused (cooling down): the count runs from the press
    rig.advance(500)
    report(rig, None)
    result = rig.finish()
    assert result.launcher_on_ns is None
    assert result.at_ns == pressed + ms(SETTLE_MS), "the count was not started again"
    assert [e.at_ns for e in rig.events if isinstance(e, Counting)][-1] == pressed


def test_losing_contact_between_showdowns_voids_nothing(unit_backend: UnitRig) -> None:
    rig = unit_backend
    rig.machine.contact_lost(rig.now_ns(), restarted=False)  # before the first showdown
    rig.arm()
    rig.run_to_go()
    rig.press_left(after_go_ms=200)
    rig.finish()
    rig.machine.contact_lost(rig.now_ns(), restarted=True)  # after its result
    rig.advance(5000)
    assert [r.reason for r in rig.results()] == [Reason.RACE]
