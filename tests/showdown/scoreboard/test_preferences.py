"""The language and the colour cues chosen on the scoreboard come back after a restart."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest

from engine.scoring import ScoringSettings
from showdown.app.scoreboard_main import build_scoreboard
from showdown.game.journal import SCHEMA_VERSION, Journal
from showdown.game.messages import SetUpGame
from showdown.game.session import Session
from showdown.scoreboard.accessibility import CueSettings
from showdown.scoreboard.app import Scoreboard
from showdown.scoreboard.i18n import _, current_language, set_language
from showdown.scoreboard.preferences import CUES, LANGUAGE, stored_cues
from tests.showdown.scoreboard.helpers import touch, widget


@pytest.fixture(autouse=True)
def _english_after() -> Iterator[None]:
    set_language("en")
    yield
    set_language("en")


def _open(db: Path) -> tuple[Journal, Scoreboard]:
    journal = Journal.open(db)
    return journal, build_scoreboard(Session(journal))


def _close(journal: Journal, board: Scoreboard) -> None:
    board.close()
    journal.close()


def test_the_language_and_cues_survive_a_restart_from_the_same_journal(tmp_path: Path) -> None:
    db = tmp_path / "showdown.db"
    journal, board = _open(db)
    Session(journal).handle(SetUpGame(players=["Ana", "Budi"],
                                      scoring=ScoringSettings(target=500)))
    board.go("setup")
    touch(board, "language")
    touch(board, "choice:ja")
    touch(board, "cues")
    assert not board.cues.countdown_words
    _close(journal, board)  # the power goes; nothing more is written

    set_language("en")  # a new process starts in the default language
    journal, board = _open(db)
    try:
        assert current_language() == "ja"
        assert board.cues == CueSettings(countdown_words=False, countdown_shapes=False,
                                         colour_marks=False, false_start_words=False)
        board.go("setup")
        assert widget(board, "cues").text == _(  # type: ignore[attr-defined]
            "Shapes and words: Off") == "形と文字：オフ"
    finally:
        _close(journal, board)


def test_a_new_journal_starts_with_the_defaults(tmp_path: Path) -> None:
    journal, board = _open(tmp_path / "new.db")
    try:
        assert current_language() == "en"
        assert board.cues == CueSettings()
        assert journal.settings() == {}
    finally:
        _close(journal, board)


def test_a_language_changed_elsewhere_is_kept_too(tmp_path: Path) -> None:
    journal, board = _open(tmp_path / "s.db")
    try:
        set_language("zh_HK")
        assert journal.settings()[LANGUAGE] == "zh_HK"
    finally:
        _close(journal, board)


def test_unreadable_stored_choices_are_ignored(tmp_path: Path) -> None:
    db = tmp_path / "s.db"
    with Journal.open(db) as journal:
        journal.set_setting(LANGUAGE, "tlh")
        journal.set_setting(CUES, "{not json")
    journal, board = _open(db)
    try:
        assert current_language() == "en"
        assert board.cues == CueSettings()
    finally:
        _close(journal, board)
    assert stored_cues({CUES: '{"colour_marks": false, "sparkles": true, "countdown_words": 1}'},
                       CueSettings()) == CueSettings(colour_marks=False)


def test_a_version_two_journal_gains_the_settings_table_and_keeps_its_game(
    tmp_path: Path,
) -> None:
    db = tmp_path / "v2.db"
    with Journal.open(db) as journal:
        Session(journal).handle(SetUpGame(players=["Ana", "Budi"]))
    raw = sqlite3.connect(db, isolation_level=None)  # back to what version 2 wrote
    raw.execute("DROP TABLE settings")
    raw.execute("ALTER TABLE entries DROP COLUMN crc")  # added by version 4
    raw.execute("DROP TABLE game_labels")  # added by version 5
    raw.execute("DROP TABLE players")  # added by version 6
    raw.execute("PRAGMA user_version=2")
    raw.close()
    with Journal.open(db) as journal:
        assert journal.schema_version() == SCHEMA_VERSION == 6
        journal.set_setting(LANGUAGE, "id")
        journal.set_setting(LANGUAGE, "ja")  # a change replaces the choice
        assert journal.settings() == {LANGUAGE: "ja"}
        state = Session(journal).state
        assert state is not None and state.players == ("Ana", "Budi")
