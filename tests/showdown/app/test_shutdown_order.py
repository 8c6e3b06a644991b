"""The service stops in one order however its loop ends: the table, the unit's outputs, the front
ends, the journal.

Each case runs the real ``showdown run`` in this process: the simulated unit with its virtual
players, the scoreboard on SDL's dummy driver, the phone page on a free port, a real journal. The
loop is ended one of the five ways it can end (a stop signal, the window closed, the games
finished, standard output lost, an exception); at the end of each shutdown phase the test looks
at what a user could (:mod:`tests.showdown.app.shutdown_watch`).
"""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import socket
import sys
from collections.abc import Iterator
from pathlib import Path

import pygame
import pytest

from showdown.app.cli import main
from showdown.app.parts.shutdown import Phase
from showdown.game.journal import Journal
from showdown.game.session import Session
from tests.showdown.app.shutdown_watch import (
    check_order,
    close_window,
    command,
    display_gone,
    nothing,
    stop_signal,
    watching,
)


@pytest.fixture(autouse=True)
def _no_window_left() -> Iterator[None]:
    yield
    pygame.display.quit()


def test_a_stop_signal_stops_the_table_the_unit_the_front_ends_then_the_journal(
    tmp_path: Path,
) -> None:
    db = tmp_path / "signal.db"
    with watching(db, stop_signal) as watch:
        assert main(command(db)) == 0
    assert "SIGTERM received: stopping" in watch.lines
    assert watch.lines[-1] == "stopped; every output is safe and the journal is closed"
    check_order(watch, db)


def test_closing_the_window_stops_in_the_same_order(tmp_path: Path) -> None:
    db = tmp_path / "window.db"
    with watching(db, close_window) as watch:
        assert main(command(db)) == 0
    check_order(watch, db)


def test_the_last_game_finished_stops_in_the_same_order(tmp_path: Path) -> None:
    db = tmp_path / "games.db"
    with watching(db, nothing) as watch:
        assert main(command(db, "--games", "1")) == 0
    check_order(watch, db)
    with Journal.open(db) as journal:
        state = Session(journal).state
        assert state is not None and state.is_over


def test_standard_output_lost_stops_in_the_same_order_with_status_1(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
) -> None:
    db = tmp_path / "lost.db"
    reader, writer = os.pipe()
    os.close(reader)  # nobody reads: the first status line finds the pipe closed
    with open(writer, "w", encoding="utf-8") as closed_pipe:
        monkeypatch.setattr(sys, "stdout", closed_pipe)
        with watching(db, nothing) as watch:
            assert main(command(db)) == 1
        monkeypatch.undo()
    assert "standard output cannot be written" in capsys.readouterr().err
    check_order(watch, db)


def test_an_exception_in_the_loop_still_stops_in_the_same_order(tmp_path: Path) -> None:
    db = tmp_path / "failure.db"
    with watching(db, display_gone) as watch, pytest.raises(pygame.error):
        main(command(db))
    check_order(watch, db, window=False)


def test_a_start_that_fails_half_way_closes_what_it_opened_in_the_same_order(
    tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    """The phone page's address is taken once the unit is open: the unit is made safe, then the
    journal is released, and the next start may open it."""
    db = tmp_path / "start.db"
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        with watching(db, nothing) as watch:
            code = main(command(db, http=f"127.0.0.1:{port}"))
    assert code == 2
    assert "choose another with --http HOST:PORT" in capsys.readouterr().err
    assert [seen.phase for seen in watch.seen] == [Phase.UNIT.value, Phase.JOURNAL.value]
    unit, journal = watch.seen
    assert not unit.unit_running and unit.journal_held and not unit.window_open
    assert not journal.journal_held
