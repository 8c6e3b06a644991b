"""The command line's last tracebacks and hangs, each tried as a real ``showdown`` process: a
configuration that is a device or a FIFO, JSON nested too deeply in an environment variable,
journal paths no file can have, benchmarks without bounds, timings no showdown can satisfy,
standard output closed, a second journal writer through another name, and stop signals early,
twice and three times."""

from __future__ import annotations

import os
import signal
import subprocess
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from showdown.game.journal import Journal
from tests.showdown.app.test_no_tracebacks import (
    ENV,
    SHOWDOWN,
    _config,
    _namespace,
    _one_line,
    _quoted,
    _run,
)

RUN = ["run", "--sim", "--headless", "--fast"]


def test_third_pass_inputs_are_one_line_each(tmp_path: Path) -> None:
    """Each case is a real process; they run four at a time. A FIFO nobody writes to and the
    endless devices hung or ran out of memory; a `--repeat` of 10^30 ran until killed."""
    fifo = tmp_path / "fifo.toml"
    os.mkfifo(fifo)
    big = _config(tmp_path, "big", "# " + "x" * (2 << 20) + "\n")
    nul = _config(tmp_path, "nul", '[storage]\npath = "a\\u0000b.db"\n')
    quick = _config(tmp_path, "quick", "[unit.timing]\ntimeout_ms = 0.001\n")
    eager = _config(tmp_path, "eager", "[unit.timing]\nanticipation_ms = 500\ntimeout_ms = 550\n")
    shortest = ("beats = 1\nbeat_period_ms = 0.001\nbeat_flash_ms = 0.001\nhold_min_ms = 0\n"
                "hold_max_ms = 0\nanticipation_ms = 0\ntie_window_ms = 0\n"
                "launcher_pulse_ms = 0.001\nlauncher_cooldown_ms = 0\ncount_settle_ms = 0.001\n"
                "launch_wait_ms = 0.001\nbounce_ms = 0\ncount_bounce_ms = 0\n"
                "late_edge_grace_ms = 0\narrow_blink_ms = 0.001\nrelease_paddle_ms = 0.001\n")
    least = _config(tmp_path, "least", f"[unit.timing]\n{shortest}timeout_ms = 100\n")
    barely = _config(tmp_path, "barely", f"[unit.timing]\n{shortest}timeout_ms = 151\n")
    db = str(tmp_path / "new.db")
    long_name = str(tmp_path / ("x" * 300))
    deep = {"SHOWDOWN_UNIT": "[" * 100_000}
    cases: list[tuple[list[str], dict[str, str] | None, str]] = []
    for device in ("/dev/zero", "/dev/urandom", "/dev/full", str(fifo)):
        cases.append(([*RUN, "--db", db, "--config", device], None,
                      f"{device}: a device, a FIFO or a socket, not a file"))
    cases += [
        (["sim", "duels", "--count", "1", "--config", str(tmp_path)], None,
         f"{tmp_path}: a folder, not a file"),
        ([*RUN, "--db", db, "--config", str(big)], None, f"{big}: larger than 1024 KiB"),
        ([*RUN, "--db", db], deep, "environment variable SHOWDOWN_UNIT: nested too deeply"),
        (["export", "--db", db], deep, "environment variable SHOWDOWN_UNIT: nested too deeply"),
        ([*RUN, "--config", str(nul)], None, f"{nul}:2: storage.path: a path cannot hold a NUL"),
        (["export"], {"SHOWDOWN_CONFIG": str(nul)}, "storage.path: a path cannot hold a NUL"),
        (["bench", "engine", "--repeat", str(10**30)], None, "argument --repeat: must be 1 to"),
        (["bench", "engine", "--games", str(10**30)], None, "argument --games: must be 1 to"),
        (["bench", "scoreboard", "--idle-seconds", "nan"], None,
         "argument --idle-seconds: must be 0.01 to 3600, not nan"),
        ([*RUN, "--db", db, "--config", str(quick)], None,
         f"{quick}:2: unit.timing.timeout_ms: 0.001 leaves no time to press"),
        (["sim", "duels", "--count", "2", "--config", str(eager)], None,
         "timeout_ms must be at least 600 or every showdown is replayed"),
        # Every timing at its minimum: legal for a person, too quick for a virtual player.
        ([*RUN, "--db", db, "--config", str(least)], None, "the simulated table cannot play: "
         "unit.timing.timeout_ms: 100 ends every race before a virtual player presses"),
        (["sim", "games", "--db", db], {"SHOWDOWN_CONFIG": str(least)},
         "unit.timing.timeout_ms: 100 ends every race before a virtual player presses"),
        (["sim", "games", "--count", "1"], {"SHOWDOWN_CONFIG": str(barely)},
         "replayed 20 times (20 timeout, with 1 cards loaded): unit.timing.timeout_ms (151) "
         "ends the race before most virtual players press"),
    ]
    for command in (RUN, ["export"], ["sim", "games", "--count", "1"]):
        cases += [
            ([*command, "--db", ""], None, "argument --db: an empty path names no file"),
            ([*command, "--db", long_name], None, "argument --db: a name of 300 bytes in the "
             "path is longer than a file system takes (255)"),
            ([*command, "--db", "."], None, ". is not a file"),
        ]

    def attempt(case: tuple[list[str], dict[str, str] | None, str]) -> None:
        argv, env, says = case
        code, err = _run(argv, env=env, timeout=60)
        _one_line(code, err, says)

    with ThreadPoolExecutor(4) as pool:
        list(pool.map(attempt, cases))
    assert not Path(db).exists(), "a refused start made a journal"


