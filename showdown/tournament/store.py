"""The host's event journal: every entry it stored, the tables that joined, the event itself.

One SQLite file (WAL, ``synchronous=FULL``: an entry is on disk before it is acknowledged), in
the habits of the tables' journal (:mod:`showdown.game.journal`): entries are never updated or
deleted (triggers refuse it), and an entry's id (table, journal, seq) is unique, so a redelivered
entry is stored once. The file holds the tables' signing keys and the host's password: it is made
readable by its owner only.

Each round's seating is recorded when the host first publishes it (the ``seatings`` table, added
beside the entries so that journals made before it open as they were): a seated round is a fact
the tables were told, so it is never replaced, and a correction to an earlier round changes only
the standings and the rounds not yet seated.

Like the tables' journal it keeps a high-water mark beside it (``event.db.mark``,
:mod:`showdown.game.mark`) and empties its write-ahead log every 64 KiB
(:mod:`showdown.game.wal`): an entry a table was told is stored and that a damaged log took back
is named when the host opens the journal again, which it then refuses to write over.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import sqlite3
import threading
import time
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import SecretStr

from engine.tournament import Seating
from showdown.game.mark import Keeper, Mark, MarkFile, Origin, loss, mark_path
from showdown.game.wal import empty_when_full
from showdown.tournament.messages import EntryMessage

__all__ = [
    "DEFAULT_FOLDER",
    "INSTALLED_FOLDER",
    "ConflictError",
    "StoreError",
    "TableRow",
    "TournamentStore",
    "check",
]

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (name TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS tables (
    id TEXT PRIMARY KEY, name TEXT NOT NULL, password_hash TEXT NOT NULL,
    signing_key TEXT NOT NULL, joined_at REAL NOT NULL);
CREATE TABLE IF NOT EXISTS entries (
    table_id TEXT NOT NULL, journal TEXT NOT NULL, seq INTEGER NOT NULL, game INTEGER NOT NULL,
    prev INTEGER, kind TEXT NOT NULL, entry_key TEXT, events TEXT NOT NULL,
    recorded_at TEXT NOT NULL, received_at REAL NOT NULL,
    UNIQUE (table_id, journal, seq));
CREATE TABLE IF NOT EXISTS seatings (
    round INTEGER PRIMARY KEY, seating TEXT NOT NULL, seated_at REAL NOT NULL);
CREATE TRIGGER IF NOT EXISTS seatings_no_update BEFORE UPDATE ON seatings
    BEGIN SELECT RAISE(ABORT, 'a seated round stays seated'); END;
CREATE TRIGGER IF NOT EXISTS seatings_no_delete BEFORE DELETE ON seatings
    BEGIN SELECT RAISE(ABORT, 'a seated round stays seated'); END;
CREATE TRIGGER IF NOT EXISTS entries_no_update BEFORE UPDATE ON entries
    BEGIN SELECT RAISE(ABORT, 'the event journal is append-only'); END;
CREATE TRIGGER IF NOT EXISTS entries_no_delete BEFORE DELETE ON entries
    BEGIN SELECT RAISE(ABORT, 'the event journal is append-only'); END;
"""


log = logging.getLogger(__name__)

#: How long a statement waits while another connection commits, before SQLITE_BUSY.
BUSY_TIMEOUT_MS = 10_000

#: Where ``showdown event host`` keeps an event's folder (its journal, the broker's files) unless
#: told otherwise, and where an installed host keeps it (``deploy/install.sh --event-host``).
DEFAULT_FOLDER = Path.home() / ".local" / "share" / "showdown" / "event"
INSTALLED_FOLDER = Path("/var/lib/showdown-event")

#: An entry's columns as the mark's checksum covers them (all but when it was received).
_COLUMNS = "table_id, journal, seq, game, prev, kind, entry_key, events, recorded_at"


class StoreError(Exception):
    """The event journal cannot be used; the message says why."""


class ConflictError(StoreError):
    """An entry with a stored id but other content: it cannot come from the table."""


@dataclass(frozen=True)
class TableRow:
    """A table that joined."""

    id: str
    name: str
    password_hash: str
    signing_key: SecretStr
    joined_at: float


