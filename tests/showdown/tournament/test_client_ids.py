"""A join code is not the host's identity: against both brokers (real processes), every role's
credentials with every other role's client id are refused, and the real host is never knocked
off (a broker closes the older of two connections with one id)."""

from __future__ import annotations

import secrets
import time

import pytest
from pydantic import SecretStr

from showdown.tournament.broker_files import client_id_allowed
from tests.showdown.tournament.conftest import Event
from tests.showdown.tournament.test_security import client


def roles(event: Event) -> tuple[dict[str, tuple[str, str]], dict[str, str]]:
    """Each role's credentials (user, password) and the client id it connects with."""
    one, two = event.join(), event.join()
    old_code = event.host.join_code.code.get_secret_value()
    later = time.time() + 16 * 60  # the code expires: the broker knows it as join-late
    event.host.clock = lambda: later
    event.host.tick()
    host_password = event.host.store.get("host_password")
    assert host_password is not None
    name = event.host.info.event
    credentials = {
        "host": ("host", host_password),
        "t1": (one.table, one.password.get_secret_value()),
        "t2": (two.table, two.password.get_secret_value()),
        "join": ("join", event.host.join_code.code.get_secret_value()),
        "join-late": ("join-late", old_code),
    }
    ids = {"host": f"host-{name}", "t1": f"{name}-t1", "t2": f"{name}-t2",
           "join": f"join-{secrets.token_hex(8)}", "join-late": f"join-{secrets.token_hex(8)}"}
    return credentials, ids


def test_no_credential_can_take_another_roles_client_id(event: Event) -> None:
    drops: list[object] = []
    paho = event.host.connection.client
    handler = paho.on_disconnect

    def counted(*args: object) -> None:
        drops.append(args[3])
        handler(*args)  # type: ignore[misc]

    paho.on_disconnect = counted
    credentials, ids = roles(event)
    tried = []
    for role, (user, password) in credentials.items():
        for other, client_id in ids.items():
            if other == role or {role, other} == {"join", "join-late"}:
                continue  # a role's own ids (join and join-late share the joiners' ids)
            raw, answer = client(event, user, password, client_id)
            raw.disconnect()  # no reconnection pending: the loop stops at once
            raw.loop_stop()
            tried.append((role, other, answer))
    assert [t for t in tried if t[2] != "Not authorized"] == []
    assert len(tried) == 18
    assert drops == [] and event.host.connection.connected.is_set()
    # The refusals are about the ids, not the passwords: each role connects under a fresh
    # id of its own (the host under another host id, so the real one stays on).
    own = {"host": f"host-{'z' * 6}", "t1": ids["t1"], "t2": ids["t2"],
           "join": f"join-{secrets.token_hex(8)}", "join-late": f"join-{secrets.token_hex(8)}"}
    for role, (user, password) in credentials.items():
        raw, answer = client(event, user, password, own[role])
        raw.disconnect()
        raw.loop_stop()
        assert answer == "Success", role
    assert drops == []


@pytest.mark.parametrize(("user", "client_id", "allowed"), [
    ("host", "host-abc234", True), ("host", "host-abc23", False), ("host", "abc234-t1", False),
    ("join", "join-0123456789abcdef", True), ("join", "host-abc234", False),
    ("join-late", "join-0123456789abcdef", True), ("join", "join-0123456789ABCDEF", False),
    ("t1", "abc234-t1", True), ("t1", "abc234-t2", False), ("t12", "abc234-t12", True),
    ("t1", "abc234-t12", False), ("stranger", "stranger", False), ("t1", "host-abc234", False),
])
def test_the_rule_of_both_brokers(user: str, client_id: str, allowed: bool) -> None:
    assert client_id_allowed(user, client_id) is allowed


def test_a_wrong_password_under_a_right_id_is_still_refused(event: Event) -> None:
    raw, answer = client(event, "host", SecretStr("guess").get_secret_value(),
                         f"host-{'y' * 6}")
    raw.loop_stop()
    assert answer == "Not authorized"
