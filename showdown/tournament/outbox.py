"""The table's outbox: its journal, plus one mark per entry the host has stored.

The marks and the table's membership (event, host, credentials) live in a separate SQLite file
beside the journal, ``<journal>.event`` (mode 0600): the journal stays append-only and its schema
untouched, and losing this file costs only a resend, which the host deduplicates (docs/event.md,
"The table's outbox"). An entry's id is (journal identity, seq): the identity is a hash of the
journal's first game's creation time, so a new journal file never reuses an old one's ids.
"""

from __future__ import annotations

import hashlib
import os
import sqlite3
import threading
from dataclasses import dataclass
from pathlib import Path

from pydantic import SecretStr

from showdown.game.journal import Entry, Journal
from showdown.tournament.games import belongs
from showdown.tournament.messages import TournamentInfo

__all__ = ["Membership", "Outbox", "journal_identity", "last_seq", "tournament_entries",
           "tournament_file"]

SCHEMA = """
CREATE TABLE IF NOT EXISTS membership (
    event TEXT NOT NULL, table_id TEXT NOT NULL, host TEXT NOT NULL, port INTEGER NOT NULL,
    password TEXT NOT NULL, signing_key TEXT NOT NULL, info TEXT NOT NULL,
    joined_seq INTEGER NOT NULL DEFAULT 0);
CREATE TABLE IF NOT EXISTS acked (journal TEXT NOT NULL, seq INTEGER NOT NULL,
    PRIMARY KEY (journal, seq));
"""


def tournament_file(journal_path: Path) -> Path:
    """Where a journal's outbox state lives."""
    return journal_path.with_name(journal_path.name + ".event")


def journal_identity(journal: Journal) -> str:
    """The journal's identity: the first game's creation time, hashed (16 hex digits)."""
    first = journal.games()[0].created_at  # IndexError: no game, so no entry to name yet
    return hashlib.sha256(f"showdown-journal|{first}".encode()).hexdigest()[:16]


@dataclass(frozen=True)
class Membership:
    """What a table keeps after joining: the event, where its host is, its credentials."""

    event: str
    table: str
    host: str
    port: int
    password: SecretStr
    signing_key: SecretStr
    info: TournamentInfo
    joined_seq: int = 0
    """The journal's last entry when the table joined: games set up after it are the event's."""


class Outbox:
    """The marks and the membership (one lock around each call; shared by paho's thread and the
    session's)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        if not path.exists():
            path.parent.mkdir(parents=True, exist_ok=True)
            os.close(os.open(path, os.O_WRONLY | os.O_CREAT, 0o600))
        self._db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.executescript(SCHEMA)
        self._lock = threading.Lock()

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def membership(self) -> Membership | None:
        with self._lock:
            row = self._db.execute("SELECT * FROM membership").fetchone()
        if row is None:
            return None
        return Membership(row[0], row[1], row[2], int(row[3]), SecretStr(row[4]),
                          SecretStr(row[5]), TournamentInfo.model_validate_json(row[6]),
                          int(row[7]))

    def join(self, membership: Membership) -> None:
        """Remember the event just joined (replacing any earlier one)."""
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            self._db.execute("DELETE FROM membership")
            self._db.execute("INSERT INTO membership VALUES (?, ?, ?, ?, ?, ?, ?, ?)", (
                membership.event, membership.table, membership.host, membership.port,
                membership.password.get_secret_value(), membership.signing_key.get_secret_value(),
                membership.info.model_dump_json(), membership.joined_seq))
            self._db.execute("COMMIT")

    def mark(self, journal: str, seqs: list[int]) -> None:
        """The host stored these entries."""
        with self._lock:
            self._db.executemany("INSERT OR IGNORE INTO acked VALUES (?, ?)",
                                 [(journal, seq) for seq in seqs])

    def acked(self, journal: str) -> set[int]:
        with self._lock:
            rows = self._db.execute("SELECT seq FROM acked WHERE journal = ?", (journal,))
            return {int(r[0]) for r in rows}


def last_seq(journal: Journal) -> int:
    """The journal's latest entry's sequence number (0 when empty)."""
    game = journal.last_played_game()
    entries = journal.entries(game) if game is not None else []
    return entries[-1].seq if entries else 0


def tournament_entries(journal: Journal, event: str, joined_seq: int = 0
                  ) -> list[tuple[Entry, int | None]]:
    """Every entry of this event's games in the journal
    (:func:`~showdown.tournament.games.belongs`), each with its game's previous entry."""
    found: list[tuple[Entry, int | None]] = []
    for game in journal.games():
        entries = journal.entries(game.id)
        if not entries or not belongs(entries[0].key, entries[0].seq, event, joined_seq):
            continue
        previous: int | None = None
        for entry in entries:
            found.append((entry, previous))
            previous = entry.seq
    return found
