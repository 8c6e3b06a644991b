"""Saying what happened: each entry is told in words for a few seconds, with Undo where it
applies, in the confirmation colour; only a refusal uses the error colour."""

from __future__ import annotations

import threading

from showdown.game.messages import RecordShowdown, SetUpGame
from showdown.scoreboard import theme
from showdown.scoreboard.adapter import SessionPort
from showdown.scoreboard.app import Scoreboard
from tests.showdown.scoreboard.helpers import keypad, play_round, shot, touch, widget


def banner(board: Scoreboard) -> tuple[str, tuple[int, int, int], str | None]:
    """The banner's words, its colour, and its button's words (None without one)."""
    board.frame()
    ids = {w.id: w for w in board.widgets()}
    label = ids["banner"]
    button = ids.get("banner-action")
    return (label.text, label.background,  # type: ignore[attr-defined]
            None if button is None else button.text)  # type: ignore[attr-defined]


def three(table: SessionPort, board: Scoreboard) -> None:
    table.session.handle(SetUpGame(players=["José", "Zoë", "Sakura"]))
    board.refresh()
    board.go("table")


def test_a_showdown_the_unit_settled_is_told_with_undo(board: Scoreboard, table: SessionPort
                                                       ) -> None:
    three(table, board)
    # The service records the unit's result on its own thread; the scoreboard hears of it.
    worker = threading.Thread(target=table.session.handle, args=(RecordShowdown(
        winner="José", loser="Zoë", cards_loaded=3, source="unit", left="José", right="Zoë"),))
    worker.start()
    worker.join()
    board.notify()
    board.pump()
    assert banner(board) == ("José won the showdown, Zoë takes 3 cards", theme.NEWS, "Undo")
    shot(board, "news-showdown")
    touch(board, "banner-action")
    assert table.view().showdowns == ()
    assert banner(board) == ("Undone: showdown: José beat Zoë", theme.NEWS, "Redo")
    touch(board, "banner-action")
    assert len(table.view().showdowns) == 1
    # Redo's confirmation is never in the error colour, and can be undone again.
    assert banner(board) == ("Back again: showdown: José beat Zoë", theme.NEWS, "Undo")


def test_a_false_start_is_told_as_one(board: Scoreboard, table: SessionPort) -> None:
    three(table, board)
    table.session.handle(RecordShowdown(winner="Sakura", loser="Zoë", cards_loaded=2,
                                        reason="false-start", source="unit", left="Zoë",
                                        right="Sakura"))
    board.refresh()
    assert banner(board)[0] == "Zoë started too soon, takes 2 cards"


def test_a_round_saved_and_a_round_corrected_are_told_with_undo(
    board: Scoreboard, table: SessionPort
) -> None:
    three(table, board)
    play_round(board, went_out=0, held={1: "10", 2: "20"})
    assert banner(board) == ("Round 1 saved", theme.NEWS, "Undo")
    board.go("history")
    touch(board, "row0")
    touch(board, "edit")
    touch(board, "player2")
    touch(board, "key:clear")
    keypad(board, "2")
    touch(board, "save")
    assert banner(board) == ("Round 1 corrected", theme.NEWS, "Undo")
    assert table.view().players[0].total == 12
    touch(board, "banner-action")  # the correction is taken back
    assert table.view().players[0].total == 30
    assert banner(board)[0] == "Undone: the edit of round 1"


def test_undo_on_an_old_banner_takes_back_nothing_else(board: Scoreboard, table: SessionPort
                                                       ) -> None:
    three(table, board)
    play_round(board, went_out=0, held={1: "10", 2: "20"})
    board.frame()
    action = next(w for w in board.widgets() if w.id == "banner-action").action
    table.session.handle(RecordShowdown(winner="José", loser="Zoë", cards_loaded=1))
    board.refresh()
    assert action is not None
    action()  # the "Round 1 saved" banner's Undo, pressed after something else was entered
    assert len(table.view().rounds) == 1 and len(table.view().showdowns) == 1


def test_a_refusal_keeps_the_error_colour(board: Scoreboard, table: SessionPort) -> None:
    three(table, board)
    board.go("round")
    touch(board, "save")
    assert banner(board)[1] == theme.DANGER
    assert widget(board, "banner").text == "Tap who went out"  # type: ignore[attr-defined]
