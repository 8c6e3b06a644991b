"""A tap acts on what was on screen when the finger went down (issue 37, item 6): a banner that
goes away by itself, or a redraw, between the finger going down and up never loses the tap."""

from __future__ import annotations

import pygame

from showdown.scoreboard.adapter import SessionPort
from showdown.scoreboard.app import ACTION_BANNER_S, Scoreboard
from showdown.scoreboard.touch import finger_event
from tests.showdown.scoreboard.helpers import play_round, start_game, widget


class FakeClock:
    """The banners' clock, moved by the test."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def finger(board: Scoreboard, kind: int, widget_id: str) -> tuple[float, float]:
    """A finger going down (or up) on a widget of the screen shown now, through the loop; the
    normalised position, for the finger to be lifted where it went down."""
    real = board.layout.rect(widget(board, widget_id).rect)
    x = real.centerx / board.window.get_width()
    y = real.centery / board.window.get_height()
    pygame.event.post(finger_event(kind, x, y))
    board.pump()
    return x, y


def shown(board: Scoreboard) -> set[str]:
    board.frame()
    return {w.id for w in board.widgets()}


def test_rematch_tapped_as_the_undo_banner_goes_starts_the_rematch(
    board: Scoreboard, table: SessionPort
) -> None:
    """The round that ends the game leaves "Round 1 saved" with Undo over Game over; the
    finger goes down on Rematch, the banner expires, the finger lifts: the rematch starts."""
    clock = FakeClock()
    board.clock = clock
    start_game(board, players=2, target=50)
    play_round(board, went_out=0, held={1: "60"})
    over = table.session.state
    assert over is not None and over.is_over and board.current == "gameover"
    assert {"banner", "banner-action", "rematch"} <= shown(board)
    x, y = finger(board, pygame.FINGERDOWN, "rematch")
    clock.now += ACTION_BANNER_S  # the banner goes while the finger is on Rematch
    board.pump()
    assert "banner" not in shown(board)
    pygame.event.post(finger_event(pygame.FINGERUP, x, y))
    board.pump()
    rematch = table.session.state
    assert rematch is not None and rematch.game_id != over.game_id and not rematch.is_over
    assert board.current == "table"


def test_a_finger_lifted_off_the_widget_it_went_down_on_still_taps_nothing(
    board: Scoreboard, table: SessionPort
) -> None:
    """What the fix keeps: a tap is the press and the release on one widget, so a finger that
    slides from Rematch to New game does neither."""
    start_game(board, players=2, target=50)
    play_round(board, went_out=0, held={1: "60"})
    over = table.session.state
    assert over is not None
    finger(board, pygame.FINGERDOWN, "rematch")
    finger(board, pygame.FINGERUP, "new-game")
    assert board.current == "gameover"
    state = table.session.state
    assert state is not None and state.game_id == over.game_id
