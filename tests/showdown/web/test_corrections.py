"""Corrections from phones, as real HTTP requests to the page served by its own process, from
several addresses (the whole of 127.0.0.0/8 is this machine): the PIN is typed once for a short
session, each correction spends a one-time token, and a guesser is stopped without locking the
table's own players out (issue 38).

Before: the PIN went with every correction, so the same request sent three times undid three
entries; 20 wrong PINs from 10 addresses made a new address with the right PIN wait ten minutes;
and uvicorn believed ``X-Forwarded-For`` from 127.0.0.1, so a made-up header got fresh tries.
"""

from __future__ import annotations

import http.client
import json
from collections.abc import Iterator
from dataclasses import dataclass
from http.cookies import SimpleCookie
from pathlib import Path
from typing import Any

import pytest

from showdown.app.phone_page import PhonePage
from showdown.game.journal import Journal
from showdown.game.session import Session
from showdown.game.table_model import TableModel
from showdown.tournament.view import TournamentSource
from showdown.web.app import SESSION_COOKIE
from showdown.web.pages import table_page
from showdown.web.pin import ALARM_MISSES, FREE_TRIES, SESSION_S
from tests.showdown.web.conftest import FakeClock, play


@dataclass
class Answer:
    status: int
    body: dict[str, Any]
    cookie: SimpleCookie


