"""An evening at the table on a real X server, with a real pointer and keyboard.

``showdown scoreboard`` runs in its own process on Xvfb; xdotool clicks its controls and types
its names as people do (the rig: :mod:`tests.showdown.scoreboard.xserver`). The evening: three
players named by keyboard and by on-screen keys, a round with a typo fixed in History, a
showdown tapped in by hand, the last round of the game undone and entered again, a rematch, the
rematch left early for a ten-player game with long Latin and Japanese names played in Japanese,
and the rematch taken up again from Saved games. After each step what the screen shows is
compared with the journal, read through its own API as another process would, and no text may
leave its widget.

Without Xvfb, xdotool or xmodmap the test skips, saying so in one line; ``.ci/run`` installs them
and sets ``SHOWDOWN_X_TESTS=required``, so there a missing tool fails.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from showdown.game.session import GameState
from showdown.scoreboard.i18n import _, use_language
from tests.showdown.scoreboard.agreement import frame_text, journal_state, problems
from tests.showdown.scoreboard.xserver import Scoreboard, describe, why_not, xvfb

REASON = why_not()
if REASON is not None:
    if os.environ.get("SHOWDOWN_X_TESTS") == "required":  # .ci/run: they must run there
        pytest.fail(f"the tests on a real X server cannot run: {REASON}", pytrace=False)
    pytest.skip(REASON, allow_module_level=True)

FIRST = ("Ana", "Budi", "Chen")
TEN = (*FIRST, "Maximilianax", "王小明王小明王小明王小明", "Konstantinos", "Bartholomäus",
       "佐藤花子佐藤花子佐藤花子", "Christophers", "Alexandrinas")
"""A table of ten, names as long as the name keyboard takes (twelve characters)."""


def agrees(board: Scoreboard, db: Path, screen: str, timeout_s: float = 20.0) -> GameState:
    """Wait until ``screen`` is up and shows what the journal holds, with no refusal and no
    text out of its widget; the journal's game."""
    deadline = time.monotonic() + timeout_s
    seen = -1
    while True:
        frame = board.wait(lambda f: f["screen"] == screen, f"the {screen} screen",
                           max(0.1, deadline - time.monotonic()), after=seen)
        seen = frame["frame"]
        assert not frame["overflows"], f"text left its widget: {frame['overflows']}"
        banner = frame["banner"]
        assert banner is None or banner["news"], f"refused: {banner['text']!r}"
        state = journal_state(db)
        wrong = problems(frame, state)
        if not wrong:
            return state
        if time.monotonic() > deadline:
            raise AssertionError("; ".join(wrong) + f"\n{describe(frame)}")


def choose(board: Scoreboard, widget_id: str) -> None:
    """Tap a seat, a player or a row unless it is the one chosen already (a tap on it would
    change nothing on screen)."""
    if not board.widget(widget_id)["selected"]:
        board.tap(widget_id, lambda f: board.widget(widget_id, f)["selected"])


def name_seat(board: Scoreboard, seat: int, name: str, *, keys: bool = False) -> None:
    """Choose a seat on Set-up, open the name keyboard, type, and Done (or Enter)."""
    choose(board, f"seat{seat}")
    board.tap("rename", lambda f: f["screen"] == "names")
    if keys:  # the on-screen keys
        for char in name:
            board.tap(f"key:{char.upper()}")
    else:  # the X keyboard
        board.type(name)
    board.wait(lambda f: frame_text(f, "buffer") == name, f"{name!r} typed")
    if keys:
        board.tap("done", lambda f: f["screen"] == "setup")
    else:
        board.key("Return")
    board.wait(lambda f: f["screen"] == "setup" and name in frame_text(f, f"seat{seat}"),
               f"{name!r} at seat {seat + 1}")


def enter_round(board: Scoreboard, went_out: int, held: dict[int, int]) -> None:
    """On Round end: who went out, then each seat's points on the keypad as the screen moves
    on to the next seat with Next, then Save."""
    board.tap("nav:round", lambda f: f["screen"] == "round")
    before = frame_text(board.wait(lambda f: f["screen"] == "round", "the round end"),
                        f"player{went_out}")
    board.tap(f"player{went_out}",  # one tap says who went out, in any language
              lambda f: frame_text(f, f"player{went_out}") != before)
    for left in range(len(held), 0, -1):
        frame = board.wait(lambda f: f["screen"] == "round", "the round end")
        seat = next(int(w["id"].removeprefix("player")) for w in frame["widgets"]
                    if w["id"].startswith("player") and w["selected"])
        for digit in str(held[seat]):
            board.tap(f"key:{digit}")
        board.wait(lambda f, s=seat: frame_text(f, f"player{s}").endswith(f": {held[s]}"),
                   f"{held[seat]} points for seat {seat + 1}")
        if left > 1:  # on to the next seat that needs its points
            board.tap("key:next", lambda f, s=seat: not any(
                w["id"] == f"player{s}" and w["selected"] for w in f["widgets"]))
    board.tap("save", lambda f: f["screen"] in ("table", "gameover"))


