"""Bots at the simulated unit, the scoreboard watching: the showdown screen names the players,
cards and times of the showdown in progress, exactly as the journal then records them."""

from __future__ import annotations

import contextlib
import queue
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from showdown.app.scoreboard_main import build_scoreboard
from showdown.game.journal import Journal
from showdown.game.session import Session
from showdown.playtest.bot_table import BotTable, TableStopped
from showdown.playtest.referee import SimulatedReferee
from showdown.scoreboard.app import Scoreboard
from showdown.scoreboard.view import Stage
from showdown.unit.events import Launching, ShowdownEvent, ShowdownOutcome
from tests.showdown.scoreboard.helpers import shot

SHOWDOWNS = 6


@dataclass
class Seen:
    """The showdown screen's words at one moment."""

    left: str
    right: str
    cards: str
    story: str
    left_ms: str
    right_ms: str
    status: str
    phase: Stage


def _seen(board: Scoreboard) -> Seen:
    board.pump()
    assert board.current == "showdown"
    text = {w.id: getattr(w, "text", "") for w in board.widgets()}
    return Seen(text["left-name"], text["right-name"], text["cards"], text["story"],
                text["left-ms"], text["right-ms"], text["status"], board.view.showdown.phase)


@pytest.fixture
def referee() -> Iterator[SimulatedReferee]:
    unit = SimulatedReferee(seed=5, fast=True)
    yield unit
    unit.close()


def test_the_screen_shows_the_showdown_the_journal_records(
    tmp_path: Path, referee: SimulatedReferee
) -> None:
    journal = Journal.open(tmp_path / "bots.db")
    session = Session(journal)
    # As `showdown run --sim` builds it: the virtual players load the unit, the service records.
    board = build_scoreboard(session, machine=referee.machine, load_unit=False)
    handoffs: queue.Queue[tuple[ShowdownEvent, threading.Event]] = queue.Queue()

    def probe(event: ShowdownEvent) -> None:
        """Hold the unit's thread at a launch and a result until the screen has been read."""
        if isinstance(event, Launching | ShowdownOutcome):
            read = threading.Event()
            handoffs.put((event, read))
            read.wait(30)

    referee.machine.subscribe(probe)  # after the scoreboard's own subscription
    stop = threading.Event()
    table = BotTable(session, referee.referee, seed=5, players=4, stop=stop)
    failure: list[BaseException] = []

    def play() -> None:
        try:
            table.play_game()
        except TableStopped:
            pass
        except BaseException as error:
            failure.append(error)

    worker = threading.Thread(target=play, daemon=True)
    worker.start()
    at_launch: dict[int, Seen] = {}
    results: list[tuple[int, Seen]] = []
    try:
        # One result more than compared: the stop cuts off the entry of the last one.
        while len(results) <= SHOWDOWNS and (worker.is_alive() or not handoffs.empty()):
            try:
                event, read = handoffs.get(timeout=30)
            except queue.Empty:
                break
            seen = _seen(board)
            if isinstance(event, Launching):
                at_launch[event.showdown_id] = seen
                if len(at_launch) == 1:
                    shot(board, "bots-launching")
            elif not event.replay:
                results.append((event.showdown_id, seen))
                if len(results) == 1:
                    shot(board, "bots-result")
            read.set()
        stop.set()
        while worker.is_alive():  # let a showdown already under way finish
            with contextlib.suppress(queue.Empty):
                handoffs.get(timeout=1)[1].set()
        worker.join(10)
    finally:
        stop.set()
        board.close()
    assert not failure, failure
    state = session.state
    assert state is not None and len(state.showdowns) >= SHOWDOWNS
    assert len({(s.left, s.right) for s in state.showdowns[:SHOWDOWNS]}) > 1, "one pair only"
    for (unit_id, seen), recorded in zip(results, state.showdowns, strict=False):
        assert (seen.left, seen.right) == (recorded.left, recorded.right), (unit_id, recorded)
        cards = "1 card" if recorded.cards_loaded == 1 else f"{recorded.cards_loaded} cards"
        assert seen.cards == cards
        assert seen.phase is Stage.RESULT and seen.status.startswith(("Counted", "Settled"))
        times = recorded.reaction_ms
        assert recorded.left is not None and recorded.right is not None
        assert seen.left_ms == (f"{times[recorded.left]:.0f} ms" if recorded.left in times
                                else "")
        assert seen.right_ms == (f"{times[recorded.right]:.0f} ms" if recorded.right in times
                                 else "")
        if recorded.reason == "false-start":
            assert recorded.loser in seen.story
            assert unit_id not in at_launch
            continue
        assert seen.story == f"{recorded.winner} wins; {recorded.loser} takes {cards}"
        launch = at_launch[unit_id]
        # The winner is on screen the moment the cards fly, with the winner's reaction time.
        assert (launch.left, launch.right) == (recorded.left, recorded.right)
        assert launch.phase is Stage.LAUNCHING
        if recorded.reason == "race":
            assert launch.story == (f"{recorded.winner} wins; cards fly at {recorded.loser}")
            winner_ms = launch.left_ms if recorded.winner == recorded.left else launch.right_ms
            assert winner_ms == f"{times[recorded.winner]:.0f} ms"
