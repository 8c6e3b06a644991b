"""The journal: an append-only SQLite record of every accepted game-session entry.

Why SQLite from the standard library: one file, transactions that survive a pulled power cable
(WAL with ``synchronous=FULL``: a commit is on disk before :meth:`Journal.append` returns, so an
entry is acknowledged only once it is durable), and a format any tool can read later.

Rules this module keeps:

- Rows of ``entries`` are never updated or deleted (triggers refuse it); an undo or an edit is a
  new entry, so resuming, undoing and editing are one mechanism: fold the entries again.
- A file that is not ours, is empty, truncated, corrupt, or was written by a newer version is
  refused with a message saying so, and is never written to, let alone overwritten.
- Every entry carries a CRC-32 of what was stored (game, key, kind, events, time): SQLite checks
  its pages but not the values in them, so a flipped bit in a name or a changed digit in a score
  is found when the entry is read, and the entry is refused with the file, game and entry named.
- A new journal is built whole in a temporary file beside it and linked into place, so a journal
  file either is complete or does not exist, whoever else creates it at the same moment.
- A writer (:meth:`Journal.open` with ``writable=True``) checks first that the journal can be
  written: a read-only folder or file system, or a full disk, is refused at start rather than at
  the first entry; a write that fails later raises :class:`JournalWriteError`, whose message
  says why (disk full, read-only).
- The schema carries its version in ``PRAGMA user_version``; older files are migrated in place,
  one step at a time, inside a transaction.
- Three small tables are not append-only, because they hold no game facts: ``settings``, the
  table's choices on the scoreboard (language, colour cues), one row each, so they survive a
  restart with the game; ``game_labels``, a game's name and whether it was deleted from the
  lists (a deleted game's entries stay, so deleting is a mark that can be taken back); and
  ``players``, the players who come back, each with the colour they picked.
- A journal is its owner's only (mode 0600, its log files too): it holds the players' names and
  the phone page's PIN (as a salted hash, :mod:`showdown.game.table_pin`). An older, readable
  one is made private when it is next opened to write.
"""

from __future__ import annotations

import contextlib
import functools
import json
import logging
import os
import sqlite3
import stat
import threading
import zlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, ParamSpec, TypeVar

from showdown.game.mark import Keeper, Mark, MarkFile, Origin, loss, mark_path
from showdown.game.wal import empty_when_full

P = ParamSpec("P")
R = TypeVar("R")

#: Marks a SQLite file as ours (``PRAGMA application_id``): "UNOS" in ASCII.
APPLICATION_ID = 0x554E4F53

#: Each step takes the schema from version ``index`` to ``index + 1``.
MIGRATIONS: tuple[str, ...] = (
    # 0 -> 1: games and their append-only entries.
    """
    CREATE TABLE games (
        id          INTEGER PRIMARY KEY,
        created_at  TEXT NOT NULL
    );
    CREATE TABLE entries (
        seq          INTEGER PRIMARY KEY AUTOINCREMENT,
        game_id      INTEGER NOT NULL REFERENCES games(id),
        entry_key    TEXT,
        kind         TEXT NOT NULL,
        events       TEXT NOT NULL,
        recorded_at  TEXT NOT NULL,
        UNIQUE (game_id, entry_key)
    );
    CREATE TRIGGER entries_no_update BEFORE UPDATE ON entries
        BEGIN SELECT RAISE(ABORT, 'the journal is append-only'); END;
    CREATE TRIGGER entries_no_delete BEFORE DELETE ON entries
        BEGIN SELECT RAISE(ABORT, 'the journal is append-only'); END;
    """,
    # 1 -> 2: reading one game's entries in order is the common query (every resume).
    """
    CREATE INDEX entries_by_game ON entries (game_id, seq);
    """,
    # 2 -> 3: the table's choices on the scoreboard (language, colour cues). Not game facts, so
    # not entries: one row per setting, replaced when changed, kept across games and restarts.
    """
    CREATE TABLE settings (
        name        TEXT PRIMARY KEY,
        value       TEXT NOT NULL,
        updated_at  TEXT NOT NULL
    );
    """,
    # 3 -> 4: a checksum of each entry (see entry_crc). The rows already there are taken as they
    # are: the append-only guard is lifted for this one statement, inside the migration.
    """
    ALTER TABLE entries ADD COLUMN crc INTEGER;
    DROP TRIGGER entries_no_update;
    UPDATE entries SET crc = showdown_entry_crc(game_id, entry_key, kind, events, recorded_at);
    CREATE TRIGGER entries_no_update BEFORE UPDATE ON entries
        BEGIN SELECT RAISE(ABORT, 'the journal is append-only'); END;
    """,
    # 4 -> 5: what the table calls a game and whether it took it out of its lists. Not game
    # facts, so not entries: one row per game that has either, changed in place.
    """
    CREATE TABLE game_labels (
        game_id     INTEGER PRIMARY KEY REFERENCES games(id),
        name        TEXT,
        deleted_at  TEXT,
        updated_at  TEXT NOT NULL
    );
    """,
    # 5 -> 6: the table's players, kept across games and evenings: a name, the colour the
    # player picked (a key of the scoreboard's palette), and when they last sat down to play.
    """
    CREATE TABLE players (
        name        TEXT PRIMARY KEY,
        colour      TEXT,
        added_at    TEXT NOT NULL,
        updated_at  TEXT NOT NULL
    );
    """,
)

#: The schema version this code writes.
SCHEMA_VERSION = len(MIGRATIONS)


log = logging.getLogger(__name__)

