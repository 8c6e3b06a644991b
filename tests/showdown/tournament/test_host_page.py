"""The event host does not wait for its page's process (a real host, its page's process made to
get no CPU as on a starved Pi): the host shows its join code and takes joins meanwhile, the page
serves once its process runs again, and a stop ends both in one line."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import urllib.request
from pathlib import Path

from showdown.tournament.brokers import free_port
from tests.showdown.tournament.conftest import wait_for
from tests.showdown.web.test_process import _exited, _page_process


def test_the_host_shows_its_join_code_while_its_page_still_starts(tmp_path: Path) -> None:
    """On a starved Pi the page's process took longer to start than the page's own time limit,
    and the host ended with "the phone page did not start", again at each of systemd's restarts:
    no join code was ever shown."""
    folder, page_port = tmp_path / "event", free_port()
    host = subprocess.Popen(
        [sys.executable, "-m", "showdown", "event", "host", "--dir", str(folder),
         "--broker", "embedded", "--bind", "127.0.0.1", "--port", str(free_port()),
         "--headless", "--http", f"127.0.0.1:{page_port}", "--no-mdns", "--tables", "1"],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        page = _page_process(host.pid)
        os.kill(page, signal.SIGSTOP)  # its process gets no CPU: a hog beside it
        code = folder / "join-code"
        assert wait_for(lambda: code.exists() or host.poll() is not None, 60)
        assert host.poll() is None, host.communicate(timeout=30)[1]
        os.kill(page, signal.SIGCONT)
        with urllib.request.urlopen(f"http://127.0.0.1:{page_port}/", timeout=60) as answer:
            assert answer.status == 200 and 'id="part-event"' in answer.read().decode()
        host.send_signal(signal.SIGINT)
        _, err = host.communicate(timeout=60)
        assert host.returncode == 0, err
        assert "Traceback" not in err
        assert _exited(page, 20), "the page's process outlived its host"
    finally:
        if host.poll() is None:
            host.kill()
            host.communicate()