def test_an_evening_played_with_a_pointer_and_a_keyboard_shows_what_the_journal_holds(
        tmp_path: Path) -> None:
    db = tmp_path / "table.db"
    started = time.monotonic()
    with xvfb() as display:
        board = Scoreboard(display, db, tmp_path / "trace.json")
        frame = board.start()
        try:
            assert frame["screen"] == "setup" and frame["size"] == [800, 480]
            # The language from Set-up's list, by its own name, and back.
            board.tap("language", lambda f: f["screen"] == "choose")
            board.tap_text("Bahasa Indonesia", lambda f: f["language"] == "id")
            assert board.last["screen"] == "setup"
            board.tap("language", lambda f: f["screen"] == "choose")
            board.tap("choice:en", lambda f: f["language"] == "en" and f["screen"] == "setup")
            # Three players: names typed on a keyboard, and tapped on the screen's own keys.
            board.tap("fewer", lambda f: "3" in frame_text(f, "count"))
            name_seat(board, 0, "Ana")
            name_seat(board, 1, "Budi", keys=True)
            name_seat(board, 2, "Chen")
            while frame_text(board.last, "target") != "200":
                board.tap("target-")
            board.tap("start")
            state = agrees(board, db, "table")
            assert state.players == FIRST and state.scoring.target == 200
            game = state.game_id

            # A round with a typo (3 for Budi's 30), fixed in History.
            enter_round(board, 0, {1: 3, 2: 25})
            assert agrees(board, db, "table").totals == {"Ana": 28, "Budi": 0, "Chen": 0}
            board.tap("nav:history", lambda f: f["screen"] == "history")
            agrees(board, db, "history")
            board.tap_text("1 · Ana")
            board.tap("edit", lambda f: f["screen"] == "round")
            choose(board, "player1")
            board.tap("key:clear")
            board.tap("key:3")
            board.tap("key:0")
            board.tap("save", lambda f: f["screen"] == "table")
            state = agrees(board, db, "table")
            assert state.totals == {"Ana": 55, "Budi": 0, "Chen": 0}
            assert state.rounds[0].points == {"Ana": 0, "Budi": 30, "Chen": 25}

            # A showdown played without the unit, tapped in.
            board.tap("nav:showdown", lambda f: f["screen"] == "showdown")
            board.tap("by-hand-left", lambda f: f["banner"] is not None)
            showdown = journal_state(db).showdowns
            assert [(s.winner, s.loser) for s in showdown] == [("Ana", "Budi")]

            # Two more rounds end the game; its last round undone and entered again.
            enter_round(board, 2, {0: 10, 1: 40})
            agrees(board, db, "table")
            enter_round(board, 0, {1: 60, 2: 90})
            state = agrees(board, db, "gameover")
            assert state.winners == ("Ana",)
            board.tap("nav:history", lambda f: f["screen"] == "history")
            board.tap("undo", lambda f: f["banner"] is not None and f["banner"]["news"])
            state = agrees(board, db, "history")
            assert not state.is_over and len(state.rounds) == 2
            board.tap("nav:table", lambda f: f["screen"] == "table")
            agrees(board, db, "table")
            # The round taken back is in the form as it was entered: one number put right.
            board.tap("nav:round", lambda f: f["screen"] == "round")
            assert frame_text(board.wait(lambda f: True, "the round end"), "player2") \
                == "Chen: 90"
            choose(board, "player2")
            board.tap("key:clear", lambda f: frame_text(f, "player2") == "Chen: ?")
            for digit in "95":
                board.tap(f"key:{digit}")
            board.wait(lambda f: frame_text(f, "player2") == "Chen: 95", "95 for Chen")
            board.tap("save", lambda f: f["screen"] == "gameover")
            state = agrees(board, db, "gameover")
            assert state.totals["Ana"] == 55 + 155 and state.game_id == game

            # A rematch: the same players, the deal passed on.
            board.tap("rematch", lambda f: f["screen"] == "table")
            state = agrees(board, db, "table")
            rematch = state.game_id
            assert rematch != game and state.players == FIRST
            enter_round(board, 1, {0: 20, 2: 15})
            assert agrees(board, db, "table").totals == {"Ana": 0, "Budi": 35, "Chen": 0}

            # Left early, in Japanese, for ten players with long names.
            board.tap("nav:setup", lambda f: f["screen"] == "settings")
            board.tap("language:ja", lambda f: f["language"] == "ja")
            board.tap("new-game", lambda f: f["screen"] == "setup")
            while not frame_text(board.last, "count").startswith("10"):
                board.tap("more")
            for seat, name in enumerate(TEN[3:], start=3):
                name_seat(board, seat, name)
            board.tap("start", lambda f: f["question"])
            board.tap("answer-yes")
            state = agrees(board, db, "table")
            assert state.players == TEN and state.game_id not in (game, rematch)
            enter_round(board, 3, {seat: 2 * seat + 1 for seat in range(10) if seat != 3})
            agrees(board, db, "table")
            board.tap("nav:history", lambda f: f["screen"] == "history")
            agrees(board, db, "history")

            # The rematch taken up again from Saved games.
            board.tap("nav:setup", lambda f: f["screen"] == "settings")
            board.tap("saved", lambda f: f["screen"] == "games")
            with use_language("ja"):
                title = _("Game {number}").format(number=rematch)
            board.tap_text(title, changes=False)  # the latest may be chosen already
            board.tap("open", lambda f: f["screen"] == "table")
            state = agrees(board, db, "table")
            assert state.game_id == rematch and state.totals["Budi"] == 35
        finally:
            code = board.stop()
    assert code == 0, board.output()
    print(f"{board.taps} taps in {time.monotonic() - started:.1f} s")
