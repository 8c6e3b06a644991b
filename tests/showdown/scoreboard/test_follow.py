"""Watching the simulated table (or a real one): the screen follows each showdown and comes back
to the table between them; a tap on a tab holds what the table chose to look at."""

from __future__ import annotations

from showdown.scoreboard.adapter import SessionPort
from showdown.scoreboard.app import FOLLOW_BACK_S, HOLD_S, Scoreboard
from showdown.scoreboard.view import ShowdownView, Stage
from tests.showdown.scoreboard.helpers import start_game, touch
from tests.showdown.scoreboard.test_forgiving_taps import FakeClock


def unit(table: SessionPort, board: Scoreboard, stage: Stage) -> None:
    """The unit moves on (the simulated referee's virtual players, or a real table)."""
    table.unit_changed(ShowdownView(stage, "Player 1", "Player 2", 2, beat=1, beats=3,
                                    winner="Player 1" if stage is Stage.RESULT else None))
    board.notify()
    board.pump()


def test_the_screen_follows_each_showdown_and_comes_back_between_them(
    board: Scoreboard, table: SessionPort
) -> None:
    clock = FakeClock()
    board.clock = clock
    start_game(board, players=3)
    board.go("history")
    for _ in range(2):
        unit(table, board, Stage.COUNTDOWN)
        assert board.current == "showdown"
        unit(table, board, Stage.GO)
        unit(table, board, Stage.RESULT)
        clock.now += FOLLOW_BACK_S - 1
        board.pump()
        assert board.current == "showdown"  # the result is read first
        clock.now += 1
        board.pump()
        assert board.current == "history"  # back where the table was


def test_a_tap_on_table_holds_the_table_while_showdowns_go_on(
    board: Scoreboard, table: SessionPort
) -> None:
    clock = FakeClock()
    board.clock = clock
    start_game(board, players=3)
    unit(table, board, Stage.COUNTDOWN)
    assert board.current == "showdown"
    touch(board, "nav:table")
    assert board.current == "table"
    clock.now += 2
    unit(table, board, Stage.GO)
    unit(table, board, Stage.RESULT)
    unit(table, board, Stage.COUNTDOWN)  # the next showdown, 2 s later: the table stays
    assert board.current == "table"
    unit(table, board, Stage.RESULT)
    clock.now += HOLD_S
    unit(table, board, Stage.COUNTDOWN)  # the hold is over: the screen follows again
    assert board.current == "showdown"


def test_a_showdown_loaded_from_its_own_screen_stays_there(
    board: Scoreboard, table: SessionPort
) -> None:
    clock = FakeClock()
    board.clock = clock
    start_game(board, players=3)
    touch(board, "nav:showdown")
    clock.now += HOLD_S
    unit(table, board, Stage.COUNTDOWN)
    unit(table, board, Stage.RESULT)
    clock.now += FOLLOW_BACK_S * 2
    board.pump()
    assert board.current == "showdown"  # the table went there itself: nothing to go back to