#: How long a statement waits while another process commits, before SQLITE_BUSY.
BUSY_TIMEOUT_MS = 10_000

#: A schema version above this is no version at all: a damaged header (bytes 60-63).
VERSION_LIMIT = 1 << 16

#: A writer refuses to start with less free space than this: a few thousand entries' worth.
#: A journal's mode: its owner (the service's user) reads and writes it, nobody else.
PRIVATE_MODE = 0o600

MIN_FREE_BYTES = 1 << 20

#: The first bytes of every SQLite database file.
SQLITE_HEADER = b"SQLite format 3\x00"


class JournalError(Exception):
    """The database file cannot be used (corrupt, not ours, newer); the message says what to do,
    in one line. *details* keeps what that line leaves out (SQLite's whole report) for the log
    and the support bundle."""

    def __init__(self, message: str, details: str = "") -> None:
        super().__init__(message)
        self.details = details


class JournalWriteError(JournalError):
    """The journal cannot be written (disk full, read-only): nothing was stored."""


def entry_crc(
    game_id: int, key: str | None, kind: str, events: str | bytes | None, recorded_at: str
) -> int:
    """The CRC-32 stored with an entry, over every column but its sequence number."""
    if isinstance(events, bytes):
        events = events.decode("utf-8", "replace")
    fields = (str(game_id), "\x00" if key is None else key, kind, str(events), recorded_at)
    return zlib.crc32("\x1f".join(fields).encode("utf-8", "surrogatepass"))


class DuplicateEntryError(Exception):
    """An entry with the same key is already in the game (a retried command, a second result)."""

    def __init__(self, key: str) -> None:
        super().__init__(f"an entry with key {key!r} is already recorded")
        self.key = key


@dataclass(frozen=True, slots=True)
class Entry:
    """One accepted entry as stored: its events (plain JSON values) and where it sits."""

    seq: int
    game_id: int
    key: str | None
    kind: str
    events: list[dict[str, Any]]
    recorded_at: str


@dataclass(frozen=True, slots=True)
class GameRow:
    """A game as listed in the journal."""

    id: int
    created_at: str


@dataclass(frozen=True, slots=True)
class GameLabel:
    """What the table made of a game besides playing it: a name, a deletion (with its time)."""

    name: str | None = None
    deleted_at: str | None = None


def _utc_now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


def _locked(method: Callable[P, R]) -> Callable[P, R]:
    """Run a :class:`Journal` method under its lock: one statement sequence at a time."""

    @functools.wraps(method)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        journal = args[0]
        assert isinstance(journal, Journal)
        with journal._lock:
            return method(*args, **kwargs)

    return wrapper


