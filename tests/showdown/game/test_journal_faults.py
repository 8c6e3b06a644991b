"""The journal under faults: two writers, two creators at once, flipped bits, a file cut short, an
empty file, a journal that cannot be written while the unit keeps deciding showdowns."""

from __future__ import annotations

import io
import os
import re
import signal
import sqlite3
from pathlib import Path

import pytest

from showdown.app.cli import main
from showdown.app.status import StatusPrinter
from showdown.game.journal import (
    APPLICATION_ID,
    MIGRATIONS,
    SCHEMA_VERSION,
    Journal,
    JournalError,
    _split_sql,
)
from showdown.game.lock import JournalBusyError, JournalLock
from showdown.game.messages import SetUpGame
from showdown.game.recorder import UnitRecorder
from showdown.game.session import Session
from showdown.playtest.bot_table import BotTable, coin_referee
from showdown.unit.events import ShowdownOutcome
from showdown.unit.hardware import Side
from showdown.unit.verdict import Reason


def _fork(work: object) -> int:
    """Run *work* in a child process; its pid (it exits 0 on success, 1 on an exception)."""
    pid = os.fork()
    if pid == 0:
        code = 1
        try:
            work()  # type: ignore[operator]
            code = 0
        finally:
            os._exit(code)
    return pid


def _exit_code(pid: int) -> int:
    _, status = os.waitpid(pid, 0)
    return os.waitstatus_to_exitcode(status)


# -- one writer ---------------------------------------------------------------------------------


def test_a_second_writer_is_refused_naming_the_holder_and_the_lock_dies_with_it(
    tmp_path: Path,
) -> None:
    db = tmp_path / "one.db"
    ready_r, ready_w = os.pipe()

    def hold() -> None:
        with JournalLock.acquire(db):
            os.write(ready_w, b"x")
            signal.pause()  # until killed

    holder = _fork(hold)
    os.read(ready_r, 1)
    with pytest.raises(JournalBusyError) as refused:
        JournalLock.acquire(db)
    message = str(refused.value)
    assert str(db) in message and f"process {holder} " in message and "\n" not in message
    os.kill(holder, signal.SIGKILL)  # the holder dies without releasing anything
    assert _exit_code(holder) == -signal.SIGKILL
    with JournalLock.acquire(db) as lock:
        assert lock.held


@pytest.mark.parametrize("other_name", ["hard link", "symbolic link"])
def test_one_journal_under_another_name_is_the_same_lock(tmp_path: Path, other_name: str) -> None:
    """The lock is the file's, not its name's: a hard link or a symbolic link to a journal in
    use is refused, naming the holder, and the kernel's table names the process itself."""
    db = tmp_path / "one.db"
    other = tmp_path / "elsewhere" / "other.db"
    other.parent.mkdir()
    ready_r, ready_w = os.pipe()

    def hold() -> None:
        with JournalLock.acquire(db):
            os.write(ready_w, b"x")
            signal.pause()  # until killed

    holder = _fork(hold)
    try:
        os.read(ready_r, 1)
        if other_name == "hard link":
            os.link(db, other)
        else:
            other.symlink_to(db)
        with pytest.raises(JournalBusyError) as refused:
            JournalLock.acquire(other)
        assert str(refused.value).startswith(f"{other} is in use by process {holder} (")
    finally:
        os.kill(holder, signal.SIGKILL)
        _exit_code(holder)
    with JournalLock.acquire(other) as lock:
        assert lock.held


def test_processes_creating_one_journal_at_once_all_open_it(tmp_path: Path) -> None:
    """Four processes open the same new file at the same moment, ten times over: every one opens
    it, the schema is made once, and each one's game is there."""
    for attempt in range(10):
        db = tmp_path / f"fresh{attempt}.db"
        go_r, go_w = os.pipe()

        def create(db: Path = db, go_r: int = go_r) -> None:
            os.read(go_r, 1)
            with Journal.open(db, writable=True) as journal:
                journal.new_game()

        children = [_fork(create) for _ in range(4)]
        os.write(go_w, b"xxxx")  # all four start together
        assert [_exit_code(pid) for pid in children] == [0, 0, 0, 0]
        os.close(go_r)
        os.close(go_w)
        with Journal.open(db) as journal:
            assert journal.schema_version() == SCHEMA_VERSION
            assert len(journal.games()) == 4
            assert journal.integrity_check() == "ok"
        assert not [p for p in tmp_path.iterdir() if p.name.endswith(".new")]


# -- damage -------------------------------------------------------------------------------------


@pytest.fixture
def played(tmp_path: Path) -> Path:
    db = tmp_path / "played.db"
    with Journal.open(db) as journal:
        session = Session(journal)
        table = BotTable(session, coin_referee(3), seed=3, players=3)
        table.set_up()
        table.play_round()
    return db


def _patch_bytes(db: Path, pattern: bytes, change: object) -> None:
    """Change the file's bytes in place at the last match of *pattern* (as a bad sector would)."""
    data = bytearray(db.read_bytes())
    matches = list(re.finditer(pattern, bytes(data)))
    assert matches, pattern
    change(data, matches[-1])  # type: ignore[operator]
    db.write_bytes(bytes(data))


