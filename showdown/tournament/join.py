"""Joining an event with a code: ``CODE@HOST[:PORT]``, or ``CODE`` alone found by mDNS.

The table connects as user ``join`` with the code as its password and a random client id, asks
on its own request topic and waits for the host's reply on its own reply topic
(docs/event.md, "JoinRequest, JoinReply"). The credentials it receives are kept in the outbox's
file; the code itself is never stored or logged.

A join that fails says why in words, and :class:`JoinProblem` names the reason for a screen
that says it in the table's language: nothing answers at the address, the code is wrong, the
code has expired (the broker still knows the last code as user ``join-late``: a code it takes
there was valid until the host showed a new one), every table has joined, the host is silent.
"""

from __future__ import annotations

import logging
import secrets
import socket
import threading
import time
from dataclasses import dataclass
from enum import StrEnum
from typing import NoReturn

from pydantic import SecretStr

from showdown.tournament.broker_files import JOIN_LATE_USER, JOIN_USER
from showdown.tournament.connection import Connection
from showdown.tournament.messages import (
    JoinReply,
    JoinRequest,
    MessageError,
    Topics,
    parse,
    to_payload,
)
from showdown.tournament.outbox import Membership

__all__ = ["DEFAULT_PORT", "JoinError", "JoinProblem", "Joining", "join", "parse_address",
           "reach"]

log = logging.getLogger(__name__)

DEFAULT_PORT = 1883
ASK_AGAIN_S = 3.0
"""A request not answered within this is asked again (the host may have been reconnecting)."""


class JoinProblem(StrEnum):
    """Why a join failed, for a screen to say in its own language."""

    BAD_ADDRESS = "bad-address"
    UNREACHABLE = "unreachable"
    WRONG_CODE = "wrong-code"
    EXPIRED_CODE = "expired-code"
    FULL = "full"
    NO_ANSWER = "no-answer"
    NOT_FOUND = "not-found"
    OTHER = "other"


class JoinError(Exception):
    """Joining failed; the message says why, for the person at the table."""

    def __init__(self, message: str, problem: JoinProblem = JoinProblem.OTHER) -> None:
        super().__init__(message)
        self.problem = problem


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
                        "host's address (CODE@HOST or CODE@HOST:PORT)", JoinProblem.WRONG_CODE)
    if not where:
        return Joining(SecretStr(code), None, DEFAULT_PORT)
    host, _, port_text = where.rpartition(":") if where.count(":") == 1 else (where, "", "")
    if not port_text:
        return Joining(SecretStr(code), where, DEFAULT_PORT)
    if not port_text.isdigit() or not 1 <= int(port_text) <= 65535:
        raise JoinError(f"{port_text!r} is not a port (1-65535) in --event CODE@HOST:PORT",
                        JoinProblem.BAD_ADDRESS)
    if not host:
        raise JoinError("--event CODE@HOST:PORT needs the host's address before the port",
                        JoinProblem.BAD_ADDRESS)
    return Joining(SecretStr(code), host, int(port_text))


def reach(host: str, port: int, timeout_s: float = 5.0) -> None:
    """Whether anything answers at ``host:port`` at all (:class:`JoinError` saying why not),
    before MQTT's own client, which would only keep trying, is asked to connect."""
    try:
        with socket.create_connection((host, port), timeout=timeout_s):
            return
    except socket.gaierror:
        why = f"no computer is called {host!r} on this network"
    except ConnectionRefusedError:
        why = f"{host} is there, but nothing listens on port {port}"
    except TimeoutError:
        why = f"{host} did not answer within {timeout_s:.0f} s"
    except OSError as error:
        why = (error.strerror or str(error)).lower()
    raise JoinError(f"cannot reach the event at {host}:{port}: {why}; check the address, and "
                    "that the host is running on the same network", JoinProblem.UNREACHABLE)


def join(joining: Joining, host: str, name: str = "", timeout_s: float = 60.0,
         joined_seq: int = 0) -> Membership:
    """Ask the host at ``host`` for this table's credentials (:class:`JoinError` if refused)."""
    reach(host, joining.port, min(timeout_s, 5.0))
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
    refused: str | None = None
    try:
        if not connection.answered.wait(timeout_s) or not subscribed.wait(1.0):
            refused = connection.refused
            if refused is None:
                raise JoinError(f"no event answered at {host}:{joining.port} within "
                                f"{timeout_s:.0f} s", JoinProblem.NO_ANSWER)
        else:
            _ask(connection, JoinRequest(code=joining.code, client=client, name=name), arrived,
                 timeout_s, f"{host}:{joining.port}")
    finally:
        connection.stop()
    if refused is not None:
        _refused_code(joining, host, refused)
    try:
        reply = parse(JoinReply, replies[0])
    except MessageError as error:
        raise JoinError(f"the host's answer cannot be read: {error}") from None
    if reply.error is not None or reply.table is None or reply.password is None \
            or reply.signing_key is None or reply.info is None:
        problem = JoinProblem(reply.reason) if reply.reason else JoinProblem.OTHER
        raise JoinError(f"the host refused: {reply.error or 'an incomplete answer'}", problem)
    return Membership(event=reply.info.event, table=reply.table, host=host, port=joining.port,
                      password=reply.password, signing_key=reply.signing_key, info=reply.info,
                      joined_seq=joined_seq)


def _ask(connection: Connection, request: JoinRequest, arrived: threading.Event,
         timeout_s: float, where: str) -> None:
    """Publish the request until the host answers: it answers each client once, and may have
    been reconnecting when the first request came."""
    deadline = time.monotonic() + timeout_s
    while not arrived.is_set():
        if time.monotonic() >= deadline:
            raise JoinError(f"the event at {where} did not answer the join request within "
                            f"{timeout_s:.0f} s", JoinProblem.NO_ANSWER)
        connection.client.publish(Topics.join_request(request.client), to_payload(request),
                                  qos=1)
        arrived.wait(min(ASK_AGAIN_S, max(0.0, deadline - time.monotonic())))


def _refused_code(joining: Joining, host: str, why: str) -> NoReturn:
    """The broker refused the code: an expired one if the broker takes it as the last code
    (user ``join-late``, which may do nothing), else a wrong one."""
    late = Connection(client_id=f"join-{secrets.token_hex(8)}", username=JOIN_LATE_USER,
                      password=joining.code, host=host, port=joining.port,
                      on_message=lambda _topic, _payload: None, subscriptions=[], clean=True)
    late.start()
    try:
        expired = late.answered.wait(10.0) and late.connected.is_set()
    finally:
        late.stop()
    if expired:
        raise JoinError(f"that join code has expired: the host at {host} shows a new one",
                        JoinProblem.EXPIRED_CODE)
    raise JoinError(f"the event at {host}:{joining.port} refused the code ({why}): read the "
                     "code on the host's screen again", JoinProblem.WRONG_CODE)
