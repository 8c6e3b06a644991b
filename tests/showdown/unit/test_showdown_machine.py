"""A showdown, step by step, on every back end (``unit_backend``): what players and referees see."""

from __future__ import annotations

import logging

import pytest

from showdown.unit.clock import ms
from showdown.unit.config import TimingConfig, UnitSettings
from showdown.unit.events import Armed, CountdownBeat, FalseStart, Go, PaddleHeld
from showdown.unit.hardware import Light, Side
from showdown.unit.machine import MachinePhase, ShowdownBusyError
from showdown.unit.verdict import Reason
from tests.showdown.conftest import RigFactory
from tests.showdown.rigs import UnitRig


def settings(**timing: float) -> UnitSettings:
    return UnitSettings(timing=TimingConfig(**timing))  # type: ignore[arg-type]


def test_countdown_beats_then_a_seeded_hold_then_green(make_rig: RigFactory) -> None:
    goes = []
    for _ in range(2):
        rig = make_rig(seed=7)
        rig.load()
        rig.arm()
        armed_at = next(e.at_ns for e in rig.events if isinstance(e, Armed))
        beats = [e for e in rig.events if isinstance(e, CountdownBeat)]
        assert len(beats) == 1 and rig.outputs().light is Light.RED
        go = rig.run_to_go()
        assert [e.beat for e in rig.events if isinstance(e, CountdownBeat)] == [1, 2, 3]
        assert rig.outputs().light is Light.GREEN
        goes.append(go - armed_at)
    timing = TimingConfig()
    assert goes[0] == goes[1], "the same seed replays the same hold"
    assert ms(3 * 1000 + timing.hold_min_ms) <= goes[0] <= ms(3 * 1000 + timing.hold_max_ms)


@pytest.mark.parametrize("winner", list(Side))
def test_race_first_press_wins_and_launches_at_the_other_at_once(
    unit_backend: UnitRig, winner: Side
) -> None:
    rig = unit_backend
    rig.arm()
    rig.run_to_go()
    rig.press(winner, after_go_ms=212)
    assert rig.outputs().launcher is winner.other, "launched before any time passed"
    rig.press(winner.other, after_go_ms=260)
    rig.cards_land(winner.other, 3)
    result = rig.finish()
    assert (result.winner, result.loser, result.reason) == (winner, winner.other, Reason.RACE)
    assert result.reaction_ms[winner] == pytest.approx(212, abs=0.01)
    assert result.reaction_ms[winner.other] == pytest.approx(260, abs=0.01)
    assert result.counts == {winner.other: 3, winner: 0}
    assert not result.possible_jam
    assert result.player(result.winner) == ("ann" if winner is Side.LEFT else "bob")
    assert result.launched_toward is winner.other
    rig.advance(10_000)
    assert len(rig.results()) == 1
    assert rig.outputs().launcher is None and rig.outputs().light is Light.OFF


def test_presses_a_tenth_of_a_millisecond_apart_go_to_the_first(make_rig: RigFactory) -> None:
    rig = make_rig(settings(tie_window_ms=0.05))
    rig.load()
    rig.arm()
    rig.run_to_go()
    rig.press_right(after_go_ms=200.1)
    rig.press_left(after_go_ms=200.0)  # delivered later, but its edge came first
    result = rig.finish()
    assert (result.winner, result.reason) == (Side.LEFT, Reason.RACE)


def test_presses_inside_the_tie_window_are_decided_by_side_counts(unit_backend: UnitRig) -> None:
    rig = unit_backend
    rig.arm()
    rig.run_to_go()
    rig.press_left(after_go_ms=200.0)
    rig.press_right(after_go_ms=200.1)
    rig.cards_land(Side.LEFT, 1)
    rig.cards_land(Side.RIGHT, 2)
    result = rig.finish()
    assert (result.winner, result.loser, result.reason) == (
        Side.LEFT,
        Side.RIGHT,
        Reason.SIDE_COUNT,
    )


def test_tie_with_equal_counts_is_a_replay_with_the_same_players(unit_backend: UnitRig) -> None:
    rig = unit_backend
    rig.arm()
    rig.run_to_go()
    rig.press_left(after_go_ms=250.0)
    rig.press_right(after_go_ms=250.5)
    rig.cards_land(Side.LEFT, 1)
    rig.cards_land(Side.RIGHT, 1)
    first = rig.finish()
    assert first.replay and first.reason is Reason.TIE and first.winner is None
    rig.advance(3000)  # past the launcher's cool-down
    rig.release(Side.LEFT)
    rig.release(Side.RIGHT)
    rig.advance(100)
    rig.arm()
    rig.run_to_go()
    rig.press_right(after_go_ms=180)
    second = rig.finish()
    assert second.showdown_id == first.showdown_id + 1
    assert (second.left_player, second.right_player, second.cards_loaded) == ("ann", "bob", 3)
    assert second.winner is Side.RIGHT


