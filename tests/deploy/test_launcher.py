"""The ``showdown`` command compiled from deploy/launcher.c: a stop signal in the first
milliseconds, while the interpreter itself starts, waits for showdown's own handler and stops the
command in one line; once showdown runs, the signals reach it as before.

Against pip's script (``python -m showdown`` alike), the first test fails: a SIGINT in the
interpreter's start gives CPython's "Fatal Python error" and a KeyboardInterrupt traceback."""

from __future__ import annotations

import os
import random
import shutil
import signal
import subprocess
import sys
import threading
from pathlib import Path

import pytest

DEPLOY = Path(__file__).resolve().parents[2] / "deploy"
CC = shutil.which(os.environ.get("CC", "cc"))
needs_cc = pytest.mark.skipif(CC is None, reason="no C compiler here to build deploy/launcher.c")
STOPS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)


@pytest.fixture(scope="module")
def launcher(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """deploy/launcher.c compiled for the interpreter running these tests."""
    assert CC is not None
    command = tmp_path_factory.mktemp("launcher") / "showdown"
    built = subprocess.run([CC, "-O2", "-Wall", "-Werror", f'-DPYTHON="{sys.executable}"', "-o",
                            str(command), str(DEPLOY / "launcher.c")], check=False)
    if built.returncode != 0:  # CC=/bin/false: the fallback's machine (make test checks it)
        pytest.skip(f"the C compiler {CC} failed on deploy/launcher.c (exit {built.returncode})")
    return command


def _status(pid: int, field: str) -> int:
    """A signal mask of the process from /proc (``SigCgt``, ``SigBlk``), 0 once it is gone."""
    try:
        lines = Path(f"/proc/{pid}/status").read_text().splitlines()
    except OSError:
        return 0
    return next((int(line.split()[1], 16) for line in lines if line.startswith(field + ":")), 0)


@needs_cc
def test_a_stop_signal_while_python_starts_stops_the_command_in_one_line(
    launcher: Path, tmp_path: Path
) -> None:
    """Six stop signals, each 0-60 ms after the start (the interpreter's own start-up takes
    20-60 ms here): never a traceback; the command says it was stopped and exits 128 + the signal
    (or, had it been quick, finished)."""
    rng = random.Random(24)
    env = {**os.environ, "HOME": str(tmp_path)}
    for trial in range(6):
        signum = STOPS[trial % len(STOPS)]
        child = subprocess.Popen([str(launcher), "export", "--list"], stdout=subprocess.PIPE,
                                 stderr=subprocess.PIPE, text=True, env=env)
        threading.Event().wait(rng.uniform(0, 0.06))
        child.send_signal(signum)
        _out, err = child.communicate(timeout=60)
        assert "Traceback" not in err and "Fatal Python error" not in err, err
        if child.returncode != 0:
            assert (child.returncode, err.strip()) == (128 + signum,
                                                       f"showdown: stopped by {signum.name}")


@needs_cc
def test_once_showdown_runs_the_stop_signals_reach_it(launcher: Path, tmp_path: Path) -> None:
    """The launcher's block is lifted by showdown's first lines: once they have put in their
    handler, the process blocks no stop signal, and a SIGTERM stops it cleanly: with every output
    safe, or, if it came before the service had built anything, in one line."""
    child = subprocess.Popen(
        [str(launcher), "run", "--sim", "--headless", "--fast", "--db", str(tmp_path / "j.db")],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env={**os.environ, "HOME": str(tmp_path), "PYTHONUNBUFFERED": "1"})
    hup = 1 << (signal.SIGHUP - 1)
    while child.poll() is None and not _status(child.pid, "SigCgt") & hup:
        threading.Event().wait(0.002)  # until showdown's first handler is in
    blocked = _status(child.pid, "SigBlk")
    child.send_signal(signal.SIGTERM)
    _out, err = child.communicate(timeout=60)
    assert [s.name for s in STOPS if blocked & (1 << (s - 1))] == []
    if child.returncode == 0:
        assert "every output is safe" in err
    else:
        assert (child.returncode, err.strip()) == (143, "showdown: stopped by SIGTERM")


def test_build_launcher_keeps_pips_script_without_a_compiler(tmp_path: Path) -> None:
    """No working C compiler: pip's script stays as it was, and one line says why."""
    venv = tmp_path / "venv"
    (venv / "bin").mkdir(parents=True)
    (venv / "bin" / "python").symlink_to(sys.executable)
    script = venv / "bin" / "showdown"
    script.write_text("#!/bin/sh\necho pip's script\n")
    result = subprocess.run([str(DEPLOY / "build-launcher.sh"), str(venv)], capture_output=True,
                            text=True, env={**os.environ, "CC": "/bin/false"}, check=True)
    assert result.stdout.strip() == ("showdown launcher: the script pip wrote "
                                     "(the C compiler '/bin/false' failed on launcher.c)")
    assert script.read_text() == "#!/bin/sh\necho pip's script\n"
    assert sorted(p.name for p in (venv / "bin").iterdir()) == ["python", "showdown"]


@needs_cc
def test_build_launcher_puts_the_compiled_command_in_place(launcher: Path, tmp_path: Path) -> None:
    """A compiler that builds the launcher (the fixture): the script compiles it in pip's place."""
    venv = tmp_path / "venv"
    (venv / "bin").mkdir(parents=True)
    (venv / "bin" / "python").symlink_to(sys.executable)
    (venv / "bin" / "showdown").write_text("#!/bin/sh\n")
    result = subprocess.run([str(DEPLOY / "build-launcher.sh"), str(venv)], capture_output=True,
                            text=True, check=True)
    assert result.stdout.strip() == (
        "showdown launcher: compiled (the stop signals are held back while Python starts)")
    assert (venv / "bin" / "showdown").read_bytes()[:4] == b"\x7fELF"
    assert os.access(venv / "bin" / "showdown", os.X_OK)
    assert sorted(p.name for p in (venv / "bin").iterdir()) == ["python", "showdown"]