class Journal:
    """An open journal file. Safe to share between threads (the unit's result thread, the
    scoreboard, the simulated table): each call runs whole under the journal's lock, so one
    thread's transaction never interleaves with another's statements."""

    def __init__(
        self, connection: sqlite3.Connection, path: Path, clock: Callable[[], str]
    ) -> None:
        self._db = connection
        self.path = path
        self._clock = clock
        self._lock = threading.RLock()
        self._read_only = False
        self._mark: Keeper | None = None
        """The high-water mark, kept by a writer (None: read-only)."""
        columns = {str(row[1]) for row in connection.execute("PRAGMA table_info(entries)")}
        self._checksums = "crc" in columns  # schema 4 on; older files read as they are
        self._tables = {str(row[0]) for row in connection.execute(
            "SELECT name FROM sqlite_schema WHERE type = 'table'")}
        """What an older journal read read-only (never migrated) has: a table it lacks reads as
        empty."""
        self.on_append: Callable[[Entry], None] | None = None
        """Called with each entry committed by :meth:`append` or :meth:`start_game` (to log it)."""

    # -- opening ---------------------------------------------------------------------------

    @classmethod
    def open(
        cls, path: Path | str, *, clock: Callable[[], str] = _utc_now, writable: bool = False,
        read_only: bool = False,
    ) -> Journal:
        """Open (or create) the journal at ``path``; refuse files that are not usable.

        Raises :class:`JournalError` for a file that is empty, truncated, corrupt, of another
        program, written by a newer version, or missing entries it acknowledged (its high-water
        mark, :mod:`showdown.game.mark`); every check runs on a read-only connection first, so a
        refused file is left byte-for-byte untouched. With ``writable`` (the service), also for
        a journal that cannot be written now: a full disk, a read-only folder, file or file
        system. With ``read_only`` (export, listings) nothing is created, migrated or written:
        a journal on a read-only mount or in a read-only folder reads as any other.
        """
        path = Path(path)
        if read_only:
            return cls._open_read_only(path, clock)
        existed = path.exists()
        if existed and not path.is_file():
            raise JournalError(f"{path} is not a file; choose a database file path")
        if not existed:
            try:
                path.parent.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise JournalError(f"cannot create the folder for {path}: {exc}") from exc
        if writable:
            check_writable(path)
        if not existed:
            _create(path)
        _check_file(path)
        _private(path)
        inspected = _inspect(path, _connect_read_only(path), entries=True)
        try:
            db = sqlite3.connect(
                f"{path.resolve().as_uri()}?mode=rw",
                uri=True,
                isolation_level=None,
                check_same_thread=False,
            )
        except sqlite3.Error as exc:
            raise JournalError(f"cannot open {path}: {_why(exc)}") from exc
        try:
            _prepare(db)
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=FULL")
            # A setting replaced (a PIN kept in plain text by an older version) leaves no copy
            # of itself in the file's free space.
            db.execute("PRAGMA secure_delete=ON")
            db.execute("PRAGMA foreign_keys=ON")
            cls._migrate(db)
        except sqlite3.Error as exc:
            db.close()
            raise JournalError(f"cannot use {path}: {_why(exc)}") from None
        except BaseException:
            db.close()
            raise
        journal = cls(db, path, clock)
        journal._keep_mark(inspected)
        return journal

    @classmethod
    def _open_read_only(cls, path: Path, clock: Callable[[], str]) -> Journal:
        """A journal to read and never write: no file is made, no schema migrated."""
        if not path.exists():
            raise JournalError(f"no journal at {path} (choose one with --db)")
        if not path.is_file():
            raise JournalError(f"{path} is not a file; choose a database file path")
        _check_file(path)
        db = _connect_read_only(path)
        _inspect(path, db, entries=False, close=False)
        journal = cls(db, path, clock)
        journal._read_only = True
        return journal

    @staticmethod
    def _migrate(db: sqlite3.Connection) -> None:
        """One step at a time, each in a write transaction that reads the version again: two
        processes opening an old file at once migrate it once, never twice."""
        while int(db.execute("PRAGMA user_version").fetchone()[0]) < SCHEMA_VERSION:
            db.execute("BEGIN IMMEDIATE")
            try:
                step = int(db.execute("PRAGMA user_version").fetchone()[0])
                if step < SCHEMA_VERSION:
                    for statement in _split_sql(MIGRATIONS[step]):
                        db.execute(statement)
                    db.execute(f"PRAGMA application_id={APPLICATION_ID}")
                    db.execute(f"PRAGMA user_version={step + 1}")
                db.execute("COMMIT")
            except BaseException:
                with contextlib.suppress(sqlite3.Error):  # SQLite may have rolled it back itself
                    db.execute("ROLLBACK")
                raise

    # -- writing ---------------------------------------------------------------------------

    @_locked
    def new_game(self) -> int:
        """Start a new game and return its id (committed durably)."""
        with self._transaction():
            cursor = self._db.execute(
                "INSERT INTO games (created_at) VALUES (?)", (self._clock(),)
            )
        assert cursor.lastrowid is not None
        return cursor.lastrowid

    @_locked
    def start_game(
        self,
        kind: str,
        events_for: Callable[[int], Sequence[dict[str, Any]]],
        *,
        key: str | None = None,
    ) -> Entry:
        """Create a game and its first entry in one transaction (a crash leaves both or neither).

        ``events_for`` receives the new game's id and returns the first entry's events.
        """
        recorded_at = self._clock()
        with self._transaction():
            cursor = self._db.execute("INSERT INTO games (created_at) VALUES (?)", (recorded_at,))
            game_id = cursor.lastrowid
            assert game_id is not None
            payload = json.dumps(list(events_for(game_id)), separators=(",", ":"), sort_keys=True)
            cursor = self._insert(game_id, key, kind, payload, recorded_at)
        assert cursor.lastrowid is not None
        return self._committed(
            Entry(cursor.lastrowid, game_id, key, kind, json.loads(payload), recorded_at),
            entry_crc(game_id, key, kind, payload, recorded_at),
        )

    def _committed(self, entry: Entry, crc: int) -> Entry:
        """After a commit: the high-water mark moves up (to *entry*, whose checksum is *crc*),
        the log is emptied into the file if it holds enough, then the entry is acknowledged."""
        if self._mark is not None:
            self._mark.committed(entry.seq, crc, entry.game_id)
        self._checkpoint()
        if self.on_append is not None:
            self.on_append(entry)
        return entry

    def _keep_mark(self, inspected: _Inspected) -> None:
        """Start keeping the mark of a journal just opened to write (at what it holds now)."""
        self._mark = Keeper(self.path, inspected.inode, inspected.found, inspected.origin,
                            inspected.mark)

    def _checkpoint(self) -> None:
        """The log emptied into the file once it holds enough (:mod:`showdown.game.wal`)."""
        empty_when_full(self._db, self.path, BUSY_TIMEOUT_MS)

    @_locked
    def append(
        self,
        game_id: int,
        kind: str,
        events: Sequence[dict[str, Any]],
        *,
        key: str | None = None,
    ) -> Entry:
        """Append one entry and return it once it is committed to disk.

        ``key`` makes an entry idempotent within its game (a retried command after a crash, or
        the one result of one showdown): a second entry with the same key raises
        :class:`DuplicateEntryError` and stores nothing.
        """
        recorded_at = self._clock()
        payload = json.dumps(list(events), separators=(",", ":"), sort_keys=True)
        try:
            with self._transaction():
                cursor = self._insert(game_id, key, kind, payload, recorded_at)
        except sqlite3.IntegrityError as exc:
            if key is not None and "UNIQUE" in str(exc):
                raise DuplicateEntryError(key) from exc
            raise
        assert cursor.lastrowid is not None
        return self._committed(
            Entry(cursor.lastrowid, game_id, key, kind, json.loads(payload), recorded_at),
            entry_crc(game_id, key, kind, payload, recorded_at),
        )

    @_locked
    def set_setting(self, name: str, value: str) -> None:
        """Remember one of the table's choices (committed durably before returning)."""
        with self._transaction():
            self._db.execute(
                "INSERT INTO settings (name, value, updated_at) VALUES (?, ?, ?) "
                "ON CONFLICT (name) DO UPDATE SET value = excluded.value, "
                "updated_at = excluded.updated_at",
                (name, value, self._clock()),
            )

    @_locked
    def label_game(self, game_id: int, *, name: str | None = None, deleted: bool | None = None
                   ) -> None:
        """Name a game (``name``, ``""`` to take the name away) or take it out of the lists
        (``deleted``: True) and back (False); what is not given stays. Committed durably."""
        if game_id not in {row.id for row in self.games()}:
            raise JournalError(f"{self.path} has no game {game_id}")
        now = self._clock()
        old = self.game_labels().get(game_id, GameLabel())
        new_name = old.name if name is None else (name or None)
        deleted_at = old.deleted_at if deleted is None else (
            (old.deleted_at or now) if deleted else None)
        with self._transaction():
            self._db.execute(
                "INSERT INTO game_labels (game_id, name, deleted_at, updated_at) "
                "VALUES (?, ?, ?, ?) ON CONFLICT (game_id) DO UPDATE SET name = excluded.name, "
                "deleted_at = excluded.deleted_at, updated_at = excluded.updated_at",
                (game_id, new_name, deleted_at, now),
            )

    @_locked
    def remember_players(self, names: Sequence[str]) -> None:
        """Keep these players for the next games (a name already kept is brought to the front
        of the list, its colour kept). Committed durably."""
        now = self._clock()
        with self._transaction():
            for name in names:
                self._db.execute(
                    "INSERT INTO players (name, colour, added_at, updated_at) "
                    "VALUES (?, NULL, ?, ?) ON CONFLICT (name) DO UPDATE SET "
                    "updated_at = excluded.updated_at", (name, now, now))

    @_locked
    def set_player_colour(self, name: str, colour: str | None) -> None:
        """The colour a kept player picked (``None``: none). Committed durably."""
        now = self._clock()
        with self._transaction():
            self._db.execute(
                "INSERT INTO players (name, colour, added_at, updated_at) VALUES (?, ?, ?, ?) "
                "ON CONFLICT (name) DO UPDATE SET colour = excluded.colour", (name, colour,
                                                                             now, now))

    @_locked
    def players(self) -> list[tuple[str, str | None]]:
        """The players kept, (name, colour), the one who played last first."""
        if "players" not in self._tables:
            return []
        rows = self._db.execute(
            "SELECT name, colour FROM players ORDER BY updated_at DESC, name")
        return [(str(r[0]), None if r[1] is None else str(r[1])) for r in rows]

    def _insert(
        self, game_id: int, key: str | None, kind: str, payload: str, recorded_at: str
    ) -> sqlite3.Cursor:
        return self._db.execute(
            "INSERT INTO entries (game_id, entry_key, kind, events, recorded_at, crc) "
            "VALUES (?, ?, ?, ?, ?, ?)",
            (game_id, key, kind, payload, recorded_at,
             entry_crc(game_id, key, kind, payload, recorded_at)),
        )

    def _transaction(self) -> _Transaction:
        return _Transaction(self._db, self.path)

    # -- reading ---------------------------------------------------------------------------

    @_locked
    def games(self) -> list[GameRow]:
        """Every game, oldest first."""
        rows = self._db.execute("SELECT id, created_at FROM games ORDER BY id")
        return [GameRow(int(r[0]), str(r[1])) for r in rows]

    @_locked
    def latest_game(self) -> int | None:
        """The id of the most recent game, or ``None`` in an empty journal."""
        row = self._db.execute("SELECT max(id) FROM games").fetchone()
        return None if row[0] is None else int(row[0])

    @_locked
    def last_played_game(self) -> int | None:
        """The game with the latest entry (a resumed game is played on), or ``None``."""
        row = self._db.execute(
            "SELECT game_id FROM entries ORDER BY seq DESC LIMIT 1").fetchone()
        return self.latest_game() if row is None else int(row[0])

    @_locked
    def activity(self) -> list[tuple[int, str]]:
        """Every game with an entry and the time of its latest, the latest played first."""
        rows = self._db.execute(
            "SELECT game_id, max(seq), max(recorded_at) FROM entries GROUP BY game_id "
            "ORDER BY max(seq) DESC")
        return [(int(r[0]), str(r[2])) for r in rows]

    @_locked
    def count(self, kind: str) -> int:
        """How many entries of *kind* the journal holds, over every game (a progress figure)."""
        if "entries" not in self._tables:
            return 0
        row = self._db.execute("SELECT count(*) FROM entries WHERE kind = ?", (kind,)).fetchone()
        return int(row[0])

    @_locked
    def entries(self, game_id: int) -> list[Entry]:
        """The game's entries in the order they were accepted."""
        rows = self._db.execute(
            f"SELECT {self._entry_columns()} FROM entries WHERE game_id = ? ORDER BY seq",
            (game_id,),
        )
        return [
            Entry(int(r[0]), int(r[1]), r[2], str(r[3]), self._events(r), str(r[5])) for r in rows
        ]

    def _entry_columns(self) -> str:
        crc = "crc" if self._checksums else "NULL"
        return f"seq, game_id, entry_key, kind, events, recorded_at, {crc}"

    def _checked(self, row: tuple[Any, ...]) -> None:
        """Refuse a row whose checksum does not match what is stored (a flipped bit)."""
        _check_row(self.path, row, checksums=self._checksums)

    def _events(self, row: tuple[Any, ...]) -> list[dict[str, Any]]:
        """A row's events column read back; a damaged one is refused with the entry named."""
        self._checked(row)
        try:
            events = json.loads(row[4])
        except (TypeError, ValueError) as exc:
            problem = getattr(exc, "msg", None) or "not text"
            raise JournalError(
                f"{self.path}: game {row[1]}, journal entry {row[0]} is damaged (its events are "
                f"not valid JSON: {problem}); the journal was not changed"
            ) from None
        if not isinstance(events, list) or not all(isinstance(e, dict) for e in events):
            raise JournalError(
                f"{self.path}: game {row[1]}, journal entry {row[0]} is damaged (its events are "
                "not a list of objects); the journal was not changed"
            )
        return events

    @_locked
    def has_key(self, game_id: int, key: str) -> bool:
        """Whether an entry with this key is already recorded in the game."""
        row = self._db.execute(
            "SELECT 1 FROM entries WHERE game_id = ? AND entry_key = ?", (game_id, key)
        ).fetchone()
        return row is not None

    @_locked
    def settings(self) -> dict[str, str]:
        """Every remembered choice of the table, by name (empty in a new journal)."""
        if "settings" not in self._tables:
            return {}
        rows = self._db.execute("SELECT name, value FROM settings ORDER BY name")
        return {str(r[0]): str(r[1]) for r in rows}

    @_locked
    def game_labels(self) -> dict[int, GameLabel]:
        """Every game's name and deletion, by game id (games with neither are absent)."""
        if "game_labels" not in self._tables:
            return {}
        rows = self._db.execute("SELECT game_id, name, deleted_at FROM game_labels")
        return {int(r[0]): GameLabel(None if r[1] is None else str(r[1]),
                                     None if r[2] is None else str(r[2])) for r in rows}

    @_locked
    def integrity_check(self) -> str:
        """``PRAGMA integrity_check`` and every entry's checksum: ``"ok"`` for a healthy file."""
        problems = [str(r[0]) for r in self._db.execute("PRAGMA integrity_check")]
        if problems != ["ok"]:
            return "; ".join(" ".join(problem.split()) for problem in problems)
        rows = self._db.execute(f"SELECT {self._entry_columns()} FROM entries ORDER BY seq")
        for row in rows:
            try:
                self._checked(row)
            except JournalError as error:
                problems.append(str(error))
        return "ok" if problems == ["ok"] else "; ".join(problems[1:])

    @_locked
    def schema_version(self) -> int:
        """The file's schema version (``PRAGMA user_version``)."""
        return int(self._db.execute("PRAGMA user_version").fetchone()[0])

    @_locked
    def close(self) -> None:
        """Checkpoint and close; safe to call twice. A read-only journal is only closed."""
        if not self._read_only:
            with contextlib.suppress(sqlite3.Error):
                self._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        if self._mark is not None:
            self._mark.close()
        self._db.close()

    def __enter__(self) -> Journal:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class _Transaction:
    """``BEGIN IMMEDIATE`` ... ``COMMIT`` (or ``ROLLBACK`` on an exception). A write that fails
    for want of room or permission raises :class:`JournalWriteError` saying which."""

    def __init__(self, db: sqlite3.Connection, path: Path) -> None:
        self._db = db
        self._path = path

    def __enter__(self) -> None:
        try:
            self._db.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError as exc:
            raise self._failed(exc) from None

    def __exit__(self, exc_type: object, exc: object, tb: object) -> None:
        if exc_type is not None:
            with contextlib.suppress(sqlite3.Error):
                self._db.execute("ROLLBACK")
            if isinstance(exc, sqlite3.OperationalError):
                raise self._failed(exc) from None
            return
        try:
            self._db.execute("COMMIT")
        except sqlite3.OperationalError as error:
            with contextlib.suppress(sqlite3.Error):
                self._db.execute("ROLLBACK")
            raise self._failed(error) from None

    def _failed(self, exc: sqlite3.Error) -> JournalWriteError:
        return JournalWriteError(f"{self._path}: cannot write the journal: {_why(exc)}")


