"""A broker of each kind, started per test on a free port with its own files, and a host on it.

Mosquitto is Debian's binary (``/usr/sbin/mosquitto``) started with a configuration of the test's
own, never the system's service; where it is absent its tests skip, saying so in one line.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest

from showdown.game.journal import Journal
from showdown.tournament.broker_files import BrokerFiles
from showdown.tournament.brokers import BrokerProcess, mosquitto_binary
from showdown.tournament.host import TournamentHost, new_tournament_id
from showdown.tournament.join import Joining, join
from showdown.tournament.messages import TournamentInfo
from showdown.tournament.outbox import Membership, Outbox, tournament_file
from showdown.tournament.table_link import TableLink

NAMES = ["Ada", "Ben", "Cleo", "Dev", "Eli", "Fay", "Gus", "Hana"]


@pytest.fixture(params=["embedded", "mosquitto"])
def broker_kind(request: pytest.FixtureRequest) -> str:
    if request.param == "mosquitto" and mosquitto_binary() is None:
        pytest.skip("Mosquitto is not installed here (apt-get install mosquitto)")
    return str(request.param)


@dataclass
class Event:
    """A running broker and host, and how to join tables to them."""

    folder: Path
    broker: BrokerProcess
    host: TournamentHost
    links: list[TableLink]

    def join(self, name: str = "") -> Membership:
        return join(Joining(self.host.join_code.code, "127.0.0.1", self.broker.port),
                    "127.0.0.1", name=name)

    def table(self, membership: Membership) -> TableLink:
        journal = Journal.open(self.folder / f"{membership.table}.db", writable=True)
        outbox = Outbox(tournament_file(journal.path))
        outbox.join(membership)
        link = TableLink(journal, outbox, membership, resend_s=1.0, keepalive=5)
        journal.on_append = link.entry_committed
        link.start()
        self.links.append(link)
        return link


def wait_for(condition: Callable[[], bool], timeout_s: float = 120.0) -> bool:
    """Wait on the host's own notifications (no fixed sleep) until ``condition`` holds; the
    limit only ends a hang (it returns the moment the condition holds), so it is far past what
    a busy machine takes."""
    changed = threading.Event()
    deadline = threading.Event()
    timer = threading.Timer(timeout_s, deadline.set)
    timer.start()
    try:
        while not condition():
            if deadline.is_set():
                return False
            changed.wait(0.05)
        return True
    finally:
        timer.cancel()


@contextmanager
def hosted(tmp_path: Path, broker_kind: str, info: TournamentInfo) -> Iterator[Event]:
    """A host of ``info`` on a broker of ``broker_kind``, connected; its links and itself
    stopped after (a test may have replaced the host: a restarted one)."""
    files = BrokerFiles(tmp_path / "host")
    broker = BrokerProcess(broker_kind, files, log=tmp_path / "broker.log")
    host = TournamentHost(tmp_path / "host", broker, info=info, keepalive=5)
    host.write_broker_files()
    broker.start()
    host.start()
    assert host.wait_connected(120), f"the host did not reach the {broker_kind} broker"
    running = Event(tmp_path, broker, host, [])
    try:
        yield running
    finally:
        for link in running.links:
            link.stop()
            link.journal.close()
        running.host.stop()
        broker.stop()


@pytest.fixture
def event(tmp_path: Path, broker_kind: str) -> Iterator[Event]:
    info = TournamentInfo(event=new_tournament_id(), name="test", format="free", players=NAMES,
                          tables=["t1", "t2"], rounds=1, target=120)
    with hosted(tmp_path, broker_kind, info) as running:
        yield running


@pytest.fixture(autouse=True)
def no_client_left_running() -> Iterator[None]:
    """Every MQTT client a test made is stopped with it: a network thread left behind keeps
    reconnecting into the tests after it."""
    before = set(threading.enumerate())
    yield
    left = [t for t in threading.enumerate()
            if t not in before and t.name.startswith("paho-mqtt-client-")]
    for thread in left:
        thread.join(timeout=5)
    assert [t.name for t in left if t.is_alive()] == []
