"""A damaged SD card under the journal: flipped bits in the write-ahead log, in an entry's text,
in the schema version; a log that belongs to another file; a checkpoint the disk cut short; a
read-only mount or folder. Damage is refused in one line naming what is damaged, and the files
keep every byte; what is only read-only is read."""

from __future__ import annotations

import hashlib
import json
import os
import random
import resource
import signal
import sqlite3
import subprocess
import tarfile
from collections.abc import Callable
from pathlib import Path

import pytest

from showdown.game.journal import SCHEMA_VERSION, Journal
from showdown.game.session import Session
from showdown.playtest.bot_table import BotTable, coin_referee
from tests.showdown.app.test_no_tracebacks import (
    ENV,
    SHOWDOWN,
    _namespace,
    _one_line,
    _quoted,
    _run,
)

SHOWDOWN_RUN = ["run", "--sim", "--headless", "--fast", "--games", "1"]


def _fork(work: Callable[[], object]) -> None:
    """Run *work* in a child that then dies without closing anything (as a pulled cable
    would leave the files); wait for it."""
    pid = os.fork()
    if pid == 0:
        code = 1
        try:
            work()
            code = 0
        finally:
            os._exit(code)
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0


def _digest(*paths: Path) -> list[str]:
    """Each file's bytes (an empty log, which a reader may leave, is no log)."""
    return [hashlib.sha256(p.read_bytes()).hexdigest() if p.exists() and p.stat().st_size
            else "-" for p in paths]


def _files(db: Path) -> tuple[Path, Path]:
    return db, Path(f"{db}-wal")


def _play_with_the_log_kept(db: Path, rounds: int) -> list[int]:
    """Play *rounds* in a child whose entries all stay in the write-ahead log (a reader keeps
    the checkpoint from emptying it, as a slow export would), then die there; the sequence
    numbers it acknowledged."""
    read_r, read_w = os.pipe()

    def play() -> None:
        journal = Journal.open(db, writable=True)
        reader = sqlite3.connect(db)
        reader.execute("BEGIN")
        reader.execute("SELECT count(*) FROM entries").fetchone()
        journal.on_append = lambda entry: os.write(read_w, f"{entry.seq}\n".encode())
        table = BotTable(Session(journal), coin_referee(5), seed=5, players=3)
        table.set_up()
        for _ in range(rounds):
            table.play_round()

    _fork(play)
    os.close(read_w)
    with os.fdopen(read_r) as acks:
        return [int(line) for line in acks]


def _flip(path: Path, rng: random.Random) -> int:
    """Flip one random bit of *path* in place (the file keeps its inode); the byte's offset."""
    data = bytearray(path.read_bytes())
    offset = rng.randrange(len(data))
    data[offset] ^= 1 << rng.randrange(8)
    with path.open("r+b") as file:
        file.write(data)
    return offset


def _flip_trials(folder: Path, flips: int, seed: int) -> dict[str, int]:
    """Flip one random bit of a full write-ahead log, *flips* times, each time reading the
    journal with ``showdown export`` as a user would: refused (one line naming the missing
    entries), or read whole, or read with acknowledged entries missing and not a word."""
    db = folder / "card.db"
    acknowledged = _play_with_the_log_kept(db, rounds=3)
    db_file, wal = _files(db)
    assert wal.stat().st_size > 100_000 and len(acknowledged) > 20
    pristine = {path: path.read_bytes() for path in (db_file, wal)}
    rng = random.Random(seed)
    figures = {"flips": flips, "acknowledged": len(acknowledged), "log_bytes": len(pristine[wal]),
               "refused": 0, "whole": 0, "silent": 0, "missing_unnoticed": 0}
    for _ in range(flips):
        for path, data in pristine.items():  # in place: the same inode the mark names
            with path.open("r+b" if path.exists() else "wb") as file:
                file.write(data)
                file.truncate()
        Path(f"{db}-shm").unlink(missing_ok=True)  # as after a reboot
        _flip(wal, rng)
        code, out, err = _export_json(db)
        if code != 0:
            _one_line(code, err, "acknowledged as stored and")
            assert f"{db} is damaged: journal entr" in err, err
            figures["refused"] += 1
            continue
        found = {entry["seq"] for entry in json.loads(out)["journal"]}
        missing = len(set(acknowledged) - found)
        figures["silent" if missing else "whole"] += 1
        figures["missing_unnoticed"] += missing
    return figures


