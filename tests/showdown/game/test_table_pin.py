"""The table's journal is its owner's only, and it never holds the phone page's PIN in plain
text: a copy of the journal gives the PIN away to nobody (issue 38).

Before, a journal was made readable by every user of the machine (0644) and held the PIN as
``{"code": "4821", ...}``.
"""

from __future__ import annotations

import json
import os
import sqlite3
import stat
from collections.abc import Iterator
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from showdown.game.journal import Journal
from showdown.game.table_pin import PIN_SETTING, evening_pin, pin_path

TOKYO = timezone(timedelta(hours=9))
EVENING = datetime(2026, 11, 21, 20, 15, tzinfo=TOKYO)


@pytest.fixture(autouse=True)
def _usual_umask() -> Iterator[None]:
    """The umask of a login shell, which made journals readable by everyone."""
    before = os.umask(0o022)
    try:
        yield
    finally:
        os.umask(before)


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def _stored(db: Path) -> str:
    """Everything a reader of the journal's files finds: the database and its log."""
    found = b"".join(Path(f"{db}{end}").read_bytes() for end in ("", "-wal")
                     if Path(f"{db}{end}").exists())
    return found.decode("latin-1")


def test_a_new_journal_and_its_log_are_readable_by_their_owner_only(tmp_path: Path) -> None:
    db = tmp_path / "table.db"
    with Journal.open(db, writable=True) as journal:
        journal.set_setting("language", "ja")
        assert _mode(db) == 0o600
        assert _mode(Path(f"{db}-wal")) == 0o600


def test_a_journal_made_readable_by_an_older_version_is_made_private_when_opened(
        tmp_path: Path) -> None:
    db = tmp_path / "table.db"
    Journal.open(db, writable=True).close()
    db.chmod(0o644)
    with Journal.open(db, writable=True):
        assert _mode(db) == 0o600
    with Journal.open(db, read_only=True):  # reading changes nothing
        assert _mode(db) == 0o600


def test_the_journal_holds_a_salted_hash_of_the_pin_never_the_pin(tmp_path: Path) -> None:
    db = tmp_path / "table.db"
    with Journal.open(db, writable=True) as journal:
        pin = evening_pin(journal, EVENING, draw=lambda _n: 4821)
        stored = json.loads(journal.settings()[PIN_SETTING])
    assert pin.code == "4821"
    assert set(stored) == {"scheme", "salt", "hash", "until"}
    assert '"code"' not in _stored(db)
    # the four digits the scoreboard shows again after a restart: beside it, the owner's only
    assert pin_path(db).read_text().strip() == "4821" and _mode(pin_path(db)) == 0o600
    with Journal.open(db, writable=True) as journal:  # a restart: the same PIN
        assert evening_pin(journal, EVENING + timedelta(hours=2), draw=lambda _n: 7).code == "4821"
    with Journal.open(db, writable=True) as journal:  # the same PIN hashed with another salt
        other = json.loads(journal.settings()[PIN_SETTING])
        assert other["salt"] != stored["salt"] or other == stored


def test_a_pin_file_that_is_not_this_evenings_gives_a_new_pin(tmp_path: Path) -> None:
    db = tmp_path / "table.db"
    with Journal.open(db, writable=True) as journal:
        evening_pin(journal, EVENING, draw=lambda _n: 4821)
    pin_path(db).write_text("1111\n")  # copied from another table, or changed by hand
    with Journal.open(db, writable=True) as journal:
        assert evening_pin(journal, EVENING, draw=lambda _n: 2468).code == "2468"


def test_a_journal_from_before_the_hash_keeps_its_pin_and_loses_its_plain_text(
        tmp_path: Path) -> None:
    db = tmp_path / "table.db"
    Journal.open(db, writable=True).close()
    until = datetime(2026, 11, 22, 6, 0, tzinfo=TOKYO)
    with sqlite3.connect(db) as raw:  # as the older version wrote it
        raw.execute("INSERT INTO settings (name, value, updated_at) VALUES (?, ?, ?)",
                    (PIN_SETTING, json.dumps({"code": "5307", "until": until.isoformat()}),
                     "2026-11-21T11:00:00Z"))
    raw.close()
    assert '"code": "5307"' in _stored(db)
    with Journal.open(db, read_only=True) as journal:  # read as it is, written nowhere
        assert evening_pin(journal, EVENING).code == "5307"
    assert not pin_path(db).exists()
    with Journal.open(db, writable=True) as journal:
        assert evening_pin(journal, EVENING, draw=lambda _n: 1).code == "5307"
        assert "code" not in json.loads(journal.settings()[PIN_SETTING])
    assert '"code"' not in _stored(db) and '"5307"' not in _stored(db)
    with Journal.open(db, writable=True) as journal:
        assert evening_pin(journal, EVENING + timedelta(hours=1), draw=lambda _n: 1).code == "5307"