def test_timeout_is_no_contest_and_nothing_is_launched(unit_backend: UnitRig) -> None:
    rig = unit_backend
    rig.arm()
    rig.run_to_go()
    rig.advance(4999)
    assert rig.machine.phase is MachinePhase.RACE
    result = rig.finish()
    assert result.reason is Reason.TIMEOUT and result.replay
    assert result.launcher_on_ns is None and rig.machine.interlock.refusals == []
    assert rig.outputs().light is Light.OFF


@pytest.mark.parametrize("early", list(Side))
def test_false_start_points_the_arrow_and_launches_nothing(
    unit_backend: UnitRig, early: Side
) -> None:
    rig = unit_backend
    rig.arm()
    rig.advance(1500)
    rig.press(early)
    out = rig.outputs()
    assert (out.arrow, out.launcher, out.light) == (early, None, Light.OFF)
    assert [e.side for e in rig.events if isinstance(e, FalseStart)] == [early]
    result = rig.finish()
    assert (result.winner, result.loser, result.reason) == (early.other, early, Reason.FALSE_START)
    rig.advance(10_000)
    assert not any(isinstance(e, Go) for e in rig.events), "the countdown stopped"
    assert rig.outputs().launcher is None and len(rig.results()) == 1


def test_both_early_the_earlier_press_loses_even_if_delivered_later(unit_backend: UnitRig) -> None:
    rig = unit_backend
    rig.arm()
    rig.advance(1500)
    earlier = rig.now_ns()
    rig.advance(3)
    rig.press_right()
    rig.press_left(at_ns=earlier)
    assert rig.outputs().arrow is Side.LEFT
    result = rig.finish()
    assert (result.loser, result.reason) == (Side.LEFT, Reason.FALSE_START)


def test_press_inside_the_anticipation_window_is_a_false_start(make_rig: RigFactory) -> None:
    rig = make_rig(settings(anticipation_ms=100))
    rig.load()
    rig.arm()
    rig.run_to_go()
    rig.press_left(after_go_ms=99)
    assert rig.outputs().launcher is None
    rig.press_right(after_go_ms=130)
    result = rig.finish()
    assert (result.loser, result.reason) == (Side.LEFT, Reason.FALSE_START)


def test_held_paddle_refuses_to_arm_and_blinks_the_arrow(unit_backend: UnitRig) -> None:
    rig = unit_backend
    rig.press_right()
    rig.arm()
    assert [e.sides for e in rig.events if isinstance(e, PaddleHeld)] == [(Side.RIGHT,)]
    assert not any(isinstance(e, Armed) for e in rig.events)
    seen = set()
    for _ in range(6):
        seen.add(rig.outputs().arrow)
        rig.advance(125)
    assert seen == {Side.RIGHT, None}, "the arrow blinks at the held paddle"
    rig.advance(5000)
    assert rig.go_ns() is None and rig.machine.phase is MachinePhase.IDLE
    rig.release(Side.RIGHT)
    assert rig.outputs().arrow is None
    rig.arm()
    assert any(isinstance(e, Armed) for e in rig.events)


def test_paddle_bounce_counts_once_from_the_first_edge(unit_backend: UnitRig) -> None:
    rig = unit_backend
    rig.arm()
    go = rig.run_to_go()
    first = go + ms(190)
    rig.press_left(at_ns=first)
    rig.release(Side.LEFT, at_ns=first + ms(0.4))
    rig.press_left(at_ns=first + ms(0.9))
    rig.press_right(after_go_ms=300)
    result = rig.finish()
    assert result.press_ns[Side.LEFT] == first
    assert result.winner is Side.LEFT and result.reason is Reason.RACE


def test_fewer_cards_counted_than_loaded_is_a_possible_jam(unit_backend: UnitRig) -> None:
    rig = unit_backend
    rig.arm()
    rig.run_to_go()
    rig.press_left(after_go_ms=230)
    rig.cards_land(Side.RIGHT, 2)
    result = rig.finish()
    assert result.possible_jam and result.counts[Side.RIGHT] == 2


