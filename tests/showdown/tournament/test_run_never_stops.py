"""``showdown run --games 0`` means never stop (its help says so), in an event's free play too:
the simulated table played one game and ended (the event worker took 0 for 1)."""

from __future__ import annotations

import subprocess
import threading
import time
from pathlib import Path

import pytest

from showdown.game.journal import Journal
from tests.showdown.app.test_no_tracebacks import ENV, SHOWDOWN
from tests.showdown.tournament.conftest import Event


def _games(db: Path) -> int:
    if not db.exists():
        return 0
    with Journal.open(db, read_only=True) as journal:
        return len(journal.games())


@pytest.mark.parametrize("broker_kind", ["embedded"])
def test_a_table_told_never_to_stop_plays_a_second_game(event: Event, tmp_path: Path) -> None:
    db = tmp_path / "t1.db"
    code = f"{event.host.join_code.code.get_secret_value()}@127.0.0.1:{event.broker.port}"
    table = subprocess.Popen(
        [*SHOWDOWN, "run", "--sim", "--headless", "--fast", "--no-http", "--db", str(db),
         "--games", "0", "--event", code, "--event-keepalive", "5", "--event-resend-s", "1"],
        env=ENV, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
        text=True)
    pause = threading.Event()
    deadline = time.monotonic() + 240
    try:
        while _games(db) < 2:  # the journal the table keeps: a second game set up in it
            assert table.poll() is None, f"the table stopped: {table.communicate()[1]}"
            assert time.monotonic() < deadline, "no second game within 240 s"
            pause.wait(0.2)
        assert table.poll() is None  # and it plays on
    finally:
        table.terminate()
        _, err = table.communicate(timeout=60)
    assert "Traceback" not in err, err
