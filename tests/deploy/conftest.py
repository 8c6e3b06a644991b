"""Fixtures for the deploy tests: a real ``AF_UNIX`` datagram socket standing in for systemd."""

from __future__ import annotations

import os
import socket
import struct
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

# Linux's SO_TIMESTAMPNS (not exported by every Python build): the kernel stamps each datagram
# when it arrives, so a period measured from these stamps does not depend on when the test, on a
# loaded machine, gets round to reading them.
SO_TIMESTAMPNS = getattr(socket, "SO_TIMESTAMPNS", 35)


@dataclass
class NotifySocket:
    """The listening end of ``$NOTIFY_SOCKET``: what systemd would receive from the service."""

    sock: socket.socket
    env_value: str
    received: list[str] = field(default_factory=list)
    arrivals: list[float] = field(default_factory=list)

    def receive(self, timeout: float = 5.0) -> str:
        """The next datagram as text; raises ``TimeoutError`` when nothing arrives in time.

        Its kernel arrival time (seconds, wall clock) is appended to :attr:`arrivals`.
        """
        self.sock.settimeout(timeout)
        raw, ancillary, _flags, _address = self.sock.recvmsg(4096, 64)
        data = raw.decode("utf-8")
        for level, kind, payload in ancillary:
            if level == socket.SOL_SOCKET and kind == SO_TIMESTAMPNS:
                seconds, nanoseconds = struct.unpack("qq", payload[:16])
                self.arrivals.append(seconds + nanoseconds / 1e9)
        self.received.append(data)
        return data

    def drain(self) -> list[str]:
        """Datagrams already queued, without waiting for more."""
        got = []
        self.sock.setblocking(False)
        try:
            while True:
                got.append(self.sock.recv(4096).decode("utf-8"))
        except BlockingIOError:
            return got
        finally:
            self.sock.setblocking(True)

    def receive_until(self, wanted: str, timeout: float = 10.0) -> list[str]:
        """Datagrams up to and including the first that contains the line ``wanted``."""
        got = []
        while True:
            message = self.receive(timeout)
            got.append(message)
            if wanted in message.splitlines():
                return got


@pytest.fixture
def notify_socket(tmp_path: Path) -> Iterator[NotifySocket]:
    """A bound datagram socket at a filesystem path, as systemd's ``/run/systemd/notify``."""
    path = tmp_path / "notify"
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.setsockopt(socket.SOL_SOCKET, SO_TIMESTAMPNS, 1)
    sock.bind(str(path))
    try:
        yield NotifySocket(sock, str(path))
    finally:
        sock.close()


@pytest.fixture
def abstract_notify_socket() -> Iterator[NotifySocket]:
    """A bound datagram socket in the Linux abstract namespace, named ``@...`` in the variable."""
    name = f"showdown-test-{os.getpid()}-{uuid.uuid4().hex}"
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.setsockopt(socket.SOL_SOCKET, SO_TIMESTAMPNS, 1)
    sock.bind("\0" + name)
    try:
        yield NotifySocket(sock, "@" + name)
    finally:
        sock.close()