def test_launcher_refuses_outside_a_launch(
    unit_backend: UnitRig, caplog: pytest.LogCaptureFixture
) -> None:
    rig = unit_backend
    with caplog.at_level(logging.WARNING):
        assert not rig.machine.interlock.fire(Side.LEFT)
        rig.arm()
        rig.advance(500)
        assert not rig.machine.interlock.fire(Side.RIGHT)
    assert rig.outputs().launcher is None
    assert len(rig.machine.interlock.refusals) == 2
    assert "launcher refused" in caplog.text


def test_launcher_pulse_is_bounded(unit_backend: UnitRig) -> None:
    rig = unit_backend
    rig.arm()
    rig.run_to_go()
    rig.press_left(after_go_ms=200)
    pulse = TimingConfig().launcher_pulse_ms
    rig.advance(pulse - 1)
    assert rig.outputs().launcher is Side.RIGHT
    rig.advance(2)
    assert rig.outputs().launcher is None
    assert rig.machine.phase is MachinePhase.COUNTING


def test_launcher_cool_down_refuses_a_quick_second_fire(make_rig: RigFactory) -> None:
    rig = make_rig(settings(launcher_cooldown_ms=60_000, count_settle_ms=100))
    rig.load()
    for _ in range(2):
        rig.arm()
        rig.run_to_go()
        rig.press_left(after_go_ms=200)
        rig.release(Side.LEFT)
        result = rig.finish()
        assert result.winner is Side.LEFT, "the press still decides"
    first, second = rig.results()
    assert first.launcher_on_ns is not None
    assert second.launcher_on_ns is None
    assert any("cooling down" in refusal for refusal in rig.machine.interlock.refusals)


def test_loading_during_a_showdown_is_refused(unit_backend: UnitRig) -> None:
    unit_backend.arm()
    with pytest.raises(ShowdownBusyError):
        unit_backend.load("cy", "di", 2)


def test_failing_subscriber_does_not_stop_the_launcher_switching_off(
    unit_backend: UnitRig,
) -> None:
    rig = unit_backend

    def broken(event: object) -> None:
        raise ValueError("scoreboard crashed")

    rig.machine.subscribe(broken)
    rig.arm()
    rig.run_to_go()
    rig.press_right(after_go_ms=200)
    result = rig.finish()
    assert result.winner is Side.RIGHT
    assert rig.outputs().launcher is None


def test_fault_inside_the_machine_leaves_outputs_safe(
    unit_backend: UnitRig, monkeypatch: pytest.MonkeyPatch
) -> None:
    rig = unit_backend
    rig.arm()
    rig.run_to_go()

    def explode(*args: object, **kwargs: object) -> None:
        raise ZeroDivisionError("bug")

    monkeypatch.setattr("showdown.unit.machine.decide", explode)
    rig.press_left(after_go_ms=200)
    assert rig.outputs().launcher is Side.RIGHT
    result = rig.finish()
    assert result.reason is Reason.FAULT and result.replay
    out = rig.outputs()
    assert (out.launcher, out.light, out.arrow, out.buzzing) == (None, Light.OFF, None, False)
    assert len(rig.results()) == 1


def test_closing_the_back_end_mid_launch_switches_the_launcher_off(unit_backend: UnitRig) -> None:
    rig = unit_backend
    rig.arm()
    rig.run_to_go()
    rig.press_left(after_go_ms=200)
    assert rig.outputs().launcher is Side.RIGHT
    rig.hardware.close()
    out = rig.outputs()
    assert (out.launcher, out.light) == (None, Light.OFF)


def test_go_beep_differs_from_the_beat_beeps_in_pitch_and_pattern(
    unit_backend: UnitRig, monkeypatch: pytest.MonkeyPatch
) -> None:
    rig = unit_backend
    sounded: list[tuple[int, float | None]] = []
    real = rig.hardware.buzzer

    def buzzer(tone_hz: float | None) -> None:
        sounded.append((rig.now_ns(), tone_hz))
        real(tone_hz)

    monkeypatch.setattr(rig.hardware, "buzzer", buzzer)
    rig.arm()
    go = rig.run_to_go()
    rig.advance(1500)
    before = [hz for at, hz in sounded if at < go and hz]
    after = [hz for at, hz in sounded if at >= go and hz]
    assert len(before) == 3 and len(set(before)) == 1, "one beep per beat"
    assert after and set(after).isdisjoint(before), "a different pitch at go"
    assert len(after) > 1, "and a different pattern: several pulses"
    assert sounded[-1][1] is None and not rig.outputs().buzzing
