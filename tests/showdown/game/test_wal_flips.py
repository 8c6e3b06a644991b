"""A table's journal killed mid-game with its last entries still in the write-ahead log, then one
bit of that log flipped, at every place of it: opened again, the journal reads exactly as it was,
or it is refused in one line naming the entries that are missing and the game of the last. Never
does it read with entries missing and not a word (issue 40's six silent games of eighteen)."""

from __future__ import annotations

import sqlite3
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from showdown.game.export import game_json
from showdown.game.journal import Journal, JournalError
from showdown.game.mark import mark_path
from showdown.game.session import Session, fold
from showdown.playtest.bot_table import BotTable, coin_referee
from tests.showdown.app.test_no_tracebacks import ENV, SHOWDOWN
from tests.showdown.game.wal_damage import (
    digest,
    flip_trials,
    killed_child,
    last_entry,
    named_range,
    none_silent,
    put_copy,
)

LOG_BYTES = 40_000
"""The child is killed once its log holds this much, mid-game: about ten frames, every one of
them acknowledged entries the journal file does not hold yet."""


@pytest.fixture(scope="module")
def killed(tmp_path_factory: pytest.TempPathFactory) -> dict[str, bytes]:
    """The journal, its log and its mark as a table killed with SIGKILL in its second game left
    them."""
    folder = tmp_path_factory.mktemp("killed")
    db = folder / "j.db"
    wal = Path(f"{db}-wal")

    def play(stop_here: Callable[[], None]) -> None:
        journal = Journal.open(db, writable=True)

        def acknowledged(entry: Any) -> None:
            if entry.game_id >= 2 and wal.stat().st_size >= LOG_BYTES:
                stop_here()

        journal.on_append = acknowledged
        table = BotTable(Session(journal), coin_referee(5), seed=5, players=4)
        for number in range(1, 20):
            table.play_game(number)

    killed_child(play)
    return {path.name: path.read_bytes() for path in (db, wal, mark_path(db))}


def _contents(db: Path) -> dict[int, dict[str, Any]]:
    """Every game as ``showdown export`` gives it."""
    with Journal.open(db, read_only=True) as journal:
        games = {}
        for game in journal.games():
            entries = journal.entries(game.id)
            state = fold(game.id, entries)
            assert state is not None
            games[game.id] = game_json(state, entries)
        return games


def _holds(db: Path) -> tuple[int, int]:
    """The highest entry SQLite reads of the journal, and its game."""
    return last_entry(db, "SELECT seq, game_id FROM entries ORDER BY seq DESC LIMIT 1")


def test_every_flipped_bit_of_the_log_is_read_whole_or_refused_naming_the_loss(
    killed: dict[str, bytes], tmp_path: Path
) -> None:
    figures = flip_trials(killed, tmp_path, "j.db", read=_contents, last=_holds,
                          refusal=JournalError)
    none_silent(figures, "the table's journal")


@pytest.mark.parametrize("where", ["salt", "first page", "last byte"])
def test_showdown_export_of_a_copied_journal_says_what_is_missing_in_one_line(
    killed: dict[str, bytes], tmp_path: Path, where: str
) -> None:
    """As the issue found it: the journal, its log and its mark copied elsewhere, one bit of the
    log flipped, ``showdown export --game N`` run. It exits 2 with one line naming the entries
    and the game, instead of 0 with a game a round short."""
    log = killed["j.db-wal"]
    offset = {"salt": 16, "first page": 32 + 24 + 100, "last byte": len(log) - 1}[where]
    put_copy(killed, tmp_path / "copy", (offset, 3))
    db = tmp_path / "copy" / "j.db"
    before = digest(db.parent)
    held_seq, _ = _holds(db)
    done = subprocess.run([*SHOWDOWN, "export", "--db", str(db), "--game", "2"], env=ENV,
                          capture_output=True, text=True, timeout=120, check=False)
    assert (done.returncode, done.stdout) == (2, ""), done
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr, done.stderr
    named = named_range(done.stderr)
    assert named is not None and named[0] == held_seq + 1 and named[2] == 2, done.stderr
    assert f"delete {db.name}.mark" in done.stderr
    assert digest(db.parent) == before


def test_a_journal_made_where_one_was_deleted_is_not_taken_for_its_loss(
    killed: dict[str, bytes], tmp_path: Path
) -> None:
    """The mark of a deleted journal goes when a new one is made in its place."""
    db = tmp_path / "j.db"
    mark_path(db).write_bytes(killed["j.db.mark"])
    with Journal.open(db, writable=True) as journal:
        assert journal.games() == []
    with Journal.open(db, read_only=True) as journal:
        assert journal.games() == []


def test_a_journal_that_lost_every_entry_is_refused(killed: dict[str, bytes],
                                                     tmp_path: Path) -> None:
    """With no entry left, the journal cannot say which journal it is: the mark beside it counts,
    since what the log took may be all of it."""
    put_copy(killed, tmp_path / "pristine")
    last_seq, last_game = _holds(tmp_path / "pristine" / "j.db")
    db = tmp_path / "j.db"
    with Journal.open(db, writable=True):
        pass
    mark_path(db).write_bytes(killed["j.db.mark"])
    with pytest.raises(JournalError) as refused:
        Journal.open(db, read_only=True)
    said = str(refused.value)
    assert f"journal entries 1 to {last_seq} were acknowledged as stored and are missing (" in said
    assert f"); the last of them was in game {last_game}" in said


