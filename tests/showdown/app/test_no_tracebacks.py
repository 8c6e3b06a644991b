"""Every bad input tried against the service, each as a real `showdown` process: one line saying
what is wrong, a non-zero exit status, never a traceback."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from showdown.game.journal import Journal
from showdown.game.session import Session
from showdown.playtest.bot_table import BotTable, coin_referee

SHOWDOWN = [sys.executable, "-m", "showdown"]
ENV = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy",
       "PYTHONUNBUFFERED": "1", "GPIOZERO_PIN_FACTORY": "mock",
       "GPIOZERO_MOCK_PIN_CLASS": "mockpwmpin"}


def _run(argv: list[str], *, env: dict[str, str] | None = None, stdout: object = None,
         close_stdin: bool = False, timeout: float = 120) -> tuple[int, str]:
    """Run showdown; (exit status, standard error)."""
    done = subprocess.run(
        [*SHOWDOWN, *argv], env={**ENV, **(env or {})}, stdin=subprocess.DEVNULL,
        stdout=stdout if stdout is not None else subprocess.DEVNULL, stderr=subprocess.PIPE,
        text=True, timeout=timeout, check=False,
        preexec_fn=(lambda: os.close(0)) if close_stdin else None,
    )
    return done.returncode, done.stderr


def _one_line(code: int, err: str, says: str) -> None:
    assert "Traceback" not in err, err
    assert code != 0, err
    last = err.strip().splitlines()[-1]
    assert says in last, err
    assert last.startswith("showdown"), err


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Path:
    db = tmp_path_factory.mktemp("played") / "played.db"
    with Journal.open(db) as journal:
        table = BotTable(Session(journal), coin_referee(1), seed=1, players=3)
        table.set_up()
        table.play_round()
    return db


def _config(folder: Path, name: str, text: str | bytes) -> Path:
    path = folder / f"{name}.toml"
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    return path


TIMINGS = [
    ("launcher_cooldown_ms = inf", "launcher_cooldown_ms"),
    ("timeout_ms = inf", "timeout_ms"),
    ("hold_max_ms = inf", "hold_max_ms"),
    ("count_settle_ms = inf", "count_settle_ms"),
    ("tie_window_ms = inf", "tie_window_ms"),
    ("tie_window_ms = nan", "tie_window_ms"),
    ("bounce_ms = 1e12", "bounce_ms"),
    ("hold_max_ms = 1e300", "hold_max_ms"),
    ("tie_window_ms = true", "tie_window_ms"),
    ("beats = true", "beats"),
]


def test_bad_inputs_are_one_line_each(tmp_path: Path, played: Path) -> None:
    """Each case is a real process; they run four at a time."""
    empty = tmp_path / "empty.db"
    empty.touch()
    configs = {
        text: _config(tmp_path, f"timing{i}", f"[unit.timing]\n{text}\n")
        for i, (text, _) in enumerate(TIMINGS)
    }
    wide = _config(tmp_path, "wide",
                   '[unit.pins]\narrow_left = {pin = "GPIO\uff12\uff10", active = "high"}\n')
    deep = _config(tmp_path, "deep", "[unit]\nbeat_tone = { hz = 440, pattern_ms = "
                   + "[" * 5000 + "]" * 5000 + " }\n")
    db = str(tmp_path / "new.db")
    cases: list[tuple[list[str], dict[str, str] | None, str]] = [
        (["run", "--sim", "--headless", "--db", "/proc/version"], None, "not a readable database"),
        (["scoreboard", "--size", "99999x99999", "--db", db], None, "at most 7680x4320"),
        (["export", "--db", str(empty)], None, "is empty: it is not a journal"),
        (["run", "--sim", "--headless", "--db", str(empty)], None, "is empty"),
        (["export", "--db", db], {"SHOWDOWN_UNIT__PINS__PADDLE_LEFT": "GPIO17"},
         "environment variable SHOWDOWN_UNIT__PINS__PADDLE_LEFT: not valid JSON"),
        (["run", "--sim", "--db", db], {"SHOWDOWN_UNIT": "notjson"},
         "environment variable SHOWDOWN_UNIT: not valid JSON"),
        (["sim", "games", "--count", str(10**30)], None, "argument --count: must be 1 to"),
        (["sim", "games", "--target", str(10**30)], None, "argument --target: must be 1 to"),
        (["sim", "duels", "--count", str(10**30)], None, "argument --count: must be 1 to"),
        (["run", "--sim", "--db", db, "--config", str(wide)], None,
         f"{wide}:2: unit.pins.arrow_left.pin: unknown pin name"),
        (["run", "--sim", "--db", db, "--config", str(deep)], None,
         f"{deep}:2: beat_tone: nested too deeply"),
    ]
    for text, setting in TIMINGS:
        path = configs[text]
        for argv in (["run", "--sim", "--headless", "--db", db], ["sim", "duels", "--count", "2"]):
            cases.append(([*argv, "--config", str(path)], None,
                          f"{path}:2: unit.timing.{setting}: "))

    def attempt(case: tuple[list[str], dict[str, str] | None, str]) -> None:
        argv, env, says = case
        code, err = _run(argv, env=env)
        _one_line(code, err, says)

    with ThreadPoolExecutor(4) as pool:
        list(pool.map(attempt, cases))
    assert not Path(db).exists(), "a refused start made a journal"


def test_a_bom_at_the_start_of_the_configuration_is_accepted(tmp_path: Path) -> None:
    path = _config(tmp_path, "bom", "\ufeff[unit.timing]\ntie_window_ms = 2.5\n".encode())
    code, err = _run(["sim", "duels", "--count", "2", "--config", str(path)])
    assert code == 0 and "Traceback" not in err, err


def test_lost_standard_output_is_one_line_after_the_outputs_are_safe(
    tmp_path: Path, played: Path
) -> None:
    with open("/dev/full", "w") as full:
        code, err = _run(["export", "--db", str(played)], stdout=full)
        _one_line(code, err, "cannot write to standard output: No space left on device")
        code, err = _run(["run", "--sim", "--headless", "--fast", "--db",
                          str(tmp_path / "full.db")], stdout=full)
        _one_line(code, err, "standard output cannot be written (No space left on device)")
        assert "every output is safe" in err
    # `run ... | head -2`: the reader goes away after the banner.
    child = subprocess.Popen(
        [*SHOWDOWN, "run", "--sim", "--headless", "--fast", "--speed", "100", "--db",
         str(tmp_path / "pipe.db")], env=ENV, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        text=True,
    )
    assert child.stdout is not None and child.stderr is not None
    child.stdout.readline()
    child.stdout.readline()
    child.stdout.close()
    err = child.stderr.read()
    code = child.wait(timeout=120)
    _one_line(code, err, "standard output cannot be written (Broken pipe)")
    assert "every output is safe" in err


def test_check_without_standard_input_is_one_line() -> None:
    code, err = _run(["check", "--no-launcher"], close_stdin=True)
    _one_line(code, err, "showdown check needs answers on standard input")


def test_a_second_service_on_one_journal_is_refused_naming_the_first(tmp_path: Path) -> None:
    """Two services started together on a new journal, five times: one runs, the other is
    refused in one line naming the journal and the first one's process."""
    for attempt in range(5):
        db = tmp_path / f"two{attempt}.db"
        argv = [*SHOWDOWN, "run", "--sim", "--headless", "--fast", "--speed", "100", "--db",
                str(db)]
        children = [subprocess.Popen(argv, env=ENV, stdout=subprocess.DEVNULL,
                                     stderr=subprocess.PIPE, text=True) for _ in range(2)]
        try:
            # One of them exits by itself (refused); the other runs until told to stop.
            refused: list[subprocess.Popen[str]] = []
            while not refused:
                refused = [c for c in children if c.poll() is not None]
                threading.Event().wait(0.05)  # between two looks at the children
            (gone,) = refused
            (running,) = [c for c in children if c is not gone]
            assert gone.stderr is not None
            err = gone.stderr.read()
            _one_line(gone.returncode, err,
                      f"{db} is in use by process {running.pid} (showdown run")
            running.send_signal(signal.SIGTERM)
            assert running.wait(timeout=60) == 0
            assert running.stderr is not None
            assert "Traceback" not in running.stderr.read()
        finally:  # a failed check must not leave a service running on after the test
            for child in children:
                if child.poll() is None:
                    child.kill()
                    child.wait()
        with Journal.open(db) as journal:
            assert journal.integrity_check() == "ok"


