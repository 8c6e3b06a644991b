"""The table's page over HTTP (Starlette's TestClient): what it shows, what it refuses."""

from __future__ import annotations

import json
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from starlette.testclient import TestClient

from showdown.web.app import MAX_BODY
from showdown.web.pin import ALARM_MISSES, ALARM_WINDOW_S, FREE_TRIES
from tests.showdown.web.conftest import PIN, Page, login, play, shown_text


def _totals(html: str) -> dict[str, int]:
    return {re.sub(r"&[^;]+;", "?", name): int(total) for name, total in
            re.findall(r'data-name="([^"]*)" data-total="(-?\d+)"', html)}


def test_the_page_shows_every_player_with_the_journals_totals(page: Page) -> None:
    play(page.session, ["Ana", "Budi", "Chen"])
    html = page.client.get("/").text
    state = page.session.state
    assert state is not None
    assert _totals(html) == state.totals == {"Ana": 60, "Budi": 0, "Chen": 0}
    assert "Round 3" in html and "Dealer" in html and "Target 500" in html
    assert "Score after each round" in html and "<polyline" in html


def test_a_showdowns_reaction_times_stand_apart_from_its_words(page: Page) -> None:
    """It read "takes 2 cards(Ana 201 ms": the times now follow after a space."""
    play(page.session, ["Ana", "Budi"])
    text = shown_text(page.client.get("/").text)
    assert "Budi takes 2 cards (Ana 201 ms · Budi 263 ms)" in text, text


def test_a_name_players_typed_is_a_name_never_markup(page: Page) -> None:
    play(page.session, ["<script>alert(1)</script>", "Bo & \"Co\"", "O'Neil"])
    for path in ("/", "/standings"):
        html = page.client.get(path).text
        assert "<script>alert(1)</script>" not in html
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
        assert "Bo &amp; &#34;Co&#34;" in html
    stream = page.source.picture()
    assert stream.players[0].name == "<script>alert(1)</script>"


def test_the_page_runs_only_its_own_script_and_style(page: Page) -> None:
    response = page.client.get("/")
    policy = response.headers["content-security-policy"]
    assert "script-src 'self'" in policy and "frame-ancestors 'none'" in policy
    assert not re.search(r"<script>[^<]", response.text)  # no inline script
    assert re.findall(r'(?:src|href)="(https?:)?//', response.text) == []  # no CDN
    for asset in ("/static/page.js", "/static/page.css", "/static/icon.svg"):
        assert page.client.get(asset).status_code == 200


@pytest.mark.parametrize(("header", "words"), [
    ("ja-JP,ja;q=0.9,en;q=0.5", "ラウンド"),
    ("zh-TW", "第 3 局"),
    ("id", "Ronde"),
    ("fr-FR", "Round"),
])
def test_the_browsers_language_is_spoken(page: Page, header: str, words: str) -> None:
    play(page.session, ["Ana", "Budi"])
    html = page.client.get("/", headers={"Accept-Language": header}).text
    assert words in html


def test_a_language_picked_on_the_page_is_kept(page: Page) -> None:
    play(page.session, ["Ana", "Budi"])
    picked = page.client.get("/?lang=ja", headers={"Accept-Language": "en"})
    assert 'lang="ja"' in picked.text and picked.cookies.get("lang") == "ja"
    again = page.client.get("/", headers={"Accept-Language": "en"})
    assert 'lang="ja"' in again.text
    page.client.cookies.set("lang", "xx")
    assert 'lang="en"' in page.client.get("/?lang=klingon").text


def test_undo_needs_the_pin_and_then_takes_back_the_last_entry(page: Page) -> None:
    play(page.session, ["Ana", "Budi"])
    before = page.session.state
    assert before is not None and len(before.rounds) == 2
    nobody = page.client.post("/api/undo", json={"token": "made-up"})
    assert nobody.status_code == 401 and "PIN" in nobody.json()["message"]
    wrong = page.client.post("/api/login", json={"pin": "0000"})
    assert wrong.status_code == 403 and wrong.json()["tries_left"] == FREE_TRIES - 1
    assert "Wrong PIN" in wrong.json()["message"]
    assert page.session.state is before
    token = login(page.client)
    right = page.client.post("/api/undo", json={"token": token})
    assert right.status_code == 200 and right.json()["ok"] is True
    after = page.session.state
    assert after is not None and len(after.rounds) == 1