def _export_json(db: Path) -> tuple[int, str, str]:
    done = subprocess.run([*SHOWDOWN, "export", "--db", str(db)], env=ENV, capture_output=True,
                          text=True, timeout=120, check=False)
    return done.returncode, done.stdout, done.stderr


def test_a_flipped_bit_in_the_write_ahead_log_never_loses_an_entry_unnoticed(
    tmp_path: Path,
) -> None:
    """SQLite drops every log frame after one whose checksum fails, and its integrity check
    still says ok; the high-water mark beside the journal notices. Eight flips at random
    places of one log (``make soak`` flips 50 and prints the figures)."""
    figures = _flip_trials(tmp_path, flips=8, seed=24)
    assert figures["silent"] == figures["missing_unnoticed"] == 0, figures
    assert figures["refused"] > 0, figures


@pytest.mark.parametrize(("found", "says"), [
    ((33, 33), "journal entry 34 was acknowledged as stored and is missing (its write-ahead log"),
    ((20, 20), "journal entries 21 to 34 were acknowledged as stored and are missing (its"),
    ((34, 33), "a journal entry was acknowledged as stored and is missing (its write-ahead log"),
    ((34, 30), "4 journal entries were acknowledged as stored and are missing (its write-ahead"),
])
def test_the_missing_entries_are_named_in_plain_words(
    tmp_path: Path, found: tuple[int, int], says: str
) -> None:
    """One lost entry read "journal entry 1 were acknowledged as stored and are missing"."""
    from showdown.game.journal import _missing
    from showdown.game.mark import Mark

    db = tmp_path / "j.db"
    Path(f"{db}-wal").write_bytes(b"")
    said = _missing(db, Mark(*found), Mark(seq=34, count=34))
    assert said.startswith(f"{db} is damaged: {says}"), said


@pytest.mark.soak
def test_soak_50_flipped_bits_in_the_write_ahead_log(tmp_path: Path) -> None:
    figures = _flip_trials(tmp_path, flips=50, seed=50)
    print(f"\n50 write-ahead log flips: {figures}")
    assert figures["silent"] == figures["missing_unnoticed"] == 0, figures


@pytest.fixture
def played(tmp_path: Path) -> Path:
    db = tmp_path / "played.db"
    with Journal.open(db) as journal:
        table = BotTable(Session(journal), coin_referee(3), seed=3, players=3)
        table.set_up()
        table.play_round()
    return db


def _refused_untouched(db: Path, says: str) -> None:
    """``export`` and ``run`` each refuse *db* in one line saying *says*; no file changes."""
    files = _files(db)
    before = _digest(*files)
    for argv in (["export"], ["export", "--list"], SHOWDOWN_RUN):
        code, err = _run([*argv, "--db", str(db)])
        _one_line(code, err, says)
    assert _digest(*files) == before, "a refused journal was written"


def test_a_flipped_high_bit_in_an_entry_is_refused_naming_the_entry(played: Path) -> None:
    raw = sqlite3.connect(f"{played.as_uri()}?mode=ro", uri=True)
    (seq,) = [r[0] for r in raw.execute("SELECT seq FROM entries WHERE kind = 'round'")]
    raw.close()
    data = bytearray(played.read_bytes())
    at = data.rindex(b'"kind":"round_recorded"') + 2  # the 'k': 0x6b becomes 0xeb, not UTF-8
    data[at] ^= 0x80
    played.write_bytes(bytes(data))
    _refused_untouched(played, f"{played}: game 1, journal entry {seq} is damaged")


def test_a_flipped_bit_in_the_schema_version_is_refused(played: Path) -> None:
    data = bytearray(played.read_bytes())
    data[60] ^= 0x80  # PRAGMA user_version is bytes 60-63: the version reads as negative
    played.write_bytes(bytes(data))
    negative = SCHEMA_VERSION - (1 << 31)
    _refused_untouched(played, f"{played} is damaged: its schema version reads {negative},")