_REASONS = {
    "SQLITE_FULL": "the disk is full",
    "SQLITE_READONLY": "the journal is read-only",
    "SQLITE_CANTOPEN": "a file beside the journal cannot be made (a read-only folder?)",
    "SQLITE_BUSY": "another process keeps the journal busy",
    "SQLITE_IOERR": "the disk could not be written (or read)",
}


def _why(exc: sqlite3.Error) -> str:
    """What a SQLite error means for the person at the table."""
    name = str(getattr(exc, "sqlite_errorname", ""))
    for prefix, reason in _REASONS.items():
        if name.startswith(prefix):
            return f"{reason} ({exc})"
    return str(exc)


def _prepare(db: sqlite3.Connection) -> None:
    """What every connection needs: a wait instead of an error while another process commits,
    the checksum function the migration to schema 4 uses, and text read back whatever its bytes
    (a flipped high bit is not UTF-8: read as it is, its entry's checksum refuses it, naming it,
    where the driver would raise from inside a query)."""
    db.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
    db.create_function("showdown_entry_crc", 5, entry_crc, deterministic=True)
    db.text_factory = _text


def _text(data: bytes) -> str:
    return data.decode("utf-8", "surrogateescape")


def _connect_read_only(path: Path) -> sqlite3.Connection:
    """A connection that cannot write: SQLite's ``mode=ro``; where the folder or file system
    cannot be written (SQLite then cannot make the files it reads a log with), ``immutable=1``,
    which is exact as long as no log holds entries the file does not."""
    uri = path.resolve().as_uri()
    try:
        db = sqlite3.connect(f"{uri}?mode=ro", uri=True, isolation_level=None,
                             check_same_thread=False)
        _prepare(db)
        db.execute("SELECT count(*) FROM sqlite_schema").fetchone()
        return db
    except sqlite3.DatabaseError as exc:
        with contextlib.suppress(UnboundLocalError, sqlite3.Error):
            db.close()
        name = str(getattr(exc, "sqlite_errorname", ""))
        if not name.startswith(("SQLITE_READONLY", "SQLITE_CANTOPEN")):
            raise JournalError(f"{path} is not a readable database ({_one_line(exc)}); "
                               f"{_UNTOUCHED}") from None
    wal = Path(f"{path}-wal")
    if wal.exists() and wal.stat().st_size > 0:
        raise JournalError(
            f"cannot read {path}: its write-ahead log {wal.name} holds entries not yet in the "
            "file, and SQLite needs to write beside it to read them (a read-only folder or file "
            "system); copy both files to a folder that can be written"
        )
    try:
        db = sqlite3.connect(f"{uri}?mode=ro&immutable=1", uri=True, isolation_level=None,
                             check_same_thread=False)
        _prepare(db)
        db.execute("SELECT count(*) FROM sqlite_schema").fetchone()
    except sqlite3.DatabaseError as exc:
        raise JournalError(f"cannot read {path}: {_why(exc)}") from None
    return db


