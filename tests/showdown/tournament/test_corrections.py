"""A correction during a Swiss evening: a finished game of round 1 undone and recorded again with
another result while round 2 is played. The round once seated stays seated (the same tables, the
same player sitting out), the standings change, the host says so, and the simulated table beside
it (a process of its own) plays on to the end of the event instead of crashing."""

from __future__ import annotations

import logging
import subprocess
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from engine.scoring import ScoringSettings
from engine.tournament import GameRecord
from showdown.game.messages import CorrectShowdown, HandEntry, RecordRound, SetUpGame, UndoLast
from showdown.game.session import Session
from showdown.playtest.bot_table import BotTable, TableStopped, coin_referee
from showdown.playtest.tournament_bots import TournamentTable
from showdown.tournament.games import setup_key
from showdown.tournament.host import new_tournament_id
from showdown.tournament.messages import Correction, SeatingMessage, TournamentInfo
from showdown.tournament.table_link import TableLink
from tests.showdown.app.test_no_tracebacks import ENV, SHOWDOWN
from tests.showdown.tournament.conftest import NAMES, Event, hosted, wait_for

PLAYERS = [*NAMES, "Ivo"]
"""Nine players at two tables of four: one sits out each round."""

ONE_HAND = ScoringSettings(rounds=1, target=None)


@pytest.fixture
def swiss(tmp_path: Path, broker_kind: str) -> Iterator[Event]:
    info = TournamentInfo(event=new_tournament_id(), name="swiss", format="swiss",
                          players=PLAYERS, tables=["t1", "t2"], rounds=3, hands_per_round=1)
    with hosted(tmp_path, broker_kind, info) as running:
        yield running


def play_round(session: Session, event: str, seating: SeatingMessage, went_out: str) -> None:
    """The scorekeeper of t1 sets up the seated round's game and records its one hand."""
    players = seating.tables["t1"]
    assert seating.round is not None
    session.handle(SetUpGame(players=players, scoring=ONE_HAND, first_dealer=players[0],
                             command_id=setup_key(7, event, seating.round)))
    record(session, players, went_out)


def record(session: Session, players: list[str], went_out: str) -> None:
    hands = {name: HandEntry(points=10 * (index + 1)) for index, name in enumerate(players)
             if name != went_out}
    answer = session.handle(RecordRound(went_out=went_out, hands=hands))
    assert answer[0].kind == "round_recorded", answer


def round_1_at_t1(event: Event) -> GameRecord | None:
    """What the host holds of t1's round-1 game."""
    return held(event, "t1", 1)


def held(event: Event, table: str, round_: int) -> GameRecord | None:
    """What the host holds of ``table``'s game of ``round_``."""
    return next((r for r in event.host.records() if r.table == table and r.round == round_),
                None)


class Bots:
    """t2's simulated table in this process, on a thread of its own, as ``showdown run`` plays
    it; ``failed`` holds what ended it other than the end of the event."""

    def __init__(self, session: Session, link: TableLink) -> None:
        self.stop = threading.Event()
        self.failed: list[BaseException] = []
        table = BotTable(session, coin_referee(5), seed=5, stop=self.stop)
        self.tournament = TournamentTable(table, link, stop=self.stop)
        self.thread = threading.Thread(target=self._run, name="bots")
        self.thread.start()

    def _run(self) -> None:
        try:
            self.tournament.play()
        except TableStopped:
            return
        except BaseException as error:
            self.failed.append(error)

    def halt(self) -> None:
        self.stop.set()
        self.thread.join(timeout=30)


