"""The host's event journal killed with SIGKILL while tables' entries were still in its write-ahead
log, then one bit of that log flipped at every place of it: opened again, it holds exactly the
entries it acknowledged, or the host refuses it in one line naming the missing entries (and
writes nothing over it). Never does it go on with entries missing and not a word."""

from __future__ import annotations

import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from showdown.game.journal import Journal
from showdown.game.mark import mark_path
from showdown.game.session import Session
from showdown.playtest.bot_table import BotTable, coin_referee
from showdown.tournament.messages import EntryMessage
from showdown.tournament.store import StoreError, TournamentStore
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
        store = TournamentStore(db)
        store.put("event", EVENT)
        for entry in table_entries:
            assert store.store(entry, received_at=1.0)
            if entry.game >= 2 and wal.stat().st_size >= LOG_BYTES:
                stop_here()
        raise AssertionError("the tables' entries ran out before the log filled")

    killed_child(host)
    return {path.name: path.read_bytes() for path in (db, wal, mark_path(db))}


def _entries(db: Path) -> list[EntryMessage]:
    """What the host reads of the journal: its entries."""
    store = TournamentStore(db)
    try:
        return store.entries()
    finally:
        store.close()


def _last(db: Path) -> tuple[int, int]:
    """The highest entry SQLite reads of the journal, and its game."""
    return last_entry(db, "SELECT rowid, game FROM entries ORDER BY rowid DESC LIMIT 1")


def test_every_flipped_bit_of_the_event_log_is_read_whole_or_refused_naming_the_loss(
    killed: dict[str, bytes], tmp_path: Path
) -> None:
    figures = flip_trials(killed, tmp_path, "event.db", read=_entries, last=_last,
                          refusal=StoreError)
    none_silent(figures, "the event's journal")


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
    store = TournamentStore(db)
    store.close()
    store = TournamentStore(db)
    assert store.entries() == []
    store.close()


def test_the_support_bundle_shows_the_event_journal_missing_entries(
    killed: dict[str, bytes], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``showdown check --report PATH --event-dir DIR`` on a host whose event journal lost
    entries: journal.txt gives the mark and the refusal naming them; an undamaged one reads ok."""
    from showdown.app import cli
    from tests.showdown.app.test_report import opened

    put_copy(killed, tmp_path / "night", (16, 0))
    put_copy(killed, tmp_path / "whole")
    held, _ = _last(tmp_path / "night" / "event.db")
    last_rowid, last_game = _last(tmp_path / "whole" / "event.db")
    texts = {}
    for name in ("night", "whole"):
        out = tmp_path / f"{name}.tar.gz"
        assert cli.main(["check", "--report", str(out), "--db", str(tmp_path / "none.db"),
                         "--event-dir", str(tmp_path / name)]) == 0
        texts[name] = opened(out)["journal.txt"]
    capsys.readouterr()
    assert f"high-water mark: {last_rowid} entries acknowledged, the last entry {last_rowid} " \
        f"(game {last_game})" in texts["night"]
    assert named_range(texts["night"]) == (held + 1, last_rowid, last_game), texts["night"]
    assert "high-water check: ok (every acknowledged entry is there)" in texts["whole"]