_UNTOUCHED = "it was left untouched; move it aside or choose another file (--db)"


def _one_line(text: object) -> str:
    """SQLite's reports can span lines; a refusal is one."""
    return " ".join(str(text).split())


@dataclass(frozen=True, slots=True)
class _Inspected:
    """What opening found: the file's inode, what it holds and its first entry (None: no entry),
    and its mark (None: no mark of this journal)."""

    inode: int
    found: Mark
    origin: Origin | None
    mark: Mark | None


def _inspect(
    path: Path, db: sqlite3.Connection, *, entries: bool, close: bool = True
) -> _Inspected:
    """Every check before a journal is used, on a read-only connection: is this a healthy
    journal of a version we understand, holding every entry it acknowledged (and, with
    *entries*, is every entry as it was stored)? Refuses with one line; writes nothing."""
    try:
        inode = os.stat(path).st_ino
        marks = MarkFile(path, inode).load()  # before the data: a writer marks after it commits
        db.execute("BEGIN")  # one snapshot for every check
        try:
            _check_schema(path, db)
            found = _holds(db)
            origin = _origin(db)
            stored = marks.for_journal(origin)
            if stored is not None:
                _check_mark(path, db, found, stored)
            if entries:
                _check_entries(path, db)
        finally:
            db.execute("ROLLBACK")
    except sqlite3.DatabaseError as exc:
        if close:
            db.close()
        raise JournalError(f"{path} is not a readable database ({_one_line(exc)}); "
                           f"{_UNTOUCHED}") from None
    except BaseException:
        db.close()
        raise
    if close:
        db.close()
    return _Inspected(inode, found, origin, stored)


