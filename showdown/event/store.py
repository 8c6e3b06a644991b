"""The host's event journal: every entry it stored, the tables that joined, the event itself.

One SQLite file (WAL, ``synchronous=FULL``: an entry is on disk before it is acknowledged), in
the habits of the tables' journal (:mod:`showdown.game.journal`): entries are never updated or
deleted (triggers refuse it), and an entry's id (table, journal, seq) is unique, so a redelivered
entry is stored once. The file holds the tables' signing keys and the host's password: it is made
readable by its owner only.
"""

from __future__ import annotations

import json
import os
import sqlite3
import threading
import time
from dataclasses import dataclass
from pathlib import Path

from pydantic import SecretStr

from showdown.event.messages import EntryMessage

__all__ = ["ConflictError", "EventStore", "StoreError", "TableRow"]

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
CREATE TRIGGER IF NOT EXISTS entries_no_update BEFORE UPDATE ON entries
    BEGIN SELECT RAISE(ABORT, 'the event journal is append-only'); END;
CREATE TRIGGER IF NOT EXISTS entries_no_delete BEFORE DELETE ON entries
    BEGIN SELECT RAISE(ABORT, 'the event journal is append-only'); END;
"""


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


class EventStore:
    """The event journal; safe to share between threads (one lock around each call)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        path.parent.mkdir(parents=True, exist_ok=True)
        if not path.exists():
            os.close(os.open(path, os.O_WRONLY | os.O_CREAT, 0o600))
        try:
            self._db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
            self._db.execute("PRAGMA busy_timeout=10000")
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")
            self._db.executescript(SCHEMA)
        except sqlite3.DatabaseError as error:
            raise StoreError(f"{path} is not an event journal ({error})") from None
        self._lock = threading.Lock()

    def close(self) -> None:
        with self._lock:
            self._db.close()

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

    def count(self) -> int:
        with self._lock:
            return int(self._db.execute("SELECT count(*) FROM entries").fetchone()[0])
