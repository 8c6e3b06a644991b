"""Finished games are kept and found: listed with their winner and scores, opened to read, named
and deleted after asking; a game with no round, or one bots played, is not listed."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest

from engine.scoring import ScoringSettings
from showdown.game.journal import SCHEMA_VERSION, Journal
from showdown.game.messages import HandEntry, RecordRound, SetUpGame
from showdown.game.session import Session
from showdown.scoreboard.adapter import SessionPort
from showdown.scoreboard.app import Scoreboard
from showdown.scoreboard.i18n import LANGUAGES, set_language
from showdown.scoreboard.theme import MIN_TEXT
from showdown.scoreboard.view import ShowdownView, Stage
from showdown.scoreboard.widgets import Button, Custom
from tests.showdown.scoreboard.helpers import shot, touch, widget
from tests.showdown.scoreboard.test_rematch import finish
from tools.screenshots.games import sample_evening


def rows(board: Scoreboard) -> list[tuple[str, str]]:
    """The games list as shown: each row's first and second line."""
    board.frame()
    found = [w for w in board.widgets() if w.id.startswith("game") and isinstance(w, Custom)]
    return [(w.state[0], w.state[1]) for w in found]  # type: ignore[index]


def enabled(board: Scoreboard, widget_id: str) -> bool:
    found = widget(board, widget_id)
    assert isinstance(found, Button)
    return found.enabled


@pytest.fixture
def evening(tmp_path: Path) -> Iterator[Session]:
    """A finished game (José won), then a second one under way, as Start game leaves them."""
    with Journal.open(tmp_path / "evening.db") as journal:
        session = Session(journal)
        finish(session)
        session.handle(SetUpGame(players=["Ana", "Budi"], scoring=ScoringSettings(target=500)))
        session.handle(RecordRound(went_out="Ana", hands={"Budi": HandEntry(points=30)}))
        yield session


@pytest.fixture
def board(evening: Session) -> Iterator[Scoreboard]:
    set_language("en")
    scoreboard = Scoreboard(SessionPort(evening))
    scoreboard.frame()
    yield scoreboard
    scoreboard.close()


def test_start_game_after_game_over_keeps_the_finished_game_on_the_touchscreen(
    tmp_path: Path,
) -> None:
    with Journal.open(tmp_path / "one.db") as journal:
        session = Session(journal)
        finish(session)
        set_language("en")
        board = Scoreboard(SessionPort(session))
        try:
            touch(board, "new-game")
            touch(board, "start")  # no question: the finished game is kept, not lost
            assert board.current == "table"
            board.go("setup")
            touch(board, "saved")
            ((first, second),) = rows(board)
            assert first.startswith("Game 1 · ") and first.endswith(" · José won")
            assert second == "José 70 · Zoë 15 · Sakura 0"
        finally:
            board.close()


def test_a_finished_game_opens_to_read_its_history_chart_stats_and_standings(
    board: Scoreboard, evening: Session
) -> None:
    board.go("setup")
    assert widget(board, "saved").text == "Saved games (1)"  # type: ignore[attr-defined]
    touch(board, "saved")
    touch(board, "game0")
    assert widget(board, "open").text == "Open"  # type: ignore[attr-defined]
    touch(board, "open")
    assert board.current == "gameover" and board.view.read_only
    assert widget(board, "title").text == "Game 1"  # type: ignore[attr-defined]
    assert widget(board, "winner").text == "José wins!"  # type: ignore[attr-defined]
    assert {w.id for w in board.widgets()} >= {"nav:table", "nav:history", "nav:chart",
                                                "nav:stats", "nav:close"}
    assert "nav:round" not in {w.id for w in board.widgets()}
    shot(board, "finished-game-standings")
    touch(board, "nav:history")
    assert [p.name for p in board.view.players] == ["Sakura", "José", "Zoë"]
    assert len(board.view.rounds) == 2
    assert not enabled(board, "undo") and not enabled(board, "edit")
    touch(board, "nav:chart")
    touch(board, "nav:stats")
    assert board.current == "stats"
    # Nothing in it can change, whatever reaches the port.
    assert not board.command(board.port.undo)
    before = evening.state
    touch(board, "nav:close")
    assert board.current == "games" and not board.view.read_only
    assert evening.state == before and evening.state is not None
    assert [p.name for p in board.view.players] == ["Ana", "Budi"]


def test_a_game_is_deleted_only_after_asking_and_the_deletion_can_be_undone(
    board: Scoreboard, evening: Session
) -> None:
    board.go("games")
    touch(board, "game0")
    touch(board, "delete")
    assert widget(board, "question").text.startswith(  # type: ignore[attr-defined]
        "Delete Game 1 (Sakura, José, Zoë; José won)?")
    shot(board, "delete-question")
    touch(board, "answer-no")
    assert len(rows(board)) == 1
    touch(board, "delete")
    touch(board, "answer-yes")
    assert rows(board) == []
    assert evening.journal.game_labels()[1].deleted_at is not None
    assert [k.state.game_id for k in Session(evening.journal).kept_games()] == [2]
    touch(board, "banner-action")  # Undo
    assert len(rows(board)) == 1
    assert evening.journal.game_labels()[1].deleted_at is None


def test_the_game_on_the_table_cannot_be_deleted(tmp_path: Path) -> None:
    with Journal.open(tmp_path / "one.db") as journal:
        session = Session(journal)
        finish(session)
        set_language("en")
        board = Scoreboard(SessionPort(session))
        try:
            touch(board, "new-game")
            touch(board, "saved")
            touch(board, "game0")
            assert widget(board, "open").text == "Back to it"  # type: ignore[attr-defined]
            assert not enabled(board, "delete")
            assert not board.command(board.port.delete_game, 1)
        finally:
            board.close()


