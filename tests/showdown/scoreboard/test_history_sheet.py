"""History reads as a paper score sheet: every player's points and running total each round, a
typo visible at a glance, showdowns and false starts told apart in words."""

from __future__ import annotations

from showdown.game.messages import RecordShowdown
from showdown.scoreboard.adapter import SessionPort
from showdown.scoreboard.app import Scoreboard
from showdown.scoreboard.view import ShowdownView, Side, Stage
from tests.showdown.scoreboard.helpers import keypad, play_round, shot, start_game, touch, widget


def text(board: Scoreboard, widget_id: str) -> str:
    return str(widget(board, widget_id).text)  # type: ignore[attr-defined]


def test_each_round_shows_every_players_points_and_running_total(
    board: Scoreboard, table: SessionPort
) -> None:
    start_game(board, players=3, target=1000)
    play_round(board, went_out=0, held={1: "12", 2: "300"})  # a 300 typed for a 30
    play_round(board, went_out=1, held={0: "5", 2: "20"})
    board.go("history")
    shot(board, "history-sheet")
    # Round 1: Player 1 scored 312; what the others held is in their own columns.
    assert [text(board, f"cell0:{i}") for i in range(3)] == ["+312", "12", "300"]
    assert [text(board, f"total0:{i}") for i in range(3)] == ["312", "0", "0"]
    assert [text(board, f"cell1:{i}") for i in range(3)] == ["5", "+25", "20"]
    assert [text(board, f"total1:{i}") for i in range(3)] == ["312", "25", "0"]


def test_showdowns_and_false_starts_are_listed_apart_and_worded_apart(
    board: Scoreboard, table: SessionPort
) -> None:
    start_game(board, players=3)
    session = table.session
    session.handle(RecordShowdown(winner="Player 1", loser="Player 2", cards_loaded=3,
                                  source="unit", left="Player 1", right="Player 2"))
    session.handle(RecordShowdown(winner="Player 3", loser="Player 1", cards_loaded=2,
                                  reason="false-start", source="unit", left="Player 1",
                                  right="Player 3"))
    session.handle(RecordShowdown(winner="Player 2", loser="Player 3", cards_loaded=1))
    board.refresh()
    board.go("history")
    assert text(board, "row0") == "Showdown: Player 1 beat Player 2, Player 2 takes 3 cards"
    assert text(board, "row1") == "False start: Player 1 started too soon, takes 2 cards"
    assert text(board, "row2") == ("Showdown: Player 2 beat Player 3, Player 3 takes 1 card "
                                   "(by hand)")


def test_the_false_start_screen_says_how_many_cards_the_offender_takes(
    board: Scoreboard, table: SessionPort
) -> None:
    start_game(board, players=3)
    table.unit_changed(ShowdownView(Stage.FALSE_START, "Player 1", "Player 2", 3,
                                    false_start_side=Side.RIGHT))
    board.refresh()
    assert board.current == "showdown"
    assert text(board, "story") == "False start: Player 2 right →; Player 2 takes 3 cards"


def test_the_keypad_asks_who_went_out_first_then_moves_to_who_still_needs_a_number(
    board: Scoreboard, table: SessionPort
) -> None:
    start_game(board, players=4)
    board.go("round")
    assert text(board, "entry") == "Who went out? Tap them"
    touch(board, "player2")
    screen = board.screens["round"]
    assert getattr(screen, "selected") == 3  # noqa: B009 - the seat after who went out
    keypad(board, "12")
    touch(board, "key:next")
    assert getattr(screen, "selected") == 0  # noqa: B009
    keypad(board, "5")
    touch(board, "key:next")
    keypad(board, "7")
    touch(board, "key:next")  # nobody else needs a number: the keypad stays
    assert getattr(screen, "selected") == 1  # noqa: B009
    shot(board, "round-keypad-next")
    touch(board, "save")
    (played,) = table.view().rounds
    assert played.went_out == "Player 3" and played.hands == (5, 7, 0, 12)
