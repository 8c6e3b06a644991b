"""A table's membership of an event: joining it once, and the link every start opens after.

The first start joins with the code (or finds the host by mDNS when only the code is given) and
keeps the table's credentials in the journal's event file; later starts (a restart, a crash)
connect with those and need no code. The link publishes the journal's event entries. Set-up on
the scoreboard joins through :class:`TableDoor`, ``showdown run --event`` through
:func:`open_link`; a failed join is a :class:`~showdown.tournament.join.JoinError` saying why.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from showdown.game.journal import Entry, Journal
from showdown.tournament.discovery import Found
from showdown.tournament.join import JoinError, JoinProblem, join, parse_address
from showdown.tournament.outbox import Outbox, last_seq, tournament_file
from showdown.tournament.table_link import TableLink

__all__ = ["TableDoor", "open_link"]

log = logging.getLogger("showdown.run")  # what the service says of its event

class TableDoor:
    """How the scoreboard's Set-up joins an event
    (:class:`showdown.scoreboard.port.TournamentDoor`): the same join as ``--event CODE@HOST``, the
    link then handed to ``on_link`` (the service stops it with the rest)."""

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
        from showdown.tournament.discovery import find  # noqa: PLC0415 - multicast only when asked

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
    """The started link of this table, joining first when the journal has no membership (a
    failed join raised as :class:`JoinError`, with its reason)."""
    outbox = Outbox(tournament_file(journal.path))
    membership = outbox.membership()
    if membership is None or (address is not None and _joins_again(address, membership.host)):
        if address is None:
            outbox.close()
            raise JoinError("this journal has not joined an event: give --event CODE@HOST")
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
    from showdown.tournament.discovery import find  # noqa: PLC0415 - multicast only when asked

    found = find()
    if not found:
        raise JoinError("no event found on this network by mDNS: type the host's address too "
                        "(--event CODE@HOST)", JoinProblem.NOT_FOUND)
    if len(found) > 1:
        names = ", ".join(f"{f.name} at {f.host}" for f in found)
        raise JoinError(f"several events on this network ({names}): give CODE@HOST")
    return found[0].host
