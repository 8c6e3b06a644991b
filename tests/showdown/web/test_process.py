"""The table's page served by a process of its own (showdown.web.process): what it shows follows
the session across the process boundary, the service builds one picture per change whatever the
number of phones, corrections still go through the service, and the page's process never
outlives the service."""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import re
import select
import signal
import socket
import subprocess
import sys
import textwrap
import threading
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from showdown.app.phone_page import PhonePage, serve_table
from showdown.game.journal import Journal
from showdown.game.messages import HandEntry, RecordRound
from showdown.game.session import Session
from showdown.game.table_model import TableModel
from showdown.tournament.view import TournamentSource
from showdown.web.connections import SPARE_FILES, Limits
from showdown.web.pages import table_page
from showdown.web.process import FIRST_BACKOFF_S, NICE, STEADY_S
from tests.showdown.app.test_no_tracebacks import ENV, SHOWDOWN
from tests.showdown.web.conftest import FakeClock, play

REPO = Path(__file__).resolve().parents[3]


@pytest.fixture
def session(tmp_path: Path) -> Iterator[Session]:
    with Journal.open(tmp_path / "table.db", writable=True) as journal:
        session = Session(journal)
        play(session, ["Ana", "Budi", "Chen"])
        yield session


class Phone:
    """One ``GET /events`` stream, read message by message."""

    def __init__(self, port: int) -> None:
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=20)
        self.connection.request("GET", "/events", headers={"Accept": "text/event-stream"})
        self.response = self.connection.getresponse()
        assert self.response.status == 200

    def next_parts(self) -> dict[str, object]:
        """The next ``parts`` message (heartbeats skipped)."""
        event = None
        while True:
            line = self.response.fp.readline()
            assert line, "the stream ended"
            text = line.decode().rstrip("\r\n")
            if text.startswith("event: "):
                event = text[len("event: "):]
            elif text.startswith("data: ") and event == "parts":
                parts: dict[str, object] = json.loads(text[len("data: "):])
                return parts

    def close(self) -> None:
        self.connection.close()


def _round(session: Session, points: int) -> str:
    """A round Ana goes out of; what the page shows for her total after it."""
    session.handle(RecordRound(went_out="Ana", hands={"Budi": HandEntry(points=points),
                                                      "Chen": HandEntry(points=5)}))
    assert session.state is not None
    return f'data-name="Ana" data-total="{session.state.sheet.totals[0]}"'


def _exited(pid: int, timeout_s: float) -> bool:
    """Whether process ``pid`` (not ours to wait for) ended within ``timeout_s``."""
    try:
        handle = os.pidfd_open(pid)
    except ProcessLookupError:
        return True
    try:
        readable, _, _ = select.select([handle], [], [], timeout_s)
        return bool(readable)
    finally:
        os.close(handle)


def _free(port: int) -> bool:
    with socket.socket() as probe:  # refused only while something listens there
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


def _wait_streams(page: PhonePage, count: int) -> None:
    pause = threading.Event()
    for _ in range(1500):  # 30 s at most
        if page.server.streams == count:
            return
        pause.wait(0.02)
    raise AssertionError(f"{page.server.streams} streams counted, not {count}")


def test_the_page_runs_in_its_own_process_follows_the_table_and_stops_leaving_nothing(
        session: Session) -> None:
    page = serve_table(TableModel(session), "127.0.0.1:0")
    assert page is not None
    pid, port = page.server.pid, page.server.port
    assert pid is not None and pid != os.getpid()
    try:
        # nicer than the service: on a busy machine the unit's threads get a core first (as far
        # as Linux goes: 19 is the nicest, where a service already at 19 leaves it)
        assert os.getpriority(os.PRIO_PROCESS, pid) == \
            min(19, os.getpriority(os.PRIO_PROCESS, 0) + NICE)
        phone = Phone(port)
        first = phone.next_parts()
        assert 'data-total="' in str(first["html"]) and "Budi" in str(first["html"])
        shown = _round(session, 77)  # recorded here, shown there
        assert shown not in str(first["html"])
        html = phone.next_parts()["html"]
        assert isinstance(html, dict) and set(html) == {"table"} and shown in html["table"]
        _wait_streams(page, 1)
    finally:
        page.stop()
    assert _exited(pid, 0) and _free(port)
    while phone.response.fp.readline():  # the stream ends (one left open would time out here)
        pass
    phone.close()
    assert not [t.name for t in threading.enumerate() if t.name.startswith("web-")]


