"""What the showdown state machine tells its subscribers (the session, the scoreboard).

State changes (:class:`Armed`, :class:`PaddleHeld`, :class:`CountdownBeat`, :class:`Go`,
:class:`FalseStart`, :class:`Launching`, :class:`Counting`) let the scoreboard mirror the unit;
:class:`ShowdownOutcome` is the one event per showdown that the score is built from. Every ``*_ns``
field is in the unit clock's domain (:mod:`showdown.unit.hardware`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from showdown.unit.clock import to_ms
from showdown.unit.hardware import Side
from showdown.unit.verdict import Reason

__all__ = [
    "Armed",
    "CountdownBeat",
    "Counting",
    "FalseStart",
    "Go",
    "Launching",
    "PaddleHeld",
    "ShowdownEvent",
    "ShowdownOutcome",
]


@dataclass(frozen=True, slots=True)
class Armed:
    """The timer button started a countdown for the players and cards loaded (None when the
    unit was not told: a scoreboard then keeps showing what it had)."""

    showdown_id: int
    at_ns: int
    left_player: str | None = None
    right_player: str | None = None
    cards_loaded: int | None = None


@dataclass(frozen=True, slots=True)
class PaddleHeld:
    """Arming refused: a paddle is held down; the arrow blinks at *sides* ("release the paddle")."""

    sides: tuple[Side, ...]
    at_ns: int


@dataclass(frozen=True, slots=True)
class CountdownBeat:
    """Red flashed with a beep: beat *beat* of *beats*."""

    showdown_id: int
    beat: int
    beats: int
    at_ns: int


@dataclass(frozen=True, slots=True)
class Go:
    """The light turned green at *at_ns* (the time the back end reported, not when asked)."""

    showdown_id: int
    at_ns: int


@dataclass(frozen=True, slots=True)
class FalseStart:
    """*side* pressed too early: the arrow points at them and nothing is launched."""

    showdown_id: int
    side: Side
    at_ns: int


@dataclass(frozen=True, slots=True)
class Launching:
    """The launcher was energised toward *toward*; *press_ns* is the press that fired it."""

    showdown_id: int
    toward: Side
    press_ns: int
    at_ns: int


@dataclass(frozen=True, slots=True)
class Counting:
    """The side-count lines are counting the launched cards until *until_ns*."""

    showdown_id: int
    at_ns: int
    until_ns: int


@dataclass(frozen=True, slots=True)
class ShowdownOutcome:
    """The one result of a showdown.

    ``winner``/``loser`` are None for a replay (``reason`` tie, timeout, fault or void). A void
    showdown (:attr:`void`) lost contact with the unit midway: the presses it holds may not be all
    there were, so it is never scored; the scoreboard says "Replay the showdown". ``press_ns``
    holds each side's first press; ``reaction_ms`` is press minus go (negative for a press before
    go). ``winning_press_ns`` and ``launcher_on_ns`` measure press-to-launch latency.
    """

    showdown_id: int
    left_player: str | None
    right_player: str | None
    cards_loaded: int | None
    winner: Side | None
    loser: Side | None
    reason: Reason
    go_ns: int | None
    press_ns: dict[Side, int] = field(default_factory=dict)
    counts: dict[Side, int] = field(default_factory=dict)
    possible_jam: bool = False
    winning_press_ns: int | None = None
    launcher_on_ns: int | None = None
    launched_toward: Side | None = None
    at_ns: int = 0

    @property
    def replay(self) -> bool:
        """True when nobody lost (tie with equal counts, timeout): the cards stay loaded."""
        return self.loser is None

    @property
    def void(self) -> bool:
        """True when the unit lost contact mid-showdown: not decided, never recorded, replay."""
        return self.reason is Reason.VOID

    @property
    def reaction_ms(self) -> dict[Side, float]:
        """Each pressing side's reaction time in ms (press - go); empty when go never came."""
        if self.go_ns is None:
            return {}
        return {side: to_ms(at_ns - self.go_ns) for side, at_ns in self.press_ns.items()}

    @property
    def press_to_launch_ns(self) -> int | None:
        """From the edge that fired the launcher to the launcher being energised."""
        if self.winning_press_ns is None or self.launcher_on_ns is None:
            return None
        return self.launcher_on_ns - self.winning_press_ns

    def player(self, side: Side | None) -> str | None:
        """The player's name on *side* (None if not loaded or no side)."""
        if side is None:
            return None
        return self.left_player if side is Side.LEFT else self.right_player

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready values (sides and reason by name)."""
        return {
            "showdown_id": self.showdown_id,
            "left_player": self.left_player,
            "right_player": self.right_player,
            "cards_loaded": self.cards_loaded,
            "winner": None if self.winner is None else self.winner.value,
            "loser": None if self.loser is None else self.loser.value,
            "winner_player": self.player(self.winner),
            "loser_player": self.player(self.loser),
            "reason": self.reason.value,
            "reaction_ms": {side.value: value for side, value in self.reaction_ms.items()},
            "counts": {side.value: value for side, value in self.counts.items()},
            "possible_jam": self.possible_jam,
            "go_ns": self.go_ns,
            "press_ns": {side.value: value for side, value in self.press_ns.items()},
            "winning_press_ns": self.winning_press_ns,
            "launcher_on_ns": self.launcher_on_ns,
            "launched_toward": None if self.launched_toward is None else self.launched_toward.value,
        }


ShowdownEvent = (
    Armed | PaddleHeld | CountdownBeat | Go | FalseStart | Launching | Counting | ShowdownOutcome
)
