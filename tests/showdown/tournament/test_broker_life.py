"""The host owns its broker's life, against both brokers (real processes): the broker goes with
the host however the host ends (SIGKILL, Ctrl-C), a host started again after a kill -9 takes
its tables' joins, a broker an earlier host of the folder left running is replaced and anything
else on the port refused in one line, and a broker that dies is started again and the tables
carry on by themselves."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from pydantic import SecretStr

from showdown.game.messages import SetUpGame
from showdown.game.session import Session
from showdown.tournament.broker_files import BrokerFiles
from showdown.tournament.brokers import PID_FILE, BrokerProcess, free_port
from showdown.tournament.credentials import hash_password
from showdown.tournament.games import setup_key
from showdown.tournament.join import Joining, join
from tests.showdown.tournament.conftest import NAMES, Event, wait_for


def listening(port: int) -> bool:
    """Whether anything accepts a connection on the port (what a table would notice)."""
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=1.0):
            return True
    except OSError:
        return False


def running(pid: int) -> bool:
    """Whether the process runs (a zombie, dead but not yet reaped, does not)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state != "Z"


class Host:
    """``showdown event host`` as a process, on the test's folder and port."""

    def __init__(self, folder: Path, kind: str, port: int) -> None:
        self.folder, self.port = folder, port
        (folder / "join-code").unlink(missing_ok=True)
        self.process = subprocess.Popen(
            [sys.executable, "-m", "showdown", "event", "host", "--dir", str(folder),
             "--broker", kind, "--bind", "127.0.0.1", "--port", str(port), "--headless",
             "--no-http", "--no-mdns", "--tables", "2", "--keepalive", "5"],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)

    def wait_up(self) -> str:
        """The join code, once the host shows it (it has reached its broker then)."""
        code = self.folder / "join-code"
        assert wait_for(lambda: code.exists() or self.process.poll() is not None, 60), \
            "the host did not show a join code"
        assert self.process.poll() is None, self.stop()
        return code.read_text().partition("@")[0]

    def broker_pid(self) -> int:
        return int((self.folder / PID_FILE).read_text().split()[0])

    def stop(self, signum: int = signal.SIGINT) -> str:
        """End it with ``signum``; its standard error."""
        if self.process.poll() is None:
            self.process.send_signal(signum)
        _, err = self.process.communicate(timeout=60)
        return err


@pytest.fixture
def hosts(tmp_path: Path) -> Iterator[list[Host]]:
    started: list[Host] = []
    yield started
    for host in started:
        host.stop(signal.SIGKILL)


@pytest.mark.parametrize("signum", [signal.SIGKILL, signal.SIGINT], ids=["kill-9", "ctrl-c"])
def test_the_broker_goes_with_the_host_and_a_restarted_host_takes_joins(
    tmp_path: Path, broker_kind: str, signum: int, hosts: list[Host]
) -> None:
    port = free_port()
    first = Host(tmp_path / "event", broker_kind, port)
    hosts.append(first)
    first.wait_up()
    broker = first.broker_pid()
    assert running(broker) and listening(port)
    first.stop(signum)
    assert wait_for(lambda: not running(broker) and not listening(port), 30), \
        f"the {broker_kind} broker outlived its host"
    if signum != signal.SIGKILL:
        return  # a host started again after its Ctrl-C: as after kill -9, next
    again = Host(tmp_path / "event", broker_kind, port)
    hosts.append(again)
    code = again.wait_up()
    joined = join(Joining(SecretStr(code), "127.0.0.1", port), "127.0.0.1", timeout_s=30)
    assert joined.table == "t1"
    broker = again.broker_pid()
    again.stop()
    assert again.process.returncode == 0
    assert not running(broker) and not listening(port)


def test_a_broker_an_earlier_host_left_is_replaced_saying_so(
    tmp_path: Path, broker_kind: str, hosts: list[Host]
) -> None:
    """The orphan of issue 38: a broker still running with the last evening's passwords."""
    port, folder = free_port(), tmp_path / "event"
    files = BrokerFiles(folder)
    files.write({"host": hash_password("last evening's")}, "user host\n")
    orphan = BrokerProcess(broker_kind, files, bind="127.0.0.1", port=port)
    orphan.start()
    assert orphan.process is not None
    stale = orphan.process.pid
    try:
        host = Host(folder, broker_kind, port)
        hosts.append(host)
        code = host.wait_up()
        assert not running(stale)
        joined = join(Joining(SecretStr(code), "127.0.0.1", port), "127.0.0.1", timeout_s=30)
        assert joined.table == "t1"
        err = host.stop()
    finally:
        orphan.stop()
    said = [line for line in err.splitlines() if "left running" in line]
    assert len(said) == 1 and f"port {port}: stopping the broker (pid {stale})" in said[0]


