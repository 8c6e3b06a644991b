"""Screens hold no game state that outlives a game, an undo or an edit (issue 37, items 1, 2, 3,
7 and 16): what a screen offers is read from the game in play when it is drawn, and a choice in
progress is dropped when it no longer fits the game, or kept when nothing took it away; a round
taken back comes back in the round-end form, to be put right."""

from __future__ import annotations

from collections.abc import Iterator

import pygame
import pytest

from showdown.app.scoreboard_main import build_scoreboard
from showdown.game.messages import HandEntry, RecordRound, UndoLast
from showdown.game.session import Session
from showdown.scoreboard.app import Scoreboard
from showdown.scoreboard.i18n import set_language
from showdown.scoreboard.widgets import Button
from tests.showdown.scoreboard.helpers import keypad, play_round, start_game, touch, widget
from tests.showdown.scoreboard.test_house_rules import hero_by_touch


@pytest.fixture
def alone(session: Session) -> Iterator[Scoreboard]:
    """The scoreboard as `showdown scoreboard` opens it: no unit, showdowns tapped in by hand."""
    set_language("en")
    board = build_scoreboard(session)
    board.frame()
    yield board
    board.close()


def text(board: Scoreboard, widget_id: str) -> str:
    """The words a widget shows now."""
    return str(getattr(widget(board, widget_id), "text", ""))


def ids(board: Scoreboard) -> set[str]:
    """The widgets on screen now."""
    board.frame()
    return {w.id for w in board.widgets()}


def leave_for_a_new_game(board: Scoreboard, players: int) -> str:
    """Set up a new game by touch, leaving the one in play; the question the table answered."""
    start_game(board, players=players)
    asked = text(board, "question") if board.question is not None else ""
    if asked:
        touch(board, "answer-yes")
    return asked


def test_the_showdown_screen_offers_the_seats_of_the_game_in_play_not_the_last_ones(
    alone: Scoreboard, session: Session
) -> None:
    """Item 1: seat 4 against seat 3 in a four-player game, then a two-player game: both
    sides name its two players, a tap on who won is recorded, and an arrow never shows one
    player on both sides."""
    start_game(alone, players=4)
    touch(alone, "nav:showdown")
    touch(alone, "left-prev")  # Player 1 -> Player 4
    touch(alone, "right-next")  # Player 2 -> Player 3
    assert text(alone, "by-hand-left") == "Player 4 won"
    assert text(alone, "by-hand-right") == "Player 3 won"
    touch(alone, "by-hand-left")
    first = session.state
    assert first is not None and [(s.winner, s.loser) for s in first.showdowns] == [
        ("Player 4", "Player 3")]
    leave_for_a_new_game(alone, players=2)
    touch(alone, "nav:showdown")
    assert (text(alone, "by-hand-left"), text(alone, "by-hand-right")) == (
        "Player 1 won", "Player 2 won")
    touch(alone, "left-next")  # the only other player is on the right: no change of sides
    left, right = text(alone, "by-hand-left"), text(alone, "by-hand-right")
    assert left != right and {left, right} == {"Player 1 won", "Player 2 won"}
    touch(alone, "by-hand-left")
    winner, loser = left.removesuffix(" won"), right.removesuffix(" won")
    # The showdown told, not refused ("There is no seat 4").
    assert text(alone, "banner") == f"{winner} won the showdown, {loser} takes 2 cards"
    second = session.state
    assert second is not None and second.game_id != first.game_id
    assert [(s.winner, s.loser) for s in second.showdowns] == [(winner, loser)]


