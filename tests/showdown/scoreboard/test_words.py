"""Words as a reader expects them: one card is "1 card" (plural forms in every language), and a
seat nobody named is "Player 4" in the language in use on every screen, recorded in English."""

from __future__ import annotations

import pytest

from showdown.scoreboard.adapter import SessionPort
from showdown.scoreboard.app import Scoreboard
from showdown.scoreboard.i18n import LANGUAGES, _, ngettext, use_language
from showdown.scoreboard.view import Side
from showdown.scoreboard.widgets import Button, Custom, Label
from tests.showdown.scoreboard.helpers import (
    keypad,
    play_round,
    record_unit_showdown,
    start_game,
    touch,
    widget,
)

TRANSLATED = [code for code in LANGUAGES if code != "en"]


def _text(board: Scoreboard, widget_id: str) -> str:
    found = widget(board, widget_id)
    assert isinstance(found, Label | Button)
    return found.text


def _texts(board: Scoreboard) -> list[str]:
    """Every text on the current screen: labels and buttons (the chart's legend included)."""
    board.frame()
    return [w.text for w in board.widgets() if isinstance(w, Label | Button)]


def test_one_card_is_one_card(board: Scoreboard, table: SessionPort) -> None:
    start_game(board, players=2)
    board.go("showdown")
    touch(board, "cards-")
    assert _text(board, "cards") == "1 card"
    touch(board, "cards+")
    assert _text(board, "cards") == "2 cards"
    record_unit_showdown(table, "Player 1", "Player 2", Side.LEFT, left_ms=250.0,
                         right_ms=300.0, cards=1)
    board.notify()
    board.pump()
    assert _text(board, "story") == "Player 1 wins; Player 2 takes 1 card"
    board.go("round")
    touch(board, "player0")  # Player 1 went out: on to Player 2
    keypad(board, "1")
    assert _text(board, "entry") == "Player 2 holds 1 point"
    touch(board, "cards-mode")
    touch(board, "kind:7")
    assert _text(board, "entry") == "Player 2: 1 card, 7 points"
    touch(board, "kind:skip")
    assert _text(board, "entry") == "Player 2: 2 cards, 27 points"


@pytest.mark.parametrize("code", TRANSLATED)
def test_counted_words_are_translated_for_one_and_for_many(code: str) -> None:
    messages = [("{count} card", "{count} cards"), ("{count} point", "{count} points"),
                ("{count} player", "{count} players"),
                ("{name} holds {points} point", "{name} holds {points} points"),
                ("{winner} wins; {loser} takes {count} card",
                 "{winner} wins; {loser} takes {count} cards")]
    with use_language(code):
        for singular, plural in messages:
            for n in (1, 2, 5):
                assert ngettext(singular, plural, n) not in (singular, plural), (singular, n)


def test_a_default_name_is_recorded_in_english_whatever_the_language(
    board: Scoreboard, table: SessionPort
) -> None:
    board.set_language("ja")
    board.go("setup")
    assert _text(board, "seat3") == "プレイヤー4"
    start_game(board, players=4)
    state = table.session.state
    assert state is not None
    assert state.players == ("Player 1", "Player 2", "Player 3", "Player 4")


@pytest.mark.parametrize("code", TRANSLATED)
def test_a_seat_nobody_named_is_named_in_the_language_on_every_screen(
    board: Scoreboard, table: SessionPort, code: str
) -> None:
    start_game(board, players=4, target=100)  # in English: "Player 1" ... "Player 4"
    record_unit_showdown(table, "Player 4", "Player 1", Side.LEFT, left_ms=250.0,
                         right_ms=300.0)
    play_round(board, went_out=3, held={0: "20", 1: "20", 2: "20"})
    board.set_language(code)
    with use_language(code):
        shown = _("Player {number}").format(number=4)
    assert shown != "Player 4"
    screens = ["table", "round", "showdown", "history", "chart", "stats"]
    for screen in screens:
        board.go(screen)
        texts = _texts(board)
        assert any(shown in text for text in texts), (screen, texts)
        assert not any("Player 4" in text for text in texts), (screen, texts)
    play_round(board, went_out=3, held={0: "20", 1: "20", 2: "20"})  # 120: Player 4 wins
    assert board.current == "gameover"
    texts = _texts(board)
    assert any(shown in text for text in texts[:2]), texts  # the winner's line
    assert not any("Player 4" in text for text in texts)
    assert not [w for w in board.widgets() if isinstance(w, Custom) and "Player" in str(w.state)]
