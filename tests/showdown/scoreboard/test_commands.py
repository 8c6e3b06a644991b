"""The scoreboard's subcommands: the benchmark prints its figures as JSON; bad options are one
clear line."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from showdown.app.cli import main


def test_bench_scoreboard_prints_every_screen_and_the_idle_figure(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["bench", "scoreboard", "--json", "--frames", "3", "--idle-seconds", "0.2"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert {"table", "showdown-go", "round", "history", "chart", "stats"} <= set(
        report["frame_ms"])
    for figures in report["frame_ms"].values():
        assert 0 < figures["p50"] <= figures["p95"] <= figures["max"]
    assert report["idle_cpu_seconds_per_minute"] >= 0
    assert report["size"] == "800x480"


@pytest.mark.parametrize("argv", [
    ["bench", "scoreboard", "--size", "huge"],
    ["scoreboard", "--size", "10x10"],
])
def test_bad_options_are_one_clear_line(argv: list[str],
                                        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("showdown: error:") and "Traceback" not in err


def test_a_corrupt_journal_is_refused_and_left_alone(tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "broken.db"
    db.write_bytes(b"not a database at all" * 100)
    assert main(["scoreboard", "--db", str(db)]) == 2
    assert "Traceback" not in capsys.readouterr().err
    assert db.read_bytes() == b"not a database at all" * 100


def test_run_interactive_starts_the_keyboard_unit_and_stops_cleanly(tmp_path: Path) -> None:
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
    process = subprocess.Popen(
        [sys.executable, "-m", "showdown", "run", "--interactive", "--db",
         str(tmp_path / "play.db")],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    assert process.stdout is not None
    line = process.stdout.readline()  # printed once the scoreboard and the unit are up
    assert "running" in line
    process.send_signal(signal.SIGINT)
    _out, err = process.communicate(timeout=20)
    assert process.returncode == 0
    assert "played from the keyboard" in err
    assert "every output is safe" in err