def test_a_correction_to_round_1_changes_the_standings_and_leaves_round_2_seated(
        swiss: Event, tmp_path: Path) -> None:
    host, game = swiss.host, swiss.host.info.event
    link = swiss.table(swiss.join("API"))  # t1: a scorekeeper, through the session
    session = Session(link.journal)
    code = f"{host.join_code.code.get_secret_value()}@127.0.0.1:{swiss.broker.port}"
    bots = subprocess.Popen(  # t2: a simulated table, a process of its own
        [*SHOWDOWN, "run", "--sim", "--headless", "--fast", "--no-http",
         "--db", str(tmp_path / "t2.db"), "--event", code, "--event-keepalive", "5",
         "--event-resend-s", "1"],
        env=ENV, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
        text=True)
    try:
        first = host.seating()
        assert (first.round, first.byes) == (1, ["Ivo"])
        play_round(session, game, first, went_out="Ada")
        assert wait_for(lambda: host.seating().round == 2, 120), "round 2 was never seated"
        seated = host.seating()
        assert bots.poll() is None

        finished = round_1_at_t1(swiss)
        assert finished is not None and finished.over
        session.handle(UndoLast())  # t1's round-1 game is open again
        assert wait_for(lambda: not getattr(round_1_at_t1(swiss), "over", True))
        assert same_seating(host.seating(), seated), "the undo took the event back to round 1"

        record(session, first.tables["t1"], went_out="Dev")  # recorded again, another result
        assert wait_for(lambda: getattr(round_1_at_t1(swiss), "over", False))
        corrected = round_1_at_t1(swiss)
        assert corrected is not None and corrected.players != finished.players
        now = host.seating()
        assert same_seating(now, seated), "round 2 was seated again after the correction"
        assert now.correction == Correction(round=1, table="t1", seated=2)
        assert bots.poll() is None, f"the simulated table stopped: {bots.communicate()[1]}"

        for _round in (2, 3):  # t1 plays on; the simulated table finishes the event with it
            seating = host.seating()
            if seating.tables.get("t1"):
                play_round(session, game, seating, went_out=seating.tables["t1"][0])
            assert wait_for(lambda number=seating.round: host.seating().round != number, 120)
        assert host.seating().over
        assert host.seating().correction is None  # round 3 was seated from the new standings
        assert bots.poll() is None, f"the simulated table stopped: {bots.communicate()[1]}"
    finally:
        bots.terminate()
        _, err = bots.communicate(timeout=60)
    assert "Traceback" not in err, err


def same_seating(now: SeatingMessage, then: SeatingMessage) -> bool:
    return (now.round, now.tables, now.byes) == (then.round, then.tables, then.byes)



def test_the_simulated_table_plays_on_after_a_showdown_of_its_round_is_corrected(
        swiss: Event, caplog: pytest.LogCaptureFixture) -> None:
    """At the simulated table someone takes back the last hand of its finished round-1 game and
    turns its last showdown the other way: the bots' replay of the hand no longer fits what
    was recorded. The table waits (it crashed before) until the hand is recorded by hand, then
    plays its round 2."""
    caplog.set_level(logging.WARNING, "showdown.playtest.tournament")
    host, game = swiss.host, swiss.host.info.event
    people = swiss.table(swiss.join("API"))
    session = Session(people.journal)
    machine = swiss.table(swiss.join("Bots"))
    bots_session = Session(machine.journal)
    bots = Bots(bots_session, machine)
    try:
        assert wait_for(lambda: getattr(held(swiss, "t2", 1), "over", False), 120)
        bots.halt()  # the table is switched off while someone corrects its last hand
        assert bots.failed == []
        bots_session.handle(UndoLast())
        state = bots_session.state
        assert state is not None
        last = [s for s in state.showdowns if s.round == state.current_round][-1]
        answer = bots_session.handle(CorrectShowdown(winner=last.loser, loser=last.winner))
        assert answer[0].kind != "entry_rejected", answer

        bots = Bots(bots_session, machine)  # switched on again: the bots replay the hand
        players = list(state.players)
        assert wait_for(lambda: bots.failed != [] or "after a correction" in caplog.text, 60)
        assert bots.failed == [], f"the simulated table crashed: {bots.failed!r}"
        record(bots_session, players, went_out=players[1])  # the hand, recorded by a person
        play_round(session, game, host.seating(), went_out="Ada")
        assert wait_for(lambda: host.seating().round == 2, 60)
        assert wait_for(lambda: getattr(held(swiss, "t2", 2), "over", False)
                        or bots.failed != [], 120)
        assert bots.failed == [], f"the simulated table crashed: {bots.failed!r}"
    finally:
        bots.halt()
