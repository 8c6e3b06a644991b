"""The journal keeps every accepted entry, refuses files it must not touch, migrates old ones."""

from __future__ import annotations

import hashlib
import sqlite3
from pathlib import Path

import pytest

from showdown.game.journal import (
    APPLICATION_ID,
    MIGRATIONS,
    SCHEMA_VERSION,
    DuplicateEntryError,
    Journal,
    JournalError,
    _split_sql,
)
from showdown.game.storage import StorageSettings, default_path


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_entries_survive_closing_and_reopening(tmp_path: Path) -> None:
    db = tmp_path / "deep" / "folder" / "showdown.db"
    with Journal.open(db) as journal:
        game = journal.new_game()
        first = journal.append(game, "round", [{"kind": "round_recorded", "points": 12}])
        journal.append(game, "undo", [{"kind": "entry_undone", "seq": first.seq}], key="u1")
    with Journal.open(db) as journal:
        assert journal.latest_game() == game
        entries = journal.entries(game)
        assert [e.kind for e in entries] == ["round", "undo"]
        assert entries[0].events == [{"kind": "round_recorded", "points": 12}]
        assert entries[1].key == "u1"
        assert journal.integrity_check() == "ok"
        assert journal.schema_version() == SCHEMA_VERSION


def test_file_is_in_wal_mode(tmp_path: Path) -> None:
    db = tmp_path / "s.db"
    with Journal.open(db) as journal:
        journal.new_game()
        other = sqlite3.connect(db)
        assert other.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        other.close()


def test_each_committed_entry_is_announced_once(tmp_path: Path) -> None:
    with Journal.open(tmp_path / "s.db") as journal:
        seen: list[int] = []
        journal.on_append = lambda entry: seen.append(entry.seq)
        game = journal.new_game()
        first = journal.append(game, "showdown", [{"n": 1}], key="k")
        with pytest.raises(DuplicateEntryError):
            journal.append(game, "showdown", [{"n": 1}], key="k")
        assert seen == [first.seq]


def test_same_key_twice_stores_nothing_more(tmp_path: Path) -> None:
    with Journal.open(tmp_path / "s.db") as journal:
        game = journal.new_game()
        journal.append(game, "showdown", [{"n": 1}], key="showdown:7")
        with pytest.raises(DuplicateEntryError, match="showdown:7"):
            journal.append(game, "showdown", [{"n": 2}], key="showdown:7")
        assert [e.events for e in journal.entries(game)] == [[{"n": 1}]]
        # The same key in another game is a different entry.
        other = journal.new_game()
        journal.append(other, "showdown", [{"n": 3}], key="showdown:7")


def test_entries_cannot_be_rewritten_or_deleted(tmp_path: Path) -> None:
    db = tmp_path / "s.db"
    with Journal.open(db) as journal:
        game = journal.new_game()
        journal.append(game, "round", [{"points": 5}])
    raw = sqlite3.connect(db)
    with pytest.raises(sqlite3.IntegrityError, match="append-only"):
        raw.execute("UPDATE entries SET events = '[]'")
    with pytest.raises(sqlite3.IntegrityError, match="append-only"):
        raw.execute("DELETE FROM entries")
    raw.close()


def test_garbage_file_is_refused_and_left_untouched(tmp_path: Path) -> None:
    db = tmp_path / "s.db"
    db.write_bytes(b"these are my holiday notes, not a database\n" * 200)
    before = _digest(db)
    with pytest.raises(JournalError, match=r"not a readable database.*left untouched"):
        Journal.open(db)
    assert _digest(db) == before
    assert not (tmp_path / "s.db-wal").exists()


def test_damaged_journal_is_refused_and_left_untouched(tmp_path: Path) -> None:
    db = tmp_path / "s.db"
    with Journal.open(db) as journal:
        game = journal.new_game()
        for n in range(300):
            journal.append(game, "round", [{"n": n, "pad": "x" * 200}])
    data = bytearray(db.read_bytes())
    page = 4096
    # Scribble over the middle of the file (a b-tree page), keeping the header intact.
    for i in range(3 * page, 3 * page + 2000):
        data[i] = 0xA5
    db.write_bytes(bytes(data))
    before = _digest(db)
    with pytest.raises(JournalError, match=r"corrupt|not a readable database"):
        Journal.open(db)
    assert _digest(db) == before


