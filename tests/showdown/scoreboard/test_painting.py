"""Light on the CPU: nothing is repainted when nothing changed, a change repaints only its
widgets, and other threads hand over work without ever waiting for a frame."""

from __future__ import annotations

import threading

from showdown.game.messages import HandEntry, RecordRound, RecordShowdown
from showdown.scoreboard.adapter import SessionPort
from showdown.scoreboard.app import Scoreboard
from showdown.scoreboard.view import ShowdownView, Stage
from tests.showdown.scoreboard.helpers import start_game


def area(rects: list) -> int:  # type: ignore[type-arg]
    return sum(r.width * r.height for r in rects)


def test_an_unchanged_screen_is_not_repainted(board: Scoreboard) -> None:
    start_game(board, players=4)
    board.frame()
    frames = board.frames
    assert board.frame() == []
    assert board.pump() is True
    assert board.frames == frames


def test_a_new_round_repaints_only_what_changed(board: Scoreboard,
                                                table: SessionPort) -> None:
    start_game(board, players=4)
    board.painter.invalidate()
    full = area(board.frame())
    hands = {f"Player {n}": HandEntry(points=9) for n in (2, 3, 4)}
    table.session.handle(RecordRound(went_out="Player 1", hands=hands))
    board.refresh()
    changed = area(board.frame())
    # The banner says "Round 1 saved" (with Undo); beside it only the total, its bar, the
    # round number and the dealer marks are repainted.
    banner = area([board.layout.rect(board.screens["table"].banner_area)])
    assert 0 < changed - banner < full / 3
    assert board.view.players[0].total == 27


def test_the_unit_thread_never_waits_for_a_frame(board: Scoreboard,
                                                 table: SessionPort) -> None:
    start_game(board, players=2)
    board.go("showdown")
    frames = board.frames
    done = threading.Event()

    def unit_thread() -> None:
        # What the unit's callbacks do: update the mirror, record, notify; no drawing here.
        table.unit_changed(ShowdownView(Stage.GO, "Player 1", "Player 2", 1))
        board.notify()
        table.session.handle(RecordShowdown(winner="Player 1", loser="Player 2",
                                            cards_loaded=1, source="unit"))
        board.notify()
        done.set()

    thread = threading.Thread(target=unit_thread)
    thread.start()
    assert done.wait(5.0)  # finished while the main thread drew nothing
    thread.join()
    assert board.frames == frames
    board.pump()
    assert board.frames == frames + 1
    assert board.view.stats[0].showdowns_won == 1
