"""The side-count lines count the cards the launcher threw, and nothing else.

Only pulses from the winning press to the end of the count are cards of this showdown: a pulse on
a count line during the countdown or the race (a card slipping, a hand across the beam) changes
nothing, and neither does one that happened before the winning press but arrived after it.
"""

from __future__ import annotations

from showdown.unit.hardware import InputLine, Side
from showdown.unit.verdict import Reason
from tests.showdown.rigs import UnitRig


def pulse(rig: UnitRig, side: Side, at_ns: int | None = None) -> None:
    """One pulse on *side*'s count line, starting at *at_ns* (default now)."""
    start = rig.now_ns() if at_ns is None else at_ns
    rig.edge(InputLine.count(side), True, start)
    rig.advance(1)
    rig.edge(InputLine.count(side), False)


def test_pulses_before_the_race_is_won_are_not_cards_and_change_nothing(
    unit_backend: UnitRig,
) -> None:
    rig = unit_backend
    rig.arm()
    rig.advance(700)
    pulse(rig, Side.LEFT)  # during the countdown
    go = rig.run_to_go()
    rig.advance(50)
    pulse(rig, Side.RIGHT)  # during the race, before anyone pressed
    rig.press_left(after_go_ms=300)
    pulse(rig, Side.LEFT, at_ns=go + 100 * 1_000_000)  # happened before the press, came after it
    rig.cards_land(Side.RIGHT, 2)
    result = rig.finish()
    assert (result.reason, result.winner) == (Reason.RACE, Side.LEFT)
    assert result.counts == {Side.LEFT: 0, Side.RIGHT: 2}
    assert result.possible_jam, "3 loaded, 2 counted"


def test_pulses_between_showdowns_are_not_counted_in_the_next(unit_backend: UnitRig) -> None:
    rig = unit_backend
    pulse(rig, Side.RIGHT)
    rig.advance(100)
    rig.arm()
    rig.run_to_go()
    rig.press_right(after_go_ms=200)
    rig.cards_land(Side.LEFT, 3)
    result = rig.finish()
    pulse(rig, Side.LEFT)  # after the result
    rig.advance(5000)
    assert result.counts == {Side.LEFT: 3, Side.RIGHT: 0} and not result.possible_jam
    assert len(rig.results()) == 1
