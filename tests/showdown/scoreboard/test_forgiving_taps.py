"""Taps that forgive: a decided showdown is corrected only after a question, and the players
stay where they are after the game ended."""

from __future__ import annotations

import logging
from pathlib import Path

import pygame
import pytest

from showdown.game.session import Session
from showdown.scoreboard.adapter import SessionPort
from showdown.scoreboard.app import Scoreboard
from showdown.scoreboard.screens.games import when
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
    touch(board, "choice:ja")
    board.pump()
    assert board.current == "setup"
    board.go("round")
    touch(board, "player0")
    touch(board, "player1")
    touch(board, "key:5")
    touch(board, "save")  # the session refuses: the game is over
    board.pump()
    assert board.current == "round"
    assert "banner" in _ids(board)


class FakeClock:
    """The banners' clock, moved by the test."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def _text(board: Scoreboard, widget_id: str) -> str:
    return str(widget(board, widget_id).text)  # type: ignore[attr-defined]


def test_undo_says_what_went_offers_redo_and_history_lists_showdowns(
    board: Scoreboard, table: SessionPort, caplog: pytest.LogCaptureFixture
) -> None:
    clock = FakeClock()
    board.clock = clock
    start_game(board, players=3)
    record_unit_showdown(table, "Player 1", "Player 2", Side.LEFT, left_ms=180, right_ms=240)
    play_round(board, went_out=2, held={0: "10", 1: "20"})
    board.go("history")
    assert _text(board, "row0") == "Showdown: Player 1 beat Player 2, Player 2 takes 2 cards"
    assert _text(board, "row1") == "1 · Player 3"
    caplog.set_level(logging.INFO, logger="showdown.game.session")
    touch(board, "undo")
    assert _text(board, "banner") == "Undone: round 1: Player 3 went out"
    assert _text(board, "banner-action") == "Redo"
    assert table.view().rounds == ()
    assert any("undo: round taken back" in r.getMessage() for r in caplog.records)
    shot(board, "undone")
    touch(board, "banner-action")
    assert [r.went_out for r in table.view().rounds] == ["Player 3"]
    assert _text(board, "banner") == "Back again: round 1: Player 3 went out"
    assert any("redo: round stands again" in r.getMessage() for r in caplog.records)
    touch(board, "undo")
    touch(board, "undo")
    assert _text(board, "banner") == "Undone: showdown: Player 1 beat Player 2"
    assert table.view().showdowns == ()
    # The banner goes by itself, and never sits over a control of this screen.
    clock.now += 11
    board.pump()
    assert "banner" not in _ids(board)


def test_a_refusal_speaks_to_the_players_and_goes_away_by_itself(
    board: Scoreboard, table: SessionPort
) -> None:
    clock = FakeClock()
    board.clock = clock
    start_game(board, players=4)
    board.go("round")
    touch(board, "player0")
    for seat in (1, 2):
        touch(board, f"player{seat}")
        touch(board, "key:5")
    touch(board, "player3")
    for digit in "3333":
        touch(board, f"key:{digit}")
    touch(board, "save")
    words = _text(board, "banner")
    assert words.startswith("Player 4 can't hold 3333 points: only ")
    assert words.endswith(" are left in the other hands")
    shot(board, "refused-spoken")
    clock.now += 5
    board.pump()
    assert "banner" in _ids(board)
    clock.now += 2
    board.pump()
    assert "banner" not in _ids(board)
    assert table.view().rounds == ()


def _covered(board: Scoreboard) -> list[str]:
    """Controls under the banner on the screen shown now."""
    board.painter.invalidate()
    board.frame()
    shown = board.widgets()
    banner = [w.rect for w in shown if w.id.startswith("banner")]
    assert banner, f"no banner on {board.current}"
    return [w.id for w in shown
            if w.action is not None and getattr(w, "enabled", True)
            and not w.id.startswith("banner") and w.rect.collidelist(banner) >= 0]


@pytest.mark.parametrize("players", [4, 10])
def test_no_banner_ever_covers_a_control(board: Scoreboard, table: SessionPort,
                                         players: int) -> None:
    start_game(board, players=players, target=100)
    record_unit_showdown(table, "Player 1", "Player 2", Side.LEFT, left_ms=180, right_ms=240)
    play_round(board, went_out=2, held={seat: "10" for seat in range(players) if seat != 2})
    board.refresh()
    covered = {}
    round_end = board.screens["round"]
    board.go("setup")
    touch(board, "preset")  # the list of rules: "choose" shows it
    for name in ("setup", "choose", "names", "games", "settings", "table", "penalty",
                 "showdown", "round", "cards", "history", "chart", "stats"):
        if name == "cards":
            round_end.cards_mode = True  # type: ignore[attr-defined]
        board.go("round" if name == "cards" else name)
        board.say("Something the players must read")
        covered[name] = _covered(board)
    board.go("round")
    for mode in (True, False):  # one tap says who went out, told with Undo
        round_end.cards_mode = mode  # type: ignore[attr-defined]
        touch(board, "player1")
        covered[f"went-out-{mode}"] = _covered(board)
        touch(board, "banner-action")
    board.notice(lambda: "Undone: something", (lambda: "Redo", lambda: None))
    board.go("history")
    covered["history-redo"] = _covered(board)
    round_end.cards_mode = False  # type: ignore[attr-defined]
    play_round(board, went_out=0, held={seat: "40" for seat in range(1, players)})
    assert board.current == "gameover"
    board.say("Something the players must read")
    covered["gameover"] = _covered(board)
    assert {name: ids for name, ids in covered.items() if ids} == {}


def test_a_new_game_asks_first_and_a_saved_game_can_be_taken_up_again(
    board: Scoreboard, table: SessionPort, tmp_path: Path
) -> None:
    start_game(board, players=3)
    play_round(board, went_out=1, held={0: "20", 2: "30"})
    first = table.session.state
    assert first is not None
    first_played = table.session.journal.activity()[0][1]
    board.go("setup")
    assert "saved" not in _ids(board)  # nothing saved yet but the game being played
    touch(board, "start")
    assert _text(board, "question") == ("Leave the game at round 2? It stays saved: take it up "
                                        "again from Saved games.")
    shot(board, "new-game-question")
    touch(board, "answer-no")
    assert table.session.state is not None and table.session.state.game_id == first.game_id
    assert board.current == "setup"
    touch(board, "fewer")  # a two-player game this time
    touch(board, "start")
    touch(board, "answer-yes")
    second = table.session.state
    assert second is not None and second.game_id != first.game_id and board.current == "table"
    play_round(board, went_out=0, held={1: "10"})  # a game with a round in it is listed
    board.go("setup")
    assert _text(board, "saved") == "Saved games (1)"
    touch(board, "saved")
    assert board.current == "games"
    row = widget(board, "game0")
    assert row.state[:2] == (  # type: ignore[attr-defined]
        f"Game {first.game_id} · {when(first_played)} · round 2 · Player 2 leads with 50",
        "Player 2 50 · Player 1 0 · Player 3 0")
    shot(board, "saved-games")
    touch(board, "game0")
    touch(board, "open")
    assert board.current == "table"
    resumed = table.session.state
    assert resumed is not None and resumed.game_id == first.game_id
    assert resumed.totals == first.totals
    # A restart goes on with the game taken up last, and the other one is saved in turn.
    again = Session(table.session.journal)
    assert again.state is not None and again.state.game_id == first.game_id
    assert [(kept.state.game_id, kept.current) for kept in again.kept_games()] == [
        (first.game_id, True), (second.game_id, False)]


def test_names_take_digits_symbols_accents_and_a_keyboard_up_to_a_shown_limit(
    board: Scoreboard, table: SessionPort
) -> None:
    touch(board, "fewer")
    touch(board, "fewer")  # two players
    touch(board, "rename")
    for key in ("key:J", "key:O", "page:accents", "key:Ë", "page:symbols", "key:-",
                "page:letters", "key:2"):
        touch(board, key)
    assert _text(board, "buffer") == "Joë-2"
    assert _text(board, "limit") == "5/12"
    for key in "ABCDEFGH":
        touch(board, f"key:{key}")
    assert _text(board, "limit") == "12/12"
    assert not widget(board, "key:Q").enabled  # type: ignore[attr-defined]
    shot(board, "names-full")
    touch(board, "done")
    touch(board, "seat1")
    touch(board, "rename")
    # A USB keyboard with an input method: composing shows, the committed text is typed.
    pygame.event.post(pygame.event.Event(pygame.TEXTEDITING, text="りしょう", start=0, length=4))
    board.pump()
    assert _text(board, "buffer") == "りしょう"
    pygame.event.post(pygame.event.Event(pygame.TEXTINPUT, text="李小龍"))
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_BACKSPACE, mod=0,
                                         unicode="\b", scancode=0))
    pygame.event.post(pygame.event.Event(pygame.TEXTINPUT, text="龍"))
    board.pump()
    assert _text(board, "buffer") == "李小龍"
    shot(board, "names-cjk")
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_RETURN, mod=0,
                                         unicode="\r", scancode=0))
    board.pump()
    assert board.current == "setup"
    touch(board, "start")
    state = table.session.state
    assert state is not None and state.players == ("Joë-2abcdefg", "李小龍")