def test_a_schema_version_that_fits_other_tables_is_refused(played: Path) -> None:
    data = bytearray(played.read_bytes())
    data[63] ^= 0x04  # an older version than the tables are (4 less)
    played.write_bytes(bytes(data))
    older = SCHEMA_VERSION ^ 0x04
    assert older < SCHEMA_VERSION
    _refused_untouched(played, f"its schema version reads {older}, but its tables are not those")


def _hot_log(db: Path, write: Callable[[sqlite3.Connection], object]) -> None:
    """Leave a write-ahead log holding one transaction beside *db* (a process that died)."""

    def work() -> None:
        raw = sqlite3.connect(db, isolation_level=None)
        raw.execute("PRAGMA journal_mode=WAL")
        raw.execute("PRAGMA wal_autocheckpoint=0")
        write(raw)

    _fork(work)
    assert Path(f"{db}-wal").stat().st_size > 0


def test_a_refused_journal_with_a_log_still_to_apply_is_never_written(played: Path) -> None:
    """A damaged entry in the file and a log left by a process that died: the refusal must not
    checkpoint the log into the file on its way out."""
    data = bytearray(played.read_bytes())
    at = data.rindex(b'"winner":"') + 10
    data[at] ^= 0x02
    played.write_bytes(bytes(data))
    _hot_log(played, lambda raw: raw.execute(
        "INSERT INTO settings (name, value, updated_at) VALUES ('language', 'ja', 'now')"))
    _refused_untouched(played, "is damaged (its checksum does not match")


def test_a_log_of_another_database_is_refused_and_never_applied(
    played: Path, tmp_path: Path
) -> None:
    other = tmp_path / "other.db"

    def recipes(raw: sqlite3.Connection) -> None:
        raw.execute("CREATE TABLE recipes (name TEXT)")
        raw.execute("INSERT INTO recipes VALUES ('soup')")

    _hot_log(other, recipes)
    Path(f"{played}-wal").write_bytes(Path(f"{other}-wal").read_bytes())
    _refused_untouched(played, "is a database of another program")


def test_a_page_with_many_problems_is_refused_in_one_short_line(
    played: Path, tmp_path: Path
) -> None:
    """Every cell pointer of the entries table's root page zeroed: SQLite's check reports a
    problem a line (it was quoted whole, one line or many). The refusal names the first and
    counts the rest; the support bundle holds SQLite's whole report."""
    raw = sqlite3.connect(f"{played.as_uri()}?mode=ro", uri=True)
    (root,) = raw.execute("SELECT rootpage FROM sqlite_schema WHERE name = 'entries'").fetchone()
    (page_size,) = raw.execute("PRAGMA page_size").fetchone()
    raw.close()
    data = bytearray(played.read_bytes())
    page = (root - 1) * page_size
    cells = int.from_bytes(data[page + 3:page + 5], "big")
    assert cells >= 2
    pointers = page + (12 if data[page] in (2, 5) else 8)  # interior pages have a longer head
    data[pointers:pointers + 2 * cells] = bytes(2 * cells)
    played.write_bytes(bytes(data))
    _refused_untouched(played, f"{played} is corrupt (SQLite's check: ")
    code, err = _run(["export", "--db", str(played)])
    (line,) = err.strip().splitlines()
    assert "more problems (`showdown check --report` lists them)); it was left" in line, line
    assert len(line) - len(str(played)) < 250, line  # it held SQLite's whole report
    bundle = tmp_path / "report.tar.gz"
    code, err = _run(["check", "--report", str(bundle), "--db", str(played), "--log", os.devnull])
    assert code == 0, err
    with tarfile.open(bundle) as archive:
        (name,) = [n for n in archive.getnames() if n.endswith("journal.txt")]
        member = archive.extractfile(name)
        assert member is not None
        text = member.read().decode()
    assert text.count("Offset 0 out of range") >= cells, text


