"""The phone pages as the service serves them (uvicorn on a real socket): where they bind, what a
taken or malformed address does, and that the table's PIN never reaches a log."""

from __future__ import annotations

import http.cookiejar
import json
import logging
import socket
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from showdown.app.errors import UserError
from showdown.app.phone_page import PhonePage, serve_table, serve_tournament
from showdown.game.journal import Journal
from showdown.game.session import Session
from showdown.game.table_model import TableModel
from showdown.web.address import lan_addresses
from tests.showdown.web.conftest import play
from tests.showdown.web.sample_tournament import JOIN_CODE, Host, evening


@pytest.fixture
def session(tmp_path: Path) -> Iterator[Session]:
    with Journal.open(tmp_path / "table.db", writable=True) as journal:
        session = Session(journal)
        play(session, ["Ana", "Budi", "Chen"])
        yield session


COOKIES = http.cookiejar.CookieJar()
"""The cookies a phone keeps between requests (``_post(..., keep=True)``)."""


def _post(url: str, body: dict[str, object], *, keep: bool = False
          ) -> tuple[int, dict[str, object]]:
    request = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST",
                                     headers={"Content-Type": "application/json"})
    opener = urllib.request.build_opener(*(
        [urllib.request.HTTPCookieProcessor(COOKIES)] if keep else []))
    try:
        with opener.open(request, timeout=10) as reply:
            return reply.status, json.loads(reply.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def _served(session: Session, address: str, asked: bool = True) -> PhonePage:
    page = serve_table(TableModel(session), address, asked=asked)
    assert page is not None
    return page


def test_the_page_binds_only_where_it_was_asked(session: Session) -> None:
    page = _served(session, "127.0.0.1:0")
    try:
        assert page.server.address is not None
        host, port = page.server.address
        assert host == "127.0.0.1" and page.url == f"http://127.0.0.1:{port}/"
        with urllib.request.urlopen(page.url, timeout=10) as reply:
            assert reply.status == 200 and b"Ana" in reply.read()
        others = lan_addresses()
        if others:  # the machine's LAN address does not reach a page bound to the loopback
            with pytest.raises(OSError), socket.create_connection((others[0], port), timeout=2):
                pass
    finally:
        page.stop()


def test_an_address_asked_for_and_taken_stops_the_start_in_one_line(session: Session) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        with pytest.raises(UserError) as refused:
            serve_table(TableModel(session), f"127.0.0.1:{port}")
        assert str(refused.value).startswith(f"cannot serve the phone page on 127.0.0.1:{port}")
        assert "--no-http" in str(refused.value) and "\n" not in str(refused.value)
        # the built-in address, taken: the table runs on without its page
        assert serve_table(TableModel(session), f"127.0.0.1:{port}", asked=False) is None


@pytest.mark.parametrize("address", ["not an address", "127.0.0.1:99999", "[::1", "host:port"])
def test_a_malformed_address_is_one_clear_line(session: Session, address: str) -> None:
    with pytest.raises(UserError, match=r"^--http: not an? (address|port)"):
        serve_table(TableModel(session), address)
    with pytest.raises(UserError, match=r"^--http: not an? (address|port)"):
        serve_tournament(Host(evening((1, 0, 0, 0), (0, 0, 0, 0))), address)


def test_the_pin_never_reaches_a_log(session: Session, caplog: pytest.LogCaptureFixture
                                     ) -> None:
    caplog.set_level(logging.DEBUG)
    page = _served(session, "127.0.0.1:0")
    try:
        pin = page.pin()
        wrong = f"{(int(pin) + 1) % 10_000:04d}"
        assert _post(page.url + "api/login", {"pin": wrong})[0] == 403
        for _ in range(3):
            _post(page.url + "api/login", {"pin": wrong})
        assert _post(page.url + "api/login", {"pin": wrong})[0] == 429
    finally:
        page.stop()
    page = _served(session, "127.0.0.1:0")  # a new server: a fresh rate limit
    try:
        status, answer = _post(page.url + "api/login", {"pin": page.pin()}, keep=True)
        assert status == 200, answer
        token = str(answer["token"])
        status, answer = _post(page.url + "api/undo", {"token": token}, keep=True)
        assert status == 200, answer
    finally:
        page.stop()
    logged = "\n".join(record.getMessage() for record in caplog.records)
    assert "phone 127.0.0.1: undo" in logged and "too many wrong PINs" in logged
    assert pin not in logged and wrong not in logged
    assert token not in logged and str(answer["token"]) not in logged


def test_the_events_page_binds_where_asked_and_shows_no_join_code(
        caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    page = serve_tournament(Host(evening((120, 0, 35, 0), (0, 210, 0, 64))), "127.0.0.1:0")
    assert page is not None
    try:
        assert page.server.address is not None and page.server.address[0] == "127.0.0.1"
        with urllib.request.urlopen(page.url, timeout=10) as reply:
            html = reply.read().decode()
        assert 'data-total="210"' in html and JOIN_CODE not in html
        assert _post(page.url + "api/undo", {"pin": "0000"})[0] == 405  # it takes no writes
        assert _post(page.url, {"pin": "0000"})[0] == 405
    finally:
        page.stop()
    assert JOIN_CODE not in caplog.text


@pytest.mark.parametrize("command", [["run", "--sim", "--headless"], ["event", "host"],
                                     ["event", "demo"]])
def test_a_malformed_http_option_is_refused_before_anything_starts(
        command: list[str], capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    from showdown.app.cli import main

    with pytest.raises(SystemExit) as stopped:
        main([*command, "--http", "127.0.0.1:http", "--dir" if "event" in command else "--db",
              str(tmp_path / "x")])
    assert stopped.value.code == 2
    err = capsys.readouterr().err
    assert "argument --http: not a port: 'http' in '127.0.0.1:http' (0-65535)" in err
    assert "Traceback" not in err and not (tmp_path / "x").exists()


@pytest.mark.parametrize(("given", "configured", "expected"), [
    ({"sim": True}, None, ("127.0.0.1:8080", False)),  # make run: this machine only
    ({"interactive": True}, None, ("127.0.0.1:8080", False)),
    ({}, None, ("0.0.0.0:8080", False)),  # the installed service, whatever backs it
    ({"sim": True, "http": "0.0.0.0:9000"}, None, ("0.0.0.0:9000", True)),
    ({"sim": True}, "0.0.0.0:8080x", None),
    ({"sim": True}, "192.0.2.9:8080", ("192.0.2.9:8080", True)),
    ({"sim": True, "no_http": True}, None, (None, False)),
])
def test_a_simulator_asked_for_serves_this_machine_only_unless_told(
        given: dict[str, object], configured: str | None,
        expected: tuple[str | None, bool] | None) -> None:
    """``make run`` on a developer's machine opened the page to the whole network; a simulator
    asked for on the command line now serves the loopback, and an address given still wins."""
    import argparse

    from showdown.app.phone_page import http_address
    from showdown.web.http_address import WebSettings

    if expected is None:  # a configured address that is none is refused where it is read
        with pytest.raises(ValueError, match="port"):
            WebSettings(http=configured)
        return
    args = argparse.Namespace(**{"sim": False, "interactive": False, "no_http": False,
                                 "http": None, **given})
    web = WebSettings() if configured is None else WebSettings(http=configured)
    assert http_address(args, web) == expected