def _check_schema(path: Path, db: sqlite3.Connection) -> None:
    """Ours, healthy, and a schema version that fits the tables it has."""
    version = int(db.execute("PRAGMA user_version").fetchone()[0])
    app_id = int(db.execute("PRAGMA application_id").fetchone()[0])
    problems = [str(row[0]) for row in db.execute("PRAGMA quick_check")]
    shape = _shape(db)
    if problems != ["ok"]:
        report = "\n".join(problems)
        log.info("%s: SQLite's quick_check reports:\n%s", path, report)
        # One row can hold many problems, one a line, under a "*** in database main ***" head.
        found = [line.strip() for line in report.splitlines()
                 if line.strip() and not line.startswith("*** in database")]
        found = found or [_one_line(report)]
        more = (f", and {len(found) - 1} more problems (`showdown check --report` lists them)"
                if len(found) > 1 else "")
        raise JournalError(f"{path} is corrupt (SQLite's check: {found[0]}{more}); "
                           f"{_UNTOUCHED}", details=report)
    if app_id != APPLICATION_ID and (app_id != 0 or shape):
        raise JournalError(f"{path} is a database of another program; {_UNTOUCHED}")
    if not 0 <= version < VERSION_LIMIT:
        raise JournalError(
            f"{path} is damaged: its schema version reads {version}, which no version of "
            f"showdown writes (a changed byte in its header); {_UNTOUCHED}"
        )
    if version > SCHEMA_VERSION:
        raise JournalError(
            f"{path} was written by a newer version of showdown (schema {version}, this "
            f"version reads up to {SCHEMA_VERSION}); upgrade showdown. The file was left "
            "untouched."
        )
    if shape and shape != _schema_shape(version):
        raise JournalError(
            f"{path} is damaged: its schema version reads {version}, but its tables are not "
            f"those of schema {version} (a changed byte in its header); {_UNTOUCHED}"
        )


def _shape(db: sqlite3.Connection) -> frozenset[tuple[str, ...]]:
    """The schema's objects and each table's columns, by name (SQLite's own tables left out)."""
    objects = [(str(r[0]), str(r[1])) for r in db.execute(
        "SELECT type, name FROM sqlite_schema WHERE name NOT LIKE 'sqlite_%'")]
    shape: set[tuple[str, ...]] = set(objects)
    for kind, name in objects:
        if kind == "table":
            shape.update(("column", name, str(r[1]))
                         for r in db.execute("SELECT * FROM pragma_table_info(?)", (name,)))
    return frozenset(shape)


