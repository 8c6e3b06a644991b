"""The event journal keeps each round's seating as it was first published: a seated round is a
fact the tables were told. A journal made before seatings were kept opens as it was."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from engine.tournament import Seating
from showdown.tournament import store as store_module
from showdown.tournament.store import TournamentStore

ROUND_2 = Seating(2, (("t1", ("Fay", "Ada", "Eli", "Ben")), ("t2", ("Gus", "Hana", "Cleo", "Ivo"))),
                  ("Dev",))


def test_a_round_once_seated_stays_seated_across_a_restart(tmp_path: Path) -> None:
    path = tmp_path / "event.db"
    journal = TournamentStore(path)
    assert journal.keep_seating(ROUND_2, 1.0)
    other = Seating(2, (("t1", ("Ada", "Ben", "Cleo", "Dev")),), ("Ivo",))
    assert not journal.keep_seating(other, 2.0)  # seated again: the first seating stays
    journal.close()
    journal = TournamentStore(path)
    assert journal.seatings() == [ROUND_2]
    journal.close()
    with sqlite3.connect(path) as db, pytest.raises(sqlite3.DatabaseError,
                                                     match="a seated round stays seated"):
        db.execute("UPDATE seatings SET seated_at = 0")


def test_a_journal_from_before_seatings_were_kept_opens_and_keeps_them(tmp_path: Path) -> None:
    path = tmp_path / "event.db"
    start = store_module.SCHEMA.index("CREATE TABLE IF NOT EXISTS seatings")
    end = store_module.SCHEMA.index("CREATE TRIGGER IF NOT EXISTS entries_no_update")
    old = store_module.SCHEMA[:start] + store_module.SCHEMA[end:]  # the schema before
    with sqlite3.connect(path) as db:
        db.executescript(old)
        db.execute("INSERT INTO meta VALUES ('event', 'abc234')")
    assert "seatings" not in {r[0] for r in sqlite3.connect(path).execute(
        "SELECT name FROM sqlite_schema")}
    journal = TournamentStore(path)
    assert journal.get("event") == "abc234" and journal.seatings() == []
    assert journal.keep_seating(ROUND_2)
    assert journal.seatings() == [ROUND_2]
    journal.close()
