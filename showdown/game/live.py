"""The showdown on the unit as a table shows it: a picture built from the unit's events.

:func:`mirror` is a pure function from the previous :class:`ShowdownView` and one event of the
showdown state machine (:mod:`showdown.unit.events`) to the next view, so the whole
countdown-to-result sequence is testable without a window or a thread. The scoreboard and the
phone page (``showdown.web``) both draw it; neither imports the other, so it lives here, with the
game the showdown belongs to.

The names and the cards come with the event that starts a showdown (:class:`Armed`), never
from the showdown before: whoever loaded the unit (the scoreboard, a simulated table's virtual
players), the view shows the players of the showdown in progress. The winner is shown the
moment the launcher fires at the loser (the first press won); the side counts follow with the
result, about a count-settle later.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import Enum

from showdown.unit import hardware
from showdown.unit.clock import to_ms
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
from showdown.unit.hardware import Side
from showdown.unit.verdict import Reason

__all__ = ["ShowdownView", "Stage", "mirror", "side_of"]


class Stage(Enum):
    """Where the showdown on the unit is, as the showdown screen shows it."""

    IDLE = "idle"
    """Nothing loaded."""
    LOADED = "loaded"
    """Players and cards set; waiting for the timer button."""
    RELEASE = "release"
    """The timer button was pressed with a paddle held: release it first."""
    COUNTDOWN = "countdown"
    """Red light and beeps: wait."""
    GO = "go"
    """Green light: slam."""
    FALSE_START = "false_start"
    """A paddle went down before go; the arrow points at that player."""
    LAUNCHING = "launching"
    """The launcher is firing toward the loser."""
    RESULT = "result"
    """Settled: winner, loser and reaction times."""
    NO_CONTEST = "no_contest"
    """Nobody pressed in time, or a tie the side lines could not decide: replay."""


@dataclass(frozen=True)
class ShowdownView:
    """The showdown on the unit, mirrored."""

    phase: Stage = Stage.IDLE
    left: str | None = None
    right: str | None = None
    cards: int = 0
    beat: int = 0
    beats: int = 0
    winner: str | None = None
    loser: str | None = None
    reason: str = ""
    left_ms: float | None = None
    right_ms: float | None = None
    false_start_side: Side | None = None
    launch_toward: Side | None = None
    counts: tuple[int, int] | None = None
    """Cards the side-count lines counted on the (left, right) side after the launch."""
    go_ns: int | None = None
    """When the light turned green (the unit's clock): the winner's reaction time is known the
    moment the launcher fires, long before the side counts settle."""


def side_of(side: hardware.Side | None) -> Side | None:
    """The unit's side as the scoreboard's (the same two values)."""
    return None if side is None else Side(side.value)


def mirror(view: ShowdownView, event: ShowdownEvent) -> ShowdownView:
    """The showdown screen's state after ``event``."""
    if isinstance(event, Armed):
        return replace(view, phase=Stage.COUNTDOWN, beat=0, beats=0, winner=None, loser=None,
                       reason="", left_ms=None, right_ms=None, false_start_side=None,
                       launch_toward=None, counts=None, go_ns=None,
                       left=event.left_player or view.left,
                       right=event.right_player or view.right,
                       cards=event.cards_loaded or view.cards)
    if isinstance(event, PaddleHeld):
        held = side_of(event.sides[0]) if event.sides else None
        return replace(view, phase=Stage.RELEASE, false_start_side=held)
    if isinstance(event, CountdownBeat):
        return replace(view, phase=Stage.COUNTDOWN, beat=event.beat, beats=event.beats)
    if isinstance(event, Go):
        return replace(view, phase=Stage.GO, go_ns=event.at_ns)
    if isinstance(event, FalseStart):
        return replace(view, phase=Stage.FALSE_START, false_start_side=side_of(event.side))
    if isinstance(event, Launching):
        return _launching(view, event)
    if isinstance(event, Counting):
        return view
    return _result(view, event)


def _launching(view: ShowdownView, event: Launching) -> ShowdownView:
    """Cards fly at the loser: the first press won, and its reaction time is known now."""
    toward = side_of(event.toward)
    loser, winner = (view.left, view.right) if toward is Side.LEFT else (view.right, view.left)
    reaction = None if view.go_ns is None else _reaction(to_ms(event.press_ns - view.go_ns))
    left_ms, right_ms = (None, reaction) if toward is Side.LEFT else (reaction, None)
    return replace(view, phase=Stage.LAUNCHING, launch_toward=toward, loser=loser, winner=winner,
                   left_ms=left_ms, right_ms=right_ms)


def _result(view: ShowdownView, result: ShowdownOutcome) -> ShowdownView:
    reactions = result.reaction_ms
    left = result.left_player or view.left
    right = result.right_player or view.right
    names = {hardware.Side.LEFT: left, hardware.Side.RIGHT: right}
    false_start = None
    if result.reason is Reason.FALSE_START and result.loser is not None:
        false_start = side_of(result.loser)
    return replace(
        view,
        phase=Stage.NO_CONTEST if result.replay else Stage.RESULT,
        left=left,
        right=right,
        cards=result.cards_loaded or view.cards,
        winner=None if result.winner is None else names[result.winner],
        loser=None if result.loser is None else names[result.loser],
        reason=result.reason.value,
        left_ms=_reaction(reactions.get(hardware.Side.LEFT)),
        right_ms=_reaction(reactions.get(hardware.Side.RIGHT)),
        false_start_side=false_start,
        launch_toward=side_of(result.launched_toward),
        counts=(result.counts.get(hardware.Side.LEFT, 0), result.counts.get(hardware.Side.RIGHT, 0))
        if result.counts else None,
    )


def _reaction(value: float | None) -> float | None:
    """A reaction time worth showing (a press before go has no reaction time)."""
    return None if value is None or value < 0 else value
