"""What the service log tells whoever looks after the unit, word for word.

The journal is where an operator learns why a showdown was void, why the cards went to the wrong
player, or that the unit jammed; each message names the showdown and what happened, and none
is written when it did not happen.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator

import pytest

from showdown.unit.config import TimingConfig, UnitSettings
from showdown.unit.events import Armed, ShowdownEvent
from showdown.unit.hardware import Light, Side
from tests.showdown.conftest import RigFactory
from tests.showdown.rigs import GpioRig, UnitRig
from tests.showdown.watched import WatchedHardware, watched_rig

MACHINE = "showdown.unit.machine"


def said(caplog: pytest.LogCaptureFixture, level: int = logging.WARNING) -> list[str]:
    """The machine's messages at *level* and above."""
    return [r.getMessage() for r in caplog.records if r.name == MACHINE and r.levelno >= level]


@pytest.fixture
def rig() -> Iterator[UnitRig]:
    made = watched_rig(GpioRig)
    made.load()
    yield made
    made.close()


def test_a_timer_press_mid_showdown_is_ignored_and_says_so(
    rig: UnitRig, caplog: pytest.LogCaptureFixture
) -> None:
    rig.arm()
    with caplog.at_level(logging.INFO, logger=MACHINE):
        rig.advance(100)
        rig.arm()
        rig.run_to_go()
        rig.advance(10)
        rig.arm()
    assert said(caplog, logging.INFO) == ["timer button ignored during countdown",
                                          "timer button ignored during race"]
    assert len([e for e in rig.events if isinstance(e, Armed)]) == 1


def test_cards_thrown_at_the_winner_are_reported(
    make_rig: RigFactory, caplog: pytest.LogCaptureFixture
) -> None:
    """The right press is delivered first and fires toward the left player; the left press,
    delivered after it, happened earlier: the left player won and the cards went their way."""
    rig = make_rig(UnitSettings(timing=TimingConfig(tie_window_ms=0.05)))
    rig.load()
    rig.arm()
    rig.run_to_go()
    with caplog.at_level(logging.WARNING, logger=MACHINE):
        rig.press_right(after_go_ms=200.1)
        rig.press_left(after_go_ms=200.0)
        result = rig.finish()
    assert (result.winner, result.launched_toward) == (Side.LEFT, Side.LEFT)
    assert "showdown 1: the cards went toward left but right lost: a press arrived out of order" \
        in said(caplog)


@pytest.mark.parametrize("ending", ["race", "tie", "side count", "false start", "timeout"])
def test_a_showdown_that_went_as_it_should_logs_no_warning(
    rig: UnitRig, caplog: pytest.LogCaptureFixture, ending: str
) -> None:
    rig.load(cards=2 if ending == "tie" else 3)  # every card counted
    rig.arm()
    with caplog.at_level(logging.WARNING, logger=MACHINE):
        if ending == "false start":
            rig.advance(500)
            rig.press_left()
        else:
            rig.run_to_go()
        if ending == "race":
            rig.press_left(after_go_ms=200)
            rig.cards_land(Side.RIGHT, 3)
        elif ending in ("tie", "side count"):
            rig.press_left(after_go_ms=200)
            rig.press_right(after_go_ms=200.5)
            rig.cards_land(Side.RIGHT, 2 if ending == "side count" else 1)
            rig.cards_land(Side.LEFT, 1)
        result = rig.finish()
    assert result.reason.value == ending.replace(" ", "_")
    assert said(caplog) == []


def test_a_possible_jam_is_reported_with_the_count(
    rig: UnitRig, caplog: pytest.LogCaptureFixture
) -> None:
    rig.arm()
    rig.run_to_go()
    with caplog.at_level(logging.WARNING, logger=MACHINE):
        rig.press_left(after_go_ms=230)
        rig.cards_land(Side.RIGHT, 2)
        rig.finish()
    assert said(caplog) == ["showdown 1: possible jam: 2 of 3 cards counted; look in the "
                            "launcher for a stuck card before the next showdown"]


@pytest.mark.parametrize(("restarted", "why"), [(True, "it restarted"), (False, "link down")])
def test_a_void_showdown_says_why(
    rig: UnitRig, caplog: pytest.LogCaptureFixture, restarted: bool, why: str
) -> None:
    rig.arm()
    rig.advance(700)
    with caplog.at_level(logging.WARNING, logger=MACHINE):
        rig.machine.contact_lost(rig.now_ns(), restarted=restarted)
        rig.advance(3000)
        rig.machine.contact_lost(rig.now_ns(), restarted=restarted)  # between showdowns: silent
    assert said(caplog) == [f"showdown 1 is void: the unit lost contact ({why}); replay it"]


def test_an_output_that_cannot_be_made_safe_is_logged_and_the_others_still_go_off(
    rig: UnitRig, caplog: pytest.LogCaptureFixture
) -> None:
    rig.arm()  # red lit, the beat's beep sounding
    hardware = rig.hardware
    assert isinstance(hardware, WatchedHardware)
    hardware.fail_next("stop_launch")
    with caplog.at_level(logging.ERROR, logger=MACHINE):
        rig.machine.close()
    assert said(caplog, logging.ERROR) == ["could not reach a safe state"]
    assert caplog.records[-1].exc_info is not None, "with the driver's error"
    out = rig.outputs()
    assert (out.light, out.buzzing, out.arrow) == (Light.OFF, False, None)


def test_a_subscriber_that_fails_is_named_with_the_event(
    rig: UnitRig, caplog: pytest.LogCaptureFixture
) -> None:
    def scoreboard(event: ShowdownEvent) -> None:
        raise ValueError("scoreboard crashed")

    rig.machine.subscribe(scoreboard)
    with caplog.at_level(logging.ERROR, logger=MACHINE):
        rig.arm()
    armed = rig.events[0]
    expected = f"showdown subscriber {scoreboard!r} failed on {armed!r}"
    assert said(caplog, logging.ERROR)[0] == expected
