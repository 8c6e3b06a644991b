"""What the machine tells its callers, field by field: the scoreboard mirrors the unit from these
events, and the session scores from the outcome.

A whole showdown's events in order with every field; the countdown light's timeline to the
millisecond; ``arm()``'s answer; the showdown numbers; a showdown nobody was loaded for; the
refusal to load mid-showdown; unsubscribing; and the machine after ``close``.
"""

from __future__ import annotations

import pytest

from showdown.unit.clock import ms
from showdown.unit.config import TimingConfig, UnitSettings
from showdown.unit.events import (
    Armed,
    CountdownBeat,
    Counting,
    FalseStart,
    Go,
    Launching,
    PaddleHeld,
    ShowdownEvent,
    ShowdownOutcome,
)
from showdown.unit.hardware import Light, Side
from showdown.unit.machine import MachinePhase, ShowdownBusyError
from showdown.unit.verdict import Reason
from tests.showdown.conftest import RigFactory
from tests.showdown.rigs import UnitRig
from tests.showdown.watched import WatchedHardware


def but_outcomes(rig: UnitRig) -> list[ShowdownEvent]:
    return [e for e in rig.events if not isinstance(e, ShowdownOutcome)]


def test_a_won_race_tells_every_step_with_its_showdown_and_time(unit_backend: UnitRig) -> None:
    rig = unit_backend
    assert rig.machine.showdown_id == 0, "no showdown yet"
    armed = rig.arm()
    go = rig.run_to_go()
    rig.press_right(after_go_ms=230)
    press = go + ms(230)
    rig.cards_land(Side.LEFT, 3)
    result = rig.finish()
    launched = result.launcher_on_ns
    assert launched is not None and launched >= press
    until = launched + ms(TimingConfig().count_settle_ms)
    assert but_outcomes(rig) == [
        Armed(1, armed, "ann", "bob", 3),
        CountdownBeat(1, 1, 3, armed),
        CountdownBeat(1, 2, 3, armed + ms(1000)),
        CountdownBeat(1, 3, 3, armed + ms(2000)),
        Go(1, go),
        Launching(1, Side.LEFT, press, launched),
        Counting(1, launched, until),
    ]
    assert result == ShowdownOutcome(
        showdown_id=1, left_player="ann", right_player="bob", cards_loaded=3,
        winner=Side.RIGHT, loser=Side.LEFT, reason=Reason.RACE, go_ns=go,
        press_ns={Side.RIGHT: press}, counts={Side.LEFT: 3, Side.RIGHT: 0}, possible_jam=False,
        winning_press_ns=press, launcher_on_ns=launched, launched_toward=Side.LEFT, at_ns=until,
    )
    assert rig.machine.showdown_id == 1


def test_a_false_start_tells_who_and_when_and_carries_no_launch(unit_backend: UnitRig) -> None:
    rig = unit_backend
    armed = rig.arm()
    rig.advance(1300)
    early = rig.now_ns()
    rig.press_left()
    result = rig.finish()
    assert but_outcomes(rig) == [
        Armed(1, armed, "ann", "bob", 3),
        CountdownBeat(1, 1, 3, armed),
        CountdownBeat(1, 2, 3, armed + ms(1000)),
        FalseStart(1, Side.LEFT, early),
    ]
    assert (result.winner, result.loser, result.reason) == (Side.RIGHT, Side.LEFT,
                                                            Reason.FALSE_START)
    assert (result.counts, result.winning_press_ns, result.launcher_on_ns,
            result.launched_toward, result.go_ns) == ({}, None, None, None, None)
    assert result.press_ns == {Side.LEFT: early}


def test_an_earlier_false_start_delivered_late_is_told_too_and_takes_the_arrow(
    unit_backend: UnitRig,
) -> None:
    rig = unit_backend
    rig.arm()
    rig.advance(1500)
    earlier = rig.now_ns()
    rig.advance(3)
    rig.press_right()
    rig.press_left(at_ns=earlier)  # happened first, reported second
    rig.advance(6)
    rig.release(Side.RIGHT)
    rig.advance(6)
    rig.press_right()  # pressing again changes nothing
    assert [e for e in rig.events if isinstance(e, FalseStart)] == [
        FalseStart(1, Side.RIGHT, earlier + ms(3)), FalseStart(1, Side.LEFT, earlier)]
    assert rig.outputs().arrow is Side.LEFT
    result = rig.finish()
    assert result.press_ns == {Side.LEFT: earlier, Side.RIGHT: earlier + ms(3)}


def test_a_false_start_inside_the_anticipation_window_points_the_arrow_and_says_so(
    make_rig: RigFactory,
) -> None:
    rig = make_rig(UnitSettings(timing=TimingConfig(anticipation_ms=100)))
    rig.load()
    rig.arm()
    go = rig.run_to_go()
    rig.press_right(after_go_ms=60)
    assert [e for e in rig.events if isinstance(e, FalseStart)] == [
        FalseStart(1, Side.RIGHT, go + ms(60))]
    assert rig.outputs().arrow is Side.RIGHT and rig.outputs().launcher is None
    assert rig.finish().loser is Side.RIGHT


def test_a_press_at_the_end_of_the_anticipation_window_is_fair(make_rig: RigFactory) -> None:
    rig = make_rig(UnitSettings(timing=TimingConfig(anticipation_ms=100)))
    rig.load()
    rig.arm()
    rig.run_to_go()
    rig.press_left(after_go_ms=100)
    assert rig.outputs().launcher is Side.RIGHT
    result = rig.finish()
    assert (result.winner, result.reason) == (Side.LEFT, Reason.RACE)


