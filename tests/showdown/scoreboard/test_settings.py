"""The language (and the colour-free cues) can be changed from the table, mid-game, from a
settings place the Set-up tab leads to, not from a screen titled "New game"."""

from __future__ import annotations

from showdown.scoreboard.adapter import SessionPort
from showdown.scoreboard.app import Scoreboard
from showdown.scoreboard.i18n import current_language
from tests.showdown.scoreboard.helpers import keypad, play_round, shot, start_game, touch, widget


def test_the_language_changes_mid_game_from_the_settings(board: Scoreboard, table: SessionPort
                                                         ) -> None:
    start_game(board, players=3)
    play_round(board, went_out=0, held={1: "10", 2: "20"})
    board.go("round")
    touch(board, "player1")
    keypad(board, "42")  # half an entry: it stays
    before = table.view()
    touch(board, "nav:setup")
    assert board.current == "settings"
    assert widget(board, "title").text == "Settings"  # type: ignore[attr-defined]
    assert "New game" not in widget(board, "title").text  # type: ignore[attr-defined]
    touch(board, "language:ja")
    assert current_language() == "ja"
    assert widget(board, "title").text == "設定"  # type: ignore[attr-defined]
    shot(board, "settings-ja")
    touch(board, "cues")
    assert not board.cues.countdown_words
    touch(board, "nav:round")
    assert table.view().rounds == before.rounds
    assert "42" in board.screens["round"].totals.values()  # type: ignore[attr-defined]
    touch(board, "nav:setup")
    touch(board, "language:en")
    touch(board, "new-game")
    assert board.current == "setup"  # the new game's form, one step further


def test_before_any_game_set_up_is_the_new_game_form(board: Scoreboard) -> None:
    assert board.current == "setup"
    assert widget(board, "title").text == "New game"  # type: ignore[attr-defined]
