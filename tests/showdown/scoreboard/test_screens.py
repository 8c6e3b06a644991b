"""Every screen, driven by touch over a real session: what the players see and what it records."""

from __future__ import annotations

from showdown.scoreboard.adapter import SessionPort
from showdown.scoreboard.app import Scoreboard
from showdown.scoreboard.view import ShowdownView, Side, Stage
from tests.showdown.scoreboard.helpers import (
    keypad,
    play_round,
    record_unit_showdown,
    shot,
    start_game,
    touch,
    widget,
)


def test_setup_by_touch_starts_the_game_in_the_session(board: Scoreboard,
                                                       table: SessionPort) -> None:
    assert board.current == "setup"
    shot(board, "setup")
    start_game(board, players=3, target=300)
    state = table.session.state
    assert state is not None
    assert state.players == ("Player 1", "Player 2", "Player 3")
    assert state.scoring.target == 300
    assert board.current == "table"
    shot(board, "table-new")


def test_round_entered_on_the_keypad_updates_the_totals(board: Scoreboard,
                                                        table: SessionPort) -> None:
    start_game(board, players=4)
    play_round(board, went_out=1, held={0: "25", 2: "8", 3: "40"})
    state = table.session.state
    assert state is not None
    assert state.totals["Player 2"] == 73
    assert board.current == "table"
    play_round(board, went_out=0, held={1: "12", 2: "30", 3: "5"})
    shot(board, "table")


def test_round_screen_screenshot(board: Scoreboard) -> None:
    start_game(board, players=4)
    board.go("round")
    touch(board, "player1")
    touch(board, "player0")
    keypad(board, "37")
    touch(board, "player2")
    shot(board, "round-keypad")
    touch(board, "cards-mode")
    touch(board, "colour:green")
    touch(board, "kind:7")
    touch(board, "kind:draw-two")
    touch(board, "kind:wild-showdown")
    assert "77 points" in widget(board, "entry").text  # type: ignore[attr-defined]
    shot(board, "round-cards")


def test_showdown_screen(board: Scoreboard, table: SessionPort) -> None:
    start_game(board, players=4)
    board.go("showdown")
    touch(board, "right-next")
    touch(board, "load")
    assert table.view().showdown.phase is Stage.LOADED
    shot(board, "showdown-loaded")
    table.unit_changed(ShowdownView(Stage.COUNTDOWN, "Player 1", "Player 3", 2, beat=2, beats=3))
    board.notify()
    board.pump()
    shot(board, "showdown-waiting")
    table.unit_changed(ShowdownView(Stage.GO, "Player 1", "Player 3", 2))
    board.notify()
    board.pump()
    shot(board, "showdown-go")
    table.unit_changed(ShowdownView(Stage.FALSE_START, "Player 1", "Player 3", 2,
                                    false_start_side=Side.RIGHT))
    board.notify()
    board.pump()
    shot(board, "showdown-false-start")
    record_unit_showdown(table, "Player 1", "Player 3", Side.LEFT, left_ms=231.4, right_ms=288.9)
    board.notify()
    board.pump()
    shot(board, "showdown-result")


def test_other_screens(board: Scoreboard, table: SessionPort) -> None:
    start_game(board, players=5)
    record_unit_showdown(table, "Player 1", "Player 3", Side.LEFT, left_ms=231.4, right_ms=288.9)
    record_unit_showdown(table, "Player 2", "Player 4", Side.RIGHT, left_ms=301.0, right_ms=256.0)
    for i in range(5):
        play_round(board, went_out=i % 5, held={s: str(10 + 7 * s + i) for s in range(5)
                                                 if s != i % 5})
    for name in ("history", "chart", "stats"):
        board.go(name)
        shot(board, name)
