"""A tie on the phone page: the result line says the players tie, listed as the reader's
language lists names, and players level share a place, as on the scoreboard."""

from __future__ import annotations

import re

import pytest

from engine.scoring import ScoringSettings
from showdown.game.messages import HandEntry, RecordRound, SetUpGame
from tests.showdown.web.conftest import Page, shown_text


def tie(page: Page) -> None:
    """Two rounds agreed: Ben and Dev each go out once and score 30; Eve scores nothing."""
    session = page.session
    session.handle(SetUpGame(players=["Ben", "Dev", "Eve"],
                             scoring=ScoringSettings(target=500, rounds=2)))
    session.handle(RecordRound(went_out="Ben", hands={"Dev": HandEntry(points=0),
                                                       "Eve": HandEntry(points=30)}))
    session.handle(RecordRound(went_out="Dev", hands={"Ben": HandEntry(points=0),
                                                       "Eve": HandEntry(points=30)}))


def result_line(html: str) -> str:
    found = re.search(r'<p class="winners">(.*?)</p>', html, re.S)
    assert found is not None, "no result line"
    return shown_text(found[1])


@pytest.mark.parametrize(("header", "said"), [
    ("en", "Ben and Dev tie!"),
    ("ja", "Ben、Devの引き分け！"),
    ("zh-HK", "Ben及Dev 並列勝出！"),
])
def test_the_result_line_says_the_players_tie(page: Page, header: str, said: str) -> None:
    tie(page)
    html = page.client.get("/", headers={"Accept-Language": header}).text
    assert result_line(html) == said
    assert "<bdi>Ben</bdi>" in html.split('class="winners"')[1]  # each name isolated
    printable = page.client.get("/standings", headers={"Accept-Language": header}).text
    assert said in result_line(printable)


def test_players_level_share_the_better_place(page: Page) -> None:
    tie(page)
    html = page.client.get("/").text
    seats = re.findall(r'<li class="seat[^"]*" data-name="(\w+)" data-total="\d+" '
                       r'data-place="(\d+)"', html)
    assert seats == [("Ben", "1"), ("Dev", "1"), ("Eve", "3")]
