"""A join that fails says why, in words a table can act on, against both brokers: a wrong code,
an expired one (the code shown before the host's current one), and an address where nothing
answers."""

from __future__ import annotations

import socket
import time

import pytest
from pydantic import SecretStr

from showdown.tournament.join import JoinError, Joining, JoinProblem, join
from tests.showdown.tournament.conftest import Event


def _failed(code: SecretStr, port: int) -> JoinError:
    with pytest.raises(JoinError) as caught:
        join(Joining(code, "127.0.0.1", port), "127.0.0.1", timeout_s=8)
    return caught.value


def test_a_wrong_code_is_called_wrong(event: Event) -> None:
    error = _failed(SecretStr("22222222"), event.broker.port)
    assert error.problem is JoinProblem.WRONG_CODE
    assert "read the code on the host's screen again" in str(error)
    assert [line.name for line in event.host.tables()] == ["", ""]


def test_the_code_shown_before_is_called_expired(event: Event) -> None:
    old = event.host.join_code.code
    later = time.time() + 16 * 60  # the host's clock past the code's 15 minutes
    event.host.clock = lambda: later
    event.host.tick()
    assert event.host.join_code.code.get_secret_value() != old.get_secret_value()
    error = _failed(old, event.broker.port)
    assert error.problem is JoinProblem.EXPIRED_CODE
    assert str(error) == "that join code has expired: the host at 127.0.0.1 shows a new one"
    assert _failed(SecretStr("22222222"), event.broker.port).problem is JoinProblem.WRONG_CODE
    # the new code still joins, as the first table
    joined = join(Joining(event.host.join_code.code, "127.0.0.1", event.broker.port),
                  "127.0.0.1", timeout_s=20)
    assert joined.table == "t1"


def test_an_address_where_nothing_listens_is_called_unreachable() -> None:
    with socket.socket() as probe:  # a port just free: nothing listens there
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    error = _failed(SecretStr("K7QD3MPA"), port)
    assert error.problem is JoinProblem.UNREACHABLE
    assert str(error).startswith(f"cannot reach the event at 127.0.0.1:{port}: 127.0.0.1 is "
                                 f"there, but nothing listens on port {port}")
