"""Where no browser is installed the browser tests skip, saying why in one line; under
``.ci/run`` (``SHOWDOWN_BROWSER_TESTS=required``) the same absence fails the run instead."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[3]


def _collect(**env: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "pytest", "-q", "-rs", "-p", "no:cacheprovider",
               "tests/showdown/web/test_browser.py"]
    return subprocess.run(command, cwd=REPO, capture_output=True, text=True, timeout=120,
                          check=False,
                          env={**os.environ, "SHOWDOWN_CHROMIUM": "/nonexistent/chromium",
                               **env})


def test_without_chromium_the_browser_tests_skip_saying_why_in_one_line() -> None:
    run = _collect(SHOWDOWN_BROWSER_TESTS="")
    assert run.returncode in (0, 5), run.stdout + run.stderr  # 5: nothing else to run
    skipped = [line for line in run.stdout.splitlines() if line.startswith("SKIPPED")]
    assert len(skipped) == 1, run.stdout
    assert "no Chromium at /nonexistent/chromium: install Debian's chromium" in skipped[0]
    assert "apt-get install -y chromium" in skipped[0]


def test_in_ci_a_missing_chromium_fails_the_run() -> None:
    run = _collect(SHOWDOWN_BROWSER_TESTS="required")
    assert run.returncode != 0
    assert "the browser tests cannot run: no Chromium at /nonexistent/chromium" in run.stdout
