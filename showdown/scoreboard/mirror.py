"""The unit's state changes turned into what the showdown screen shows.

:func:`mirror` is a pure function from the previous :class:`ShowdownView` and one event of the
showdown state machine (:mod:`showdown.unit.events`) to the next view, so the whole
countdown-to-result sequence is testable without a window or a thread.

The names and the cards come with the event that starts a showdown (:class:`Armed`), never
from the showdown before: whoever loaded the unit (the scoreboard, a simulated table's virtual
players), the screen shows the players of the showdown in progress. The winner is shown the
moment the launcher fires at the loser (the first press won); the side counts follow with the
result, about a count-settle later.
"""

from __future__ import annotations

from dataclasses import replace

from showdown.scoreboard.view import ShowdownView, Side, Stage
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
from showdown.unit.verdict import Reason


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