def test_a_port_another_program_holds_is_refused_in_one_line(tmp_path: Path) -> None:
    with socket.socket() as other:
        other.bind(("127.0.0.1", 0))
        other.listen()
        port = other.getsockname()[1]
        result = subprocess.run(
            [sys.executable, "-m", "showdown", "event", "host", "--dir", str(tmp_path / "e"),
             "--broker", "embedded", "--bind", "127.0.0.1", "--port", str(port), "--headless",
             "--no-http", "--no-mdns"], capture_output=True, text=True, timeout=60, check=False)
    assert result.returncode != 0
    assert "Traceback" not in result.stderr
    assert result.stderr.strip().splitlines()[-1] == (
        f"showdown: error: port {port} is taken by another program, not this event's broker: "
        f"stop it (ss -ltnp 'sport = {port}' names it) or choose another --port")


def test_a_broker_that_dies_is_started_again_and_the_tables_carry_on(event: Event) -> None:
    event.broker.supervise()
    link = event.table(event.join())
    assert wait_for(lambda: event.host.tables()[0].online)
    process = event.broker.process
    assert process is not None
    os.kill(process.pid, signal.SIGKILL)
    assert wait_for(lambda: event.broker.restarts == 1, 30), "the broker was not restarted"
    assert wait_for(lambda: event.host.connection.connected.is_set()
                    and link.connection.connected.is_set(), 30)
    Session(link.journal).handle(SetUpGame(players=NAMES[:4], command_id=setup_key(
        1, event.host.info.event, None, 1)))
    assert wait_for(lambda: event.host.store.count() == 1, 30)
    assert wait_for(lambda: link.unacknowledged() == 0, 30)


def listens_on_every_interface(port: int) -> bool:
    """Whether a socket listens on 0.0.0.0:port (where the LAN's tables reach it)."""
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        local, state = line.split()[1], line.split()[3]
        if state == "0A" and local == f"00000000:{port:04X}":
            return True
    return False


def test_a_broker_on_every_interface_stays_there_when_started_again(tmp_path: Path) -> None:
    """The host connects over the loopback; the tables on the LAN must still reach the broker
    it starts again."""
    files = BrokerFiles(tmp_path)
    files.write({"host": hash_password("x")}, "user host\n")
    broker = BrokerProcess("embedded", files, bind="0.0.0.0", port=free_port())
    broker.start()
    broker.host = "127.0.0.1"  # as showdown event host connects to it
    broker.supervise()
    try:
        assert broker.process is not None and listens_on_every_interface(broker.port)
        os.kill(broker.process.pid, signal.SIGKILL)
        assert wait_for(lambda: broker.restarts == 1, 30)
        assert listens_on_every_interface(broker.port)
    finally:
        broker.stop()


def test_a_dead_broker_is_news_to_the_screens_of_the_host_and_the_tables(event: Event
                                                                         ) -> None:
    """With the broker dead, the event's page and the table's event section kept showing the
    host online and "Live": nothing told them the link had dropped, and the table's view kept
    the host's last "online". Now the link's drop is news to both sides' screens, and the
    table's view says the host is away while it cannot be heard."""
    link = event.table(event.join())
    assert wait_for(lambda: link.view().host_online and event.host.view().host_online)
    # what each screen is told: the view it reads when notified (other news, a late join's,
    # may come first on a busy machine; the drop must come as news, not only be readable)
    told: dict[str, list[bool]] = {"host": [], "table": []}
    event.host.subscribe(lambda: told["host"].append(event.host.view().host_online))
    link.subscribe(lambda: told["table"].append(link.view().host_online))
    event.broker.stop()  # no supervisor here: it stays dead
    assert wait_for(lambda: False in told["host"] and False in told["table"], 30), told
    assert not event.host.view().host_online
    assert not link.view().host_online