def test_an_edit_replaces_the_round_and_a_bad_one_is_refused_in_words(page: Page) -> None:
    play(page.session, ["Ana", "Budi", "Chen"])
    token = login(page.client)
    done = page.client.post("/api/edit", json={"token": token, "round": 1, "went_out": "Budi",
                                               "held": {"Ana": 5, "Chen": 7}})
    assert done.status_code == 200, done.text
    assert done.json()["message"] == "Round 1 corrected"
    state = page.session.state
    assert state is not None and state.rounds[0].went_out == "Budi"
    assert state.totals["Budi"] == 12
    refused = page.client.post("/api/edit", json={"token": done.json()["token"], "round": 9,
                                                  "went_out": "Budi", "held": {}})
    assert refused.status_code == 409
    assert refused.json()["message"] == "there is no round 9 to edit (2 recorded)"
    nobody = page.client.post("/api/edit", json={"token": refused.json()["token"], "round": 1,
                                                 "went_out": "Zed", "held": {}},
                              headers={"Accept-Language": "ja"})
    assert nobody.status_code == 409 and "Zed" in nobody.json()["message"]
    assert page.session.state is not None and page.session.state.rounds[0].went_out == "Budi"


def test_wrong_pins_are_rate_limited_per_client(page: Page) -> None:
    play(page.session, ["Ana", "Budi"])
    for _ in range(FREE_TRIES - 1):
        assert page.client.post("/api/login", json={"pin": "1111"}).status_code == 403
    third = page.client.post("/api/login", json={"pin": "1111"})
    assert third.status_code == 429 and third.json()["retry_after"] == 30
    assert "try again in 30 s" in third.json()["message"]
    # Locked out: even the right PIN is not read until the wait is over.
    assert page.client.post("/api/login", json={"pin": PIN}).status_code == 429
    page.clock.now += 31
    assert page.client.post("/api/login", json={"pin": "2222"}).json()["retry_after"] == 60
    page.clock.now += 61
    assert page.client.post("/api/undo", json={"token": login(page.client)}).status_code == 200
    state = page.session.state
    assert state is not None and len(state.rounds) == 1


def test_many_addresses_guessing_together_get_one_guess_each_until_it_calms_down(
        page: Page) -> None:
    play(page.session, ["Ana", "Budi"])
    for misses in range(ALARM_MISSES):
        with TestClient(page.client.app, client=(f"198.51.100.{misses // 2 + 1}", 1)) as other:
            assert other.post("/api/login", json={"pin": "9999"}).status_code in (403, 429)
    with TestClient(page.client.app, client=("198.51.100.1", 1)) as guesser:
        assert guesser.post("/api/login", json={"pin": PIN}).status_code == 429
    with TestClient(page.client.app, client=("198.51.100.99", 1)) as newcomer:
        assert newcomer.post("/api/login", json={"pin": "9998"}).status_code == 429
        assert newcomer.post("/api/login", json={"pin": PIN}).status_code == 429
    assert page.client.post("/api/undo", json={"token": login(page.client)}).status_code == 200
    page.clock.now += ALARM_WINDOW_S
    with TestClient(page.client.app, client=("198.51.100.1", 1)) as guesser:
        assert guesser.post("/api/login", json={"pin": PIN}).status_code == 200


@pytest.mark.parametrize(("body", "headers", "status", "words"), [
    (b"not json", {"content-type": "application/json"}, 400, "not JSON"),
    (b"[1, 2]", {"content-type": "application/json"}, 400, "not a JSON object"),
    (b'{"pin": "4821"}', {"content-type": "text/plain"}, 415, "send JSON"),
    (b'{"pin": 4821}', {"content-type": "application/json"}, 400, "pin"),
    (b'{"pin": "4821", "sneaky": 1}', {"content-type": "application/json"}, 400, "sneaky"),
    (b'{"pin": "' + b"1" * MAX_BODY + b'"}', {"content-type": "application/json"}, 413,
     "larger"),
    (b'{"pin": "4821"}', {"content-type": "application/json", "origin": "http://evil.example"},
     403, "this page"),
])
def test_bad_requests_are_refused_in_one_sentence_and_change_nothing(
        page: Page, body: bytes, headers: dict[str, str], status: int, words: str) -> None:
    play(page.session, ["Ana", "Budi"])
    before = page.session.state
    response = page.client.post("/api/login", content=body, headers=headers)
    assert response.status_code == status
    assert words in response.json()["message"] and "Traceback" not in response.text
    assert page.session.state is before


