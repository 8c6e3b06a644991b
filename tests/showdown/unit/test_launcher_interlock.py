"""The launcher interlock as its callers meet it: one permission, one fire; none while the
launcher is still on; a cool-down from the end of the last pulse; every refusal named.

The interlock drives the launcher only through :class:`~showdown.unit.hardware.UnitHardware`, so
these tests watch those commands (:mod:`tests.showdown.watched`) and the launcher as the rig sees
it, never a pin. They run on the gpio back end, whose reports come at once: the exact bounds of
the cool-down are the interlock's, whatever carries them.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from showdown.unit.clock import ms
from showdown.unit.config import TimingConfig, UnitSettings
from showdown.unit.hardware import Side, UnitHardware
from showdown.unit.launcher import LauncherInterlock
from showdown.unit.machine import MachinePhase
from tests.showdown.rigs import GpioRig, UnitRig
from tests.showdown.watched import WatchedHardware, watched_rig

PULSE_MS = 300
COOLDOWN_MS = 2000


@pytest.fixture
def rig() -> Iterator[UnitRig]:
    made = watched_rig(
        GpioRig,
        UnitSettings(timing=TimingConfig(launcher_pulse_ms=PULSE_MS,
                                         launcher_cooldown_ms=COOLDOWN_MS)),
    )
    yield made
    made.close()


def interlock(rig: UnitRig) -> LauncherInterlock:
    return rig.machine.interlock


def launches(rig: UnitRig) -> list[object]:
    """The side of every fire the back end was told to make."""
    assert isinstance(rig.hardware, WatchedHardware)
    return [c.value for c in rig.hardware.commands if c.output == "launch"]


def test_one_permission_lets_exactly_one_fire_through_even_long_after(rig: UnitRig) -> None:
    gate = interlock(rig)
    gate.permit_one()
    assert gate.fire(Side.LEFT)
    assert rig.outputs().launcher is Side.LEFT and gate.energised
    rig.advance(PULSE_MS + COOLDOWN_MS + 5000)  # the pulse and the cool-down long over
    assert rig.outputs().launcher is None and not gate.energised
    assert not gate.fire(Side.LEFT), "the permission was used by the first fire"
    assert gate.refusals == ["launcher refused toward left: not launching"]
    assert launches(rig) == [Side.LEFT]


def test_a_second_fire_in_the_same_showdown_is_refused_after_the_cool_down() -> None:
    rig = watched_rig(GpioRig, UnitSettings(timing=TimingConfig(
        launcher_cooldown_ms=100, count_settle_ms=5000)))
    try:
        rig.load()
        rig.arm()
        rig.run_to_go()
        rig.press_left(after_go_ms=200)
        rig.advance(1000)  # pulse over, cool-down over, the cards still being counted
        assert rig.machine.phase is MachinePhase.COUNTING
        assert not interlock(rig).fire(Side.RIGHT)
        assert interlock(rig).refusals == ["launcher refused toward right: not launching"]
        assert rig.outputs().launcher is None
        result = rig.finish()
        assert result.launched_toward is Side.RIGHT
        assert launches(rig) == [Side.RIGHT]
    finally:
        rig.close()


def test_forbid_takes_the_permission_back(rig: UnitRig) -> None:
    gate = interlock(rig)
    gate.permit_one()
    gate.forbid()
    assert not gate.fire(Side.RIGHT)
    assert gate.refusals == ["launcher refused toward right: not launching"]
    assert launches(rig) == [] and rig.outputs().launcher is None


def test_no_fire_while_the_launcher_is_still_energised(rig: UnitRig) -> None:
    gate = interlock(rig)
    gate.permit_one()
    assert gate.fire(Side.LEFT)
    rig.advance(PULSE_MS / 2)
    gate.permit_one()
    assert not gate.fire(Side.RIGHT)
    assert gate.refusals == ["launcher refused toward right: already energised"]
    assert rig.outputs().launcher is Side.LEFT, "the first throw goes on untouched"
    assert launches(rig) == [Side.LEFT]


def test_the_cool_down_runs_from_the_end_of_the_last_pulse_to_the_millisecond(
    rig: UnitRig,
) -> None:
    gate = interlock(rig)
    gate.permit_one()
    assert gate.fire(Side.LEFT)
    rig.advance(PULSE_MS)  # off now: the cool-down starts here
    off_at = rig.now_ns()
    rig.advance(500)
    gate.permit_one()
    assert not gate.fire(Side.RIGHT)
    rig.clock.advance_to(off_at + ms(COOLDOWN_MS) - ms(1))
    assert not gate.fire(Side.RIGHT)
    assert gate.refusals == [
        "launcher refused toward right: cooling down (1500 ms to go)",
        "launcher refused toward right: cooling down (1 ms to go)",
    ]
    assert rig.outputs().launcher is None
    rig.clock.advance_to(off_at + ms(COOLDOWN_MS))
    assert gate.fire(Side.RIGHT), "cooled down"
    assert rig.outputs().launcher is Side.RIGHT
    assert launches(rig) == [Side.LEFT, Side.RIGHT]


def test_a_cool_down_of_zero_allows_the_next_fire_as_soon_as_the_launcher_is_off() -> None:
    rig = watched_rig(GpioRig, UnitSettings(timing=TimingConfig(launcher_cooldown_ms=0)))
    try:
        gate = interlock(rig)
        gate.permit_one()
        assert gate.fire(Side.LEFT)
        rig.advance(TimingConfig().launcher_pulse_ms)
        gate.permit_one()
        assert gate.fire(Side.RIGHT)
        assert gate.refusals == []
    finally:
        rig.close()


def test_an_off_report_for_a_launcher_that_was_not_on_starts_no_cool_down(rig: UnitRig) -> None:
    """A back end answers a fire the unit refused with an "off" report: no throw happened, so
    the next fire is not held back."""
    rig.machine.launcher_changed(None, rig.now_ns())
    rig.advance(10)
    gate = interlock(rig)
    gate.permit_one()
    assert gate.fire(Side.LEFT), gate.refusals
    assert rig.outputs().launcher is Side.LEFT


def test_a_refusal_is_logged_with_its_side_and_reason(
    rig: UnitRig, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level("WARNING", logger="showdown.unit.launcher"):
        assert not interlock(rig).fire(Side.RIGHT)
    assert caplog.messages == ["launcher refused toward right: not launching"]


def test_after_a_reset_mid_throw_the_next_fire_still_waits_for_the_cool_down() -> None:
    """The unit restarted while it threw: its launcher is off from that moment, and the cool-down
    runs from then, as after any throw."""
    rig = watched_rig(GpioRig, UnitSettings(timing=TimingConfig(launcher_cooldown_ms=60_000)))
    try:
        rig.load()
        rig.arm()
        rig.run_to_go()
        rig.press_left(after_go_ms=200)
        rig.advance(100)
        rig.machine.contact_lost(rig.now_ns(), restarted=True)
        rig.advance(5000)
        rig.release(Side.LEFT)
        rig.arm()
        rig.run_to_go()
        rig.press_right(after_go_ms=200)
        assert rig.outputs().launcher is None
        assert interlock(rig).refusals[-1].startswith("launcher refused toward left: cooling down")
        assert launches(rig) == [Side.RIGHT]
    finally:
        rig.close()


def test_a_long_cool_down_is_told_to_the_millisecond() -> None:
    """The longest cool-down the settings allow, refused right after a throw: the wait is told
    exactly (``showdown check`` prints the refusals)."""
    longest = 600_000
    rig = watched_rig(GpioRig, UnitSettings(timing=TimingConfig(launcher_cooldown_ms=longest)))
    try:
        gate = interlock(rig)
        gate.permit_one()
        assert gate.fire(Side.LEFT)
        rig.advance(TimingConfig().launcher_pulse_ms)
        gate.permit_one()
        assert not gate.fire(Side.RIGHT)
        assert gate.refusals == [
            f"launcher refused toward right: cooling down ({longest} ms to go)"]
    finally:
        rig.close()


class _OverlongHardware(WatchedHardware):
    """A back end that would hold the launcher on ten times the pulse it is asked for (a driver
    whose own timer is wrong): the interlock's own stop is what bounds the throw then."""

    def launch(self, toward: Side, pulse_ns: int) -> None:
        self._command("launch", toward)
        self.inner.launch(toward, pulse_ns * 10)


def test_the_interlock_ends_the_pulse_at_its_length_when_the_back_end_would_not() -> None:
    class Overlong(GpioRig):
        def make_hardware(self) -> UnitHardware:
            return _OverlongHardware(super().make_hardware())

    rig = Overlong(UnitSettings(timing=TimingConfig(launcher_pulse_ms=PULSE_MS)), 1)
    try:
        gate = interlock(rig)
        gate.permit_one()
        fired_at = rig.now_ns()
        assert gate.fire(Side.RIGHT)
        rig.advance(PULSE_MS - 1)
        assert rig.outputs().launcher is Side.RIGHT
        rig.advance(1)
        assert rig.outputs().launcher is None, "the motor aimed at a hand stops at the pulse"
        assert not gate.energised
        assert isinstance(rig.hardware, WatchedHardware)
        stops = [c.at_ns for c in rig.hardware.commands if c.output == "stop_launch"]
        assert stops == [fired_at + ms(PULSE_MS)]
    finally:
        rig.close()