def test_a_mark_of_another_journal_is_left_out(killed: dict[str, bytes], tmp_path: Path) -> None:
    """A journal with entries of its own, beside another journal's mark: read as it is, and the
    first entry it writes marks it as its own."""
    db = tmp_path / "j.db"
    with Journal.open(db, writable=True) as journal:
        BotTable(Session(journal), coin_referee(1), seed=1, players=2).set_up()
    mark_path(db).write_bytes(killed["j.db.mark"])
    with Journal.open(db, writable=True) as journal:
        assert len(journal.games()) == 1
    assert mark_path(db).read_bytes() != killed["j.db.mark"]


def test_an_older_mark_by_inode_is_kept_then_rewritten(tmp_path: Path) -> None:
    """A mark written before the journal was named by its first entry (version 1, by the
    file's inode) still counts for that file, and the next open writes it anew."""
    import os
    import struct
    import zlib

    db = tmp_path / "j.db"
    with Journal.open(db, writable=True) as journal:
        table = BotTable(Session(journal), coin_referee(1), seed=1, players=2)
        table.set_up()
        count = len(journal.entries(1))
    body = struct.pack("<4sHHQQQQ", b"SDMK", 1, 0, 7, os.stat(db).st_ino, count + 5, count + 5)
    mark_path(db).write_bytes(body + zlib.crc32(body).to_bytes(4, "little"))
    with pytest.raises(JournalError, match=rf"journal entries {count + 1} to {count + 5} were"):
        Journal.open(db, read_only=True)
    body = struct.pack("<4sHHQQQQ", b"SDMK", 1, 0, 7, os.stat(db).st_ino, count, count)
    mark_path(db).write_bytes(body + zlib.crc32(body).to_bytes(4, "little"))
    with Journal.open(db, writable=True):
        pass
    assert len(mark_path(db).read_bytes()) > len(body) + 4  # a version 2 copy beside it


def test_another_entry_where_the_acknowledged_one_was_is_refused(
    killed: dict[str, bytes], tmp_path: Path
) -> None:
    """The same number of entries, the last one other than acknowledged (written by something
    that never saw the mark): refused naming the entry and its game."""
    db = tmp_path / "j.db"
    for name, data in killed.items():
        (tmp_path / name).write_bytes(data)
    raw = sqlite3.connect(db)
    raw.execute("DROP TRIGGER entries_no_update")
    seq, game = raw.execute("SELECT seq, game_id FROM entries ORDER BY seq DESC LIMIT 1"
                            ).fetchone()
    recorded = raw.execute("SELECT recorded_at FROM entries WHERE seq = ?", (seq,)).fetchone()[0]
    from showdown.game.journal import entry_crc
    row = raw.execute("SELECT game_id, entry_key, kind, events FROM entries WHERE seq = ?",
                      (seq,)).fetchone()
    changed = "2000-01-01T00:00:00.000+00:00"
    raw.execute("UPDATE entries SET recorded_at = ?, crc = ? WHERE seq = ?",
                (changed, entry_crc(row[0], row[1], row[2], row[3], changed), seq))
    raw.execute("CREATE TRIGGER entries_no_update BEFORE UPDATE ON entries "
                "BEGIN SELECT RAISE(ABORT, 'the journal is append-only'); END")
    raw.commit()
    raw.close()
    assert recorded != changed
    with pytest.raises(JournalError) as refused:
        Journal.open(db, read_only=True)
    assert f"journal entry {seq} (game {game}) was acknowledged as stored, and the journal " \
        "holds another entry in its place" in str(refused.value)
    assert "\n" not in str(refused.value)


def test_the_support_bundle_shows_the_missing_entries(
    killed: dict[str, bytes], tmp_path: Path
) -> None:
    """``showdown check --report``'s journal.txt: what the mark says was acknowledged, and the
    refusal naming what the damaged log took."""
    from showdown.app.config import load_settings
    from showdown.app.report import gather

    put_copy(killed, tmp_path / "copy", (16, 0))
    put_copy(killed, tmp_path / "pristine")
    last_seq, last_game = _holds(tmp_path / "pristine" / "j.db")
    db = tmp_path / "copy" / "j.db"
    held_seq, _ = _holds(db)
    bundle = gather(settings=load_settings(None), settings_error=None, config=None, db=db,
                    root=tmp_path)
    text = bundle.files["journal.txt"]
    assert f"high-water mark: {last_seq} entries acknowledged, the last entry {last_seq} " \
        f"(game {last_game})" in text, text
    assert named_range(text) == (held_seq + 1, last_seq, last_game), text


def test_a_journal_counts_its_hands_for_a_progress_figure(killed: dict[str, bytes],
                                                          tmp_path: Path) -> None:
    """``Journal.count``: what ``showdown event demo`` polls for its progress, through the
    journal rather than SQL of its own."""
    put_copy(killed, tmp_path / "j")
    db = tmp_path / "j" / "j.db"
    with Journal.open(db, read_only=True) as journal:
        rounds = sum(entry.kind == "round" for game in journal.games()
                     for entry in journal.entries(game.id))
        assert rounds > 0 and journal.count("round") == rounds
        assert journal.count("no such kind") == 0
