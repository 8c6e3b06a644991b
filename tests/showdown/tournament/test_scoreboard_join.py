"""A table joins an event from its scoreboard, as the players would: Set-up's Event row, the
code and the host's address typed on the on-screen keyboard, Join; then Set-up seats the round
the host published (partners-8), and the game it starts is the event's. The host's own screen
shows the join code as a QR code that reads back as ``CODE@HOST:PORT`` and joins. Against both
brokers; the screens are saved and looked at."""

from __future__ import annotations

import os

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"

import shutil
import subprocess
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import ifaddr
import pytest
from pytest_mock import MockerFixture

from engine.scoring import ScoringMode
from engine.tournament import TournamentSettings
from showdown.app.scoreboard_main import build_scoreboard
from showdown.app.subcommands import event_host
from showdown.game.journal import Journal
from showdown.game.session import Session
from showdown.game.table_model import TableModel
from showdown.scoreboard.app import Scoreboard
from showdown.scoreboard.i18n import set_language
from showdown.scoreboard.screens.names import PAGES
from showdown.tournament.broker_files import BrokerFiles
from showdown.tournament.brokers import BrokerProcess
from showdown.tournament.games import tournament_round
from showdown.tournament.host import TournamentHost, new_tournament_id
from showdown.tournament.join import Joining, join, parse_address
from showdown.tournament.membership import TableDoor
from showdown.tournament.messages import TournamentInfo
from showdown.tournament.table_link import TableLink
from showdown.tournament.view import TournamentSource
from tests.showdown.scoreboard.helpers import ARTIFACTS, touch, widget
from tests.showdown.tournament.conftest import NAMES, Event, wait_for


@dataclass
class Night:
    """A partners-8 event on a broker, and one table's scoreboard that has not joined yet."""

    broker: BrokerProcess
    host: TournamentHost
    board: Scoreboard
    session: Session
    links: list[TableLink]


@pytest.fixture
def night(tmp_path: Path, broker_kind: str) -> Iterator[Night]:
    settings = TournamentSettings.partners_8(tuple(NAMES), ("t1", "t2"))
    info = TournamentInfo(event=new_tournament_id(), name="Friday game night", format="partners-8",
                          players=list(settings.players), tables=list(settings.tables),
                          rounds=settings.rounds, hands_per_round=settings.hands_per_round,
                          target=settings.target)
    broker = BrokerProcess(broker_kind, BrokerFiles(tmp_path / "host"),
                           log=tmp_path / "broker.log")
    host = TournamentHost(tmp_path / "host", broker, info=info, keepalive=5)
    host.write_broker_files()
    broker.start()
    host.start()
    assert host.wait_connected(20)
    journal = Journal.open(tmp_path / "table.db", writable=True)
    session = Session(journal)
    links: list[TableLink] = []
    table: TableModel[TournamentSource] = TableModel(session)

    def joined(link: TableLink) -> None:  # as the service's door: the table is in the event now
        links.append(link)
        table.join(link)

    door = TableDoor(journal, "Window", joined, keepalive=5, resend_s=1.0,
                     interfaces=["127.0.0.1"])
    set_language("en")
    board = build_scoreboard(session, door=door, model=table)
    board.frame()
    try:
        yield Night(broker, host, board, session, links)
    finally:
        board.close()
        for link in links:
            link.stop()
        journal.close()
        host.stop()
        broker.stop()


def keyboard(board: Scoreboard, text: str) -> None:
    """Type on the scoreboard's own keyboard, changing pages as a person would, then Done."""
    for char in text:
        page = next(p for p, rows in PAGES.items() if any(char in row for row in rows))
        touch(board, f"page:{page}")
        touch(board, f"key:{char}")
    touch(board, "done")


def until(board: Scoreboard, condition: object, timeout_s: float = 30.0) -> None:
    """Run the scoreboard's loop (it wakes on the joining thread's note) until ``condition``."""
    deadline = time.monotonic() + timeout_s
    while not condition() and time.monotonic() < deadline:  # type: ignore[operator]
        board.pump(100)
    assert condition(), f"still on {board.current}"  # type: ignore[operator]


def type_join(board: Scoreboard, code: str, address: str) -> None:
    touch(board, "event")
    assert board.current == "join"
    touch(board, "code")
    keyboard(board, code)
    touch(board, "address")
    keyboard(board, address)
    touch(board, "join")


def test_a_wrong_code_typed_on_set_up_says_so_and_joins_nothing(night: Night) -> None:
    type_join(night.board, "22222222", f"127.0.0.1:{night.broker.port}")
    join_screen = night.board.screens["join"]
    until(night.board, lambda: join_screen.problem is not None)  # type: ignore[attr-defined]
    status = widget(night.board, "status")
    assert status.text == ("That join code is not this event's: read the one on the host's "  # type: ignore[attr-defined]
                           "screen again")
    night.board.screenshot(ARTIFACTS / "join-wrong-code.png")
    assert night.links == []
    assert [t.name for t in night.host.tables()] == ["", ""]