class TournamentStore:
    """The event journal; safe to share between threads (one lock around each call)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        path.parent.mkdir(parents=True, exist_ok=True)
        if not path.exists() or path.stat().st_size == 0:
            mark_path(path).unlink(missing_ok=True)  # a deleted journal's: this one is new
            os.close(os.open(path, os.O_WRONLY | os.O_CREAT, 0o600))
        else:
            check(path)  # read-only: a refused journal keeps its log as it was
        try:
            self._db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
            self._db.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")
            self._db.executescript(SCHEMA)
            found, origin = _holds(self._db), _origin(self._db)
        except sqlite3.DatabaseError as error:
            raise StoreError(f"{path} is not an event journal ({error})") from None
        self._mark = Keeper(path, path.stat().st_ino, found, origin, stored=None)
        self._lock = threading.Lock()

    def close(self) -> None:
        with self._lock:
            self._db.close()
            self._mark.close()

    # -- the event ---------------------------------------------------------------------------

    def get(self, name: str) -> str | None:
        with self._lock:
            row = self._db.execute("SELECT value FROM meta WHERE name = ?", (name,)).fetchone()
        return None if row is None else str(row[0])

    def put(self, name: str, value: str) -> None:
        with self._lock:
            self._db.execute("INSERT INTO meta VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET "
                             "value = excluded.value", (name, value))

    # -- tables ------------------------------------------------------------------------------

    def add_table(self, table: TableRow) -> None:
        with self._lock:
            self._db.execute("INSERT INTO tables VALUES (?, ?, ?, ?, ?)", (
                table.id, table.name, table.password_hash, table.signing_key.get_secret_value(),
                table.joined_at))

    def tables(self) -> list[TableRow]:
        with self._lock:
            rows = self._db.execute("SELECT id, name, password_hash, signing_key, joined_at "
                                    "FROM tables ORDER BY joined_at, id").fetchall()
        return [TableRow(str(r[0]), str(r[1]), str(r[2]), SecretStr(str(r[3])), float(r[4]))
                for r in rows]

    # -- entries -----------------------------------------------------------------------------

    def store(self, entry: EntryMessage, received_at: float | None = None) -> bool:
        """Store ``entry`` durably; False when it was stored already (a redelivery).

        :class:`ConflictError` when an entry with its id but other content is stored.
        """
        events = json.dumps(entry.events, sort_keys=True, separators=(",", ":"))
        row = (entry.table, entry.journal, entry.seq, entry.game, entry.prev, entry.kind,
               entry.key, events, entry.recorded_at,
               time.time() if received_at is None else received_at)
        with self._lock:
            cursor = self._db.execute(
                "INSERT INTO entries VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
                "ON CONFLICT (table_id, journal, seq) DO NOTHING", row)
            if cursor.rowcount == 1:
                assert cursor.lastrowid is not None
                self._mark.committed(cursor.lastrowid, _entry_crc(row[:9]), entry.game)
                empty_when_full(self._db, self.path, BUSY_TIMEOUT_MS)
                return True
            held = self._db.execute(
                "SELECT game, prev, kind, entry_key, events, recorded_at FROM entries WHERE "
                "table_id = ? AND journal = ? AND seq = ?",
                (entry.table, entry.journal, entry.seq)).fetchone()
        if tuple(held) != (entry.game, entry.prev, entry.kind, entry.key, events,
                           entry.recorded_at):
            raise ConflictError(f"table {entry.table} entry {entry.journal}:{entry.seq} is stored "
                                "with other content")
        return False

    def entries(self, table: str | None = None) -> list[EntryMessage]:
        """Every stored entry (of one table), in the order stored."""
        query = ("SELECT table_id, journal, seq, game, prev, kind, entry_key, events, "
                 "recorded_at FROM entries")
        with self._lock:
            rows = (self._db.execute(query + " WHERE table_id = ? ORDER BY rowid", (table,))
                    if table is not None else self._db.execute(query + " ORDER BY rowid"))
            found = rows.fetchall()
        event = self.get("event") or "000000"
        return [EntryMessage(event=event, table=r[0], journal=r[1], seq=r[2], game=r[3],
                             prev=r[4], kind=r[5], key=r[6], events=json.loads(r[7]),
                             recorded_at=r[8]) for r in found]

    # -- seatings ----------------------------------------------------------------------------

    def keep_seating(self, seating: Seating, seated_at: float | None = None) -> bool:
        """Record ``seating`` as its round's; False when the round was seated already (the
        first seating stays)."""
        text = json.dumps({"round": seating.round, "tables": [[t, list(p)] for t, p in
                                                              seating.tables],
                           "byes": list(seating.byes)}, separators=(",", ":"))
        with self._lock:
            cursor = self._db.execute(
                "INSERT INTO seatings VALUES (?, ?, ?) ON CONFLICT (round) DO NOTHING",
                (seating.round, text, time.time() if seated_at is None else seated_at))
            return cursor.rowcount == 1

    def seatings(self) -> list[Seating]:
        """Every round seated so far, in order."""
        with self._lock:
            rows = self._db.execute("SELECT seating FROM seatings ORDER BY round").fetchall()
        found = []
        for (text,) in rows:
            data = json.loads(text)
            found.append(Seating(int(data["round"]), tuple(
                (str(table), tuple(str(p) for p in players)) for table, players in
                data["tables"]), tuple(str(p) for p in data["byes"])))
        return found

    def count(self) -> int:
        with self._lock:
            return int(self._db.execute("SELECT count(*) FROM entries").fetchone()[0])


def _entry_crc(row: tuple[Any, ...]) -> int:
    """The CRC-32 of an entry's columns (:data:`_COLUMNS`), as its mark records it."""
    fields = ("\x00" if value is None else str(value) for value in row)
    return zlib.crc32("\x1f".join(fields).encode("utf-8", "surrogatepass"))


