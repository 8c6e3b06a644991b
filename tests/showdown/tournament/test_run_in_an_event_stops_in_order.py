"""A table in an event stops its link in its own phase: after the scoreboard and the phone page
have closed, before the journal it publishes from is closed (the real ``showdown run --event``
against a real host and broker; :mod:`tests.showdown.app.shutdown_watch` looks at each phase)."""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

from collections.abc import Iterator
from pathlib import Path

import pygame
import pytest

from showdown.app.cli import main
from tests.showdown.app.shutdown_watch import check_order, stop_signal, watching
from tests.showdown.tournament.conftest import Event


@pytest.fixture(autouse=True)
def _no_window_left() -> Iterator[None]:
    yield
    pygame.display.quit()


@pytest.mark.parametrize("broker_kind", ["embedded"])
def test_the_event_link_stops_after_the_front_ends_and_before_the_journal(
    event: Event, tmp_path: Path,
) -> None:
    db = tmp_path / "t1.db"
    code = f"{event.host.join_code.code.get_secret_value()}@127.0.0.1:{event.broker.port}"
    with watching(db, stop_signal) as watch:
        assert main(["run", "--sim", "--fast", "--db", str(db), "--http", "127.0.0.1:0",
                     "--event", code, "--table-name", "t1", "--event-keepalive", "5",
                     "--event-resend-s", "1"]) == 0
    assert "SIGTERM received: stopping" in watch.lines
    check_order(watch, db, event=True)