def _namespace(script: str, *, user_root: bool) -> subprocess.CompletedProcess[str]:
    """Run *script* with sh in new user and mount namespaces (a private tmpfs, a read-only
    mount), as root in them or as nobody; skip where this kernel does not allow it."""
    unshare = shutil.which("unshare")
    if unshare is None:
        pytest.skip("no unshare(1) here")
    flags = ["--user", "--map-root-user", "--mount"] if user_root else ["--user"]
    probe = subprocess.run([unshare, *flags, "true"], capture_output=True, check=False)
    if probe.returncode != 0:
        pytest.skip(f"user namespaces are not allowed here: {probe.stderr!r}")
    return subprocess.run([unshare, *flags, "sh", "-c", script], env=ENV, capture_output=True,
                          text=True, timeout=300, check=False)


def _quoted(argv: list[str]) -> str:
    return " ".join(f"'{part}'" for part in argv)


def test_a_full_disk_or_a_read_only_journal_is_refused_at_start(tmp_path: Path) -> None:
    """On a tmpfs of its own: a journal made, the disk filled, then the file system remounted
    read-only; each start is refused in one line saying which, before the banner."""
    mount = tmp_path / "disk"
    mount.mkdir()
    db = mount / "j.db"
    start = _quoted([*SHOWDOWN, "run", "--sim", "--headless", "--fast", "--games", "1",
                     "--db", str(db)])
    script = f"""
        set -e
        mount -t tmpfs -o size=4m tmpfs '{mount}'
        {_quoted([*SHOWDOWN, "sim", "games", "--count", "1", "--db", str(db)])} > /dev/null
        dd if=/dev/zero of='{mount}/filler' bs=64k 2> /dev/null || true
        echo "--- full"; {start} 2>&1 || echo "exit $?"
        rm '{mount}/filler'
        mount -o remount,ro '{mount}'
        echo "--- read-only"; {start} 2>&1 || echo "exit $?"
    """
    done = _namespace(script, user_root=True)
    full, read_only = done.stdout.split("--- full")[1].split("--- read-only")
    for text, says in ((full, f"{db}: disk full"), (read_only, f"{db}: read-only file system")):
        assert "Traceback" not in text and "UNO Showdown is running" not in text, done
        assert says in text and "exit 2" in text, done


def test_a_journal_in_a_read_only_directory_is_refused_at_start(tmp_path: Path) -> None:
    folder = tmp_path / "locked"
    folder.mkdir()
    db = folder / "j.db"
    code, err = _run(["sim", "games", "--count", "1", "--db", str(db)])
    assert code == 0, err
    folder.chmod(0o555)
    try:
        done = _namespace(_quoted([*SHOWDOWN, "run", "--sim", "--headless", "--db", str(db)]),
                          user_root=False)  # as nobody: the directory's mode applies
    finally:
        folder.chmod(0o755)
    _one_line(done.returncode, done.stderr, f"{db}: read-only directory")

