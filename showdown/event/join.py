"""Joining an event with a code: ``CODE@HOST[:PORT]``, or ``CODE`` alone found by mDNS.

The table connects as user ``join`` with the code as its password and a random client id, asks
on its own request topic and waits for the host's reply on its own reply topic
(docs/event.md, "JoinRequest, JoinReply"). The credentials it receives are kept in the outbox's
file; the code itself is never stored or logged.
"""

from __future__ import annotations

import logging
import secrets
import threading
import time
from dataclasses import dataclass

from pydantic import SecretStr

from showdown.event.broker_files import JOIN_USER
from showdown.event.connection import Connection
from showdown.event.messages import (
    JoinReply,
    JoinRequest,
    MessageError,
    Topics,
    parse,
    to_payload,
)
from showdown.event.outbox import Membership

__all__ = ["DEFAULT_PORT", "JoinError", "Joining", "join", "parse_address"]

log = logging.getLogger(__name__)

DEFAULT_PORT = 1883
ASK_AGAIN_S = 3.0
"""A request not answered within this is asked again (the host may have been reconnecting)."""


class JoinError(Exception):
    """Joining failed; the message says why, for the person at the table."""


@dataclass(frozen=True)
class Joining:
    """What ``--event`` says: the code, and the host (None: look it up by mDNS)."""

    code: SecretStr
    host: str | None
    port: int


def parse_address(text: str) -> Joining:
    """Read ``CODE@HOST[:PORT]`` or ``CODE``; :class:`JoinError` says what is wrong."""
    code, _, where = text.strip().partition("@")
    code = code.upper().replace("-", "").replace(" ", "")
    if not code.isalnum() or not 4 <= len(code) <= 16:
        raise JoinError("--event takes the join code shown on the host's screen, then @ and the "
                        "host's address (CODE@HOST or CODE@HOST:PORT)")
    if not where:
        return Joining(SecretStr(code), None, DEFAULT_PORT)
    host, _, port_text = where.rpartition(":") if where.count(":") == 1 else (where, "", "")
    if not port_text:
        return Joining(SecretStr(code), where, DEFAULT_PORT)
    if not port_text.isdigit() or not 1 <= int(port_text) <= 65535:
        raise JoinError(f"{port_text!r} is not a port (1-65535) in --event CODE@HOST:PORT")
    if not host:
        raise JoinError("--event CODE@HOST:PORT needs the host's address before the port")
    return Joining(SecretStr(code), host, int(port_text))


def join(joining: Joining, host: str, name: str = "", timeout_s: float = 60.0,
         joined_seq: int = 0) -> Membership:
    """Ask the host at ``host`` for this table's credentials (:class:`JoinError` if refused)."""
    client = f"join-{secrets.token_hex(8)}"
    replies: list[bytes] = []
    arrived = threading.Event()
    subscribed = threading.Event()

    def on_message(topic: str, payload: bytes) -> None:
        if topic != Topics.join_reply(client):
            log.warning("ignored a message on %s while joining", topic)
            return
        replies.append(payload)
        arrived.set()

    connection = Connection(
        client_id=client, username=JOIN_USER, password=joining.code, host=host,
        port=joining.port, on_message=on_message, subscriptions=[Topics.join_reply(client)],
        on_connect=subscribed.set, clean=True)
    connection.start()
    try:
        if not subscribed.wait(timeout_s):
            if connection.refused:
                raise JoinError(f"the event at {host}:{joining.port} refused the code "
                                f"({connection.refused}): read the code on the host's screen "
                                "again")
            raise JoinError(f"no event answered at {host}:{joining.port} within "
                            f"{timeout_s:.0f} s")
        request = JoinRequest(code=joining.code, client=client, name=name)
        deadline = time.monotonic() + timeout_s
        while not arrived.is_set():  # asked again until answered: the host answers a client once
            if time.monotonic() >= deadline:
                raise JoinError(f"the event at {host}:{joining.port} did not answer the join "
                                f"request within {timeout_s:.0f} s")
            connection.client.publish(Topics.join_request(client), to_payload(request), qos=1)
            arrived.wait(min(ASK_AGAIN_S, max(0.0, deadline - time.monotonic())))
    finally:
        connection.stop()
    try:
        reply = parse(JoinReply, replies[0])
    except MessageError as error:
        raise JoinError(f"the host's answer cannot be read: {error}") from None
    if reply.error is not None or reply.table is None or reply.password is None \
            or reply.signing_key is None or reply.info is None:
        raise JoinError(f"the host refused: {reply.error or 'an incomplete answer'}")
    return Membership(event=reply.info.event, table=reply.table, host=host, port=joining.port,
                      password=reply.password, signing_key=reply.signing_key, info=reply.info,
                      joined_seq=joined_seq)