def test_a_game_is_renamed_on_the_name_keyboard_and_keeps_its_name(
    board: Scoreboard, evening: Session
) -> None:
    board.go("games")
    touch(board, "game0")
    touch(board, "rename")
    assert board.current == "names"
    assert widget(board, "title").text == "Name for game 1"  # type: ignore[attr-defined]
    assert widget(board, "limit").text == "0/24"  # type: ignore[attr-defined]
    for key in ("key:F", "key:R", "key:I"):
        touch(board, key)
    touch(board, "done")
    assert board.current == "games"
    assert rows(board)[0][0].startswith("Fri · ")
    assert Session(evening.journal).kept_games()[1].name == "Fri"
    touch(board, "open")
    assert widget(board, "title").text == "Fri"  # type: ignore[attr-defined]


def test_games_are_listed_latest_first_without_empty_or_simulated_games(
    tmp_path: Path,
) -> None:
    with Journal.open(tmp_path / "mixed.db") as journal:
        session = Session(journal)
        finish(session)
        session.handle(SetUpGame(players=["Ana", "Budi"]))  # never played
        session.handle(SetUpGame(players=["Ada", "Ben"], command_id="setup:1:0"))  # bots
        session.handle(RecordRound(went_out="Ada", hands={"Ben": HandEntry(points=10)}))
        session.handle(SetUpGame(players=["Cy", "Dee"]))
        session.handle(RecordRound(went_out="Cy", hands={"Dee": HandEntry(points=10)}))
        session.handle(SetUpGame(players=["Eve", "Fay"]))
        session.handle(RecordRound(went_out="Fay", hands={"Eve": HandEntry(points=10)}))
        port = SessionPort(session)
        assert [g.players for g in port.games()] == [("Cy", "Dee"), PLAYERS_FINISHED]


PLAYERS_FINISHED = ("Sakura", "José", "Zoë")


def test_a_version_four_journal_gains_game_labels_and_keeps_its_games(tmp_path: Path) -> None:
    db = tmp_path / "v4.db"
    with Journal.open(db) as journal:
        finish(Session(journal))
    raw = sqlite3.connect(db, isolation_level=None)  # back to what version 4 wrote
    raw.execute("DROP TABLE game_labels")
    raw.execute("DROP TABLE players")  # added by version 6
    raw.execute("PRAGMA user_version=4")
    raw.close()
    with Journal.open(db) as journal:
        assert journal.schema_version() == SCHEMA_VERSION == 6
        assert journal.game_labels() == {}
        journal.label_game(1, name="Friday")
        state = Session(journal).state
        assert state is not None and state.is_over
    with Journal.open(db) as journal:
        assert journal.game_labels()[1].name == "Friday"
        assert journal.integrity_check() == "ok"


def test_a_game_opened_to_read_gives_way_to_a_showdown_on_the_unit(
    board: Scoreboard, evening: Session
) -> None:
    board.go("games")
    touch(board, "game0")
    touch(board, "open")
    assert board.view.read_only
    port = board.port
    assert isinstance(port, SessionPort)
    port.unit_changed(ShowdownView(Stage.COUNTDOWN, "Ana", "Budi", 2, beat=1, beats=3))
    board.refresh()
    assert board.current == "showdown" and not board.view.read_only


@pytest.mark.parametrize("code", list(LANGUAGES))
def test_the_games_list_and_a_game_opened_to_read_fit_in_every_language(
    tmp_path: Path, code: str
) -> None:
    with Journal.open(tmp_path / "evening.db") as journal:
        set_language("en")
        board = Scoreboard(sample_evening(Session(journal)))
        try:
            board.set_language(code)
            overflowing = {}
            for screen in ("games", "gameover", "history", "chart", "stats"):
                if screen == "games":
                    board.go("setup")
                else:
                    assert board.command(board.port.open_game, 1)
                board.go(screen)
                board.painter.invalidate()
                board.text.overflows.clear()
                board.frame()
                overflowing[screen] = [o.text for o in board.text.overflows]
                small = {t: s for t, s in board.text.sizes.items() if s < MIN_TEXT}
                assert small == {}, (screen, small)
            assert {name: texts for name, texts in overflowing.items() if texts} == {}
        finally:
            set_language("en")
            board.close()


def test_back_from_saved_games_goes_where_they_were_opened_from(board: Scoreboard) -> None:
    """Issue 37, item 16: Saved games opened from Settings during a game, then Back: Settings
    again, not New game; opened from New game, Back goes there."""
    touch(board, "nav:setup")
    assert board.current == "settings"
    touch(board, "saved")
    assert board.current == "games"
    touch(board, "back")
    assert board.current == "settings"
    touch(board, "new-game")
    assert widget(board, "title").text == "New game"  # type: ignore[attr-defined]
    touch(board, "saved")
    touch(board, "back")
    assert board.current == "setup"


def test_a_finished_game_opened_to_read_has_one_way_to_close_it(board: Scoreboard) -> None:
    """Issue 37, item 16: the standings of a game opened to read showed Close twice (on the
    screen and in the navigation bar); one Close, in the bar, as on its other screens."""
    touch(board, "nav:setup")
    touch(board, "saved")
    touch(board, "game0")
    touch(board, "open")
    assert board.current == "gameover" and board.view.read_only
    board.frame()
    closes = [w.id for w in board.widgets() if getattr(w, "text", "") == "Close"]
    assert closes == ["nav:close"]
    touch(board, "nav:close")
    assert board.current == "games" and not board.view.read_only