@pytest.mark.parametrize("scoring", ["standard", "hero"])
def test_undoing_the_round_that_ended_the_game_opens_it_again_on_the_table(
    board: Scoreboard, session: Session, scoring: str
) -> None:
    """Item 2: Game over is up exactly while the game is over: Undo on the banner of the
    round that ended it goes back to the live table with Redo, and Redo back to Game over."""
    if scoring == "hero":
        hero_by_touch(board, pigs=3, rounds=1)  # the game ends after its first round
    else:
        start_game(board, players=3, target=50)
    play_round(board, went_out=0, held={1: "40", 2: "30"})
    assert board.current == "gameover"
    assert text(board, "banner") == "Round 1 saved"
    touch(board, "banner-action")  # Undo
    state = session.state
    assert state is not None and not state.is_over and state.rounds == ()
    assert board.current == "table"
    shown = ids(board)
    assert not shown & {"winner", "rematch", "new-game"}
    assert text(board, "banner") == "Undone: round 1: Player 1 went out"
    assert text(board, "banner-action") == "Redo"
    assert text(board, "round") == "Round 1"
    round_tab = widget(board, "nav:round")
    assert isinstance(round_tab, Button) and round_tab.enabled  # the round can be entered again
    touch(board, "banner-action")  # Redo
    state = session.state
    assert state is not None and state.is_over
    assert board.current == "gameover"
    assert text(board, "winner") == "Player 1 wins!"


def test_a_game_left_before_its_first_round_is_listed_and_counted_as_promised(
    board: Scoreboard, session: Session
) -> None:
    """Item 3: a showdown and a penalty, then New game: the question says the game stays
    saved, Saved games lists it, it is taken up again, and its showdown counts all time (for a
    player named: a seat nobody named is nobody's record)."""
    board.go("setup")
    touch(board, "rename")
    pygame.event.post(pygame.event.Event(pygame.TEXTINPUT, text="Ana"))
    board.pump()
    touch(board, "done")
    start_game(board, players=3)
    left = session.state
    assert left is not None
    touch(board, "nav:showdown")
    touch(board, "by-hand-left")  # Ana beat Player 2
    touch(board, "penalty")
    touch(board, "reason:advice")
    touch(board, "player2")
    left = session.state
    assert left is not None and left.rounds == () and len(left.showdowns) == 1
    assert len(left.penalties) == 1
    asked = leave_for_a_new_game(board, players=2)
    assert asked == ("Leave the game at round 1? It stays saved: take it up again from Saved "
                     "games.")
    assert session.state is not None and session.state.game_id != left.game_id
    touch(board, "nav:setup")  # the settings of the game in play, the way to the saved games
    assert text(board, "saved") == "Saved games (1)"
    touch(board, "saved")
    assert board.current == "games"
    touch(board, "game0")
    assert text(board, "open") == "Take it up"
    touch(board, "open")
    taken = session.state
    assert taken is not None and taken.game_id == left.game_id
    assert [(s.winner, s.loser) for s in taken.showdowns] == [("Ana", "Player 2")]
    assert board.current == "table"
    touch(board, "nav:stats")
    touch(board, "all-time")
    rows = {text(board, f"all{r}:0"): text(board, f"all{r}:4")
            for r in range(3) if f"all{r}:0" in ids(board)}
    assert rows.get("Ana") == "1"  # the showdown Ana won counts all time


def test_cancelling_an_edit_from_history_keeps_the_round_being_entered(
    board: Scoreboard, session: Session
) -> None:
    """Item 7: a round half entered, then Edit round 1 from History and Cancel: the half
    entered round is still there, as typed."""
    start_game(board, players=3)
    play_round(board, went_out=0, held={1: "20", 2: "30"})
    touch(board, "nav:round")
    touch(board, "player1")
    touch(board, "player2")
    keypad(board, "17")
    assert text(board, "player2") == "Player 3: 17"
    touch(board, "nav:history")
    touch(board, "row0")  # round 1
    touch(board, "edit")
    assert board.current == "round" and text(board, "save") == "Save round 1"
    assert text(board, "player0") == "Player 1: out"
    touch(board, "cancel-edit")
    assert board.current == "history"
    touch(board, "nav:round")
    assert text(board, "save") == "Save round"
    assert (text(board, "player1"), text(board, "player2")) == ("Player 2: out", "Player 3: 17")
    touch(board, "player0")
    keypad(board, "5")
    touch(board, "save")
    state = session.state
    assert state is not None and len(state.rounds) == 2
    assert state.rounds[1].went_out == "Player 2"
    assert {name: hand.points for name, hand in state.rounds[1].hands.items()} == {
        "Player 1": 5, "Player 3": 17}


