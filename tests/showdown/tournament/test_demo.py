"""``showdown event demo`` end to end: real processes, a real broker of each kind."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest


def demo(*options: str, folder: Path) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "showdown", "event", "demo", "--json", "--dir", str(folder),
         *options], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"})


def test_a_free_evening_with_a_broker_restart_and_a_crash(tmp_path: Path,
                                                          broker_kind: str) -> None:
    process = demo("--tables", "2", "--format", "free", "--target", "100",
                   "--broker-restarts", "1", "--table-crashes", "1", "--broker", broker_kind,
                   folder=tmp_path)
    out, err = process.communicate(timeout=900)  # a hang's guard, not a race
    assert process.returncode == 0, err[-2000:]
    result = json.loads(out.strip().splitlines()[-1])
    assert result["broker"] == broker_kind
    assert result["faults"]["broker_restarts"] == 1
    assert (result["lost"], result["duplicated"], result["standings_match"]) == (0, 0, True)
    assert result["pending"] == 0
    assert result["entries_made"] == result["entries_counted"] > 0
    assert len(result["standings"]) == 8 and all(h > 0 for h in result["hands"].values())


def test_sigint_stops_the_evening_and_still_prints_the_json(tmp_path: Path) -> None:
    process = demo("--tables", "2", "--format", "swiss", "--speed", "1", folder=tmp_path)
    assert process.stderr is not None
    said: list[str] = []
    for line in process.stderr:  # the evening is under way once both tables joined
        said.append(line)
        if "tables joined the event" in line:
            break
    else:
        pytest.fail("the evening ended before its tables joined:\n" + "".join(said[-20:]))
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=900)  # a hang's guard, not a race
    assert out.strip(), f"no JSON after SIGINT (exit {process.returncode}):\n{err[-2000:]}"
    result = json.loads(out.strip().splitlines()[-1])
    assert result["stopped"] == "SIGINT"
    assert result["lost"] == 0 and result["duplicated"] == 0
    assert result["entries_counted"] + result["pending"] == result["entries_made"]
    assert set(result) >= {"tables", "format", "hands", "entries_made", "entries_counted",
                           "lost", "duplicated", "standings_match", "standings", "broker",
                           "seconds"}


@pytest.mark.soak
def test_the_done_when_evening(tmp_path: Path, broker_kind: str) -> None:
    """The issue's command: partners-8, two broker restarts, two crashed tables."""
    process = demo("--tables", "2", "--format", "partners-8", "--broker-restarts", "2",
                   "--table-crashes", "2", "--broker", broker_kind, folder=tmp_path)
    out, err = process.communicate(timeout=900)
    assert process.returncode == 0, err[-2000:]
    result = json.loads(out.strip().splitlines()[-1])
    assert result["hands"] == {"t1": 28, "t2": 28}
    assert (result["lost"], result["duplicated"], result["standings_match"]) == (0, 0, True)
