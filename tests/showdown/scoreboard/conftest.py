"""Scoreboard tests: a real pygame-ce window on SDL's dummy driver over a real session.

Touches are injected as SDL delivers them (FINGERDOWN/FINGERUP with normalised positions) and
run through the scoreboard's own loop; screenshots of every screen go to ``tests/_artifacts``.
"""

from __future__ import annotations

import os

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"

from collections.abc import Iterator
from pathlib import Path

import pytest

from showdown.game.journal import Journal
from showdown.game.session import Session
from showdown.scoreboard.adapter import SessionPort
from showdown.scoreboard.app import Scoreboard
from showdown.scoreboard.i18n import set_language
from tests.showdown.scoreboard.helpers import ARTIFACTS


@pytest.fixture
def session(tmp_path: Path) -> Iterator[Session]:
    journal = Journal.open(tmp_path / "showdown.db")
    yield Session(journal)
    journal.close()


@pytest.fixture
def table(session: Session) -> SessionPort:
    return SessionPort(session)


@pytest.fixture
def board(table: SessionPort) -> Iterator[Scoreboard]:
    set_language("en")
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    scoreboard = Scoreboard(table)
    scoreboard.frame()
    yield scoreboard
    set_language("en")
    scoreboard.close()
