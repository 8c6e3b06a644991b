"""The next game and the last one: Rematch after game over, a finished game that stays finished,
and a set-up that starts from the table's players."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest

from engine.scoring import ScoringSettings
from showdown.game.journal import Journal
from showdown.game.messages import HandEntry, RecordRound, SetUpGame
from showdown.game.session import Session
from showdown.scoreboard.adapter import SessionPort
from showdown.scoreboard.app import Scoreboard
from showdown.scoreboard.i18n import set_language
from showdown.scoreboard.screens.setup import SetupScreen
from showdown.scoreboard.widgets import Button
from tests.showdown.scoreboard.helpers import shot, touch, widget

PLAYERS = ["Sakura", "José", "Zoë"]


def finish(session: Session) -> None:
    """A game to 50 that José ends in its second round (Sakura deals first)."""
    session.handle(SetUpGame(players=PLAYERS, preset="showdown",
                             scoring=ScoringSettings(target=50), first_dealer="Sakura"))
    session.handle(RecordRound(went_out="Zoë", hands={"Sakura": HandEntry(points=10),
                                                       "José": HandEntry(points=5)}))
    session.handle(RecordRound(went_out="José", hands={"Sakura": HandEntry(points=30),
                                                        "Zoë": HandEntry(points=40)}))
    assert session.state is not None and session.state.is_over


@pytest.fixture
def finished(tmp_path: Path) -> Iterator[Session]:
    with Journal.open(tmp_path / "finished.db") as journal:
        session = Session(journal)
        finish(session)
        yield session


@pytest.fixture
def over(finished: Session) -> Iterator[Scoreboard]:
    """A scoreboard opened over a journal whose game is finished (a restart after game over)."""
    set_language("en")
    board = Scoreboard(SessionPort(finished))
    board.frame()
    yield board
    board.close()


def test_a_finished_game_reopens_on_game_over_with_rematch_and_new_game(
    over: Scoreboard
) -> None:
    assert over.current == "gameover"
    ids = {w.id for w in over.widgets()}
    assert {"rematch", "new-game"} <= ids
    # No keypad for a round 3 that would refuse only at Save, no showdown to load.
    for tab in ("nav:round", "nav:showdown"):
        found = widget(over, tab)
        assert isinstance(found, Button) and not found.enabled
    touch(over, "nav:table")
    assert over.current == "gameover"
    shot(over, "gameover-reopened")


def test_rematch_is_one_tap_to_the_same_players_rules_and_target(
    over: Scoreboard, finished: Session
) -> None:
    before = finished.state
    assert before is not None
    touch(over, "rematch")
    after = finished.state
    assert after is not None and after.game_id != before.game_id
    assert after.players == before.players and after.preset == before.preset
    assert after.scoring == before.scoring and after.rounds == ()
    # Two rounds were dealt by Sakura then José; the deal passes left to Zoë.
    assert after.first_dealer == "Zoë"
    assert over.current == "table"
    assert finished.journal.games()[0].id == before.game_id  # the finished game is kept


def test_rematch_passes_the_deal_to_the_last_winner_where_the_winner_deals(
    tmp_path: Path,
) -> None:
    with Journal.open(tmp_path / "winner-deals.db") as journal:
        session = Session(journal)
        finish(session)
        state = session.state
        assert state is not None
        # Rules where the round's winner deals next (003): José went out last.
        winner_deals = replace(state, rules=state.rules.model_copy(
            update={"next_dealer": "winner"}))
        assert winner_deals.rematch().first_dealer == "José"


def test_new_game_starts_from_the_last_players(over: Scoreboard) -> None:
    touch(over, "new-game")
    assert over.current == "setup"
    setup = over.screens["setup"]
    assert isinstance(setup, SetupScreen)
    assert setup.count == 3
    assert [setup.recorded_name(seat) for seat in range(3)] == PLAYERS
    assert widget(over, "seat1").text == "José"  # type: ignore[attr-defined]


def test_set_up_after_game_over_has_a_way_back(over: Scoreboard) -> None:
    touch(over, "new-game")
    touch(over, "back")
    assert over.current == "gameover"


def test_the_name_keyboard_clears_the_whole_name(over: Scoreboard) -> None:
    touch(over, "new-game")
    touch(over, "seat2")
    touch(over, "rename")
    names = over.screens["names"]
    assert getattr(names, "buffer") == "Zoë"  # noqa: B009
    touch(over, "clear")
    assert getattr(names, "buffer") == ""  # noqa: B009
    for key in "AMI":
        touch(over, f"key:{key}")
    touch(over, "done")
    setup = over.screens["setup"]
    assert isinstance(setup, SetupScreen)
    assert setup.recorded_name(2) == "Ami"