@pytest.mark.parametrize("argv", [["export"], RUN])
def test_standard_output_closed_is_one_line(argv: list[str], tmp_path: Path) -> None:
    """`showdown export >&-`: standard output is not there at all (it ended in AttributeError
    on None), and nothing is made or written."""
    db = tmp_path / "j.db"
    Journal.open(db).close()
    before = db.read_bytes()
    done = subprocess.run([*SHOWDOWN, *argv, "--db", str(db)], env=ENV, stdin=subprocess.DEVNULL,
                          stderr=subprocess.PIPE, text=True, timeout=120, check=False,
                          preexec_fn=lambda: os.close(1))
    _one_line(done.returncode, done.stderr, "standard output is closed")
    assert db.read_bytes() == before


@pytest.mark.parametrize("tie_window_ms", [1000, 0])
def test_legal_timings_at_their_limits_play_a_game(tmp_path: Path, tie_window_ms: int) -> None:
    """Every presses a tie (side counts decide each), or every timing at its limit: the
    simulator copes (it stopped with 'replayed 20 times' and 'can never finish')."""
    longest = ("beats = 10\nbeat_period_ms = 10000\nbeat_flash_ms = 10000\n"
               "hold_min_ms = 60000\nhold_max_ms = 60000\nanticipation_ms = 1000\n"
               "timeout_ms = 2535\nlauncher_pulse_ms = 2000\ncount_settle_ms = 60000\n"
               "launch_wait_ms = 60000\nbounce_ms = 100\ncount_bounce_ms = 100\n"
               "late_edge_grace_ms = 1000\narrow_blink_ms = 10000\nrelease_paddle_ms = 60000\n")
    text = f"[unit.timing]\ntie_window_ms = {tie_window_ms}\n" + ("" if tie_window_ms else longest)
    config = _config(tmp_path, "limits", text)
    code, err = _run(["sim", "games", "--count", "1", "--players", "2", "--target", "100"],
                     env={"SHOWDOWN_CONFIG": str(config)}, timeout=600)
    assert code == 0 and "Traceback" not in err, err


