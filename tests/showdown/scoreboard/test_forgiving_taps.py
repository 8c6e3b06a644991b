"""Taps that forgive: a decided showdown is corrected only after a question, and the players
stay where they are after the game ended."""

from __future__ import annotations

from showdown.scoreboard.adapter import SessionPort
from showdown.scoreboard.app import Scoreboard
from showdown.scoreboard.view import Side
from tests.showdown.scoreboard.helpers import (
    play_round,
    record_unit_showdown,
    shot,
    start_game,
    touch,
    widget,
)


def _ids(board: Scoreboard) -> set[str]:
    board.frame()
    return {w.id for w in board.widgets()}


def _results(table: SessionPort) -> list[tuple[str, str, str]]:
    state = table.session.state
    assert state is not None
    return [(s.winner, s.loser, s.source) for s in state.showdowns]


def test_a_decided_showdown_is_corrected_after_a_question_never_recorded_twice(
    board: Scoreboard, table: SessionPort
) -> None:
    start_game(board, players=3)
    record_unit_showdown(table, "Player 1", "Player 2", Side.LEFT, left_ms=180, right_ms=240)
    board.refresh()
    board.go("showdown")
    ids = _ids(board)
    # The unit gave its result: no button records another one for the same two players.
    assert "by-hand-left" not in ids and "by-hand-right" not in ids
    assert widget(board, "correct").text == "Correct the result"  # type: ignore[attr-defined]
    touch(board, "correct")
    question = widget(board, "question").text  # type: ignore[attr-defined]
    assert question == ("Player 2 won this showdown, not Player 1? Then Player 1 takes the 2 "
                        "cards.")
    assert "nav:table" not in _ids(board)  # nothing else can be tapped while it asks
    shot(board, "correct-question")
    touch(board, "answer-no")
    assert _results(table) == [("Player 1", "Player 2", "unit")]
    touch(board, "correct")
    touch(board, "answer-yes")
    assert _results(table) == [("Player 2", "Player 1", "hand")]
    assert "Player 2 wins" in widget(board, "story").text  # type: ignore[attr-defined]
    shot(board, "corrected")
    # Picking other players is the next showdown: its by-hand buttons come back.
    touch(board, "right-next")
    assert {"by-hand-left", "by-hand-right"} <= _ids(board)
    assert widget(board, "left-ms").text == ""  # type: ignore[attr-defined]


def test_a_change_of_language_or_a_refusal_after_the_game_leaves_the_players_there(
    board: Scoreboard, table: SessionPort
) -> None:
    start_game(board, players=2, target=100)
    play_round(board, went_out=0, held={1: "120"})
    assert board.current == "gameover"
    touch(board, "new-game")
    touch(board, "language")
    board.pump()
    assert board.current == "setup"
    board.go("round")
    touch(board, "player0")
    touch(board, "went-out")
    touch(board, "player1")
    touch(board, "key:5")
    touch(board, "save")  # the session refuses: the game is over
    board.pump()
    assert board.current == "round"
    assert "banner" in _ids(board)
