"""``showdown run --event CODE@HOST``: the table's side of an event, wired into the service.

The first start joins with the code (or finds the host by mDNS when only the code is given) and
keeps the table's credentials in the journal's event file; later starts (a restart, a crash)
connect with those and need no code. The link publishes the journal's event entries; with the
simulated table, bots play the seating the host publishes
(:class:`showdown.sim.event_table.EventTable`).
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from pathlib import Path

from showdown.app.errors import UserError
from showdown.event.discovery import Found
from showdown.event.join import JoinError, JoinProblem, join, parse_address
from showdown.event.outbox import Outbox, event_file, last_seq
from showdown.event.table_link import TableLink
from showdown.game.journal import Entry, Journal
from showdown.game.session import Session
from showdown.sim.bot_table import BotTable, Referee, TableStopped
from showdown.sim.event_table import EventTable

__all__ = ["DRAIN_S", "TableDoor", "connect_table", "event_worker", "open_link"]

log = logging.getLogger("showdown.run")

DRAIN_S = 120.0
"""After its last game a simulated table waits up to this long for the host to acknowledge
every entry before it stops (the entries stay in the outbox either way)."""


def connect_table(address: str | None, journal: Journal, name: str = "",
                  keepalive: int = 30, resend_s: float = 10.0) -> TableLink:
    """The started link of this table (joining first when the journal has no membership)."""
    try:
        return open_link(address, journal, name, keepalive, resend_s)
    except JoinError as error:
        raise UserError(str(error)) from None


class TableDoor:
    """How the scoreboard's Set-up joins an event (:class:`showdown.scoreboard.port.EventDoor`):
    the same join as ``--event CODE@HOST``, the link then handed to ``on_link`` (the service
    stops it with the rest)."""

    def __init__(self, journal: Journal, name: str, on_link: Callable[[TableLink], None], *,
                 keepalive: int = 30, resend_s: float = 10.0,
                 interfaces: list[str] | None = None) -> None:
        self.interfaces = interfaces
        """Where to listen for events (default: every interface; a test: the loopback)."""
        self.journal = journal
        self.name = name
        self.on_link = on_link
        self.keepalive = keepalive
        self.resend_s = resend_s

    def find(self) -> list[Found]:
        """The events announced on this network."""
        from showdown.event.discovery import find  # noqa: PLC0415 - multicast only when asked

        return find(interfaces=self.interfaces)

    def join(self, code: str, address: str) -> TableLink:
        """Join, keep the credentials, start the link (:class:`JoinError` saying why not)."""
        if "@" in code or not address.strip():
            raise JoinError("type the code and the host's address apart",
                            JoinProblem.BAD_ADDRESS)
        link = open_link(f"{code}@{address.strip()}", self.journal, self.name, self.keepalive,
                         self.resend_s)
        self.on_link(link)
        return link


def open_link(address: str | None, journal: Journal, name: str = "",
              keepalive: int = 30, resend_s: float = 10.0) -> TableLink:
    """:func:`connect_table`, a failed join raised as :class:`JoinError` (with its reason)."""
    outbox = Outbox(event_file(journal.path))
    membership = outbox.membership()
    if membership is None or (address is not None and _joins_again(address, membership.host)):
        if address is None:
            outbox.close()
            raise UserError("this journal has not joined an event: give --event CODE@HOST")
        try:
            joining = parse_address(address)
            host = joining.host or _discovered()
            membership = join(joining, host, name=name, joined_seq=last_seq(journal))
        except JoinError:
            outbox.close()
            raise
        outbox.join(membership)
        log.info("joined event %s (%s) as table %s", membership.event, membership.info.name,
                 membership.table)
    else:
        log.info("event %s: table %s, host %s:%d", membership.event, membership.table,
                 membership.host, membership.port)
    link = TableLink(journal, outbox, membership, keepalive=keepalive, resend_s=resend_s)
    earlier = journal.on_append

    def on_append(entry: Entry) -> None:
        if earlier is not None:
            earlier(entry)
        link.entry_committed(entry)

    journal.on_append = on_append
    link.start()
    return link


def _joins_again(address: str, known_host: str) -> bool:
    """A code given again for the event already joined is not needed: keep the credentials."""
    try:
        joining = parse_address(address)
    except JoinError:
        return True
    return joining.host not in (None, known_host)


def _discovered() -> str:
    from showdown.event.discovery import find  # noqa: PLC0415 - multicast only when asked

    found = find()
    if not found:
        raise JoinError("no event found on this network by mDNS: type the host's address too "
                        "(--event CODE@HOST)", JoinProblem.NOT_FOUND)
    if len(found) > 1:
        names = ", ".join(f"{f.name} at {f.host}" for f in found)
        raise JoinError(f"several events on this network ({names}): give CODE@HOST")
    return found[0].host


def event_worker(session: Session, referee: Referee, link: TableLink, *, seed: int,
                 players: int, preset_name: str, games: int,
                 path: Path) -> Callable[[threading.Event], None]:
    """The simulated table's worker: play the event, then wait for the outbox to drain."""

    def play(stop: threading.Event) -> None:
        table = BotTable(session, referee, seed=seed, players=players, preset_name=preset_name,
                         stop=stop)
        try:
            EventTable(table, link, games=games, stop=stop).play()  # 0: never stop
        except TableStopped:
            return
        deadline = time.monotonic() + DRAIN_S
        while link.unacknowledged() and time.monotonic() < deadline and not stop.is_set():
            stop.wait(0.2)
        left = link.unacknowledged()
        if left:
            log.warning("%d entries of %s are not acknowledged yet; they go out next start",
                        left, path)

    return play