@functools.cache
def _schema_shape(version: int) -> frozenset[tuple[str, ...]]:
    """What a journal of schema *version* holds: the migrations up to it, run in memory."""
    db = sqlite3.connect(":memory:", isolation_level=None)
    try:
        _prepare(db)
        for step in MIGRATIONS[:version]:
            for statement in _split_sql(step):
                db.execute(statement)
        return _shape(db)
    finally:
        db.close()


def _holds(db: sqlite3.Connection) -> Mark:
    """What the journal holds, as its mark would say it: the highest entry sequence number, the
    number of entries, and that last entry's checksum and game."""
    if not _has_entries_table(db):
        return Mark(0, 0)
    count = int(db.execute("SELECT count(*) FROM entries").fetchone()[0])
    last = _entry_at(db, "ORDER BY seq DESC LIMIT 1")
    return Mark(0, count) if last is None else Mark(last[0], count, last[1], last[2])


def _origin(db: sqlite3.Connection) -> Origin | None:
    """Which journal this is, as a copy keeps it: its first entry (None: it has none)."""
    if not _has_entries_table(db):
        return None
    first = _entry_at(db, "ORDER BY seq LIMIT 1")
    return None if first is None else Origin(first[0], first[1])


def _has_entries_table(db: sqlite3.Connection) -> bool:
    return db.execute("SELECT 1 FROM sqlite_schema WHERE name = 'entries'").fetchone() is not None


def _entry_at(db: sqlite3.Connection, where: str) -> tuple[int, int, int] | None:
    """One entry's sequence number, checksum (computed: older schemas store none) and game."""
    row = db.execute("SELECT seq, game_id, entry_key, kind, events, recorded_at FROM entries "
                     + where).fetchone()
    if row is None:
        return None
    seq, game_id, key, kind, events, recorded_at = row
    return int(seq), entry_crc(game_id, key, str(kind), events, str(recorded_at)), int(game_id)


def _check_mark(path: Path, db: sqlite3.Connection, found: Mark, stored: Mark) -> None:
    """Refuse a journal that holds less than its mark says was acknowledged, or another entry
    where the last acknowledged one was."""
    if found.seq < stored.seq or found.count < stored.count:
        raise JournalError(_missing(path, found, stored))
    if not stored.game:  # a version 1 mark: the entry itself is not known
        return
    there = _entry_at(db, f"WHERE seq = {int(stored.seq)}")
    if there is None or there[1:] != (stored.crc, stored.game):
        if there is not None and _self_damaged(db, stored.seq):
            return  # a changed byte in the entry itself: its checksum refuses it where it is read
        raise JournalError(
            f"{path} is damaged: journal entry {stored.seq} (game {stored.game}) was acknowledged "
            "as stored, and the journal holds another entry in its place (the journal was "
            "written by something that did not see it); the journal and its log were left "
            f"untouched; move them aside, or, to go on with what is there, delete "
            f"{mark_path(path).name}")


def _missing(path: Path, found: Mark, stored: Mark) -> str:
    """The refusal of a journal that lost acknowledged entries."""
    return (f"{path} is damaged: {loss(path, found, stored, 'journal entr')}; the journal and "
            "its log were left untouched; move them aside, or, to go on with what is left, "
            f"delete {mark_path(path).name}")


def _self_damaged(db: sqlite3.Connection, seq: int) -> bool:
    """Whether entry *seq* no longer matches the checksum stored with it (schema 4 on)."""
    try:
        row = db.execute("SELECT game_id, entry_key, kind, events, recorded_at, crc FROM entries "
                         "WHERE seq = ?", (seq,)).fetchone()
    except sqlite3.OperationalError:  # no crc column: schema 3 or older
        return False
    return row is not None and row[5] != entry_crc(row[0], row[1], str(row[2]), row[3],
                                                   str(row[4]))


def _check_entries(path: Path, db: sqlite3.Connection) -> None:
    """Every entry as it was stored (its checksum), before anything is written."""
    columns = {str(row[1]) for row in db.execute("PRAGMA table_info(entries)")}
    if "crc" not in columns:
        return  # schema 3 or older: its checksums are made by the migration, from what is there
    rows = db.execute(
        "SELECT seq, game_id, entry_key, kind, events, recorded_at, crc FROM entries")
    for row in rows:
        _check_row(path, row, checksums=True)


def _check_row(path: Path, row: tuple[Any, ...], *, checksums: bool) -> None:
    """Refuse a row whose checksum does not match what is stored (a flipped bit)."""
    seq, game_id, key, kind, events, recorded_at, crc = row
    if not isinstance(events, str | bytes) or (checksums and crc != entry_crc(
        game_id, key, str(kind), events, str(recorded_at)
    )):
        raise JournalError(
            f"{path}: game {game_id}, journal entry {seq} is damaged (its checksum does "
            "not match what is stored: a changed byte in the file); the journal was not "
            "changed"
        )


def check_writable(path: Path) -> None:
    """Refuse at start a journal that cannot be written now: read-only, or no room left. For a
    journal not made yet, the nearest folder that exists is the one that must be writable."""
    folder = path.parent
    while not folder.exists() and folder != folder.parent:
        folder = folder.parent
    advice = "choose another file (--db)"
    try:
        stats = os.statvfs(folder)
    except OSError as exc:
        raise JournalError(f"{path}: cannot look at {folder}: {exc.strerror}") from None
    if stats.f_flag & os.ST_RDONLY:
        raise JournalError(
            f"{path}: read-only file system: the journal cannot be written there; {advice}"
        )
    if not os.access(folder, os.W_OK):
        raise JournalError(
            f"{path}: read-only directory ({folder}): the journal and the files SQLite keeps "
            f"beside it cannot be written; {advice}"
        )
    if path.exists() and not os.access(path, os.W_OK):
        raise JournalError(f"{path}: read-only file: the journal cannot be written; {advice}")
    free = stats.f_bavail * stats.f_frsize
    if free < MIN_FREE_BYTES:
        raise JournalError(
            f"{path}: disk full ({free // 1024} KiB free on the disk of {folder}, the journal "
            f"needs at least {MIN_FREE_BYTES // 1024} KiB); free some space or {advice}"
        )


