"""An ordinary (non-editable) install runs the serial simulator: the firmware ships inside it.

``deploy/install.sh`` installs the project into a venv, not as an editable checkout, so nothing may
be found by its path in the repository. This test installs the project the same way into a fresh
venv, runs it from a directory outside the checkout, and plays duels through the simulated
microcontroller, which loads the Pico firmware from the installed package data.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import sysconfig
import venv
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def _purelib(python: Path) -> Path:
    out = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True, text=True, check=True,
    )
    return Path(out.stdout.strip())


def test_a_non_editable_install_runs_the_serial_simulator(tmp_path: Path) -> None:
    target = tmp_path / "venv"
    venv.EnvBuilder(with_pip=True).create(target)
    python = target / "bin" / "python"
    subprocess.run(
        [str(python), "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
         "--no-deps", str(REPO)],
        check=True, capture_output=True, timeout=300,
    )
    # The dependencies (gpiozero, pyserial, pydantic, ...) come from the test's own environment,
    # added as a plain path: its .pth files (the editable finder of the checkout) are not run.
    (_purelib(python) / "showdown-test-deps.pth").write_text(sysconfig.get_paths()["purelib"])
    env = {k: v for k, v in os.environ.items() if k not in {"PYTHONPATH", "PYTHONHOME"}}
    result = subprocess.run(
        [str(target / "bin" / "showdown"), "sim", "duels", "--backend", "serial", "--count", "20",
         "--json"],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300, check=False,
    )
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr
    report = json.loads(result.stdout)
    assert report["duels"] == 20
    assert report["decided"] == report["decided_correctly"] > 0
    # It really ran the installed copy, not the checkout.
    where = subprocess.run(
        [str(python), "-c", "import hw_sim.firmware as f; print(f.FIRMWARE_DIR)"],
        cwd=tmp_path, env=env, capture_output=True, text=True, check=True,
    ).stdout.strip()
    assert where.startswith(str(target)), where
    assert sys.prefix != str(target)
