"""Who won a showdown: a pure function of the presses' own timestamps, the go time and the counts.

Kept apart from the state machine so the rules of ``unit.md`` (false start, both early, race, tie
window, side counts, timeout) read in one place and can be checked exhaustively.

    >>> from showdown.unit.hardware import Side
    >>> decide({Side.LEFT: 1_250, Side.RIGHT: 1_400}, go_ns=1_000, counts={}, tie_window_ns=100)
    Verdict(winner=<Side.LEFT: 'left'>, loser=<Side.RIGHT: 'right'>, reason=<Reason.RACE: 'race'>)
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass

from showdown.unit.hardware import Side

__all__ = ["Reason", "Verdict", "decide"]


class Reason(enum.Enum):
    """Why a showdown ended as it did."""

    RACE = "race"  #: the first press after go won
    FALSE_START = "false_start"  #: a press before go (or inside the anticipation window) lost
    SIDE_COUNT = "side_count"  #: presses tied; more cards on your side lost
    TIE = "tie"  #: presses tied and the counts were equal (or none): replay
    TIMEOUT = "timeout"  #: nobody pressed in time after go: no contest, replay
    FAULT = "fault"  #: the controller failed mid-showdown: outputs made safe, no contest, replay


@dataclass(frozen=True, slots=True)
class Verdict:
    """The outcome: ``winner`` and ``loser`` are None for a replay (tie or timeout)."""

    winner: Side | None
    loser: Side | None
    reason: Reason

    @property
    def replay(self) -> bool:
        """True when nobody lost: the same cards are played again."""
        return self.loser is None


def decide(
    presses: Mapping[Side, int],
    go_ns: int | None,
    counts: Mapping[Side, int],
    *,
    tie_window_ns: int,
    anticipation_ns: int = 0,
) -> Verdict:
    """Decide from each side's first press time (absent: no press) and the side counts.

    A press earlier than ``go_ns + anticipation_ns`` (or any press when go never came) is a false
    start; when both sides false-start, the earlier press loses. Otherwise presses closer than
    ``tie_window_ns`` are a tie that the counts decide, and a lone or clearly first press wins.
    """
    early = {
        side: at_ns
        for side, at_ns in presses.items()
        if go_ns is None or at_ns - go_ns < anticipation_ns
    }
    if early:
        if len(early) == 2 and early[Side.LEFT] == early[Side.RIGHT]:
            return Verdict(None, None, Reason.FALSE_START)
        loser = min(early, key=lambda side: early[side])
        return Verdict(loser.other, loser, Reason.FALSE_START)
    if not presses:
        return Verdict(None, None, Reason.TIMEOUT)
    if len(presses) == 2 and abs(presses[Side.LEFT] - presses[Side.RIGHT]) < tie_window_ns:
        left, right = counts.get(Side.LEFT, 0), counts.get(Side.RIGHT, 0)
        if left == right:
            return Verdict(None, None, Reason.TIE)
        loser = Side.LEFT if left > right else Side.RIGHT
        return Verdict(loser.other, loser, Reason.SIDE_COUNT)
    winner = min(presses, key=lambda side: presses[side])
    return Verdict(winner, winner.other, Reason.RACE)
