"""The serial unit across a microcontroller reset or a replug, on the real link and firmware.

A reset during a launch must not leave the host believing the launcher is still energised (every
later fire used to be refused while showdowns went on being scored), and a showdown whose edges
may have been lost is void: never decided on whichever presses got through, nothing launched or
recorded, the arrow blinking both ways for the replay.
"""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest

from showdown.unit.events import Launching
from showdown.unit.hardware import Side
from showdown.unit.verdict import Reason
from tests.showdown.serial_rig import SerialRig


@pytest.fixture
def rig() -> Iterator[SerialRig]:
    made = SerialRig()
    made.load()
    yield made
    made.close()


def noticed_unplug(rig: SerialRig) -> None:
    """Wait until the host has seen the line go (a barrier on the firmware's loop, no sleep)."""
    deadline = time.monotonic() + 10.0
    while rig.serial.link.connected:
        assert time.monotonic() < deadline, "the host never noticed the unplug"
        assert rig.mcu.wait_steps(1)


def reconnect(rig: SerialRig, drops: int = 1) -> None:
    """Wait until the host has seen the line go *drops* times in all and come back (a barrier on
    the firmware's loop and the link's events; nothing sleeps)."""
    deadline = time.monotonic() + 10.0
    while rig.serial.link.stats.reconnects < drops:
        assert time.monotonic() < deadline, "the host never noticed the line go"
        assert rig.mcu.wait_steps(1)
    assert rig.serial.link.wait_connected(10.0), "the link never came back"
    rig.settle()


def arrows(rig: SerialRig, milliseconds: float, step_ms: float = 125) -> list[Side | None]:
    """The arrow as the players see it, every *step_ms* for *milliseconds*."""
    seen = []
    for _ in range(round(milliseconds / step_ms)):
        rig.advance(step_ms)
        seen.append(rig.outputs().arrow)
    return seen


def test_a_reset_during_a_launch_leaves_the_next_showdown_free_to_launch(rig: SerialRig) -> None:
    rig.arm()
    rig.run_to_go()
    rig.press_left(after_go_ms=200)
    assert rig.outputs().launcher is Side.RIGHT  # energised toward the loser
    rig.mcu.reset()  # ... and the Pico resets before it can say the launcher went off
    reconnect(rig)
    assert rig.outputs().launcher is None
    (first,) = rig.results()
    assert first.reason is Reason.VOID
    rig.advance(3_000)  # past the cool-down
    rig.load()
    rig.arm()
    rig.run_to_go()
    rig.press_right(after_go_ms=180)
    assert rig.outputs().launcher is Side.LEFT, rig.machine.interlock.refusals
    result = rig.finish()
    assert (result.reason, result.winner) == (Reason.RACE, Side.RIGHT)
    assert not rig.machine.interlock.refusals


def test_a_showdown_that_spans_a_reset_is_void_not_won_by_the_press_that_got_through(
    rig: SerialRig,
) -> None:
    rig.arm()
    go = rig.run_to_go()
    rig.mcu.unplug()  # the left press is stamped, queued on the Pico, never sent...
    noticed_unplug(rig)
    rig.press_left(after_go_ms=245)
    rig.mcu.reset()  # ... and lost with the reset
    reconnect(rig)
    rig.press_right(at_ns=go + 1_306_000_000)
    (result,) = rig.results()
    assert (result.reason, result.winner, result.loser) == (Reason.VOID, None, None)
    assert result.void and result.replay
    assert not any(isinstance(e, Launching) for e in rig.events)
    assert rig.outputs().launcher is None
    seen = arrows(rig, 2_000)
    assert Side.LEFT in seen and Side.RIGHT in seen, "the arrow blinks both ways"
    assert seen[-1] is None
    rig.advance(3_000)
    assert rig.outputs().arrow is None and rig.outputs().launcher is None


def test_a_replug_mid_countdown_voids_it_and_the_cards_stay_loaded(rig: SerialRig) -> None:
    rig.arm()
    rig.advance(1_200)
    rig.mcu.replug()
    reconnect(rig)
    (result,) = rig.results()
    assert result.reason is Reason.VOID and result.cards_loaded == 3
    rig.advance(3_000)
    rig.arm()  # the same players and cards, loaded still
    rig.run_to_go()
    rig.press_left(after_go_ms=150)
    replay = rig.finish()
    assert (replay.reason, replay.winner, replay.left_player, replay.cards_loaded) == (
        Reason.RACE, Side.LEFT, "ann", 3)
