"""Ties on Game over: a game won by two says they tie, in every language's way of listing names,
and players level share a place, as the event's standings number them."""

from __future__ import annotations

import pytest

from engine.scoring import ScoringMode, ScoringSettings
from showdown.game.messages import HandEntry, RecordRound, SetUpGame
from showdown.game.session import Session
from showdown.scoreboard.app import Scoreboard
from showdown.scoreboard.i18n import set_language
from tests.showdown.scoreboard.helpers import shot, widget


def tie(session: Session) -> None:
    """Two rounds agreed: Ben and Dev each go out once and score 30; Eve scores nothing."""
    session.handle(SetUpGame(players=["Ben", "Dev", "Eve"],
                             scoring=ScoringSettings(target=500, rounds=2)))
    session.handle(RecordRound(went_out="Ben", hands={"Dev": HandEntry(points=0),
                                                       "Eve": HandEntry(points=30)}))
    session.handle(RecordRound(went_out="Dev", hands={"Ben": HandEntry(points=0),
                                                       "Eve": HandEntry(points=30)}))
    assert session.state is not None and session.state.winners == ("Ben", "Dev")


def standings(board: Scoreboard) -> list[tuple[str, str]]:
    """Game over's final standings as shown: (place, name), top to bottom."""
    board.frame()
    texts = {w.id: w.text for w in board.widgets()}  # type: ignore[attr-defined]
    count = sum(1 for key in texts if key.startswith("name"))
    return [(texts[f"place{i}"], texts[f"name{i}"]) for i in range(count)]


@pytest.mark.parametrize(("language", "said"), [
    ("en", "Ben and Dev tie!"),
    ("id", "Ben dan Dev seri!"),
    ("ja", "Ben、Devの引き分け！"),
    ("zh_CN", "Ben和Dev 并列获胜！"),
    ("zh_HK", "Ben及Dev 並列勝出！"),
])
def test_a_game_won_by_two_says_they_tie_and_they_share_first_place(
    board: Scoreboard, session: Session, language: str, said: str
) -> None:
    tie(session)
    set_language(language)
    board.refresh()  # the session changed under the board, as the service tells it
    board.go("gameover")
    assert widget(board, "winner").text == said  # type: ignore[attr-defined]
    assert standings(board) == [("1", "Ben"), ("1", "Dev"), ("3", "Eve")]
    if language == "en":
        shot(board, "game-over-tie")


def test_players_level_on_pigs_share_second_place(board: Scoreboard,
                                                  session: Session) -> None:
    """Hero scoring to one pig: Ann reaches 500 and draws a pig on each of the nine others,
    whose scores all go back to zero: nine players level, all second."""
    others = [f"P{n}" for n in range(2, 11)]
    session.handle(SetUpGame(players=["Ann", *others],
                             scoring=ScoringSettings(mode=ScoringMode.HERO, pigs=1)))
    session.handle(RecordRound(went_out="Ann", hands={
        name: HandEntry(points=60) for name in others}))
    board.refresh()  # the session changed under the board, as the service tells it
    board.go("gameover")
    assert widget(board, "winner").text == "Ann wins!"  # type: ignore[attr-defined]
    assert standings(board) == [("1", "Ann")] + [("2", name) for name in others]
    shot(board, "game-over-pigs-level")