def test_set_up_joins_then_seats_the_round_the_host_published(night: Night) -> None:
    board, host = night.board, night.host
    assert widget(board, "event").text == "Join"  # type: ignore[attr-defined]
    code = host.join_code.code.get_secret_value()
    type_join(board, code, f"127.0.0.1:{night.broker.port}")
    until(board, lambda: board.current == "setup" and bool(night.links))
    assert wait_for(lambda: host.tables()[0].name == "Window")
    link = night.links[0]
    assert link.member.table == "t1"
    seated = host.seating().tables["t1"]
    until(board, lambda: board.screens["setup"].seated is not None)  # type: ignore[attr-defined]
    board.go("setup")
    assert widget(board, "title").text == "Round 1 of 7"  # type: ignore[attr-defined]
    assert [widget(board, f"seat{i}").text.removesuffix(" (deals)")  # type: ignore[attr-defined]
            for i in range(4)] == seated
    assert widget(board, "seated").text == (  # type: ignore[attr-defined]
        f"{seated[0]} & {seated[2]} against {seated[1]} & {seated[3]}")
    assert widget(board, "event").text == "Friday game night"  # type: ignore[attr-defined]
    assert not widget(board, "rename").enabled  # type: ignore[attr-defined]
    board.screenshot(ARTIFACTS / "setup-seated-partners-8.png")
    touch(board, "start")
    state = night.session.state
    assert state is not None and list(state.players) == seated
    assert state.scoring.mode is ScoringMode.PARTNERS and state.scoring.rounds == 4
    first = night.session.journal.entries(state.game_id)[0]
    assert tournament_round(first.key, host.info.event) == (True, 1)
    # the host stores the set-up and reads it as table 1's game of round 1
    assert wait_for(lambda: link.unacknowledged() == 0)
    assert wait_for(lambda: any(r.table == "t1" and r.round == 1 for r in host.records()))
    # Start tapped again sets nothing up twice
    board.go("setup")
    touch(board, "start")
    assert len(night.session.journal.games()) == 1


def test_the_hosts_qr_code_reads_back_as_the_address_that_joins(night: Night,
                                                                tmp_path: Path) -> None:
    zbarimg = shutil.which("zbarimg")
    if zbarimg is None:
        pytest.skip("zbarimg is not installed here (apt-get install zbar-tools)")
    host = night.host
    host.address = f"127.0.0.1:{night.broker.port}"
    board = build_scoreboard(Session(night.session.journal), event=host)
    try:
        board.screens["event"].setup_back = False  # type: ignore[attr-defined]
        board.go("event")
        path = tmp_path / "host.png"
        board.screenshot(path)
        shutil.copy(path, ARTIFACTS / "event-host-window.png")
        assert "setup" not in {w.id for w in board.widgets()}
    finally:
        board.close()
    read = subprocess.run([zbarimg, "--quiet", "--raw", str(path)], capture_output=True,
                          text=True, timeout=60, check=True).stdout.strip()
    code = host.join_code.code.get_secret_value()
    assert read == f"{code}@127.0.0.1:{night.broker.port}"
    joining = parse_address(read)
    assert joining.host is not None
    membership = join(Joining(joining.code, joining.host, joining.port), joining.host,
                      timeout_s=20)
    assert membership.table == "t1"


def test_event_host_opens_its_window_on_the_event_screen(event: Event) -> None:
    event.host.address = f"127.0.0.1:{event.broker.port}"
    window = event_host._window(event.host, event.folder / "host", fullscreen=False)
    assert window is not None
    try:
        assert window.current == "event"
        ids = {w.id for w in window.widgets()}
        assert {"join:qr", "join", "join:address"} <= ids
        assert "setup" not in ids and not any(i.startswith("nav:") for i in ids)
        window.screenshot(ARTIFACTS / "event-host-free.png")
    finally:
        window.close()
    assert (event.folder / "host" / "screen.db").exists()  # the window's language, kept


def test_the_hosts_address_is_its_lan_one_not_the_loopback(mocker: MockerFixture) -> None:
    adapters = [ifaddr.Adapter("lo", "lo", [ifaddr.IP("127.0.0.1", 8, "lo")]),
                ifaddr.Adapter("wlan0", "wlan0", [ifaddr.IP("169.254.3.4", 16, "wlan0"),
                                                  ifaddr.IP("192.168.1.20", 24, "wlan0")])]
    mocker.patch("ifaddr.get_adapters", return_value=adapters)
    assert event_host.lan_address("0.0.0.0") == "192.168.1.20"
    assert event_host.lan_address("10.1.2.3") == "10.1.2.3"
    mocker.patch("ifaddr.get_adapters", return_value=adapters[:1])
    assert event_host.lan_address("") == "127.0.0.1"
