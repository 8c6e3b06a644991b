"""The host: its event survives a restart, a vanished table is marked offline by its last will,
and a table's entries reach it, are acknowledged and counted once."""

from __future__ import annotations

import contextlib
import socket
import subprocess
import sys
from dataclasses import replace

from showdown.game.journal import Journal
from showdown.game.messages import SetUpGame
from showdown.game.session import Session
from showdown.tournament.games import setup_key
from showdown.tournament.host import TournamentHost
from showdown.tournament.outbox import Outbox, last_seq, tournament_file
from showdown.tournament.table_link import TableLink
from tests.showdown.tournament.conftest import NAMES, Event, wait_for


def test_a_tables_entries_are_stored_acknowledged_and_counted_once(event: Event) -> None:
    link = event.table(event.join(name="Window"))
    session = Session(link.journal)
    answer = session.handle(SetUpGame(players=NAMES[:4], command_id=setup_key(
        1, event.host.info.event, None, 1)))
    assert answer[0].kind == "game_started"
    assert wait_for(lambda: event.host.store.count() == 1)
    assert wait_for(lambda: link.unacknowledged() == 0)
    assert link.outbox.acked(link._journal_id()) == {1}
    standings = event.host.standings()
    assert {s.name for s in standings} >= set(NAMES[:4])
    assert event.host.tables()[0].name == "Window"
    assert wait_for(lambda: event.host.tables()[0].online)


def test_a_game_from_before_joining_is_not_sent_one_set_up_after_is(event: Event) -> None:
    with Journal.open(event.folder / "t1.db", writable=True) as journal:
        Session(journal).handle(SetUpGame(players=NAMES[:2]))  # yesterday's game
        before = last_seq(journal)
    link = event.table(replace(event.join(), joined_seq=before))
    assert link.unacknowledged() == 0
    # A game set up on the scoreboard after joining, with no event key: it is the event's.
    Session(link.journal).handle(SetUpGame(players=NAMES[2:6]))
    assert wait_for(lambda: event.host.store.count() == 1)
    assert [e.seq for e in event.host.store.entries()] == [before + 1]
    assert {s.name for s in event.host.standings() if s.table == "t1"} == set(NAMES[2:6])


def test_a_vanished_table_is_marked_offline_by_its_will(event: Event) -> None:
    link = event.table(event.join())
    assert wait_for(lambda: event.host.tables()[0].online)
    sock = link.connection.client.socket()
    link.connection.client.loop_stop()  # no DISCONNECT: as a power cut would leave it
    assert isinstance(sock, socket.socket)
    with contextlib.suppress(OSError):
        sock.shutdown(socket.SHUT_RDWR)
    assert wait_for(lambda: not event.host.tables()[0].online, timeout_s=30)
    line = event.host.tables()[0]
    assert line.since is not None and line.waiting == 0
    link.connection.client.loop_start()  # so the fixture's stop finds it as it left it


def test_the_host_takes_its_event_up_again_after_a_restart(event: Event) -> None:
    link = event.table(event.join())
    Session(link.journal).handle(SetUpGame(players=NAMES[:4], command_id=setup_key(
        1, event.host.info.event, None, 1)))
    assert wait_for(lambda: event.host.store.count() == 1)
    event.host.stop()
    again = TournamentHost(event.folder / "host", event.broker)
    assert again.info == event.host.info
    assert again.summary()["entries_counted"] == 1
    assert [t.table for t in again.tables() if t.name] == ["t1"]
    event.host = again
    again.start()
    assert again.wait_connected(20)


def test_the_host_command_refuses_what_cannot_be_an_event(tmp_path: object) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "showdown", "event", "host", "--dir", str(tmp_path),
         "--format", "partners-8", "--tables", "3"], capture_output=True, text=True, timeout=60,
        check=False)
    assert result.returncode != 0
    assert result.stderr.strip().splitlines() == [
        "showdown: error: partners-8 is played at two tables, not 3"]


def test_an_entry_just_committed_counts_as_unacknowledged(event: Event) -> None:
    """A table drains its outbox before it stops: an entry still on its way to the outbox's
    thread must count (the scale run lost the last entry of a table that stopped at once)."""
    membership = event.join()
    journal = Journal.open(event.folder / "t9.db", writable=True)
    outbox = Outbox(tournament_file(journal.path))
    link = TableLink(journal, outbox, membership)  # never started: nothing is published
    journal.on_append = link.entry_committed
    Session(journal).handle(SetUpGame(players=NAMES[:2]))
    try:
        assert link.unacknowledged() == 1
    finally:
        journal.close()
        outbox.close()
