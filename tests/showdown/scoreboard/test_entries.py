"""History, undo and edit, names, the card tally, game over: by touch, checked in the session."""

from __future__ import annotations

from showdown.scoreboard.adapter import SessionPort
from showdown.scoreboard.app import Scoreboard
from showdown.scoreboard.view import Side
from tests.showdown.scoreboard.helpers import (
    choose,
    keypad,
    play_round,
    record_unit_showdown,
    shot,
    start_game,
    touch,
    widget,
)


def text(board: Scoreboard, widget_id: str) -> str:
    """The words a widget shows now."""
    return str(getattr(widget(board, widget_id), "text", ""))


def totals(table: SessionPort) -> dict[str, int]:
    state = table.session.state
    assert state is not None
    return state.totals


def test_names_typed_on_the_screen_keyboard_reach_the_session(board: Scoreboard,
                                                              table: SessionPort) -> None:
    touch(board, "fewer")
    touch(board, "fewer")
    touch(board, "seat1")
    touch(board, "rename")
    assert board.current == "names"
    for key in "MIKA":
        touch(board, f"key:{key}")
    shot(board, "names")
    touch(board, "done")
    touch(board, "dealer")
    touch(board, "up")  # Mika moves to the first seat and keeps the deal
    touch(board, "start")
    state = table.session.state
    assert state is not None
    assert state.players == ("Mika", "Player 2")  # unnamed seats are named by number
    assert state.first_dealer == "Mika"


def test_undo_from_the_history_takes_back_the_last_round(board: Scoreboard,
                                                         table: SessionPort) -> None:
    start_game(board, players=3)
    play_round(board, went_out=0, held={1: "10", 2: "20"})
    play_round(board, went_out=1, held={0: "5", 2: "5"})
    assert totals(table) == {"Player 1": 30, "Player 2": 10, "Player 3": 0}
    board.go("history")
    shot(board, "history-two-rounds")
    touch(board, "undo")
    assert totals(table) == {"Player 1": 30, "Player 2": 0, "Player 3": 0}
    board.frame()
    assert "row1" not in {w.id for w in board.widgets()}  # the undone round is not shown


def test_editing_a_past_round_recomputes_every_total(board: Scoreboard,
                                                     table: SessionPort) -> None:
    start_game(board, players=3)
    play_round(board, went_out=0, held={1: "10", 2: "20"})
    play_round(board, went_out=1, held={0: "5", 2: "5"})
    board.go("history")
    touch(board, "row0")
    touch(board, "edit")
    assert board.current == "round"
    touch(board, "player2")
    touch(board, "key:clear")
    keypad(board, "45")
    shot(board, "round-edit")
    touch(board, "save")
    assert totals(table) == {"Player 1": 55, "Player 2": 10, "Player 3": 0}
    assert board.current == "table"


def test_a_card_tally_records_its_kinds(board: Scoreboard, table: SessionPort) -> None:
    start_game(board, players=2)
    board.go("round")
    touch(board, "player1")
    touch(board, "player0")
    touch(board, "cards-mode")
    for kind in ("5", "5", "draw-two", "wild"):
        touch(board, f"kind:{kind}")
    touch(board, "kind:skip")
    touch(board, "remove-card")  # a mistaken Skip taken back
    touch(board, "save")
    state = table.session.state
    assert state is not None
    assert state.rounds[0].hands["Player 1"].cards == {"5": 2, "draw-two": 1, "wild": 1}
    assert totals(table)["Player 2"] == 80


def test_a_refused_entry_is_shown_and_changes_nothing(board: Scoreboard,
                                                      table: SessionPort) -> None:
    start_game(board, players=2)
    board.go("round")
    touch(board, "player1")
    touch(board, "player0")
    keypad(board, "9999")  # more than the whole deck is worth
    touch(board, "save")
    assert "banner" in [w.id for w in board.widgets()]
    shot(board, "refused")
    assert totals(table) == {"Player 1": 0, "Player 2": 0}
    assert board.current == "round"


def test_reaching_the_target_shows_the_winner_and_a_new_game(board: Scoreboard,
                                                             table: SessionPort) -> None:
    start_game(board, players=2, target=100)
    play_round(board, went_out=0, held={1: "120"})
    assert board.current == "gameover"
    assert "Player 1" in widget(board, "winner").text  # type: ignore[attr-defined]
    shot(board, "gameover")
    touch(board, "new-game")
    assert board.current == "setup"
    touch(board, "start")
    state = table.session.state
    assert state is not None and not state.is_over


def test_statistics_rank_the_fastest_reaction_first(board: Scoreboard,
                                                    table: SessionPort) -> None:
    start_game(board, players=3)
    record_unit_showdown(table, "Player 1", "Player 2", Side.RIGHT, left_ms=350, right_ms=240)
    record_unit_showdown(table, "Player 3", "Player 1", Side.LEFT, left_ms=199, right_ms=260)
    board.refresh()
    board.go("stats")
    names = [widget(board, f"cell{r}:1").text for r in range(3)]  # type: ignore[attr-defined]
    assert names == ["Player 3", "Player 2", "Player 1"]


def test_challenge_uno_skips_an_eliminated_player_at_the_round_end(
    board: Scoreboard, table: SessionPort
) -> None:
    board.go("setup")
    touch(board, "fewer")  # three players
    choose(board, "mode", "challenge")
    while board.screens["setup"].target > 100:  # type: ignore[attr-defined]
        touch(board, "target-")
    touch(board, "start")
    state = table.session.state
    assert state is not None and str(state.scoring.mode) == "challenge"
    play_round(board, went_out=0, held={1: "120", 2: "10"})
    assert widget(board, "paddle1").text == "Eliminated"  # type: ignore[attr-defined]
    assert board.view.players[1].eliminated
    shot(board, "table-challenge")
    play_round(board, went_out=2, held={0: "30"})
    state = table.session.state
    assert state is not None
    assert state.totals == {"Player 1": 30, "Player 2": 120, "Player 3": 10}


def test_one_tap_on_the_player_says_who_went_out_with_undo(board: Scoreboard,
                                                          table: SessionPort) -> None:
    """Item 13: who went out is one tap on the player (it was two: the player, then Went
    out); a banner says so with Undo, and Went out still moves the mark to another player."""
    start_game(board, players=3)
    board.go("round")
    touch(board, "player1")
    assert text(board, "player1") == "Player 2: out"
    assert text(board, "entry") == "Player 3 holds ? points"  # on to the next number
    assert (text(board, "banner"), text(board, "banner-action")) == ("Player 2 went out", "Undo")
    touch(board, "banner-action")
    assert text(board, "player1") == "Player 2: ?"
    assert text(board, "entry") == "Who went out? Tap them"
    touch(board, "player0")  # one tap again: Player 1 went out
    keypad(board, "8")  # for Player 2, the next who needs a number
    touch(board, "player2")
    touch(board, "went-out")  # no: Player 3 went out; Player 1 now needs a number
    assert [text(board, f"player{seat}") for seat in range(3)] == [
        "Player 1: ?", "Player 2: 8", "Player 3: out"]
    assert board.screens["round"].selected == 0  # type: ignore[attr-defined]
    keypad(board, "12")
    touch(board, "save")
    (played,) = table.view().rounds
    assert played.went_out == "Player 3" and played.hands == (12, 8, 0)
    assert text(board, "banner-action") == "Undo"  # the round recorded, told with Undo
