"""``--event CODE@HOST[:PORT]`` and ``CODE`` alone (found by mDNS)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from showdown.tournament.credentials import JoinCode
from showdown.tournament.discovery import Announcement, find
from showdown.tournament.join import DEFAULT_PORT, JoinError, parse_address


def test_a_code_and_an_address() -> None:
    joining = parse_address("k7qd-3mpa@192.168.1.20:1884")
    assert (joining.code.get_secret_value(), joining.host, joining.port) == (
        "K7QD3MPA", "192.168.1.20", 1884)
    assert parse_address("K7QD3MPA@pi.local").port == DEFAULT_PORT
    assert parse_address("K7QD3MPA").host is None
    assert "K7QD3MPA" not in repr(parse_address("K7QD3MPA@pi"))


@pytest.mark.parametrize("text, why", [
    ("@host", "join code"), ("K7!@host", "join code"), ("K7QD3MPA@host:0", "not a port"),
    ("K7QD3MPA@host:99999", "not a port"), ("K7QD3MPA@:1883", "address before the port"),
])
def test_a_bad_address_says_what_is_wrong(text: str, why: str) -> None:
    with pytest.raises(JoinError, match=why):
        parse_address(text)


@given(st.text(max_size=60))
def test_any_text_is_an_address_or_one_clear_refusal(text: str) -> None:
    try:
        joining = parse_address(text)
    except JoinError as error:
        assert "\n" not in str(error)
    else:
        assert joining.code.get_secret_value().isalnum() and 1 <= joining.port <= 65535


def test_a_join_code_expires_and_ignores_case_and_dashes() -> None:
    code = JoinCode.new(now=1000.0, minutes=15)
    text = code.code.get_secret_value()
    assert code.accepts(f"{text[:4].lower()}-{text[4:]}", now=1000.0)
    assert not code.accepts(text, now=1000.0 + 15 * 60)
    assert not code.accepts("22222222", now=1000.0)


def test_an_announced_event_is_found_on_the_lan() -> None:
    try:
        announcement = Announcement("abc123", "Test night", "127.0.0.1", 18830)
    except OSError as error:
        pytest.skip(f"no multicast here: {error}")
    try:
        found = find(timeout_s=5)
    finally:
        announcement.close()
    assert [(f.event, f.name, f.host, f.port) for f in found] == [
        ("abc123", "Test night", "127.0.0.1", 18830)]
