"""A showdown the unit lost contact with is void: the showdown screen asks for a replay."""

from __future__ import annotations

from showdown.game.live import mirror
from showdown.scoreboard.adapter import SessionPort
from showdown.scoreboard.app import Scoreboard
from showdown.scoreboard.view import ShowdownView, Stage
from showdown.unit import hardware
from showdown.unit.events import Armed, Go, ShowdownOutcome
from showdown.unit.verdict import Reason
from tests.showdown.scoreboard.helpers import start_game, widget

MS = 1_000_000


def void_view() -> ShowdownView:
    view = mirror(ShowdownView(Stage.LOADED, "Player 1", "Player 2", 2), Armed(1, 0))
    view = mirror(view, Go(1, 3000 * MS))
    void = ShowdownOutcome(1, "Player 1", "Player 2", 2, None, None, Reason.VOID,
                           go_ns=3000 * MS, press_ns={hardware.Side.LEFT: 3245 * MS})
    return mirror(view, void)


def test_a_void_showdown_is_no_contest_and_names_nobody() -> None:
    view = void_view()
    assert (view.phase, view.reason, view.winner, view.loser) == (
        Stage.NO_CONTEST, "void", None, None)


def test_the_showdown_screen_says_replay_the_showdown(board: Scoreboard,
                                                       table: SessionPort) -> None:
    start_game(board, players=2)
    board.go("showdown")
    table.unit_changed(void_view())
    board.refresh()
    board.frame()
    assert widget(board, "status").text == "Replay the showdown"  # type: ignore[attr-defined]