def check_file(path: Path) -> None:
    """Refuse an existing *path* that is no journal (see :func:`_check_file`); nothing for a path
    that does not exist yet. Reads only: a command runs it before it takes the journal's lock."""
    if path.exists():
        if not path.is_file():
            raise JournalError(f"{path} is not a file; choose a database file path")
        _check_file(path)


def _check_file(path: Path) -> None:
    """Refuse what SQLite would take for a database but is none: an empty file, another kind of
    file, a journal cut short. Reads only.

    While the write-ahead log holds pages, the file may rightly be shorter than its header says:
    a checkpoint that could not grow it (a full disk) wrote the header first, and SQLite reads
    the other pages from the log. Then SQLite's own check and the high-water mark decide."""
    try:
        with path.open("rb") as file:
            header = file.read(100)
            size = os.fstat(file.fileno()).st_size
    except OSError as exc:
        raise JournalError(f"cannot read {path}: {exc.strerror}") from None
    if not header:
        raise JournalError(
            f"{path} is empty: it is not a journal (showdown makes its journals itself); "
            f"{_UNTOUCHED}"
        )
    if len(header) < 100 or not header.startswith(SQLITE_HEADER):
        raise JournalError(
            f"{path} is not a readable database (it does not start as an SQLite file does), so "
            f"not a journal; {_UNTOUCHED}"
        )
    page = int.from_bytes(header[16:18], "big")
    page = 65536 if page == 1 else page
    declared = int.from_bytes(header[28:32], "big")
    valid = header[24:28] == header[92:96]
    if page < 512 or ((size % page or (valid and declared * page > size))
                      and not _log_holds_pages(path, page)):
        raise JournalError(
            f"{path} is damaged: cut short ({size} bytes, not the whole pages of "
            f"{page} bytes it was written in); {_UNTOUCHED}"
        )


def _log_holds_pages(path: Path, page: int) -> bool:
    """Whether the journal's write-ahead log holds at least one whole frame of *page* bytes."""
    try:
        return os.stat(f"{path}-wal").st_size >= 32 + 24 + page
    except OSError:
        return False


def create_journal(path: Path) -> None:
    """Make a new, empty journal at *path* (and its folder) if nothing is there yet."""
    if path.exists():
        return
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise JournalError(f"cannot create the folder for {path}: {exc.strerror or exc}") from None
    _create(path)


def _create(path: Path) -> None:
    """Make a new, empty journal at *path* in one step: built and closed in a temporary file
    beside it, then linked into place (and the mark of a journal deleted from there removed);
    if another process made one meanwhile, theirs is kept."""
    temporary = path.with_name(f".{path.name}.{os.getpid()}.{threading.get_ident()}.new")
    for leftover in (temporary, *(Path(f"{temporary}{end}") for end in ("-wal", "-shm"))):
        leftover.unlink(missing_ok=True)
    try:
        # Made private before SQLite writes a byte; its log and index files take this mode.
        os.close(os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC,
                         PRIVATE_MODE))
        db = sqlite3.connect(temporary, isolation_level=None)
        try:
            _prepare(db)
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=FULL")
            Journal._migrate(db)
        finally:
            db.close()
        try:
            os.link(temporary, path)
        except FileExistsError:
            return  # another process made it first: use theirs
        except OSError:  # a file system without hard links: a rename, if still nobody's there
            if path.exists():
                return
            os.replace(temporary, path)
        # A mark left by a journal deleted from here would take this empty one for its loss.
        mark_path(path).unlink(missing_ok=True)
    except sqlite3.Error as exc:
        raise JournalError(f"cannot create {path}: {_why(exc)}") from None
    except OSError as exc:
        raise JournalError(f"cannot create {path}: {exc.strerror or exc}") from None
    finally:
        temporary.unlink(missing_ok=True)


def _private(path: Path) -> None:
    """Take the group's and others' access away from a journal opened to write, and from the
    files SQLite keeps beside it: an older version made them readable by every user of the
    machine (0644), and the journal holds the players' names, their games and the phone page's
    PIN (:mod:`showdown.game.table_pin`). A file that is not ours to change is left as it is."""
    for file in (path, *(Path(f"{path}{end}") for end in ("-wal", "-shm"))):
        try:
            mode = stat.S_IMODE(file.stat().st_mode)
            if mode & ~PRIVATE_MODE:
                os.chmod(file, mode & PRIVATE_MODE)
        except OSError as exc:  # not there (no log yet), or another user's file
            log.debug("left the mode of %s as it is (%s)", file, exc.strerror or exc)


def _split_sql(script: str) -> list[str]:
    """Split a migration script into statements (``CREATE TRIGGER`` bodies hold semicolons)."""
    statements: list[str] = []
    current = ""
    for line in script.splitlines(keepends=True):
        current += line
        if sqlite3.complete_statement(current):
            if current.strip():
                statements.append(current.strip())
            current = ""
    if current.strip():
        statements.append(current.strip())
    return statements