def test_a_game_with_nothing_entered_is_left_without_a_promise_to_keep_it(
    board: Scoreboard, session: Session
) -> None:
    """Item 3, the other side of the promise: a game with nothing entered in it holds nothing
    to take up, so New game asks nothing (no "It stays saved") and Saved games lists none."""
    start_game(board, players=3)
    empty = session.state
    assert empty is not None
    assert leave_for_a_new_game(board, players=2) == ""
    assert board.current == "table"
    state = session.state
    assert state is not None and state.game_id != empty.game_id and len(state.players) == 2
    touch(board, "nav:setup")
    assert text(board, "saved") == "Saved games (0)"


def test_an_undone_round_comes_back_in_the_round_end_form_to_be_put_right(
    board: Scoreboard, session: Session
) -> None:
    """Item 16: a ten-player round saved with one number wrong, then Undo: Round end shows
    the round as it was entered, so one number is put right, not nine typed again; a Redo
    brings the round back and leaves the form to the next round."""
    start_game(board, players=10, target=1000)
    held = {seat: str(seat * 3) for seat in range(1, 10)}
    play_round(board, went_out=0, held=held)
    assert text(board, "banner") == "Round 1 saved"
    touch(board, "banner-action")  # Undo
    assert session.state is not None and session.state.rounds == ()
    touch(board, "nav:round")
    assert text(board, "player0") == "Player 1: out"
    assert [text(board, f"player{seat}") for seat in range(1, 10)] == [
        f"Player {seat + 1}: {seat * 3}" for seat in range(1, 10)]
    touch(board, "player4")
    touch(board, "key:clear")
    keypad(board, "40")
    touch(board, "save")
    state = session.state
    assert state is not None and len(state.rounds) == 1
    assert {name: hand.points for name, hand in state.rounds[0].hands.items()} == {
        f"Player {seat + 1}": 40 if seat == 4 else seat * 3 for seat in range(1, 10)}
    touch(board, "nav:history")
    touch(board, "undo")
    assert text(board, "banner-action") == "Redo"
    touch(board, "banner-action")  # the round stands again: the form is the next round's
    touch(board, "nav:round")
    assert text(board, "entry") == "Who went out? Tap them, then Went out"
    assert text(board, "player4") == "Player 5: ?"


def test_history_drops_the_chosen_round_once_it_is_undone(
    board: Scoreboard, session: Session
) -> None:
    """A round chosen in History, then taken back from a phone: History no longer offers to
    edit a round that is not there, nor the round entered in its place."""
    start_game(board, players=3)
    play_round(board, went_out=0, held={1: "20", 2: "30"})
    touch(board, "nav:history")
    touch(board, "row0")
    assert text(board, "edit") == "Edit round 1"
    session.handle(UndoLast())  # a phone's Undo: the scoreboard hears of it
    board.refresh()
    assert session.state is not None and session.state.rounds == ()
    assert board.current == "history"
    edit = widget(board, "edit")
    assert isinstance(edit, Button) and not edit.enabled
    assert edit.text == "Tap a round to edit"
    session.handle(RecordRound(went_out="Player 2", hands={"Player 1": HandEntry(points=5),
                                                           "Player 3": HandEntry(points=7)}))
    board.refresh()
    edit = widget(board, "edit")
    assert isinstance(edit, Button) and not edit.enabled


def test_a_new_game_shows_the_direction_of_play_afresh(board: Scoreboard) -> None:
    """The direction turned round on the table before the first round is the last game's: a
    new game starts clockwise."""
    start_game(board, players=3)
    touch(board, "direction")
    assert text(board, "direction") == "Counter-clockwise"
    leave_for_a_new_game(board, players=4)
    assert board.current == "table"
    assert text(board, "direction") == "Clockwise"
