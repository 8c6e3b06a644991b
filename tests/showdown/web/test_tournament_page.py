"""The event's page over HTTP (Starlette's TestClient): standings, tables, seating; read only.

The event comes from :mod:`tests.showdown.web.sample_tournament` (the engine's standings over real
game records); the browser test runs the real ``showdown event demo``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from starlette.testclient import TestClient

from showdown.game.journal import Journal
from showdown.game.session import Session
from showdown.game.table_model import TableModel
from showdown.tournament.messages import Correction
from showdown.tournament.view import TournamentSource, TournamentView
from showdown.web.app import table_app, tournament_app
from showdown.web.hub import Hub
from showdown.web.pin import PinGuard
from showdown.web.table import PARTS, TableSource
from showdown.web.tournament import TOURNAMENT_PARTS, TournamentWatch
from tests.showdown.web.conftest import PIN, play, shown_text
from tests.showdown.web.sample_tournament import JOIN_CODE, Host, evening, swiss_evening
from tests.showdown.web.test_requests import _event, _totals


@pytest.fixture
def host() -> Host:
    return Host(evening((120, 0, 35, 0), (0, 210, 0, 64)))


@pytest.fixture
def client(host: Host) -> Iterator[TestClient]:
    hub = Hub(TOURNAMENT_PARTS)
    with TestClient(tournament_app(TournamentWatch(host, hub.changed), hub)) as client:
        yield client
        hub.close()


def test_the_page_shows_every_player_of_every_table_with_their_totals(client: TestClient
                                                                      ) -> None:
    html = client.get("/").text
    assert _totals(html) == {"Ana": 120, "Budi": 0, "Chen": 35, "Dewi": 0, "Eko": 0,
                             "?script?x?/script?": 210, "Gita": 0, "Hiro": 64}
    tables = dict(re.findall(r'data-name="([^"]*)"[^>]*data-table="(t\d)"', html))
    assert tables["Ana"] == "t1" and tables["Hiro"] == "t2"
    text = shown_text(html)
    assert "Window online, 2 hands" in text  # the name the table was given
    assert re.search(r"Table 2 offline since \d\d:\d\d", text)  # and the one it was not
    assert "Seating" in text and "Free play" in text
    assert "Ana, Budi, Chen, Dewi" in text


def test_the_join_code_never_reaches_a_phone(client: TestClient, host: Host) -> None:
    for path in ("/", "/standings", "/?lang=ja"):
        assert JOIN_CODE not in client.get(path).text
        assert JOIN_CODE[:4] + "-" not in client.get(path).text
    with client.stream("GET", "/events") as stream:
        first = _event(stream.iter_lines())
        assert JOIN_CODE not in first["data"]


def test_names_players_and_the_host_typed_are_shown_as_text(client: TestClient) -> None:
    for path in ("/", "/standings"):
        html = client.get(path).text
        assert "<script>x</script>" not in html and "&lt;script&gt;x&lt;/script&gt;" in html
        assert "Friday &lt;UNO&gt;" in html and "<UNO>" not in html


@pytest.mark.parametrize(("header", "words"), [
    ("ja", "フリー対戦"), ("zh-CN", "自由对局"), ("id", "Main bebas"), ("en-GB", "Free play")])
def test_the_event_speaks_the_readers_language(client: TestClient, header: str, words: str
                                               ) -> None:
    assert words in client.get("/", headers={"Accept-Language": header}).text


def test_the_page_follows_the_event_live(client: TestClient, host: Host) -> None:
    with client.stream("GET", "/events") as stream:
        lines = stream.iter_lines()
        first = json.loads(_event(lines)["data"])
        assert set(first["html"]) == {"event"} and 'data-total="120"' in first["html"]["event"]
        later = evening((120, 0, 35, 71), (0, 210, 0, 64))
        host.publish(replace(later, tables=(later.tables[0].model_copy(update={"online": False}),
                                            later.tables[1])))
        second = json.loads(_event(lines)["data"])["html"]["event"]
        assert _totals(second)["Dewi"] == 71
        assert "Window offline since" in shown_text(second)


def test_the_printable_standings_list_everyone_best_first(client: TestClient) -> None:
    html = client.get("/standings").text
    assert "Print" in html and "Save as picture" in html and "Friday &lt;UNO&gt;" in html
    assert list(_totals(html))[:3] == ["?script?x?/script?", "Ana", "Hiro"]


def test_a_host_not_heard_from_says_so(host: Host, client: TestClient) -> None:
    host.publish(TournamentView(host_online=False))
    assert "The host is away" in client.get("/").text


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(method=st.sampled_from(["POST", "PUT", "DELETE", "PATCH"]),
       path=st.text(st.characters(min_codepoint=0x21, max_codepoint=0x7E,
                                  exclude_characters="?#"), max_size=30),
       body=st.binary(max_size=200))
def test_nothing_can_be_written_to_the_event(client: TestClient, host: Host, method: str,
                                             path: str, body: bytes) -> None:
    before = host.current
    response = client.request(method, "/" + path.lstrip("/"), content=body)
    # any write on any path: 405 for its method, as docs/web.md says (a path without a route
    # answered 404, which told a client the path was wrong rather than that nothing is written)
    assert response.status_code == 405, (method, path, response.status_code)
    assert response.headers["allow"] == "GET, HEAD"
    assert "Traceback" not in response.text and response.json()["message"]
    assert host.current is before


def test_a_correction_sent_to_the_events_page_is_refused_for_its_method(client: TestClient
                                                                       ) -> None:
    """The table's ``POST /api/undo`` sent to the event's page: 405, not 404."""
    response = client.post("/api/undo", json={"pin": "1234"})
    assert response.status_code == 405 and response.headers["allow"] == "GET, HEAD"
    assert response.json()["message"] == "POST is not allowed here: this page only reads"


def test_a_table_in_an_event_shows_the_event_below_its_game(tmp_path: Path, host: Host
                                                           ) -> None:
    with Journal.open(tmp_path / "table.db", writable=True) as journal:
        session = Session(journal)
        play(session, ["Ana", "Budi", "Chen", "Dewi"])
        hub = Hub(PARTS + TOURNAMENT_PARTS)
        model: TableModel[TournamentSource] = TableModel(session)
        model.subscribe(hub.changed)
        app = table_app(TableSource(model), hub, PinGuard(lambda: PIN),
                        event=TournamentWatch(host, hub.changed))
        with TestClient(app) as client:
            html = client.get("/").text
            assert 'id="part-table"' in html and 'id="part-event"' in html
            assert html.count('id="standings"') == 1  # the table's; the event's has none
            assert "Window online, 2 hands" in shown_text(html) and JOIN_CODE not in html
            with client.stream("GET", "/events") as stream:
                first = json.loads(_event(stream.iter_lines())["data"])
                assert set(first["html"]) == {"table", "showdown", "event"}
            hub.close()
        model.close()


def _standing_lines(html: str) -> list[str]:
    """Each line of the event's standings, as read."""
    return [shown_text(line) for line in re.findall(r'<li class="seat".*?</li>', html, re.S)]


