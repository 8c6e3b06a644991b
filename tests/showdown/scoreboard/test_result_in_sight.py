"""The showdown's result stays in sight while its banner tells it (issue 37, item 11): the
banner sits beside the light, so the winner in the result circle and the false-start arrow are
drawn exactly as they are without it."""

from __future__ import annotations

import pygame
import pytest

from showdown.game.messages import RecordShowdown
from showdown.scoreboard.adapter import SessionPort
from showdown.scoreboard.app import ACTION_BANNER_S, Scoreboard
from showdown.scoreboard.screens.showdown import LIGHT
from showdown.scoreboard.view import ShowdownView, Side, Stage
from tests.showdown.scoreboard.helpers import record_unit_showdown, shot, start_game, widget


class FakeClock:
    """The banners' clock, moved by the test."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def light_pixels(board: Scoreboard) -> bytes:
    """The light's part of the window as the players see it now."""
    board.painter.invalidate()
    board.frame()
    return pygame.image.tobytes(board.window.subsurface(board.layout.rect(LIGHT)), "RGB")


def false_start(table: SessionPort) -> None:
    """Player 2, on the right paddle, slammed before green: they take the cards."""
    table.session.handle(RecordShowdown(winner="Player 1", loser="Player 2", cards_loaded=2,
                                        reason="false-start", source="unit", left="Player 1",
                                        right="Player 2"))
    table.unit_changed(ShowdownView(Stage.RESULT, "Player 1", "Player 2", 2, winner="Player 1",
                                    loser="Player 2", reason="false-start",
                                    false_start_side=Side.RIGHT, launch_toward=Side.RIGHT))


@pytest.mark.parametrize("result", ["race", "false-start"])
def test_the_result_banner_leaves_the_circle_and_the_arrow_in_sight(
    board: Scoreboard, table: SessionPort, result: str
) -> None:
    clock = FakeClock()
    board.clock = clock
    start_game(board, players=3)
    board.go("showdown")
    if result == "race":
        record_unit_showdown(table, "Player 1", "Player 2", Side.LEFT, left_ms=180,
                             right_ms=240)
        told = "Player 1 won the showdown, Player 2 takes 2 cards"
    else:
        false_start(table)
        told = "Player 2 started too soon, takes 2 cards"
    board.refresh()
    assert board.current == "showdown"
    assert widget(board, "banner").text == told  # type: ignore[attr-defined]
    assert widget(board, "banner-action").text == "Undo"  # type: ignore[attr-defined]
    with_banner = light_pixels(board)
    shot(board, f"showdown-banner-{result}")
    assert board.text.overflows == []
    clock.now += ACTION_BANNER_S
    board.frame()
    assert "banner" not in {w.id for w in board.widgets()}
    assert light_pixels(board) == with_banner