def test_a_held_paddle_is_told_with_when(unit_backend: UnitRig) -> None:
    rig = unit_backend
    rig.press_right()
    rig.advance(10)
    pressed = rig.arm()
    assert rig.events == [PaddleHeld((Side.RIGHT,), pressed)]


def test_the_countdown_light_to_the_millisecond(make_rig: RigFactory) -> None:
    """Red for 400 ms with each beat, a second apart; red again for the hold; green at go; off
    with the result."""
    rig = make_rig(watched=True)
    rig.load()
    armed = rig.arm()
    go = rig.run_to_go()
    rig.press_left(after_go_ms=200)
    result = rig.finish()
    assert isinstance(rig.hardware, WatchedHardware)
    lights = [(c.at_ns - armed, c.value) for c in rig.hardware.commands
              if c.output == "countdown_light"]
    second = ms(1000)
    green_at, green = lights.pop(7)
    assert lights == [
        (0, Light.RED), (ms(400), Light.OFF),
        (second, Light.RED), (second + ms(400), Light.OFF),
        (2 * second, Light.RED), (2 * second + ms(400), Light.OFF),
        (3 * second, Light.RED),  # the hold
        (result.at_ns - armed, Light.OFF),
    ]
    assert green is Light.GREEN
    assert abs(green_at - (go - armed)) < 1000, "go is when green came on (a Pico stamps in µs)"
    hold = green_at - 3 * second
    timing = TimingConfig()
    assert ms(timing.hold_min_ms) <= hold <= ms(timing.hold_max_ms)


def test_arm_answers_whether_the_countdown_started(unit_backend: UnitRig) -> None:
    rig = unit_backend
    rig.press_left()
    rig.advance(10)
    assert rig.machine.arm() is False, "a paddle is held"
    assert rig.machine.phase is MachinePhase.IDLE
    rig.release(Side.LEFT)
    rig.advance(10)
    armed = rig.now_ns()
    assert rig.machine.arm() is True
    assert rig.machine.phase is MachinePhase.COUNTDOWN
    assert [type(e) for e in rig.events] == [PaddleHeld, Armed]
    assert rig.events[1] == Armed(1, armed, "ann", "bob", 3)
    assert rig.events[0] == PaddleHeld((Side.LEFT,), armed - ms(10))
    assert rig.machine.arm() is False, "already counting down"
    rig.advance(500)
    assert rig.machine.showdown_id == 1 and len([e for e in rig.events
                                                 if isinstance(e, Armed)]) == 1


def test_a_showdown_nobody_was_loaded_for_is_told_without_players(
    make_rig: RigFactory,
) -> None:
    rig = make_rig()
    rig.arm()
    rig.run_to_go()
    rig.press_left(after_go_ms=200)
    result = rig.finish()
    armed = next(e for e in rig.events if isinstance(e, Armed))
    assert (armed.left_player, armed.right_player, armed.cards_loaded) == (None, None, None)
    assert (result.left_player, result.right_player, result.cards_loaded) == (None, None, None)
    assert not result.possible_jam and result.winner is Side.LEFT


def test_loading_mid_showdown_is_refused_saying_why(unit_backend: UnitRig) -> None:
    rig = unit_backend
    rig.arm()
    with pytest.raises(ShowdownBusyError, match=r"^cannot load during a showdown \(countdown\)$"):
        rig.machine.load("cy", "di", 2)
    rig.run_to_go()
    with pytest.raises(ShowdownBusyError, match=r"\(race\)$"):
        rig.machine.load("cy", "di", 2)
    rig.press_left(after_go_ms=200)
    result = rig.finish()
    assert (result.left_player, result.cards_loaded) == ("ann", 3), "the first load stands"


def test_unsubscribing_stops_the_events_and_can_be_done_twice(unit_backend: UnitRig) -> None:
    rig = unit_backend
    heard: list[ShowdownEvent] = []
    unsubscribe = rig.machine.subscribe(heard.append)
    rig.arm()
    assert [type(e) for e in heard] == [Armed, CountdownBeat]
    unsubscribe()
    unsubscribe()
    rig.run_to_go()
    assert [type(e) for e in heard] == [Armed, CountdownBeat]
    assert any(isinstance(e, Go) for e in rig.events), "the others still hear"


def test_after_close_the_machine_is_idle_and_quiet(unit_backend: UnitRig) -> None:
    rig = unit_backend
    rig.arm()
    rig.advance(1200)
    rig.machine.close()
    assert rig.machine.phase is MachinePhase.IDLE
    before = list(rig.events)
    rig.advance(10_000)
    assert rig.events == before, "no beat, no go, no result after close"


def test_without_a_random_source_the_hold_follows_the_configured_seed(
    make_rig: RigFactory,
) -> None:
    settings = UnitSettings(hold_seed=12345)
    holds = []
    for _ in range(2):
        rig = make_rig(settings, seed=None)
        rig.load()
        armed = rig.arm()
        holds.append(rig.run_to_go() - armed)
    other = make_rig(UnitSettings(hold_seed=54321), seed=None)
    other.load()
    armed = other.arm()
    assert holds[0] == holds[1] != other.run_to_go() - armed
