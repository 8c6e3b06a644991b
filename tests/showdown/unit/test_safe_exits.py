"""Every way a showdown ends leaves the unit safe, output by output, and nothing comes back on.

A result (race, tie, false start, timeout), a lost contact, a fault anywhere inside the machine
(a driver that fails while the light is lit, the buzzer sounds or the arrow blinks) and ``close``:
after each, the countdown light is off, the buzzer silent, the launcher off, and the arrow off
(or, after a false start, pointing at the player who took the cards). Tones are chosen to still be
sounding, with more beeps to come, at the moment of the exit, so a silenced buzzer or a cancelled
pattern is seen, not assumed. Each case runs on every back end (``make_rig``).
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from showdown.unit.clock import ms
from showdown.unit.config import TimingConfig, ToneConfig, UnitSettings
from showdown.unit.events import CountdownBeat, ShowdownOutcome
from showdown.unit.hardware import Light, Side
from showdown.unit.machine import MachinePhase
from showdown.unit.verdict import Reason
from tests.showdown.conftest import RigFactory
from tests.showdown.rigs import UnitRig
from tests.showdown.watched import Command, WatchedHardware

LONG_GO = ToneConfig(hz=880, pattern_ms=(80, 60, 2000, 100, 7000))
"""A go sound still beeping seconds after go, with another beep to come after 2.2 s."""
LONG_BEAT = ToneConfig(hz=440, pattern_ms=(100, 50, 100, 50, 150, 50, 100))
"""A beat sound of four beeps: the third still sounding when red goes off at 400 ms, one more at
500 ms."""


def loud(**timing: float) -> UnitSettings:
    """Settings whose sounds outlast the moment a showdown ends."""
    return UnitSettings(timing=TimingConfig(**timing), go_tone=LONG_GO, beat_tone=LONG_BEAT)  # type: ignore[arg-type]


def watched(rig: UnitRig) -> WatchedHardware:
    assert isinstance(rig.hardware, WatchedHardware)
    return rig.hardware


def assert_safe(rig: UnitRig, *, arrow: Side | None = None) -> None:
    """Each output as a player sees it: light off, buzzer silent, launcher off, arrow at *arrow*."""
    out = rig.outputs()
    assert out.light is Light.OFF, f"the countdown light is {out.light.value}"
    assert not out.buzzing, "the buzzer is sounding"
    assert out.launcher is None, f"the launcher is energised toward {out.launcher}"
    assert out.arrow is arrow, f"the arrow points at {out.arrow}, not {arrow}"


def stays_safe(rig: UnitRig, since_ns: int, *, arrow: Side | None = None) -> None:
    """Long after the exit at *since_ns* every output is still safe, and nothing was switched on
    in between (but the arrow toward *arrow*)."""
    rig.advance(15_000)  # past every beat, tone, hold, timeout, pulse and blink
    assert_safe(rig, arrow=arrow)
    switched_on = [
        command
        for command in watched(rig).commands_since(since_ns)
        if command.switches_on and command != Command(command.at_ns, "arrow", arrow)
    ]
    assert switched_on == [], "switched on after the showdown had ended"


def outcome(rig: UnitRig) -> ShowdownOutcome:
    """The one result of the current showdown."""
    results = [r for r in rig.results() if r.showdown_id == rig.machine.showdown_id]
    assert len(results) == 1, results
    return results[0]


# -- results --------------------------------------------------------------------------------


def race(rig: UnitRig) -> None:
    rig.press_left(after_go_ms=300)
    rig.cards_land(Side.RIGHT, 3)


def tie(rig: UnitRig) -> None:
    rig.press_left(after_go_ms=300)
    rig.press_right(after_go_ms=300.5)


def side_count(rig: UnitRig) -> None:
    tie(rig)
    rig.cards_land(Side.LEFT, 2)


def timeout(rig: UnitRig) -> None:
    pass


@pytest.mark.parametrize(
    ("play", "reason"),
    [(race, Reason.RACE), (tie, Reason.TIE), (side_count, Reason.SIDE_COUNT),
     (timeout, Reason.TIMEOUT)],
)
def test_a_decided_showdown_ends_with_the_light_off_the_buzzer_silent_and_nothing_lit(
    make_rig: RigFactory, play: Callable[[UnitRig], None], reason: Reason
) -> None:
    rig = make_rig(loud(timeout_ms=1500), watched=True)
    rig.load()
    rig.arm()
    rig.run_to_go()
    play(rig)
    assert rig.outputs().buzzing, "the go sound still beeps as the showdown ends"
    result = rig.finish()
    assert result.reason is reason
    assert rig.now_ns() - result.at_ns < ms(1), "checked at the moment of the exit"
    assert_safe(rig)
    stays_safe(rig, result.at_ns)
    assert len(rig.results()) == 1


@pytest.mark.parametrize("early", list(Side))
def test_a_false_start_silences_the_beep_at_once_and_leaves_only_the_arrow(
    make_rig: RigFactory, early: Side
) -> None:
    rig = make_rig(loud(), watched=True)
    rig.load()
    rig.arm()  # the first beat: red, and three beeps over 400 ms
    rig.advance(10)
    out = rig.outputs()
    assert (out.light, out.buzzing) == (Light.RED, True)
    pressed = rig.now_ns()
    rig.press(early)
    assert_safe(rig, arrow=early)
    result = rig.finish()
    assert (result.loser, result.reason) == (early, Reason.FALSE_START)
    assert_safe(rig, arrow=early)
    stays_safe(rig, pressed, arrow=early)
    assert not any(isinstance(e, CountdownBeat) and e.beat > 1 for e in rig.events)
    rig.advance(1)
    rig.release(early)
    rig.arm()  # the next showdown puts the arrow out
    assert rig.outputs().arrow is None


def test_a_showdown_cut_by_a_lost_contact_blinks_the_arrow_both_ways_then_goes_dark(
    make_rig: RigFactory,
) -> None:
    rig = make_rig(loud(), watched=True)
    rig.load()
    rig.arm()
    rig.run_to_go()
    rig.press_left(after_go_ms=300)
    rig.advance(100)  # launched, counting, the go sound still beeping
    lost = rig.now_ns()
    rig.machine.contact_lost(lost, restarted=False)  # as the back end reports it
    result = outcome(rig)
    assert result.reason is Reason.VOID and result.replay
    out = rig.outputs()
    assert (out.light, out.buzzing, out.launcher) == (Light.OFF, False, None)
    rig.advance(15_000)
    arrows = [(c.at_ns - lost, c.value) for c in watched(rig).commands_since(lost)
              if c.output == "arrow"]
    half = ms(TimingConfig().arrow_blink_ms)
    both_ways = [Side.LEFT, Side.RIGHT] * 4
    assert arrows == [(i * half, side) for i, side in enumerate([*both_ways, None])]
    assert_safe(rig)
    assert [c for c in watched(rig).commands_since(lost)
            if c.switches_on and c.output != "arrow"] == []


# -- faults ---------------------------------------------------------------------------------
# A driver fails at a chosen moment: the machine must then put every output off by itself (the
# failing one included, which may work again), end the showdown as one ``fault`` replay, and let
# nothing it had planned (a beat, a beep, the go light, a blink) switch anything on later.


Presses = dict[Side, int]


def fail_when_red_goes_off(rig: UnitRig) -> Presses:
    """In the first beat, with red lit and the beat's third beep sounding, red fails to go off."""
    rig.arm()
    watched(rig).fail_next("countdown_light")
    rig.advance(400)
    return {}


