"""Keeping a write-ahead log short, so a flipped bit in it can take back only a few entries.

SQLite drops every log frame after one whose checksum fails; what sits in the log is what a
damaged card can take (and the journal's mark says what it took). So each journal empties its log
into its file once the log holds :data:`CHECKPOINT_BYTES`, about four entries of a table's game.
"""

from __future__ import annotations

import logging
import os
import sqlite3
from pathlib import Path

__all__ = ["CHECKPOINT_BYTES", "empty_when_full"]

log = logging.getLogger(__name__)

#: The write-ahead log is emptied into the journal once it holds this much: about four entries.
#: (Emptied after every entry, each would cost three more syncs: a fifth of a simulated showdown.)
CHECKPOINT_BYTES = 64 << 10


def empty_when_full(db: sqlite3.Connection, path: Path, busy_timeout_ms: int) -> None:
    """Once the log of the journal at *path* holds :data:`CHECKPOINT_BYTES`, copy it into the
    file and empty it. Never waits for a reader (the log is emptied at a later entry instead), and
    a checkpoint that cannot grow the file (a full disk) leaves the entries safe in the log; the
    connection's wait for other writers is *busy_timeout_ms* again afterwards."""
    try:
        if os.stat(f"{path}-wal").st_size < CHECKPOINT_BYTES:
            return
    except OSError:
        return
    try:
        db.execute("PRAGMA busy_timeout=0")
        try:
            db.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchall()
        finally:
            db.execute(f"PRAGMA busy_timeout={busy_timeout_ms}")
    except sqlite3.Error as error:
        log.debug("%s: checkpoint put off: %s", path, error)
