"""The touchscreen and the phones show the same game: wired as ``showdown run`` wires them, over
one read model of a real journal that bots played, the scoreboard's screens and the phone page
show the same players, totals, rounds, showdowns and winner, and the same event once the table
is in one."""

from __future__ import annotations

import os

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"

import html as markup
import re
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from showdown.app.scoreboard_main import build_scoreboard
from showdown.game.journal import Journal
from showdown.game.messages import Event, RoundRecorded, SetUpGame
from showdown.game.session import Session
from showdown.game.table_model import TableModel
from showdown.playtest.bot_table import BotTable, TableStopped, coin_referee
from showdown.scoreboard.app import Scoreboard
from showdown.scoreboard.i18n import set_language
from showdown.tournament.view import StillTournament, TournamentSource
from showdown.web.app import table_app
from showdown.web.hub import Hub
from showdown.web.pin import PinGuard
from showdown.web.table import PARTS, TableSource
from showdown.web.tournament import TOURNAMENT_PARTS, Membership
from tests.showdown.scoreboard.helpers import widget
from tests.showdown.web.conftest import shown_text
from tools.screenshots.tournament import TABLE_VIEW


@dataclass
class Table:
    """A journal on disk, its session, and both front ends over one read model."""

    session: Session
    model: TableModel[TournamentSource]
    board: Scoreboard
    phone: TestClient


@pytest.fixture
def table(tmp_path: Path) -> Iterator[Table]:
    set_language("en")
    with Journal.open(tmp_path / "table.db", writable=True) as journal:
        session = Session(journal)
        model: TableModel[TournamentSource] = TableModel(session)
        hub = Hub(PARTS + TOURNAMENT_PARTS)
        unsubscribe = model.subscribe(hub.changed)
        board = build_scoreboard(session, model=model)
        app = table_app(TableSource(model), hub, PinGuard(lambda: "4821"),
                        event=Membership(model))
        try:
            with TestClient(app) as phone:
                yield Table(session, model, board, phone)
        finally:
            board.close()
            unsubscribe()
            model.close()


@dataclass(frozen=True)
class Shown:
    """The numbers a front end shows."""

    totals: dict[str, int]
    rounds: list[tuple[int, str, tuple[int, ...]]]
    """(round, who went out, each seat's total after it)."""
    showdowns: list[tuple[int, str, str, int]]
    """(round, winner, loser, cards), oldest first."""
    winner: str | None


def on_the_phone(phone: TestClient) -> Shown:
    """What the page a phone opens shows."""
    page = phone.get("/?lang=en").text
    standings = page[page.index('id="standings"'):page.index("</ol>", page.index(
        'id="standings"'))]
    totals = {markup.unescape(name): int(total) for name, total in
              re.findall(r'data-name="([^"]*)" data-total="(-?\d+)"', standings)}
    rounds = []
    for number, went_out, cells in re.findall(
            r'<tr data-round="(\d+)" data-went-out="([^"]*)"[^>]*>(.*?)</tr>', page, re.S):
        rounds.append((int(number), markup.unescape(went_out),
                       tuple(int(t) for t in re.findall(r"<td[^>]*><b>(-?\d+)</b>", cells))))
    showdowns = []
    listed = re.search(r'<ol class="showdowns" reversed>(.*?)</ol>', page, re.S)
    for item in re.findall(r"<li>(.*?)</li>", listed[1] if listed else "", re.S):
        text = re.sub(r" ([,)])", r"\1",  # a name's <bdi> closes before its comma
                      " ".join(markup.unescape(re.sub(r"<[^>]+>", " ", item)).split()))
        race = re.match(r"Round (\d+) Showdown: (.+?) beat (.+?), .+? takes (\d+) cards?", text)
        false = re.match(r"Round (\d+) False start: (.+?) started too soon, takes (\d+) cards?",
                         text)
        if race:
            showdowns.append((int(race[1]), race[2], race[3], int(race[4])))
        else:
            assert false, text
            loser = false[2]
            showdowns.append((int(false[1]), "?", loser, int(false[3])))
    winner = re.search(r'<p class="winners">(.*?) wins!</p>', page)
    showdowns.reverse()  # the page lists the latest first
    return Shown(totals, rounds, showdowns, shown_text(winner[1]) if winner else None)


def on_the_scoreboard(board: Scoreboard) -> Shown:
    """What the scoreboard's screens show (the standings and Game over read off the screen,
    History's rounds and showdowns from the view its screens draw)."""
    board.pump()
    board.go("table")  # Game over, once the game is over
    board.frame()
    count = len(board.view.players)
    totals = {widget(board, f"name{i}").text: int(widget(board, f"total{i}").text)  # type: ignore[attr-defined]
              for i in range(count)}
    winner = None
    if board.current == "gameover":
        winner = widget(board, "winner").text.removesuffix(" wins!")  # type: ignore[attr-defined]
    view = board.view
    rounds = [(r.number, r.went_out, r.totals) for r in view.rounds]
    showdowns = [(s.round, "?" if s.reason == "false-start" else s.winner, s.loser, s.cards)
                 for s in view.showdowns]
    return Shown(totals, rounds, showdowns, winner)


