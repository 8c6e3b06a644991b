"""Test helpers in the players' words: tap a button, start a game, save a screenshot."""

from __future__ import annotations

from pathlib import Path

import pygame

from showdown.game.messages import RecordShowdown
from showdown.scoreboard.adapter import SessionPort
from showdown.scoreboard.app import Scoreboard
from showdown.scoreboard.touch import finger_event
from showdown.scoreboard.view import ShowdownView, Side, Stage
from showdown.scoreboard.widgets import Widget

ARTIFACTS = Path(__file__).resolve().parents[2] / "_artifacts" / "scoreboard"


def widget(board: Scoreboard, widget_id: str) -> Widget:
    """The widget with this id on the current screen (fails the test if it is not there)."""
    board.frame()
    for found in board.widgets():
        if found.id == widget_id:
            return found
    ids = sorted(w.id for w in board.widgets())
    raise AssertionError(f"no widget {widget_id!r} on {board.current}: {ids}")


def touch(board: Scoreboard, widget_id: str, finger: int = 1) -> None:
    """Tap a widget with a finger: FINGERDOWN and FINGERUP at its centre, through the loop."""
    target = widget(board, widget_id)
    real = board.layout.rect(target.rect)
    x = real.centerx / board.window.get_width()
    y = real.centery / board.window.get_height()
    pygame.event.post(finger_event(pygame.FINGERDOWN, x, y, finger))
    pygame.event.post(finger_event(pygame.FINGERUP, x, y, finger))
    board.pump()


def start_game(board: Scoreboard, players: int = 4, target: int = 500) -> None:
    """Set up a game on the set-up screen by touch (default names, the Showdown preset)."""
    board.go("setup")
    setup = board.screens["setup"]
    while getattr(setup, "count") > players:  # noqa: B009
        touch(board, "fewer")
    while getattr(setup, "count") < players:  # noqa: B009
        touch(board, "more")
    while getattr(setup, "target") > target:  # noqa: B009
        touch(board, "target-")
    while getattr(setup, "target") < target:  # noqa: B009
        touch(board, "target+")
    touch(board, "start")


def choose(board: Scoreboard, button: str, key: str) -> None:
    """Choose on Set-up from a list: tap Rules (``preset``) or Scoring (``mode``), then the
    choice with that key (``"killer"``, ``"hero"``), which comes back to Set-up."""
    touch(board, button)
    touch(board, f"choice:{key}")


def keypad(board: Scoreboard, digits: str) -> None:
    """Type digits on the round-end keypad."""
    for digit in digits:
        touch(board, f"key:{digit}")


def play_round(board: Scoreboard, went_out: int, held: dict[int, str]) -> None:
    """Enter a round's end by touch: who went out (one tap), then each other seat's total on
    the keypad."""
    board.go("round")
    touch(board, f"player{went_out}")
    for seat, digits in held.items():
        touch(board, f"player{seat}")
        keypad(board, digits)
    touch(board, "save")


def record_unit_showdown(table: SessionPort, left: str, right: str, winner: Side, *,
                         left_ms: float, right_ms: float, cards: int = 2) -> None:
    """What the service does when the unit reports a race: the session records it and the
    showdown screen mirrors the result."""
    win, lose = (left, right) if winner is Side.LEFT else (right, left)
    table.session.handle(RecordShowdown(
        winner=win, loser=lose, cards_loaded=cards, source="unit", left=left, right=right,
        reaction_ms={left: left_ms, right: right_ms}))
    table.unit_changed(ShowdownView(Stage.RESULT, left, right, cards, winner=win, loser=lose,
                                    reason="race", left_ms=left_ms, right_ms=right_ms,
                                    launch_toward=Side.RIGHT if winner is Side.LEFT else
                                    Side.LEFT))


def shot(board: Scoreboard, name: str) -> Path:
    """Save the window as tests/_artifacts/scoreboard/NAME.png."""
    path = ARTIFACTS / f"{name}.png"
    board.screenshot(path)
    return path