def fail_at_the_winning_press(rig: UnitRig) -> Presses:
    """Go is lit and its sound beeping when the winning press fires a launcher that fails."""
    rig.arm()
    go = rig.run_to_go()
    watched(rig).fail_next("launch")
    rig.press_left(after_go_ms=300)
    return {Side.LEFT: go + ms(300)}


def fail_while_counting(rig: UnitRig) -> Presses:
    """The cards flew and are being counted, green still lit and the go sound beeping, when the
    launcher fails to confirm it is off at the end of the count."""
    rig.arm()
    go = rig.run_to_go()
    rig.press_left(after_go_ms=300)
    rig.press_right(after_go_ms=420)
    rig.advance(500)
    watched(rig).fail_next("stop_launch")
    rig.advance(2000)
    return {Side.LEFT: go + ms(300), Side.RIGHT: go + ms(420)}


def fail_after_a_false_start(rig: UnitRig) -> Presses:
    """The arrow points at a player who pressed early when the launcher fails to confirm it is
    off at the end of the false start's grace time."""
    rig.arm()
    rig.advance(10)
    pressed = rig.now_ns()
    rig.press_right()
    watched(rig).fail_next("stop_launch")
    rig.advance(100)
    return {Side.RIGHT: pressed}


@pytest.mark.parametrize(
    "fault",
    [fail_when_red_goes_off, fail_at_the_winning_press, fail_while_counting,
     fail_after_a_false_start],
)
def test_a_fault_mid_showdown_puts_every_output_off_and_ends_it_as_one_fault_replay(
    make_rig: RigFactory, fault: Callable[[UnitRig], Presses]
) -> None:
    rig = make_rig(loud(), watched=True)
    rig.load(cards=3)
    presses = fault(rig)
    result = outcome(rig)
    assert (result.reason, result.winner, result.loser) == (Reason.FAULT, None, None)
    assert result.replay and result.at_ns == watched(rig).failed_at_ns
    assert (result.left_player, result.right_player, result.cards_loaded) == ("ann", "bob", 3)
    assert (result.go_ns, result.press_ns) == (rig.go_ns(), presses)
    assert rig.machine.phase is MachinePhase.IDLE
    assert_safe(rig)
    stays_safe(rig, result.at_ns)
    assert len(rig.results()) == 1
    # the cards are still loaded for the replay, and the next showdown runs normally
    rig.release(Side.RIGHT)
    rig.release(Side.LEFT)
    rig.advance(3000)
    rig.arm()
    rig.run_to_go()
    rig.press_right(after_go_ms=200)
    replay = rig.finish()
    assert (replay.reason, replay.winner, replay.cards_loaded) == (Reason.RACE, Side.RIGHT, 3)