def assert_agree(table: Table) -> Shown:
    phone = on_the_phone(table.phone)
    board = on_the_scoreboard(table.board)
    state = table.session.state
    assert state is not None
    assert phone.totals == state.totals
    assert board.totals == phone.totals
    assert board.rounds == phone.rounds
    assert len(phone.rounds) == len(state.rounds)
    assert board.showdowns == phone.showdowns
    assert len(phone.showdowns) == len(state.showdowns)
    if state.is_over:
        assert phone.winner == ", ".join(state.winners)
        assert board.winner == phone.winner
    else:
        assert phone.winner is None and board.winner is None
    return phone


def test_both_front_ends_show_a_game_the_bots_finished_alike(table: Table) -> None:
    BotTable(table.session, coin_referee(7, false_start=0.2), seed=7, players=4).play_game()
    shown = assert_agree(table)
    assert shown.winner and shown.rounds and shown.showdowns


def test_both_front_ends_show_a_game_under_way_alike(table: Table) -> None:
    stop = threading.Event()
    rounds: list[int] = []

    def count(event: Event) -> None:  # the bots stop after three rounds
        if isinstance(event, RoundRecorded):
            rounds.append(event.round)
            if len(rounds) == 3:
                stop.set()

    table.session.subscribe(count)
    with pytest.raises(TableStopped):
        BotTable(table.session, coin_referee(3, false_start=0.2), seed=3, players=5,
                 stop=stop).play_game()
    shown = assert_agree(table)
    assert len(shown.rounds) == 3 and shown.winner is None


def test_both_front_ends_show_the_event_the_table_joined(table: Table) -> None:
    board = table.board
    board.pump()
    assert board.current == "setup" and "event" not in {w.id for w in board.widgets()}
    assert re.search(r'id="part-event" class="part" data-at="[0-9.]*" hidden></section>',
                     table.phone.get("/?lang=en").text)
    table.model.join(StillTournament(TABLE_VIEW))  # as the door does when Set-up joins
    board.pump()
    # Set-up names the event and seats the round the host seated this table (t1) for
    assert widget(board, "event").text == "Friday game night"  # type: ignore[attr-defined]
    assert [widget(board, f"seat{i}").text.removesuffix(" (deals)")  # type: ignore[attr-defined]
            for i in range(4)] == ["Ada", "Gus", "Hana", "Fay"]
    board.go("event")
    assert widget(board, "title").text == "Friday game night"  # type: ignore[attr-defined]
    page = table.phone.get("/?lang=en").text
    part = page[page.index('id="part-event"'):]
    part = part[:part.index("</section>")]
    # the event's round, named apart from the table's rounds (its hands) on the same page
    assert "hidden" not in part[:part.index(">")] and "Event round 3 of 7" in part
    assert 'data-name="Hana" data-total="512"' in part  # the event's leader
    table.session.handle(SetUpGame(players=["Ada", "Gus", "Hana", "Fay"]))
    board.pump()
    board.go("table")
    assert "nav:event" in {w.id for w in board.widgets()}


def shown_showdown(table: Table) -> tuple[tuple[str, str, str], tuple[str, str, str]]:
    """(stage, left, right) on the scoreboard's showdown screen and on the phone's page."""
    board = table.board
    board.pump()
    board.go("showdown")
    board.frame()
    on_board = (board.view.showdown.phase.value, widget(board, "left-name").text,  # type: ignore[attr-defined]
                widget(board, "right-name").text)  # type: ignore[attr-defined]
    page = table.phone.get("/?lang=en").text
    stage = re.search(r'data-stage="([a-z_]+)"', page)
    names = re.search(r'<span class="who left">(.*?)</span>.*?<span class="who right">(.*?)'
                      r"</span>", page, re.S)
    assert stage and names, page
    return on_board, (stage[1], shown_text(names[1]), shown_text(names[2]))


def test_the_phones_show_the_showdown_the_scoreboard_loaded_and_settled(table: Table) -> None:
    table.session.handle(SetUpGame(players=["Ada", "Ben", "Cleo"]))
    board = table.board
    assert board.command(board.port.load_showdown, 2, 0, 3)
    on_board, on_phone = shown_showdown(table)
    assert on_board == on_phone == ("loaded", "Cleo", "Ada")
    assert board.command(board.port.record_showdown_by_hand, 2, 0, 3)  # without the unit
    on_board, on_phone = shown_showdown(table)
    assert on_board == on_phone == ("result", "Cleo", "Ada")
    assert "Cleo wins!" in shown_text(table.phone.get("/?lang=en").text)
