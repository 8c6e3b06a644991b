"""A table's link to its event: the outbox sent, the host's retained state received.

:class:`TableLink` connects as the table (its own credentials, a persistent session, a last will
saying it is offline), publishes every entry of the event's games that the host has not
acknowledged (at connect, as each is committed, and again every ``resend_s``), marks an entry
sent only on the host's acknowledgement, and keeps the latest of each retained message for the
table's driver and its scoreboard (:meth:`TableLink.view`).
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from collections.abc import Callable
from dataclasses import replace

from showdown.game.journal import Entry, Journal
from showdown.tournament.connection import Connection, Will
from showdown.tournament.credentials import sign
from showdown.tournament.games import belongs
from showdown.tournament.messages import (
    AckMessage,
    EntryMessage,
    HostStatus,
    MessageError,
    SeatingMessage,
    StandingsMessage,
    TablesMessage,
    TableStatus,
    Topics,
    TournamentInfo,
    parse,
    to_payload,
)
from showdown.tournament.outbox import Membership, Outbox, journal_identity, tournament_entries
from showdown.tournament.view import TournamentView
from showdown.unit.listeners import Listeners

__all__ = ["TableLink"]

log = logging.getLogger("showdown.tournament.table")


def _failed(listener: Callable[[], object]) -> None:
    """A listener raised: logged, and the others are still told."""
    log.exception("an event listener failed")


class TableLink:
    """The table's side of the event (see the module docstring)."""

    def __init__(
        self,
        journal: Journal,
        outbox: Outbox,
        membership: Membership,
        *,
        resend_s: float = 10.0,
        keepalive: int = 30,
        host: str | None = None,
        port: int | None = None,
    ) -> None:
        self.journal = journal
        self.outbox = outbox
        self.member = membership
        self.topics = Topics(membership.event)
        self.resend_s = resend_s
        self._lock = threading.RLock()
        self._sent: dict[int, tuple[float, int]] = {}
        """Unacknowledged entries by seq: when they were last published (monotonic), how often."""
        self._acked: set[int] | None = None
        self._identity: str | None = None
        self._chains: dict[int, list[int]] = {}
        self._known: dict[int, tuple[Entry, int | None]] = {}
        """Every event entry of the journal by seq, with its game's previous entry."""
        """Each event game's entries' seqs, in order (their ``prev`` links)."""
        self._tournament_games: dict[int, bool] = {}
        self._view = TournamentView(info=membership.info, me=membership.table)
        self._listeners: Listeners[[]] = Listeners(failed=_failed)
        self._stop = threading.Event()
        self._resender = threading.Thread(target=self._resend_loop, name="outbox", daemon=True)
        offline = TableStatus(event=membership.event, table=membership.table, online=False)
        self.connection = Connection(
            client_id=f"{membership.event}-{membership.table}", username=membership.table,
            password=membership.password, host=host or membership.host,
            port=port or membership.port, on_message=self._message,
            subscriptions=[self.topics.ack(membership.table), self.topics.info, self.topics.host,
                           self.topics.standings, self.topics.seating, self.topics.tables],
            on_connect=self._on_connect, on_disconnect=self._listeners.tell,
            keepalive=keepalive,
            will=Will(topic=self.topics.status(membership.table), payload=to_payload(offline)))
        self._incoming: queue.SimpleQueue[Entry | None] = queue.SimpleQueue()
        self.hands: Callable[[], int | None] = lambda: None
        """How many hands the table holds for the event (its status says so); set by its driver."""

    # -- running -----------------------------------------------------------------------------

    def start(self) -> None:
        """Read what the journal holds, then connect (set the journal's ``on_append`` to
        :meth:`entry_committed` first, so no entry falls between the two)."""
        self._scan()
        self.connection.start()
        self._resender.start()

    def stop(self, drain_s: float = 3.0) -> None:
        """Give the host up to ``drain_s`` to acknowledge what is still unacknowledged (while
        connected), say goodbye (``online: false``) and disconnect. Whatever is left stays in
        the journal and goes out at the next start."""
        deadline = time.monotonic() + drain_s
        while (self.connection.connected.is_set() and time.monotonic() < deadline
               and self.unacknowledged()):
            self._stop.wait(0.1)
        self._stop.set()
        self._incoming.put(None)
        offline = TableStatus(event=self.member.event, table=self.member.table, online=False,
                              hands=self.hands())
        self.connection.stop(last=(self.topics.status(self.member.table), offline))
        if self._resender.is_alive():
            self._resender.join(timeout=2)

    def subscribe(self, listener: Callable[[], None]) -> None:
        """Call ``listener`` (on paho's thread) whenever the view changed."""
        self._listeners.subscribe(listener)

    def view(self) -> TournamentView:
        """The event as the host last published it; the host is away while this table's link
        to the broker is down (nothing it publishes can reach the table then)."""
        with self._lock:
            view = self._view
        if view.host_online and not self.connection.connected.is_set():
            return replace(view, host_online=False)
        return view

    def unacknowledged(self) -> int:
        """Event entries in the journal the host has not acknowledged yet, read from the journal
        itself (an entry just committed may not have reached the outbox's thread yet)."""
        with self._lock:
            entries = tournament_entries(self.journal, self.member.event, self.member.joined_seq)
            if not entries:
                return 0
            if self._acked is None:
                self._acked = self.outbox.acked(self._journal_id())
            return sum(1 for entry, _previous in entries if entry.seq not in self._acked)

    def entry_committed(self, entry: Entry) -> None:
        """The journal's ``on_append``: publish an event game's entry at once. Called under the
        journal's lock, so it only queues the entry: the outbox's thread publishes it (taking
        the link's lock, then the journal's, always in that order)."""
        self._incoming.put(entry)

    def _committed(self, entry: Entry) -> None:
        with self._lock:
            if entry.seq in self._known or not self._is_tournament_game(entry):
                return
            chain = self._chains.setdefault(entry.game_id, [])
            previous = chain[-1] if chain and entry.kind != "set_up" else None
            chain.append(entry.seq)
            self._known[entry.seq] = (entry, previous)
            self._publish(entry, previous)

    # -- the outbox --------------------------------------------------------------------------

    def _journal_id(self) -> str:
        """The journal's identity, known once it holds a game (every entry is in one)."""
        if self._identity is None:
            if not self.journal.games():
                raise LookupError("the journal holds no game yet")
            self._identity = journal_identity(self.journal)
        return self._identity

    def _is_tournament_game(self, entry: Entry) -> bool:
        known = self._tournament_games.get(entry.game_id)
        if known is None:
            first = entry if entry.kind == "set_up" else self.journal.entries(entry.game_id)[0]
            known = belongs(first.key, first.seq, self.member.event, self.member.joined_seq)
            self._tournament_games[entry.game_id] = known
        return known

    def _scan(self) -> None:
        """Every event entry already in the journal (at start: made before, or while away)."""
        with self._lock:
            for entry, previous in tournament_entries(self.journal, self.member.event,
                                                      self.member.joined_seq):
                self._chains.setdefault(entry.game_id, []).append(entry.seq)
                self._tournament_games[entry.game_id] = True
                self._known[entry.seq] = (entry, previous)

    def _pending(self) -> list[tuple[Entry, int | None]]:
        if not self._known:
            return []
        if self._acked is None:
            self._acked = self.outbox.acked(self._journal_id())
        return [pair for seq, pair in self._known.items() if seq not in self._acked]

    def _publish(self, entry: Entry, previous: int | None) -> None:
        message = EntryMessage(
            event=self.member.event, table=self.member.table, journal=self._journal_id(),
            seq=entry.seq, game=entry.game_id, prev=previous, kind=entry.kind, key=entry.key,
            events=entry.events, recorded_at=entry.recorded_at)
        message = message.model_copy(update={
            "mac": sign(self.member.signing_key, message.signed_part()), "sent_at": time.time()})
        tries = self._sent.get(entry.seq, (0.0, 0))[1]
        self._sent[entry.seq] = (time.monotonic(), tries + 1)
        self.connection.publish(self.topics.entry(self.member.table), message)

    def _send_pending(self, older_than: float | None) -> None:
        """Publish what the host has not acknowledged: everything (``older_than`` None: just
        connected), or what waited ``older_than`` seconds, doubled with each try up to eight
        times as long, so a host that is slow to answer is not buried in copies."""
        with self._lock:
            now = time.monotonic()
            for entry, previous in self._pending():
                sent, tries = self._sent.get(entry.seq, (0.0, 0))
                wait = None if older_than is None else older_than * 2 ** min(tries - 1, 3)
                if wait is None or tries == 0 or now - sent >= wait:
                    self._publish(entry, previous)

    def _resend_loop(self) -> None:
        wait = max(0.2, self.resend_s / 4)
        last = time.monotonic()
        while not self._stop.is_set():
            try:
                entry = self._incoming.get(timeout=wait)
            except queue.Empty:
                entry = None
            try:
                if entry is not None:
                    self._committed(entry)
                if time.monotonic() - last >= wait and self.connection.connected.is_set():
                    last = time.monotonic()
                    self._send_pending(self.resend_s)
            except Exception:
                log.exception("the outbox failed to publish")

    # -- messages ----------------------------------------------------------------------------

    def _on_connect(self) -> None:
        online = TableStatus(event=self.member.event, table=self.member.table, online=True,
                             hands=self.hands())
        self.connection.publish(self.topics.status(self.member.table), online, retain=True)
        self._send_pending(None)
        self._listeners.tell()  # the view's host_online: the host can be heard again

    def _message(self, topic: str, payload: bytes) -> None:
        kinds: dict[str, type] = {
            self.topics.info: TournamentInfo, self.topics.host: HostStatus,
            self.topics.standings: StandingsMessage, self.topics.seating: SeatingMessage,
            self.topics.tables: TablesMessage, self.topics.ack(self.member.table): AckMessage,
        }
        kind = kinds.get(topic)
        if kind is None:
            return
        try:
            message: object = parse(kind, payload)
        except MessageError as error:
            log.warning("ignored a message on %s: %s", topic, error)
            return
        with self._lock:
            view = self._view
            if isinstance(message, AckMessage):
                if not self._known:
                    return
                mine = [e.seq for e in message.entries if e.journal == self._journal_id()]
                self.outbox.mark(self._journal_id(), mine)
                if self._acked is not None:
                    self._acked.update(mine)
                for seq in mine:
                    self._sent.pop(seq, None)
                return
            if isinstance(message, TournamentInfo):
                view = TournamentView(**{**view.__dict__, "info": message})
            elif isinstance(message, HostStatus):
                view = TournamentView(**{**view.__dict__, "host_online": message.online})
            elif isinstance(message, StandingsMessage):
                view = TournamentView(**{**view.__dict__, "standings": tuple(message.lines)})
            elif isinstance(message, SeatingMessage):
                view = TournamentView(**{**view.__dict__, "seating": message})
            elif isinstance(message, TablesMessage):
                view = TournamentView(**{**view.__dict__, "tables": tuple(message.tables)})
            self._view = view
        self._listeners.tell()
