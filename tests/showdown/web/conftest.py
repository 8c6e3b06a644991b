"""A table's page over a real session in a real journal file, for Starlette's TestClient."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from html import unescape
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from engine.scoring import ScoringSettings
from showdown.game.journal import Journal
from showdown.game.messages import HandEntry, RecordRound, RecordShowdown, SetUpGame
from showdown.game.session import Session
from showdown.game.table_model import TableModel
from showdown.tournament.view import TournamentSource
from showdown.web.app import table_app
from showdown.web.hub import Hub
from showdown.web.pin import PinGuard
from showdown.web.table import PARTS, TableSource

PIN = "4821"


class FakeClock:
    """Monotonic seconds that move only when a test says so."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@dataclass
class Page:
    """A table's page, its session and the PIN guard's clock."""

    client: TestClient
    session: Session
    source: TableSource
    hub: Hub
    clock: FakeClock


def shown_text(html: str) -> str:
    """What a reader sees of ``html``: its text, the tags (a name's ``<bdi>``) left out and the
    entities read, spaces as one."""
    return " ".join(unescape(re.sub(r"<[^>]*>", "", html)).split())


def login(client: TestClient, pin: str = PIN) -> str:
    """Type the PIN on ``client``'s page: its session's cookie is kept, its first one-time
    token returned."""
    answer = client.post("/api/login", json={"pin": pin})
    assert answer.status_code == 200, answer.text
    token: str = answer.json()["token"]
    return token


def play(session: Session, players: list[str], rounds: int = 2) -> None:
    """A set-up, a showdown and ``rounds`` rounds, the first player going out each time."""
    session.handle(SetUpGame(players=players, preset="showdown",
                             scoring=ScoringSettings(target=500)))
    session.handle(RecordShowdown(winner=players[0], loser=players[1], cards_loaded=2,
                                  source="unit", left=players[0], right=players[1],
                                  reaction_ms={players[0]: 201.0, players[1]: 263.0}))
    for _ in range(rounds):
        session.handle(RecordRound(went_out=players[0], hands={
            name: HandEntry(points=10 * (i + 1)) for i, name in enumerate(players[1:])}))


@pytest.fixture
def page(tmp_path: Path) -> Iterator[Page]:
    journal = Journal.open(tmp_path / "table.db", writable=True)
    session = Session(journal)
    hub = Hub(PARTS)
    model: TableModel[TournamentSource] = TableModel(session)
    unsubscribe = model.subscribe(hub.changed)
    source = TableSource(model)
    clock = FakeClock()
    app = table_app(source, hub, PinGuard(lambda: PIN, clock=clock))
    with TestClient(app, client=("192.0.2.10", 50000)) as client:
        yield Page(client, session, source, hub, clock)
    unsubscribe()
    model.close()
    journal.close()