def test_twenty_phones_cost_the_service_one_picture_per_change(session: Session,
                                                               monkeypatch: pytest.MonkeyPatch
                                                               ) -> None:
    from showdown.web.table import TableSource

    built: list[int] = []
    picture = TableSource.picture

    def counted(self: TableSource) -> object:
        built.append(1)
        return picture(self)

    monkeypatch.setattr(TableSource, "picture", counted)
    page = serve_table(TableModel(session), "127.0.0.1:0")
    assert page is not None
    phones: list[Phone] = []
    try:
        phones = [Phone(page.server.port) for _ in range(20)]
        for phone in phones:
            phone.next_parts()
        _wait_streams(page, 20)
        before = len(built)
        for points in (11, 12, 13):
            shown = _round(session, points)
            for phone in phones:  # every phone shows it before the next entry
                assert shown in str(phone.next_parts()["html"])
        assert len(built) - before == 3
    finally:
        for phone in phones:
            phone.close()
        page.stop()


def test_a_correction_from_a_phone_is_made_by_the_service(session: Session) -> None:
    page = serve_table(TableModel(session), "127.0.0.1:0")
    assert page is not None
    try:
        rounds = len(session.state.rounds) if session.state else 0
        connection = http.client.HTTPConnection("127.0.0.1", page.server.port, timeout=20)
        connection.request("POST", "/api/login", body=json.dumps({"pin": page.pin()}),
                           headers={"Content-Type": "application/json"})
        login = connection.getresponse()
        token = json.loads(login.read())["token"]
        connection.request("POST", "/api/undo", body=json.dumps({"token": token}),
                           headers={"Content-Type": "application/json",
                                    "Cookie": login.headers["set-cookie"].split(";")[0]})
        reply = connection.getresponse()
        assert reply.status == 200, reply.read()
        connection.close()
        assert session.state is not None and len(session.state.rounds) == rounds - 1
    finally:
        page.stop()


def test_the_page_ends_when_the_service_dies(tmp_path: Path) -> None:
    """The service killed outright (no stop): its page's process sees the feed close and
    ends, and the port is free again."""
    script = textwrap.dedent(f"""
        import os, signal, sys
        sys.path.insert(0, {str(REPO)!r})
        from showdown.app.phone_page import serve_table
        from showdown.game.journal import Journal
        from showdown.game.session import Session
        from showdown.game.table_model import TableModel
        if __name__ == "__main__":
            journal = Journal.open({str(tmp_path / "table.db")!r}, writable=True)
            page = serve_table(TableModel(Session(journal)), "127.0.0.1:0")
            print(page.server.pid, page.server.port, flush=True)
            sys.stdin.readline()
            os.kill(os.getpid(), signal.SIGKILL)
    """)
    service = subprocess.Popen([sys.executable, "-c", script], stdin=subprocess.PIPE,
                               stdout=subprocess.PIPE, text=True, cwd=REPO)
    assert service.stdout is not None and service.stdin is not None
    try:
        pid, port = (int(value) for value in service.stdout.readline().split())
        assert not _exited(pid, 0)
        service.stdin.write("\n")
        service.stdin.flush()
        assert service.wait(20) == -9
        assert _exited(pid, 20), "the page's process outlived its service"
        assert _free(port)
    finally:
        if service.poll() is None:
            service.kill()
            service.wait(10)