class Phone:
    """A phone at ``address``, keeping the cookies the page sets, as a browser does."""

    def __init__(self, port: int, address: str = "127.0.0.1") -> None:
        self.port = port
        self.address = address
        self.cookies: dict[str, str] = {}

    def post(self, path: str, body: dict[str, object],
             headers: dict[str, str] | None = None) -> Answer:
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=20,
                                                source_address=(self.address, 0))
        sent = {"Content-Type": "application/json", **(headers or {})}
        if self.cookies:
            sent["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        try:
            connection.request("POST", path, body=json.dumps(body), headers=sent)
            reply = connection.getresponse()
            answer = Answer(reply.status, json.loads(reply.read()), SimpleCookie())
            for header in reply.headers.get_all("set-cookie") or []:
                answer.cookie.load(header)
        finally:
            connection.close()
        self.cookies.update({name: morsel.value for name, morsel in answer.cookie.items()})
        return answer

    def login(self, pin: str) -> Answer:
        return self.post("/api/login", {"pin": pin})


@dataclass
class Table:
    session: Session
    page: PhonePage
    clock: FakeClock

    def phone(self, address: str = "127.0.0.1") -> Phone:
        return Phone(self.page.server.port, address)

    @property
    def rounds(self) -> int:
        state = self.session.state
        return 0 if state is None else len(state.rounds)


def _served(tmp_path: Path, trusted: tuple[str, ...] = ()) -> Iterator[Table]:
    with Journal.open(tmp_path / "table.db", writable=True) as journal:
        session = Session(journal)
        play(session, ["Ana", "Budi", "Chen"], rounds=4)
        clock = FakeClock()
        model: TableModel[TournamentSource] = TableModel(session)
        page = table_page(model, "127.0.0.1", 0, clock=clock, trusted=trusted)
        try:
            yield Table(session, page, clock)
        finally:
            page.stop()


@pytest.fixture
def table(tmp_path: Path) -> Iterator[Table]:
    yield from _served(tmp_path)


def test_the_pin_opens_a_short_session_kept_in_a_cookie_no_script_reads(table: Table) -> None:
    phone = table.phone()
    answer = phone.login(table.page.pin())
    assert answer.status == 200 and answer.body["message"] == "PIN accepted"
    cookie = answer.cookie[SESSION_COOKIE]
    assert cookie["httponly"] and cookie["samesite"] == "strict" and cookie["path"] == "/api"
    assert int(cookie["max-age"]) == SESSION_S
    assert cookie.value not in json.dumps(answer.body)  # the session's id only in the cookie
    undone = phone.post("/api/undo", {"token": answer.body["token"]})
    assert undone.status == 200 and table.rounds == 3
    # the next correction needs no PIN: the answer carries the next token
    again = phone.post("/api/undo", {"token": undone.body["token"]})
    assert again.status == 200 and table.rounds == 2


def test_a_correction_sent_again_is_refused_and_changes_nothing(table: Table) -> None:
    phone = table.phone()
    token = phone.login(table.page.pin()).body["token"]
    answers = [phone.post("/api/undo", {"token": token}) for _ in range(3)]
    assert [a.status for a in answers] == [200, 403, 403]
    assert answers[1].body["message"] == "This correction was sent already: nothing changed"
    assert table.rounds == 3  # one entry taken back, not three
    # another phone's session cannot spend this phone's token either
    other = table.phone("127.0.0.2")
    other.login(table.page.pin())
    assert other.post("/api/undo", {"token": answers[0].body["token"]}).status == 403
    assert table.rounds == 3
    # without a session (no cookie), a token is nothing
    assert table.phone("127.0.0.3").post("/api/undo", {"token": token}).status == 401


def test_a_session_ends_ten_minutes_after_its_last_use(table: Table) -> None:
    phone = table.phone()
    token = phone.login(table.page.pin()).body["token"]
    table.clock.now += SESSION_S - 1
    token = phone.post("/api/token", {}).body["token"]  # the page loaded again: a fresh token
    token = phone.post("/api/undo", {"token": token}).body["token"]
    table.clock.now += SESSION_S + 1
    late = phone.post("/api/undo", {"token": token})
    assert late.status == 401 and "PIN" in late.body["message"]
    assert phone.post("/api/token", {}).status == 401
    assert table.rounds == 3


def test_a_guesser_at_many_addresses_does_not_lock_out_the_tables_players(table: Table
                                                                           ) -> None:
    guessers = [table.phone(f"127.0.0.{n}") for n in range(2, 12)]
    for _ in range(ALARM_MISSES // len(guessers)):
        for guesser in guessers:
            assert guesser.login("0000" if table.page.pin() != "0000" else "0001").status in (
                403, 429)
    newcomer = table.phone("127.0.0.40")  # a player's phone, with the PIN from the scoreboard
    answer = newcomer.login(table.page.pin())
    assert answer.status == 200, answer.body
    assert newcomer.post("/api/undo", {"token": answer.body["token"]}).status == 200
    # the guessers, meanwhile, get nothing more, not even with the right PIN
    refused = guessers[0].login(table.page.pin())
    assert refused.status == 429 and refused.body["retry_after"] > 0
    # and a new address that guesses wrong during the alarm has had its one guess
    late = table.phone("127.0.0.41")
    assert late.login("0000" if table.page.pin() != "0000" else "0001").status == 429
    assert late.login(table.page.pin()).status == 429


def test_a_forwarded_header_gives_a_guesser_no_fresh_tries(table: Table) -> None:
    phone = table.phone()
    wrong = "0000" if table.page.pin() != "0000" else "0001"
    statuses = [phone.login(wrong, ).status if n == 0 else
                phone.post("/api/login", {"pin": wrong},
                           headers={"X-Forwarded-For": f"198.51.100.{n}"}).status
                for n in range(FREE_TRIES + 1)]
    assert statuses == [403] * (FREE_TRIES - 1) + [429, 429]


def test_a_proxy_named_in_the_configuration_is_believed(tmp_path: Path) -> None:
    for table in _served(tmp_path, trusted=("127.0.0.1",)):
        wrong = "0000" if table.page.pin() != "0000" else "0001"
        proxy = table.phone()
        for n in range(FREE_TRIES + 1):  # each of the proxy's clients has its own tries
            answer = proxy.post("/api/login", {"pin": wrong},
                                headers={"X-Forwarded-For": f"198.51.100.{n}"})
            assert answer.status == 403 and answer.body["tries_left"] == FREE_TRIES - 1
