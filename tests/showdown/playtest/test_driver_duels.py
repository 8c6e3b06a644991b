"""Each launcher motor driver's example configuration plays showdowns on the simulated unit: the
simulated launcher reads the board's pins through its datasheet's truth table, so a showdown
launches only if the back end drives that board the right way.

``showdown sim duels --count 20 --config deploy/examples/launcher-<driver>.toml`` runs as a
user types it (the gpio back end), and the same duels run through the simulated Pico.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from showdown.app.config import load_settings
from showdown.playtest.duels import run_duels
from showdown.unit.drivers import DRIVER_NAMES

REPO = Path(__file__).resolve().parents[3]
EXAMPLES = REPO / "deploy" / "examples"
ENV = {**os.environ, "SDL_VIDEODRIVER": "dummy", "PYTHONUNBUFFERED": "1"}


def test_there_is_one_example_configuration_per_driver() -> None:
    assert sorted(path.name for path in EXAMPLES.glob("launcher-*.toml")) == sorted(
        f"launcher-{name}.toml" for name in DRIVER_NAMES)


@pytest.mark.parametrize("name", DRIVER_NAMES)
def test_sim_duels_decide_and_launch_with_the_example(name: str) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "showdown", "sim", "duels", "--count", "20", "--config",
         str(EXAMPLES / f"launcher-{name}.toml"), "--json"],
        env=ENV, capture_output=True, text=True, timeout=300, check=False, cwd=REPO,
    )
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["decided"] == report["decided_correctly"] > 0
    assert report["launches"] > 0
    assert report["missed_launches"] == report["stray_launches"] == 0


@pytest.mark.parametrize("name", DRIVER_NAMES)
def test_duels_through_the_simulated_pico_decide_and_launch(name: str) -> None:
    settings = load_settings(EXAMPLES / f"launcher-{name}.toml").unit
    report = run_duels(12, seed=5, backend="serial", settings=settings)
    assert report.decided == report.decided_correctly > 0
    assert report.launches > 0
    assert report.missed_launches == report.stray_launches == 0