def test_swiss_totals_say_what_they_are_and_why_a_tie_is_broken(client: TestClient,
                                                                  host: Host) -> None:
    """The Swiss totals had no label and the tie-break was hidden: Ada 3 ranked above Eli 3,
    Fay 2 above Ben 2, with no reason shown."""
    host.publish(swiss_evening(played=True))
    html = client.get("/").text
    assert "Player Match points" in shown_text(html)
    lines = _standing_lines(html)
    assert lines[:4] == ["1 Ada Table 1 3 opponents 3, points 310",
                         "2 Eli Table 2 3 opponents 3, points 290",
                         "3 Fay Table 2 2 opponents 4, points 150",
                         "4 Ben Table 1 2 opponents 4, points 120"], lines
    assert ("Equal match points: the player whose opponents have more match points goes "
            "first, then the one with more points") in shown_text(html)


def test_before_any_game_nobody_leads_not_even_the_player_on_a_bye(client: TestClient,
                                                                  host: Host) -> None:
    """Max, on a bye, led the evening before anyone had played (a bye's two match points)."""
    host.publish(swiss_evening(played=False))
    html = client.get("/").text
    assert "No game played yet: nobody leads" in shown_text(html)
    lines = _standing_lines(html)
    assert [line.split()[1] for line in lines] == sorted(line.split()[1] for line in lines)
    assert all(line.startswith("– ") for line in lines), lines
    assert 'data-place="1"' not in html


def test_the_seating_is_named_for_the_round_it_seats_and_event_rounds_are_not_hands(
        client: TestClient, host: Host) -> None:
    """"Next seating" showed the round being played; "Round 1" meant a hand on the table's part
    of the page and a Swiss round in the event's."""
    host.publish(swiss_evening(played=True))
    text = shown_text(client.get("/").text)
    assert "Next seating" not in text
    assert "Seating for event round 2" in text and "Event round 2 of 3" in text
    assert not re.search(r"(?<!Event )(?<!event )Round \d", text), text


def test_the_page_says_how_old_its_news_is_and_when_none_can_come(client: TestClient,
                                                                 host: Host) -> None:
    """With the broker dead, the event's page kept showing the host online: nothing said its
    news had stopped."""
    html = client.get("/").text
    assert re.search(r"Updated \d\d:\d\d:\d\d", shown_text(html))
    assert 'data-linked="yes"' in html
    host.publish(replace(host.current, host_online=False))  # the link dropped
    html = client.get("/").text
    assert 'data-linked="no"' in html
    assert re.search(r"The host is away: no news from the event since \d\d:\d\d:\d\d",
                     shown_text(html))


def test_a_correction_to_an_earlier_round_is_said_and_the_seating_stays(
        client: TestClient, host: Host) -> None:
    """A finished game of round 1 undone and recorded again while round 2 is played: the page
    says the standings changed and the seated round did not (it was seated anew before)."""
    evening = swiss_evening(played=True)
    assert evening.seating is not None
    host.publish(replace(evening, seating=evening.seating.model_copy(
        update={"correction": Correction(round=1, table="t2", seated=2)})))
    text = shown_text(client.get("/").text)
    assert ("Event round 1, Table 2 corrected: standings updated; event round 2 stays as seated"
            in text)
    assert "Seating for event round 2" in text
    host.publish(evening)
    assert "corrected" not in shown_text(client.get("/").text)