def _entry_at(db: sqlite3.Connection, where: str) -> tuple[int, int, int] | None:
    """One entry (*where* picks it): its row id, checksum and its table's game."""
    row = db.execute(f"SELECT rowid, {_COLUMNS} FROM entries {where}").fetchone()
    return None if row is None else (int(row[0]), _entry_crc(row[1:]), int(row[4]))


def _holds(db: sqlite3.Connection) -> Mark:
    """What the journal holds, as its mark says it: the last entry and how many there are."""
    count = int(db.execute("SELECT count(*) FROM entries").fetchone()[0])
    last = _entry_at(db, "ORDER BY rowid DESC LIMIT 1")
    return Mark(0, count) if last is None else Mark(last[0], count, last[1], last[2])


def _origin(db: sqlite3.Connection) -> Origin | None:
    """Which event journal this is, as a copy keeps it: its first entry (None: none yet)."""
    first = _entry_at(db, "ORDER BY rowid LIMIT 1")
    return None if first is None else Origin(first[0], first[1])


def check(path: Path) -> None:
    """Refuse, in one line and on a read-only connection, a journal that holds less than its
    mark says the tables were told is stored, or another entry where the last one was."""
    marks = MarkFile(path, path.stat().st_ino).load()  # before the data: marked after a commit
    try:
        db = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True,
                             isolation_level=None)
    except sqlite3.Error as error:
        raise StoreError(f"cannot open {path}: {error}") from None
    try:
        db.execute("BEGIN")
        if db.execute("SELECT 1 FROM sqlite_schema WHERE name = 'entries'").fetchone() is None:
            return  # made, but no entry table yet: nothing was acknowledged
        found, origin = _holds(db), _origin(db)
        stored = marks.for_journal(origin)
        there = None if stored is None else _entry_at(db, f"WHERE rowid = {int(stored.seq)}")
    except sqlite3.DatabaseError as error:
        raise StoreError(f"{path} is not an event journal ({error}); it was left untouched"
                         ) from None
    finally:
        with contextlib.suppress(sqlite3.Error):
            db.close()
    if stored is None:
        return
    advice = (f"the event journal and its log were left untouched; the tables' own journals "
              f"still hold every entry; move {path.name} aside, or, to go on with what is "
              f"left, delete {mark_path(path).name}")
    if found.seq < stored.seq or found.count < stored.count:
        raise StoreError(f"{path} is damaged: "
                         f"{loss(path, found, stored, 'event journal entr', ' of its table')}"
                         f"; {advice}")
    if stored.game and (there is None or there[1:] != (stored.crc, stored.game)):
        raise StoreError(f"{path} is damaged: event journal entry {stored.seq} was acknowledged "
                         f"as stored, and another entry is in its place; {advice}")
