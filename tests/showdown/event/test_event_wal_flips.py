"""The host's event journal killed with SIGKILL while tables' entries were still in its write-ahead
log, then one bit of that log flipped at every place of it: opened again, it holds exactly the
entries it acknowledged, or the host refuses it in one line naming the missing entries (and
writes nothing over it). Never does it go on with entries missing and not a word."""

from __future__ import annotations

import sqlite3
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from showdown.event.messages import EntryMessage
from showdown.event.store import EventStore, StoreError
from showdown.game.journal import Journal
from showdown.game.mark import mark_path
from showdown.game.session import Session
from showdown.sim.bot_table import BotTable, coin_referee
from tests.showdown.app.test_no_tracebacks import ENV, SHOWDOWN
from tests.showdown.game.wal_damage import (
    Figures,
    digest,
    flips,
    killed_child,
    named_range,
    put_copy,
)

LOG_BYTES = 40_000
EVENT = "ev2345"


@pytest.fixture(scope="module")
def table_entries(tmp_path_factory: pytest.TempPathFactory) -> list[EntryMessage]:
    """Two tables' games as the host receives them: the entries of a real table's journal."""
    db = tmp_path_factory.mktemp("table") / "t.db"
    with Journal.open(db, writable=True) as journal:
        table = BotTable(Session(journal), coin_referee(3), seed=3, players=4)
        for number in range(1, 4):
            table.play_game(number)
        entries = [entry for game in journal.games() for entry in journal.entries(game.id)]
    return [EntryMessage(event=EVENT, table=name, journal=f"j-{name}", seq=entry.seq,
                         game=entry.game_id, kind=entry.kind, key=entry.key,
                         events=entry.events, recorded_at=entry.recorded_at)
            for entry in entries for name in ("t1", "t2")]


@pytest.fixture(scope="module")
def killed(tmp_path_factory: pytest.TempPathFactory,
           table_entries: list[EntryMessage]) -> dict[str, bytes]:
    """The event journal, its log and its mark as a host killed mid-evening left them."""
    db = tmp_path_factory.mktemp("host") / "event.db"
    wal = Path(f"{db}-wal")

    def host(stop_here: Callable[[], None]) -> None:
        store = EventStore(db)
        store.put("event", EVENT)
        for entry in table_entries:
            assert store.store(entry, received_at=1.0)
            if entry.game >= 2 and wal.stat().st_size >= LOG_BYTES:
                stop_here()
        raise AssertionError("the tables' entries ran out before the log filled")

    killed_child(host)
    return {path.name: path.read_bytes() for path in (db, wal, mark_path(db))}


def _held(db: Path) -> tuple[list[EntryMessage], int, int]:
    """What the host reads of the journal: its entries, and SQLite's own last row id and that
    entry's game."""
    store = EventStore(db)
    try:
        entries = store.entries()
    finally:
        store.close()
    return entries, *_last(db)


def _last(db: Path) -> tuple[int, int]:
    raw = sqlite3.connect(f"{db.as_uri()}?mode=ro", uri=True)
    try:
        rowid, game = raw.execute("SELECT rowid, game FROM entries ORDER BY rowid DESC LIMIT 1"
                                  ).fetchone()
        return int(rowid), int(game)
    finally:
        raw.close()


def test_every_flipped_bit_of_the_event_log_is_read_whole_or_refused_naming_the_loss(
    killed: dict[str, bytes], tmp_path: Path
) -> None:
    put_copy(killed, tmp_path / "pristine")
    pristine, last_rowid, last_game = _held(tmp_path / "pristine" / "event.db")
    file_only = tmp_path / "file-only"
    file_only.mkdir()
    (file_only / "event.db").write_bytes(killed["event.db"])
    assert _last(file_only / "event.db")[0] < last_rowid, "the log must hold entries"

    log = killed["event.db-wal"]
    figures = Figures(log_bytes=len(log))
    places = set()
    copy = tmp_path / "copy"
    for offset, bit in flips(log):
        places.add(offset)
        figures.flips += 1
        put_copy(killed, copy, (offset, bit))
        before = digest(copy)
        try:
            found, _, _ = _held(copy / "event.db")
        except StoreError as refusal:
            said = str(refusal)
            held, _ = _last(copy / "event.db")
            if (digest(copy) == before and "\n" not in said
                    and named_range(said) == (held + 1, last_rowid, last_game)):
                figures.refused += 1
            else:
                figures.silent.append(f"{offset}:{bit} refused wrongly: {said}")
            continue
        if found == pristine:
            figures.whole += 1
        else:
            figures.silent.append(f"{offset}:{bit} read {len(found)} of {len(pristine)}")
    figures.places = len(places)
    print(f"\nthe event's journal: {figures.line()}")
    assert figures.flips >= 200
    assert figures.silent == [], figures.silent[:5]
    assert figures.refused + figures.whole == figures.flips, figures.line()


def test_the_event_host_refuses_a_damaged_event_journal_in_one_line(
    killed: dict[str, bytes], tmp_path: Path
) -> None:
    """``showdown event host`` on the folder of a damaged event journal: one line naming the
    missing entries, exit 2, and the journal, its log and its mark as they were."""
    folder = tmp_path / "night"
    put_copy(killed, folder, (16, 0))  # the log's salt: every frame of it is dropped
    before = digest(folder)
    held, _ = _last(folder / "event.db")
    done = subprocess.run([*SHOWDOWN, "event", "host", "--dir", str(folder), "--no-http"],
                          env=ENV, capture_output=True, text=True, timeout=120, check=False,
                          stdin=subprocess.DEVNULL)
    assert done.returncode == 2, done
    line = done.stderr.strip()
    assert "\n" not in line and "Traceback" not in done.stderr, done.stderr
    named = named_range(line)
    assert named is not None and named[0] == held + 1, line
    assert "event journal entries" in line and "of its table" in line, line
    assert "delete event.db.mark" in line, line
    assert digest(folder) == before


def test_a_new_event_journal_where_one_was_deleted_is_not_taken_for_its_loss(
    killed: dict[str, bytes], tmp_path: Path
) -> None:
    db = tmp_path / "event.db"
    mark_path(db).write_bytes(killed["event.db.mark"])
    store = EventStore(db)
    store.close()
    store = EventStore(db)
    assert store.entries() == []
    store.close()