def test_a_fault_while_the_arrow_blinks_at_a_held_paddle_puts_it_out_for_good(
    make_rig: RigFactory,
) -> None:
    rig = make_rig(watched=True)
    rig.load()
    rig.press_left()
    rig.arm()
    assert rig.outputs().arrow is Side.LEFT
    watched(rig).fail_next("arrow")
    failed = rig.now_ns()
    rig.advance(300)  # the blink's first step fails
    assert_safe(rig)
    stays_safe(rig, failed)
    assert rig.results() == [], "no showdown was running: no result"


def test_a_fault_in_the_void_blink_puts_the_arrow_out_for_good(make_rig: RigFactory) -> None:
    rig = make_rig(watched=True)
    rig.load()
    rig.arm()
    rig.run_to_go()
    rig.advance(100)
    rig.machine.contact_lost(rig.now_ns(), restarted=True)
    rig.advance(1)
    watched(rig).fail_next("arrow")
    failed = rig.now_ns()
    rig.advance(300)  # the blink's first step fails
    assert_safe(rig)
    stays_safe(rig, failed)
    assert [r.reason for r in rig.results()] == [Reason.VOID]


# -- close ----------------------------------------------------------------------------------


@pytest.mark.parametrize("moment", ["countdown", "race", "counting"])
def test_closing_the_machine_mid_showdown_puts_every_output_off(
    make_rig: RigFactory, moment: str
) -> None:
    rig = make_rig(loud(), watched=True)
    rig.load()
    rig.arm()
    if moment != "countdown":
        rig.run_to_go()
    if moment == "counting":
        rig.press_left(after_go_ms=150)
        assert rig.outputs().launcher is Side.RIGHT
    rig.advance(20)
    assert rig.outputs().buzzing and rig.outputs().light is not Light.OFF
    closed = rig.now_ns()
    rig.machine.close()  # the back end itself stays open
    assert_safe(rig)
    stays_safe(rig, closed)
