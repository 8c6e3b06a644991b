"""The arrow's blinks, beat by beat: "release your paddle" at a held paddle, and both ways after a
showdown the unit lost contact in.

A player told to let go sees the arrow come back on every other half-period for the whole
release time, then go dark; letting go puts it out at once. The void blink is not about a
paddle, so a release does not stop it. Checked from the arrow commands the machine gives
(:mod:`tests.showdown.watched`) and the arrow as the rig sees it.
"""

from __future__ import annotations

import logging

import pytest

from showdown.unit.config import TimingConfig, UnitSettings
from showdown.unit.events import Armed, PaddleHeld
from showdown.unit.hardware import Side
from showdown.unit.verdict import Reason
from tests.showdown.conftest import RigFactory
from tests.showdown.rigs import UnitRig
from tests.showdown.watched import WatchedHardware

HALF_MS = TimingConfig().arrow_blink_ms
"""250 ms on, 250 ms off; 2000 ms in all (``release_paddle_ms``): eight half-periods."""


def arrow_commands(rig: UnitRig, since_ns: int) -> list[tuple[float, Side | None]]:
    """``(ms after since_ns, toward)`` for every arrow command from *since_ns* on."""
    assert isinstance(rig.hardware, WatchedHardware)
    return [((c.at_ns - since_ns) / 1e6, c.value) for c in rig.hardware.commands_since(since_ns)
            if c.output == "arrow"]


@pytest.mark.parametrize("held", list(Side))
def test_the_release_blink_comes_back_on_every_other_half_period_then_goes_dark(
    make_rig: RigFactory, held: Side
) -> None:
    rig = make_rig(watched=True)
    rig.load()
    rig.press(held)
    rig.advance(10)
    pressed = rig.arm()
    assert [e.sides for e in rig.events if isinstance(e, PaddleHeld)] == [(held,)]
    seen = []
    for _ in range(10):
        seen.append(rig.outputs().arrow)
        rig.advance(HALF_MS)
    assert seen == [held, None] * 4 + [None, None], "on, off, ... for 2 s, then dark"
    assert arrow_commands(rig, pressed) == [
        (i * HALF_MS, toward) for i, toward in enumerate([held, None] * 4 + [None])
    ]
    assert not any(isinstance(e, Armed) for e in rig.events)


def test_a_release_time_shorter_than_a_blink_still_shows_one_flash(make_rig: RigFactory) -> None:
    rig = make_rig(UnitSettings(timing=TimingConfig(release_paddle_ms=100)), watched=True)
    rig.load()
    rig.press_left()
    rig.advance(10)
    pressed = rig.arm()
    rig.advance(3000)
    assert arrow_commands(rig, pressed) == [(0, Side.LEFT), (HALF_MS, None), (2 * HALF_MS, None)]
    assert rig.outputs().arrow is None


@pytest.mark.parametrize(
    ("release_ms", "steps"),
    [(1120, [Side.RIGHT, None, Side.RIGHT, None, None]),  # 4.48 half-periods: four
     (1130, [Side.RIGHT, None, Side.RIGHT, None, Side.RIGHT, None])],  # 4.52: five
)
def test_a_release_time_not_a_whole_number_of_blinks_is_rounded_to_the_nearest(
    make_rig: RigFactory, release_ms: float, steps: list[Side | None]
) -> None:
    rig = make_rig(UnitSettings(timing=TimingConfig(release_paddle_ms=release_ms)), watched=True)
    rig.load()
    rig.press_right()
    rig.advance(10)
    pressed = rig.arm()
    rig.advance(3000)
    assert arrow_commands(rig, pressed) == [(i * HALF_MS, s) for i, s in enumerate(steps)]


def test_letting_go_puts_the_arrow_out_at_once_and_for_good(
    make_rig: RigFactory, caplog: pytest.LogCaptureFixture
) -> None:
    rig = make_rig(watched=True)
    rig.load()
    rig.press_left()
    rig.advance(10)
    rig.arm()
    rig.advance(550)  # 600 ms after the button: on again (500-750 ms)
    assert rig.outputs().arrow is Side.LEFT
    rig.release(Side.LEFT)
    released = rig.now_ns()
    assert rig.outputs().arrow is None
    rig.advance(3000)
    assert arrow_commands(rig, released) == [(0, None)]
    assert isinstance(rig.hardware, WatchedHardware)
    assert [c.output for c in rig.hardware.commands_since(released)] == ["arrow"], (
        "a release touches the arrow only")
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING], "no fault, no warning"
    rig.arm()
    assert any(isinstance(e, Armed) for e in rig.events), "free to start now"


def test_the_blink_goes_on_while_either_paddle_is_still_held(make_rig: RigFactory) -> None:
    rig = make_rig(watched=True)
    rig.load()
    rig.press_left()
    rig.advance(10)
    rig.press_right()
    rig.advance(10)
    pressed = rig.arm()
    assert [e.sides for e in rig.events if isinstance(e, PaddleHeld)] == [(Side.LEFT, Side.RIGHT)]
    rig.advance(100)
    rig.release(Side.RIGHT)
    rig.advance(500)  # 650 ms after the button: on again (500-750 ms)
    assert rig.outputs().arrow is Side.LEFT, "the left paddle is still held: it blinks on"
    rig.release(Side.LEFT)
    assert rig.outputs().arrow is None
    assert arrow_commands(rig, pressed)[:3] == [(0, Side.LEFT), (HALF_MS, None),
                                               (2 * HALF_MS, Side.LEFT)]


def test_a_release_does_not_cut_the_void_blink_short(make_rig: RigFactory) -> None:
    rig = make_rig(watched=True)
    rig.load()
    rig.arm()
    rig.run_to_go()
    rig.press_left(after_go_ms=180)
    rig.advance(100)
    lost = rig.now_ns()
    rig.machine.contact_lost(lost, restarted=False)
    assert [r.reason for r in rig.results()] == [Reason.VOID]
    rig.advance(300)
    rig.release(Side.LEFT)  # the player lets go mid-blink
    rig.advance(3000)
    both_ways = [Side.LEFT, Side.RIGHT] * 4
    assert arrow_commands(rig, lost) == [
        (i * HALF_MS, toward) for i, toward in enumerate([*both_ways, None])
    ]


def test_the_void_blink_shows_each_way_once_even_with_a_short_release_time(
    make_rig: RigFactory,
) -> None:
    rig = make_rig(UnitSettings(timing=TimingConfig(release_paddle_ms=100)), watched=True)
    rig.load()
    rig.arm()
    rig.advance(500)
    lost = rig.now_ns()
    rig.machine.contact_lost(lost, restarted=False)
    rig.advance(3000)
    assert arrow_commands(rig, lost) == [(0, Side.LEFT), (HALF_MS, Side.RIGHT), (2 * HALF_MS, None)]
