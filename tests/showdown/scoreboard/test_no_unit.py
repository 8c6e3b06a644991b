"""`showdown scoreboard` without a unit never asks for one: a showdown's result is tapped in."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from showdown.app.scoreboard_main import build_scoreboard
from showdown.game.session import Session
from showdown.scoreboard.app import Scoreboard
from showdown.scoreboard.i18n import LANGUAGES, set_language
from tests.showdown.scoreboard.helpers import shot, start_game, touch

ASKING_FOR_THE_UNIT = ("Load the unit", "Press the timer button on the unit",
                       "Choose the players and cards, then load the unit")


@pytest.fixture
def alone(session: Session) -> Iterator[Scoreboard]:
    """The scoreboard as `showdown scoreboard` opens it: over the journal, no unit wired."""
    set_language("en")
    board = build_scoreboard(session)
    board.frame()
    yield board
    board.close()


def texts(board: Scoreboard) -> set[str]:
    board.frame()
    return {str(getattr(w, "text", "")) for w in board.widgets()}


def test_without_a_unit_the_showdown_screen_offers_the_result_by_hand(
    alone: Scoreboard, session: Session
) -> None:
    start_game(alone, players=3)
    touch(alone, "nav:showdown")
    shown = texts(alone)
    assert not shown & set(ASKING_FOR_THE_UNIT)
    assert "No unit at this table: play the showdown, then tap who won" in shown
    shot(alone, "showdown-no-unit")
    touch(alone, "right-next")  # Player 1 against Player 3
    touch(alone, "by-hand-right")
    state = session.state
    assert state is not None
    (recorded,) = state.showdowns
    assert (recorded.winner, recorded.loser, recorded.source) == ("Player 3", "Player 1", "hand")
    touch(alone, "nav:showdown")
    assert ("Showdown: Player 3 beat Player 1, Player 1 takes 2 cards (by hand)"
            in texts(alone))


@pytest.mark.parametrize("code", list(LANGUAGES))
def test_the_showdown_screen_without_a_unit_fits_in_every_language(
    alone: Scoreboard, code: str
) -> None:
    start_game(alone, players=3)
    alone.set_language(code)
    alone.go("showdown")
    alone.text.overflows.clear()
    alone.painter.invalidate()
    alone.frame()
    assert alone.text.overflows == []