def test_a_checkpoint_the_disk_cut_short_is_not_damage(tmp_path: Path) -> None:
    """A checkpoint writes the journal's first page (with its new length) and then cannot grow
    the file (a full disk; here a file-size limit): every page still in the log is read from
    there. The journal opens, with every entry, and SQLite's check says ok."""
    db = tmp_path / "full.db"
    Journal.open(db).close()

    def fill_then_checkpoint() -> None:
        journal = Journal.open(db, writable=True)
        reader = sqlite3.connect(db)
        reader.execute("BEGIN")
        reader.execute("SELECT count(*) FROM entries").fetchone()
        game = journal.new_game()
        for n in range(200):
            journal.append(game, "round", [{"n": n, "pad": "x" * 200}])
        reader.rollback()
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        size = db.stat().st_size
        resource.setrlimit(resource.RLIMIT_FSIZE, (size, size))
        with pytest.raises(sqlite3.OperationalError):
            journal._db.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchall()

    _fork(fill_then_checkpoint)
    header = db.read_bytes()[:100]
    assert int.from_bytes(header[28:32], "big") * 4096 > db.stat().st_size  # the header ran ahead
    with Journal.open(db, writable=True) as journal:
        assert [e.events[0]["n"] for e in journal.entries(1)] == list(range(200))
        assert journal.integrity_check() == "ok"


def test_a_journal_in_a_read_only_folder_is_read(played: Path) -> None:
    folder = played.parent
    folder.chmod(0o555)
    try:  # as nobody: the folder's mode applies
        done = _namespace(_quoted([*SHOWDOWN, "export", "--db", str(played)]), user_root=False)
    finally:
        folder.chmod(0o755)
    assert done.returncode == 0 and "Traceback" not in done.stderr, done
    assert '"players": [' in done.stdout


def test_a_journal_on_a_read_only_mount_is_read(tmp_path: Path) -> None:
    mount = tmp_path / "disk"
    mount.mkdir()
    db = mount / "j.db"
    script = f"""
        set -e
        mount -t tmpfs -o size=4m tmpfs '{mount}'
        {_quoted([*SHOWDOWN, "sim", "games", "--count", "1", "--db", str(db)])} > /dev/null
        mount -o remount,ro '{mount}'
        {_quoted([*SHOWDOWN, "export", "--list", "--db", str(db)])}
        {_quoted([*SHOWDOWN, "export", "--db", str(db)])} > '{tmp_path}/game.json'
    """
    done = _namespace(script, user_root=True)
    assert done.returncode == 0 and "Traceback" not in done.stderr, done
    assert done.stdout.startswith("1\t") and "\tover\t" in done.stdout, done
    assert '"winners": [' in (tmp_path / "game.json").read_text()


def test_the_mark_lives_beside_the_file_a_link_names(played: Path, tmp_path: Path) -> None:
    from showdown.game.mark import mark_path

    link = tmp_path / "elsewhere.db"
    link.symlink_to(played)
    assert mark_path(link) == mark_path(played) == played.with_name("played.db.mark")


def test_an_older_journal_is_read_as_it_is_and_never_migrated(tmp_path: Path) -> None:
    """A reader never writes, so a schema 3 journal is exported as it stands (no checksums yet,
    no labels or players tables) and keeps its schema: the next writer migrates it."""
    from showdown.game.journal import APPLICATION_ID, MIGRATIONS, _split_sql

    db = tmp_path / "v3.db"
    raw = sqlite3.connect(db, isolation_level=None)
    for script in MIGRATIONS[:3]:
        for statement in _split_sql(script):
            raw.execute(statement)
    raw.execute(f"PRAGMA application_id={APPLICATION_ID}")
    raw.execute("PRAGMA user_version=3")
    raw.execute("INSERT INTO games (created_at) VALUES ('2026-01-01T00:00:00')")
    raw.execute(
        "INSERT INTO entries (game_id, entry_key, kind, events, recorded_at) VALUES (1, 'setup', "
        "'set_up', ?, '2026-01-01T00:00:01')",
        ('[{"first_dealer":"Ann","game_id":1,"kind":"game_started","players":["Ann","Bob"],'
         '"preset":"showdown","scoring":{"mode":"standard","target":500}}]',))
    raw.close()
    before = db.read_bytes()
    for argv in (["export", "--list"], ["export"]):
        done = subprocess.run([*SHOWDOWN, *argv, "--db", str(db)], env=ENV, capture_output=True,
                              text=True, timeout=120, check=False)
        assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
        assert "Ann" in done.stdout
    assert db.read_bytes() == before