@pytest.mark.parametrize("other", ["hard link", "symbolic link"])
def test_a_second_service_through_another_name_is_refused(tmp_path: Path, other: str) -> None:
    """Through a hard link both services wrote and the journal ended damaged; through a
    symbolic link the second ended in a traceback. The lock is the file's, not its name's."""
    db = tmp_path / "one.db"
    name = tmp_path / "elsewhere" / "two.db"
    name.parent.mkdir()
    first = subprocess.Popen([*SHOWDOWN, *RUN, "--speed", "100", "--db", str(db)], env=ENV,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert first.stdout is not None
        assert "UNO Showdown is running" in first.stdout.readline()
        if other == "hard link":
            os.link(db, name)
        else:
            name.symlink_to(db)
        code, err = _run([*RUN, "--db", str(name)])
        _one_line(code, err, f"{name} is in use by process {first.pid} (showdown run")
        first.send_signal(signal.SIGTERM)
        assert first.wait(timeout=60) == 0
    finally:
        if first.poll() is None:
            first.kill()
            first.wait()
    with Journal.open(db) as journal:
        assert journal.integrity_check() == "ok"


@pytest.mark.parametrize("after", ["signal", "typing", "showdown.app.cli", "pydantic", "hw_sim",
                                   "showdown.playtest.referee"])
def test_a_stop_signal_while_the_modules_import_is_one_line(after: str) -> None:
    """SIGINT while the command's modules still import (here: as soon as *after* has
    imported, as ``-X importtime`` reports it) ended in a KeyboardInterrupt traceback; so did
    one while the entry point's own first imports (``signal``, ``typing``) ran."""
    child = subprocess.Popen([*SHOWDOWN[:1], "-X", "importtime", *SHOWDOWN[1:], "sim", "games",
                              "--count", "1"], env=ENV, stdout=subprocess.DEVNULL,
                             stderr=subprocess.PIPE, text=True)
    assert child.stderr is not None
    lines = []
    for line in child.stderr:
        lines.append(line)
        if line.startswith("import time:") and line.split("|")[-1].strip() == after:
            child.send_signal(signal.SIGINT)
            break
    err = "".join(lines) + child.stderr.read()
    code = child.wait(timeout=120)
    said = [line for line in err.splitlines() if not line.startswith("import time:")]
    assert code == 130 and "Traceback" not in err, said
    assert said == ["showdown: stopped by SIGINT"], said


def _service(db: Path) -> subprocess.Popen[str]:
    child = subprocess.Popen([*SHOWDOWN, *RUN, "--db", str(db)], env=ENV,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert child.stdout is not None
    assert "UNO Showdown is running" in child.stdout.readline()
    return child


@pytest.mark.parametrize(("first", "second", "when"), [
    (signal.SIGTERM, signal.SIGINT, "received: stopping"),
    (signal.SIGHUP, signal.SIGTERM, "received: stopping"),
    (signal.SIGTERM, signal.SIGINT, "every output is safe"),
    (signal.SIGHUP, signal.SIGTERM, "every output is safe"),
])
def test_a_second_stop_signal_does_not_cut_the_clean_stop_short(
    tmp_path: Path, first: signal.Signals, second: signal.Signals, when: str
) -> None:
    """The second signal comes while the first is being handled (as soon as the service says
    *when*): the stop still completes, exit status 0; the process was killed by the second
    signal (exit -2, -15) when it came late in the stop."""
    for attempt in range(3):
        child = _service(tmp_path / f"j{attempt}.db")
        assert child.stderr is not None
        child.send_signal(first)
        lines = []
        for line in child.stderr:
            lines.append(line)
            if when in line:
                child.send_signal(second)
                break
        err = "".join(lines) + child.stderr.read()
        assert child.wait(timeout=60) == 0, err
        assert "Traceback" not in err and "stopped; every output is safe" in err, err


def test_a_third_stop_signal_forces_the_stop_and_says_so(tmp_path: Path) -> None:
    child = _service(tmp_path / "j.db")
    for signum in (signal.SIGHUP, signal.SIGINT, signal.SIGTERM):  # handled in this order
        child.send_signal(signum)
    _, err = child.communicate(timeout=60)
    assert "Traceback" not in err, err
    assert "showdown: SIGINT: still stopping cleanly; a third stop signal forces the stop" in err
    last = err.strip().splitlines()[-1]
    assert last.startswith("showdown: SIGTERM: a third stop signal forces the stop"), err
    assert child.returncode == 128 + signal.SIGTERM


def test_a_second_stop_signal_is_noted_not_raised(tmp_path: Path) -> None:
    """In the process: the first signal unwinds the command; a second while the clean-up runs
    only says so (it raised again inside the clean-up, which it cut short)."""
    from showdown.app.signals import Stopped, StopSignals

    if threading.current_thread() is not threading.main_thread():
        pytest.skip("signals are handled in the main thread only")
    signals = StopSignals()
    signals.install()
    signals.route(None)
    cleaned = []
    try:
        with pytest.raises(Stopped):
            try:
                os.kill(os.getpid(), signal.SIGTERM)  # its handler runs as kill returns
            finally:
                os.kill(os.getpid(), signal.SIGINT)  # the second, during the clean-up
                cleaned.append("outputs safe")
    finally:
        signals.restore()
    assert cleaned == ["outputs safe"] and signals.count == 2


def test_sim_games_refuses_a_fifo_in_one_line(tmp_path: Path) -> None:
    """`sim games --db` naming a FIFO waited for ever (SQLite opened it); the service refused
    it, and now so does `sim games`, with the service's line."""
    fifo = tmp_path / "games.db"
    os.mkfifo(fifo)
    code, err = _run(["sim", "games", "--count", "1", "--db", str(fifo)], timeout=60)
    _one_line(code, err, f"{fifo} is not a file")


def test_sim_games_on_a_read_only_disk_is_one_line(tmp_path: Path) -> None:
    """On a tmpfs of its own remounted read-only, `sim games --db` ended in an OSError
    traceback from making the journal; now it is refused at start as the service does."""
    mount = tmp_path / "disk"
    mount.mkdir()
    db = mount / "games.db"
    script = f"""
        set -e
        mount -t tmpfs -o size=4m tmpfs '{mount}'
        mount -o remount,ro '{mount}'
        {_quoted([*SHOWDOWN, "sim", "games", "--count", "1", "--db", str(db)])}
    """
    done = _namespace(script, user_root=True)
    _one_line(done.returncode, done.stderr, f"{db}: read-only file system")