def test_newer_version_is_refused_and_left_untouched(tmp_path: Path) -> None:
    db = tmp_path / "s.db"
    with Journal.open(db) as journal:
        journal.new_game()
    raw = sqlite3.connect(db)
    raw.execute(f"PRAGMA user_version={SCHEMA_VERSION + 1}")
    raw.close()
    before = _digest(db)
    with pytest.raises(JournalError, match="newer version of showdown"):
        Journal.open(db)
    assert _digest(db) == before


def test_another_programs_database_is_refused(tmp_path: Path) -> None:
    db = tmp_path / "other.db"
    raw = sqlite3.connect(db)
    raw.execute("CREATE TABLE recipes (name TEXT)")
    raw.commit()
    raw.close()
    before = _digest(db)
    with pytest.raises(JournalError, match="another program"):
        Journal.open(db)
    assert _digest(db) == before


def test_a_directory_is_refused(tmp_path: Path) -> None:
    with pytest.raises(JournalError, match="not a file"):
        Journal.open(tmp_path)


def test_an_empty_file_is_not_a_journal(tmp_path: Path) -> None:
    db = tmp_path / "s.db"
    db.touch()
    with pytest.raises(JournalError, match="is empty: it is not a journal"):
        Journal.open(db)
    assert db.read_bytes() == b""


def test_version_one_file_is_migrated_keeping_its_entries(tmp_path: Path) -> None:
    db = tmp_path / "old.db"
    raw = sqlite3.connect(db, isolation_level=None)
    for statement in _split_sql(MIGRATIONS[0]):
        raw.execute(statement)
    raw.execute(f"PRAGMA application_id={APPLICATION_ID}")
    raw.execute("PRAGMA user_version=1")
    raw.execute("INSERT INTO games (created_at) VALUES ('2026-01-01T00:00:00')")
    raw.execute(
        "INSERT INTO entries (game_id, entry_key, kind, events, recorded_at) "
        "VALUES (1, NULL, 'round', '[{\"points\": 3}]', '2026-01-01T00:01:00')"
    )
    raw.close()
    with Journal.open(db) as journal:
        assert journal.schema_version() == SCHEMA_VERSION
        assert journal.entries(1)[0].events == [{"points": 3}]
    raw = sqlite3.connect(db)
    indexes = {r[0] for r in raw.execute("SELECT name FROM sqlite_schema WHERE type='index'")}
    raw.close()
    assert "entries_by_game" in indexes


def test_default_path_follows_xdg(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert default_path() == tmp_path / "showdown" / "showdown.db"
    assert StorageSettings().resolved_path() == tmp_path / "showdown" / "showdown.db"
    monkeypatch.delenv("XDG_DATA_HOME")
    assert default_path() == Path.home() / ".local" / "share" / "showdown" / "showdown.db"
    chosen = StorageSettings(path=Path("/var/lib/showdown/showdown.db"))
    assert chosen.resolved_path() == Path("/var/lib/showdown/showdown.db")


def test_database_path_from_config_file_and_environment(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from showdown.app.config import load_settings
    from showdown.game.storage import db_path

    config = tmp_path / "showdown.toml"
    config.write_text('[storage]\npath = "/var/lib/showdown/showdown.db"\n')
    settings = load_settings(config)
    assert db_path(None, settings.storage) == Path("/var/lib/showdown/showdown.db")
    assert db_path(tmp_path / "given.db", settings.storage) == tmp_path / "given.db"
    monkeypatch.setenv("SHOWDOWN_STORAGE__PATH", str(tmp_path / "env.db"))
    assert db_path(None, load_settings(config).storage) == tmp_path / "env.db"