def _page_process(service: int, timeout_s: float = 60.0) -> int:
    """The page's process of ``service`` once it exists (spawned: its command line says so)."""
    pause = threading.Event()
    for _ in range(int(timeout_s / 0.01)):
        for children in Path(f"/proc/{service}/task").glob("*/children"):
            for child in children.read_text().split():
                with contextlib.suppress(OSError):
                    if b"spawn_main" in Path(f"/proc/{child}/cmdline").read_bytes():
                        return int(child)
        pause.wait(0.01)
    raise AssertionError(f"process {service} started no page process")


@pytest.mark.soak  # races the machine (kills the service while the page starts): make soak only
def test_a_page_whose_service_died_while_it_started_ends_quietly(tmp_path: Path) -> None:
    """`showdown run` killed outright while its page's process still starts (importing the web
    stack): that process found no one to tell it had started and printed a BrokenPipeError
    traceback on the terminal the service had left; it ends, saying nothing."""
    said = tmp_path / "stderr"
    with said.open("w") as stderr:
        service = subprocess.Popen(
            [*SHOWDOWN, "run", "--sim", "--headless", "--fast", "--db", str(tmp_path / "t.db"),
             "--http", "127.0.0.1:0"], env=ENV, stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL, stderr=stderr)
    try:
        page = _page_process(service.pid)
        service.kill()
        assert service.wait(20) == -9
        assert _exited(page, 60), "the page's process outlived its service"
    finally:
        if service.poll() is None:
            service.kill()
            service.wait(10)
    text = said.read_text()
    assert "phone page served" not in text, "the page had started: nothing was tried"
    assert "Traceback" not in text and "Error" not in text, text


def test_a_table_that_joins_an_event_later_shows_it_without_a_restart(session: Session
                                                                      ) -> None:
    from tests.showdown.web.sample_tournament import Host, evening

    table: TableModel[TournamentSource] = TableModel(session)
    page = serve_table(table, "127.0.0.1:0")
    assert page is not None
    try:
        url = f"http://127.0.0.1:{page.server.port}/"
        with urllib.request.urlopen(url, timeout=20) as reply:
            before = reply.read().decode()
        assert re.search(r'<section id="part-event" class="part" data-at="[0-9.]*" hidden>'
                         r'</section>', before)
        phone = Phone(page.server.port)
        phone.next_parts()
        host = Host(evening((120, 0, 35, 0), (0, 210, 0, 64)))
        table.join(host)  # as Set-up's door does
        html = phone.next_parts()["html"]
        assert isinstance(html, dict) and set(html) == {"event"}
        assert 'data-name="&lt;script&gt;x&lt;/script&gt;" data-total="210"' in html["event"]
        assert "<script>x" not in html["event"]
        host.publish(evening((120, 0, 35, 0), (0, 250, 0, 64)))  # the event moves on
        assert 'data-total="250"' in str(phone.next_parts()["html"])
        phone.close()
        with urllib.request.urlopen(url, timeout=20) as reply:
            after = reply.read().decode()
        assert re.search(r'<section id="part-event" class="part" data-at="[0-9.]+">', after)
        assert 'data-total="250"' in after
    finally:
        page.stop()


def test_a_page_process_killed_is_reaped_and_served_again_after_its_back_off(
        session: Session, caplog: pytest.LogCaptureFixture) -> None:
    """`kill -9` of the page's process: it was left a zombie and the page stayed down while the
    table played on. The service reaps it at once and starts another after the back-off (the
    waits are the test's: no time passes), doubling while it keeps dying, on the same port."""
    clock = FakeClock()
    waits: list[float] = []
    page = table_page(TableModel(session), "127.0.0.1", 0, clock=clock, pause=waits.append)
    try:
        url = f"http://127.0.0.1:{page.server.port}/"
        for died in (1, 2):
            killed = page.server.pid
            assert killed is not None
            os.kill(killed, signal.SIGKILL)
            assert page.server.wait_started(died + 1, 60), "no page started again"
            assert not Path(f"/proc/{killed}").exists(), "the killed page was not reaped"
            assert page.server.pid not in (None, killed)
            with urllib.request.urlopen(url, timeout=20) as reply:
                assert 'data-name="Ana"' in reply.read().decode()
        assert waits == [FIRST_BACKOFF_S, 2 * FIRST_BACKOFF_S]
        clock.now += STEADY_S  # it served a while: the next death waits the first back-off
        serving = page.server.pid
        assert serving is not None  # never kill(0, ...): that is this whole process group
        os.kill(serving, signal.SIGKILL)
        assert page.server.wait_started(4, 60)
        assert waits[-1] == FIRST_BACKOFF_S
    finally:
        page.stop()
    assert "the phone page's process ended (killed by SIGKILL); starting it again in 1 s" \
        in caplog.text
    assert not [t.name for t in threading.enumerate() if t.name.startswith("web-")]


