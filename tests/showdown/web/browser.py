"""Headless Chromium (Debian's ``chromium``) driven by Playwright, and a ``showdown run`` to
point it at: the rig of the browser tests.

No browser is ever downloaded: Playwright launches the system's Chromium by its path, with the
flags a closed network needs (no background networking, no component updates, no sync, no QUIC)
and a fresh profile each time.
"""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from playwright.sync_api import ViewportSize

CHROMIUM = Path(os.environ.get("SHOWDOWN_CHROMIUM", "/usr/bin/chromium"))
"""Debian's Chromium (``SHOWDOWN_CHROMIUM`` names another path: the skip's own test)."""
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]
PHONE: ViewportSize = {"width": 360, "height": 640}


def why_not() -> str | None:
    """Why the browser tests cannot run here (None: they can)."""
    if not CHROMIUM.exists():
        return (f"no Chromium at {CHROMIUM}: install Debian's chromium "
                "(apt-get install -y chromium) to run the browser tests")
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "Playwright for Python is not installed (pip install -e '.[dev]')"
    return None


@contextmanager
def chromium() -> Iterator[Any]:
    """A browser context with a fresh profile (``--user-data-dir``), phone-sized pages."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as driver, tempfile.TemporaryDirectory() as profile:
        context = driver.chromium.launch_persistent_context(
            profile, executable_path=str(CHROMIUM), headless=True, args=FLAGS,
            viewport=PHONE, accept_downloads=True)
        try:
            yield context
        finally:
            context.close()


def free_port() -> int:
    """A port free on 127.0.0.1 now (the service binds it with SO_REUSEADDR)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class Service:
    """``showdown run --sim --headless`` in a process of its own."""

    def __init__(self, db: Path, port: int, *extra: str) -> None:
        self.db = db
        self.port = port
        self.extra = extra
        self.process: subprocess.Popen[str] | None = None
        self.output: list[str] = []

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/"

    def start(self, timeout_s: float = 60.0) -> None:
        """Start it and wait for the line saying where phones follow the table."""
        command = [sys.executable, "-m", "showdown", "run", "--sim", "--headless", "--db",
                   str(self.db), "--http", f"127.0.0.1:{self.port}", *self.extra]
        self.process = subprocess.Popen(command, stdout=subprocess.PIPE,
                                        stderr=subprocess.STDOUT, text=True, bufsize=1,
                                        env={**os.environ, "PYTHONUNBUFFERED": "1"})
        assert self.process.stdout is not None
        deadline = time.monotonic() + timeout_s
        for line in self.process.stdout:
            self.output.append(line)
            if re.search(r"Phones follow the table at", line):
                return
            if time.monotonic() > deadline:
                break
        raise AssertionError("the service did not start:\n" + "".join(self.output))

    def stop(self) -> int:
        """SIGTERM, and its exit status."""
        assert self.process is not None
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
        try:
            return self.process.wait(30)
        finally:
            if self.process.stdout is not None:
                self.output += self.process.stdout.readlines()

    def wait(self, timeout_s: float) -> int:
        """Its exit status once it ends by itself."""
        assert self.process is not None
        code = self.process.wait(timeout_s)
        if self.process.stdout is not None:
            self.output += self.process.stdout.readlines()
        return code


LATENCY_PROBE = """
window.__latencies = [];
new MutationObserver((records) => {
  for (const record of records) {
    const box = record.target;
    if (record.attributeName !== "data-at" || box.id !== "part-table") continue;
    const at = Number(box.dataset.at);
    if (Number(record.oldValue) === at) continue;  // a stream's first message: nothing new
    requestAnimationFrame(() => window.__latencies.push(Date.now() - at));
  }
}).observe(document, {subtree: true, attributes: true, attributeOldValue: true,
                      attributeFilter: ["data-at"]});
"""
"""Injected by the test (never part of the page): for every update of the score, the time
from the entry's recording at the table (the stamp the update carries) to the next frame the
browser paints with it. A stream's first message repeats what the page already shows (the same
stamp): it is no update, and its age is not a latency."""


def page_totals(page: Any) -> dict[str, int]:
    """The totals the page shows, by name."""
    rows = page.eval_on_selector_all(
        "#standings [data-name]", "rows => rows.map(r => [r.dataset.name, r.dataset.total])")
    return {name: int(total) for name, total in rows}


def write_figures(name: str, figures: dict[str, Any]) -> Path:
    """Keep a measurement where `make test` leaves artifacts (git-ignored), and print it."""
    folder = Path(__file__).resolve().parents[2] / "_artifacts"
    folder.mkdir(exist_ok=True)
    path = folder / f"{name}.json"
    path.write_text(json.dumps(figures, indent=1), encoding="utf-8")
    print(name, json.dumps(figures))
    return path