def _refused_everywhere(db: Path, capsys: pytest.CaptureFixture[str]) -> str:
    """Refused by a writer at open and by a reader at the entry, in one line, and never
    written: the file keeps every byte."""
    before = db.read_bytes()
    with pytest.raises(JournalError) as refused:
        Journal.open(db)
    with Journal.open(db, read_only=True) as journal:
        with pytest.raises(JournalError) as read:
            Session(journal)
        assert "checksum" in journal.integrity_check()
    assert str(read.value) == str(refused.value)
    for argv in (["export"], ["export", "--list"], ["run", "--sim", "--headless", "--games", "1"]):
        assert main([*argv, "--db", str(db)]) == 2
        err = capsys.readouterr().err
        assert "Traceback" not in err and err.count("\n") == 1 and "is damaged" in err, err
    assert db.read_bytes() == before
    return str(refused.value)


def test_one_flipped_bit_in_a_player_name_is_found_and_named(
    played: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    def flip(data: bytearray, match: re.Match[bytes]) -> None:
        data[match.start(1)] ^= 0x02  # "Ben" -> "@en"

    _patch_bytes(played, rb'"winner":"(Ben)"', flip)
    message = _refused_everywhere(played, capsys)
    assert re.search(rf"{re.escape(str(played))}: game 1, journal entry \d+ is damaged", message)


def test_a_changed_digit_in_a_points_value_is_found(
    played: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    def bump(data: bytearray, match: re.Match[bytes]) -> None:
        digit = match.start(1)
        data[digit] = ord("1") if data[digit] != ord("1") else ord("2")

    _patch_bytes(played, rb'"points":\{"[A-Za-z]+":([0-9])', bump)
    _refused_everywhere(played, capsys)


def test_a_journal_cut_short_by_one_byte_is_refused_and_kept(played: Path) -> None:
    data = played.read_bytes()
    played.write_bytes(data[:-1])
    with pytest.raises(JournalError, match="is damaged: cut short"):
        Journal.open(played)
    assert played.read_bytes() == data[:-1]


def test_a_schema_3_journal_gets_its_checksums_and_keeps_its_entries(tmp_path: Path) -> None:
    db = tmp_path / "v3.db"
    raw = sqlite3.connect(db, isolation_level=None)
    for script in MIGRATIONS[:3]:
        for statement in _split_sql(script):
            raw.execute(statement)
    raw.execute(f"PRAGMA application_id={APPLICATION_ID}")
    raw.execute("PRAGMA user_version=3")
    raw.execute("INSERT INTO games (created_at) VALUES ('2026-01-01T00:00:00')")
    started = (
        '[{"first_dealer":"Ann","game_id":1,"kind":"game_started","players":["Ann","Bob"],'
        '"preset":"showdown","scoring":{"mode":"standard","target":500}}]'
    )
    raw.execute(
        "INSERT INTO entries (game_id, entry_key, kind, events, recorded_at) "
        "VALUES (1, 'setup', 'set_up', ?, '2026-01-01T00:00:01')", (started,)
    )
    raw.close()
    with Journal.open(db) as journal:
        assert journal.schema_version() == SCHEMA_VERSION
        assert journal.integrity_check() == "ok"
        state = Session(journal).state
        assert state is not None and state.players == ("Ann", "Bob")
        # Still append-only after the migration lifted the guard for one statement.
        with pytest.raises(sqlite3.IntegrityError, match="append-only"):
            journal._db.execute("UPDATE entries SET kind = 'x'")


# -- a journal that cannot be written -------------------------------------------------------


def _outcome(number: int) -> ShowdownOutcome:
    return ShowdownOutcome(
        showdown_id=number, left_player="Ann", right_player="Bob", cards_loaded=2,
        winner=Side.LEFT, loser=Side.RIGHT, reason=Reason.RACE, go_ns=1_000_000_000,
        press_ns={Side.LEFT: 1_200_000_000, Side.RIGHT: 1_300_000_000},
        counts={Side.LEFT: 0, Side.RIGHT: 2},
    )


def test_a_result_the_journal_cannot_store_waits_is_retried_and_is_shown_until_stored(
    tmp_path: Path,
) -> None:
    """SQLite refuses the writes (``query_only``: SQLITE_READONLY, as a journal remounted
    read-only would). Results keep coming; none is dropped, each refusal is shown, and once the
    journal can be written again every result is stored, once, in order."""
    journal = Journal.open(tmp_path / "full.db")
    session = Session(journal)
    session.handle(SetUpGame(players=["Ann", "Bob"]))
    shown = io.StringIO()
    session.subscribe(StatusPrinter(shown, live=False).session_event)
    now = [0.0]
    recorder = UnitRecorder(session, "20260101T000000", clock=lambda: now[0])
    journal._db.execute("PRAGMA query_only=1")  # the journal cannot be written now
    recorder(_outcome(1))
    recorder(_outcome(2))
    assert [e.showdown_id for e in recorder.waiting] == ["20260101T000000#1",
                                                         "20260101T000000#2"]
    assert "not stored" in shown.getvalue() and "read-only" in shown.getvalue()
    recorder.retry()  # too soon: not tried again yet
    assert len(recorder.waiting) == 2
    now[0] += recorder.RETRY_S
    shown.truncate(0)
    recorder.retry()  # still full: refused again, still shown
    assert len(recorder.waiting) == 2 and "not stored" in shown.getvalue()
    journal._db.execute("PRAGMA query_only=0")  # writable again
    now[0] += recorder.RETRY_S
    recorder.retry()
    assert recorder.waiting == []
    state = session.state
    assert state is not None
    assert [s.showdown_id for s in state.showdowns] == ["20260101T000000#1", "20260101T000000#2"]
    journal.close()