def _read_all(sock: socket.socket) -> bytes:
    """Everything the page sends on ``sock`` until it closes it (20 s at most)."""
    sock.settimeout(20)
    received = b""
    while chunk := sock.recv(4096):
        received += chunk
    return received


def test_a_request_that_never_arrives_whole_is_answered_408_and_closed(
        session: Session, capfd: pytest.CaptureFixture[str],
        caplog: pytest.LogCaptureFixture) -> None:
    """Nothing timed out a half-sent request: a client sending half its request (or nothing)
    held its connection, and a file, for ever."""
    page = table_page(TableModel(session), "127.0.0.1", 0, limits=Limits(request_s=1.0))
    port = page.server.port
    try:
        silent = socket.create_connection(("127.0.0.1", port))
        half_head = socket.create_connection(("127.0.0.1", port))
        half_head.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/ht")
        half_body = socket.create_connection(("127.0.0.1", port))
        half_body.sendall(b"POST /api/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: "
                          b"application/json\r\nContent-Length: 40\r\n\r\n{\"pin\": ")
        for sock in (silent, half_head):
            assert _read_all(sock).startswith(b"HTTP/1.1 408 "), "not timed out"
        assert _read_all(half_body) == b""  # closed: the half request did nothing
        for sock in (silent, half_head, half_body):
            sock.close()
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=20) as reply:
            assert reply.status == 200
    finally:
        page.stop()
    assert "Traceback" not in caplog.text + capfd.readouterr().err


def test_idle_connections_beyond_the_cap_leave_the_page_to_a_new_phone(
        session: Session, capfd: pytest.CaptureFixture[str],
        caplog: pytest.LogCaptureFixture) -> None:
    """1,030 idle connections under the usual 1,024 open files made the page unreachable, with
    "Too many open files" tracebacks. Here the page's process has 128 files (as a unit's
    LimitNOFILE would give it) and 200 connections idle: the oldest idle ones make room, a new
    phone is served, nothing is logged as broken."""
    # only the page's process: this one may hold more than 128 files from earlier tests
    page = table_page(TableModel(session), "127.0.0.1", 0, limits=Limits(files=128))
    idle: list[socket.socket] = []
    try:
        idle = [socket.create_connection(("127.0.0.1", page.server.port)) for _ in range(200)]
        phone = Phone(page.server.port)  # a live stream: never one made room for
        assert 'data-total="' in str(phone.next_parts()["html"])
        with urllib.request.urlopen(f"http://127.0.0.1:{page.server.port}/",
                                    timeout=20) as reply:
            assert reply.status == 200 and 'data-name="Ana"' in reply.read().decode()
        still_open = 0
        for sock in idle:  # the oldest were closed to make room (or refused, or timed out)
            sock.settimeout(0)
            try:
                sock.recv(1)
            except BlockingIOError:
                still_open += 1
        assert still_open <= 128 - SPARE_FILES
        phone.close()
    finally:
        for sock in idle:
            sock.close()
        page.stop()
    said = caplog.text + capfd.readouterr().err
    assert "Too many open files" not in said and "Traceback" not in said, said
