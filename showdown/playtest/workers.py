"""What plays on the simulated table: the virtual players, for a number of games or for ever, or
the seating an event's host publishes (:mod:`showdown.playtest.tournament_bots`).

The service runs the worker on a thread of its own and stops it first when it stops (the
shutdown's table phase).
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from engine.scoring import ScoringSettings
from showdown.game.session import Session
from showdown.playtest.bot_table import BotTable, Referee, TableStopped
from showdown.playtest.tournament_bots import TournamentTable
from showdown.tournament.table_link import TableLink

__all__ = ["DRAIN_S", "Bots", "Worker", "bot_worker", "tournament_worker"]

log = logging.getLogger("showdown.run")  # what the service says of its table

DRAIN_S = 120.0
"""After its last game a simulated table waits up to this long for the host to acknowledge
every entry before it stops (the entries stay in the outbox either way)."""

Worker = Callable[[threading.Event], None]
"""Plays until done or until the event it is given is set (the service's stop)."""


@dataclass(frozen=True)
class Bots:
    """The virtual players' table, as the command line sets it (``--seed``, ``--players``...)."""

    seed: int
    players: int
    preset: str
    scoring: ScoringSettings
    games: int
    """Stop after this many games (0: never, in an event's free play too)."""


def bot_worker(session: Session, referee: Referee, bots: Bots, link: TableLink | None,
               path: Path) -> Worker:
    """The worker for the simulated table: the event's games when the table is in one, else
    its own."""
    if link is not None:
        return tournament_worker(session, referee, link, seed=bots.seed, players=bots.players,
                                 preset_name=bots.preset, games=bots.games, path=path)

    def play(stop: threading.Event) -> None:
        table = BotTable(session, referee, seed=bots.seed, players=bots.players,
                         preset_name=bots.preset, scoring=bots.scoring, stop=stop)
        played = 0
        try:
            while not stop.is_set() and (bots.games == 0 or played < bots.games):
                table.play_game(game_number=len(session.journal.games()))
                played += 1
        except TableStopped:
            return

    return play


def tournament_worker(session: Session, referee: Referee, link: TableLink, *, seed: int,
                      players: int, preset_name: str, games: int,
                      path: Path) -> Worker:
    """The simulated table's worker: play the event, then wait for the outbox to drain."""

    def play(stop: threading.Event) -> None:
        table = BotTable(session, referee, seed=seed, players=players, preset_name=preset_name,
                         stop=stop)
        try:
            TournamentTable(table, link, games=games, stop=stop).play()  # 0: never stop
        except TableStopped:
            return
        deadline = time.monotonic() + DRAIN_S
        while link.unacknowledged() and time.monotonic() < deadline and not stop.is_set():
            stop.wait(0.2)
        left = link.unacknowledged()
        if left:
            log.warning("%d entries of %s are not acknowledged yet; they go out next start",
                        left, path)

    return play
