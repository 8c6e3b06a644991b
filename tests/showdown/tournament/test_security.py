"""Who may write what, against both brokers: another table's credentials, no credentials and a
replayed message each change nothing at the host, and each refusal is logged."""

from __future__ import annotations

import logging
import secrets
import threading

import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion
from pydantic import SecretStr

from showdown.tournament.credentials import sign
from showdown.tournament.join import JoinError, Joining, join
from showdown.tournament.messages import EntryMessage, to_payload
from showdown.tournament.outbox import Membership
from tests.showdown.tournament.conftest import Event, wait_for


def client(event: Event, user: str | None, password: str | None, client_id: str
           ) -> tuple[mqtt.Client, str]:
    """A raw paho client; returns it (connected or refused) and the broker's answer."""
    answer: list[str] = []
    done = threading.Event()
    raw = mqtt.Client(callback_api_version=CallbackAPIVersion.VERSION2, client_id=client_id,
                      protocol=mqtt.MQTTv311)
    if user is not None:
        raw.username_pw_set(user, password)

    def on_connect(_c: object, _u: object, _f: object, reason: object, _p: object) -> None:
        answer.append(str(reason))
        done.set()

    raw.on_connect = on_connect
    raw.reconnect_delay_set(60, 60)
    raw.connect_async("127.0.0.1", event.broker.port)
    raw.loop_start()
    done.wait(10)
    return raw, answer[0] if answer else "no answer"


def own_id(event: Event, user: str) -> str:
    """A client id of ``user``'s own role (the broker refuses any other)."""
    if user == "host":
        return f"host-{event.host.info.event}"
    if user.startswith("join"):
        return f"join-{secrets.token_hex(8)}"
    return f"{event.host.info.event}-{user}"


def entry_for(member: Membership, table: str, seq: int, key: SecretStr) -> EntryMessage:
    message = EntryMessage(event=member.event, table=table, journal="0123456789abcdef", seq=seq,
                           game=1, kind="set_up", key=f"setup:1:event:{member.event}:g1",
                           events=[{"kind": "game_started", "game_id": 1, "players": ["Ada"],
                                    "preset": "official", "first_dealer": "Ada",
                                    "scoring": {}}], recorded_at="2026-01-01T20:41:00.000+00:00")
    return message.model_copy(update={"mac": sign(key, message.signed_part())})


def test_no_credentials_and_a_wrong_password_are_refused(event: Event) -> None:
    for user, password in ((None, None), ("t1", "guess"), ("host", "guess"), ("join", "WRONG")):
        raw, answer = client(event, user, password, own_id(event, user or "t1"))
        raw.loop_stop()
        assert answer == "Not authorized", (user, answer)
    assert event.host.store.count() == 0


def test_a_wrong_join_code_is_refused(event: Event) -> None:
    with pytest.raises(JoinError, match="refused the code"):
        join(Joining(SecretStr("22222222"), "127.0.0.1", event.broker.port), "127.0.0.1",
             timeout_s=4)
    assert event.host.tables()[0].name == ""


def test_another_tables_credentials_change_nothing(
    event: Event, caplog: pytest.LogCaptureFixture
) -> None:
    one, two = event.join(), event.join()
    assert (one.table, two.table) == ("t1", "t2")
    raw, answer = client(event, two.table, two.password.get_secret_value(),
                         own_id(event, two.table))
    assert answer == "Success"
    topics = event.host.topics
    with caplog.at_level(logging.WARNING, logger="showdown.tournament.host"):
        # As t2: an entry claiming t1, on t1's topic (the ACL drops it at Mosquitto; the host
        # refuses it where a broker lets it through), then on t2's own topic.
        for topic in (topics.entry("t1"), topics.entry("t2")):
            raw.publish(topic, to_payload(entry_for(two, "t1", 1, two.signing_key)),
                        qos=1).wait_for_publish(5)
        # As t2 on its own topic, but signed with a made-up key: refused, not stored.
        raw.publish(topics.entry("t2"), to_payload(entry_for(two, "t2", 2, SecretStr("x"))),
                    qos=1).wait_for_publish(5)
        # A proper entry of t2 goes through: the three before it were refused, not delayed.
        raw.publish(topics.entry("t2"), to_payload(entry_for(two, "t2", 3, two.signing_key)),
                    qos=1).wait_for_publish(5)
        assert wait_for(lambda: event.host.store.count() == 1)
    raw.loop_stop()
    stored = event.host.store.entries()
    assert [(e.table, e.seq) for e in stored] == [("t2", 3)]
    refusals = [r.getMessage() for r in caplog.records if "refused" in r.getMessage()]
    assert any("table t1 on table t2's topic" in m for m in refusals)
    assert any("signature is not t2's" in m for m in refusals)


def test_a_replayed_message_changes_nothing(event: Event) -> None:
    member = event.join()
    raw, answer = client(event, member.table, member.password.get_secret_value(),
                         own_id(event, member.table))
    assert answer == "Success"
    payload = to_payload(entry_for(member, "t1", 1, member.signing_key))
    for _ in range(3):
        raw.publish(event.host.topics.entry("t1"), payload, qos=1).wait_for_publish(5)
    assert wait_for(lambda: event.host.redeliveries == 2)
    raw.loop_stop()
    assert event.host.store.count() == 1
    assert event.host.summary()["entries_counted"] == 1


def test_no_secret_reaches_a_log(event: Event, caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.DEBUG):
        member = event.join(name="Window")
        event.host.tick()
    secrets = [member.password.get_secret_value(), member.signing_key.get_secret_value(),
               event.host.join_code.code.get_secret_value()]
    text = caplog.text + (event.folder / "broker.log").read_text(errors="replace")
    assert [s for s in secrets if s in text] == []
    assert "table t1 joined (Window)" in caplog.text