def test_an_edit_with_a_bad_field_names_it(page: Page) -> None:
    play(page.session, ["Ana", "Budi"])
    response = page.client.post("/api/edit", json={"token": login(page.client), "round": 0,
                                                   "went_out": "Ana", "held": {}})
    assert response.status_code == 400 and response.json()["message"].startswith("round:")


def test_there_is_no_other_way_to_write(page: Page) -> None:
    play(page.session, ["Ana", "Budi"])
    before = page.session.state
    for method in ("POST", "PUT", "DELETE", "PATCH"):
        for path in ("/", "/events", "/standings", "/static/page.js"):
            response = page.client.request(method, path)
            assert response.status_code == 405, (method, path)
            assert response.headers["allow"] == "GET, HEAD"
    for method in ("GET", "PUT", "DELETE"):
        response = page.client.request(method, "/api/undo")
        assert response.status_code == 405 and response.headers["allow"] == "POST"
    assert page.client.get("/api/anything").status_code == 404
    assert page.client.get("/static/../app.py").status_code == 404
    assert page.session.state is before


def test_the_stream_sends_the_whole_page_then_what_changed(page: Page) -> None:
    play(page.session, ["Ana", "Budi"])
    with page.client.stream("GET", "/events?lang=id") as stream:
        lines = stream.iter_lines()
        first = _event(lines)
        assert first["event"] == "parts"
        data = json.loads(first["data"])
        assert set(data["html"]) == {"table", "showdown"}
        assert "Ronde 3" in data["html"]["table"]
        play_more(page)
        second = _event(lines)
        data = json.loads(second["data"])
        assert set(data["html"]) == {"table"}
        assert 'data-round="4"' in data["html"]["table"]
        page.hub.close()


def play_more(page: Page) -> None:
    from showdown.game.messages import HandEntry, RecordRound

    page.session.handle(RecordRound(went_out="Budi", hands={"Ana": HandEntry(points=3)}))


def _event(lines: object) -> dict[str, str]:
    found: dict[str, str] = {}
    for line in lines:  # type: ignore[attr-defined]
        if not line:
            if "data" in found:
                return found
            continue
        key, _sep, value = line.partition(":")
        if key:
            found[key] = value.strip()
    raise AssertionError("the stream ended")


def test_the_printable_standings_list_everyone_best_first(page: Page) -> None:
    play(page.session, ["Ana", "Budi", "Chen"])
    html = page.client.get("/standings").text
    assert "Print" in html and "Game 1" in html
    assert list(_totals(html).items()) == [("Ana", 60), ("Budi", 0), ("Chen", 0)]


JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-10**6, 10**6) | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner,
                                                                 max_size=4),
    max_leaves=12)


@settings(max_examples=80, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(body=st.dictionaries(st.sampled_from(["round", "went_out", "held", "token", "extra"]),
                            JSON, max_size=5),
       path=st.sampled_from(["/api/edit", "/api/undo", "/api/token", "/api/login"]))
def test_any_json_body_is_refused_in_one_sentence_or_done_never_a_trace(
        page: Page, body: dict[str, object], path: str) -> None:
    if page.session.state is None:
        play(page.session, ["Ana", "Budi"])
    if "token" not in body:
        body = {**body, "token": page.client.post("/api/token", json={}).json().get("token")
                or login(page.client)}
    before = page.session.state
    response = page.client.post(path, json=body)
    answer = response.json()
    assert response.status_code in (200, 400, 401, 403, 409, 429), (body, answer)
    assert isinstance(answer["message"], str) and (answer["message"] or path == "/api/token")
    assert "\n" not in answer["message"] and "Traceback" not in response.text
    if response.status_code != 200 or path in ("/api/token", "/api/login"):
        assert page.session.state is before
