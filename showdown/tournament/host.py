"""The event host: the event journal, the checks on every entry, the standings and seating.

:class:`TournamentHost` connects to the broker as user ``host``, stores every table's entries in the
event journal (:mod:`showdown.tournament.store`) and acknowledges them, folds the games, and
publishes the retained state (docs/event.md). Its state is read through :meth:`TournamentHost.view`
(the scoreboard, the phone page) and :meth:`TournamentHost.summary` (``showdown event host
--json``).

Everything runs on paho's network thread, one message at a time, except :meth:`tick`, which the
caller runs about once a second (join codes expire there) and which takes the same lock.
"""

from __future__ import annotations

import json
import logging
import secrets
import statistics
import threading
import time
from collections import defaultdict
from collections.abc import Callable
from dataclasses import fields
from datetime import datetime
from pathlib import Path
from typing import Any

from pydantic import SecretStr

from engine.tournament import (
    GameRecord,
    Seating,
    Standing,
    TournamentFormat,
    TournamentPlan,
    TournamentSettings,
)
from showdown.tournament.broker_files import (
    HOST_USER,
    JOIN_LATE_USER,
    JOIN_USER,
    BrokerFiles,
    acl_text,
)
from showdown.tournament.brokers import Broker
from showdown.tournament.connection import Connection, Will
from showdown.tournament.credentials import JoinCode, hash_password, new_secret, verify
from showdown.tournament.games import game_record
from showdown.tournament.messages import (
    AckMessage,
    Correction,
    EntryMessage,
    HostStatus,
    JoinReply,
    JoinRequest,
    MessageError,
    SeatingMessage,
    StandingLine,
    StandingsMessage,
    TableLine,
    TablesMessage,
    TableStatus,
    Topics,
    TournamentInfo,
    parse,
    to_payload,
)
from showdown.tournament.store import ConflictError, TableRow, TournamentStore
from showdown.tournament.view import TournamentView
from showdown.unit.listeners import Listeners

__all__ = ["TournamentHost", "new_tournament_id", "settings_from_info"]

log = logging.getLogger("showdown.tournament.host")

STATE_INTERVAL_S = 0.25
"""How often, at most, the standings, seating and tables are published."""

FIELDS = tuple(f.name for f in fields(Standing))

Listener = Callable[[], None]


def _failed(listener: Callable[[], object]) -> None:
    """A listener raised: logged, and the others are still told."""
    log.exception("an event listener failed")


def new_tournament_id() -> str:
    """Six lowercase letters and digits."""
    return "".join(secrets.choice("abcdefghijkmnpqrstuvwxyz23456789") for _ in range(6))


def settings_from_info(info: TournamentInfo) -> TournamentSettings:
    """The engine's settings from the retained description of an event."""
    return TournamentSettings(TournamentFormat(info.format), tuple(info.players),
                              tuple(info.tables), rounds=info.rounds,
                              hands_per_round=info.hands_per_round, target=info.target)


class TournamentHost:
    """The host of one event (see the module docstring)."""

    def __init__(
        self,
        folder: Path,
        broker: Broker,
        *,
        info: TournamentInfo | None = None,
        code_minutes: float = 15.0,
        keepalive: int = 30,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.folder = folder
        self.store = TournamentStore(folder / "event.db")
        stored = self.store.get("info")
        if stored is not None:
            self.info = TournamentInfo.model_validate_json(stored)
            if info is not None and info.model_dump() != self.info.model_dump():
                log.info("the event in %s goes on as it was opened (%s, %s); the options given "
                         "apply to a new folder", folder, self.info.event, self.info.format)
        elif info is not None:
            self.info = info
            self.store.put("info", info.model_dump_json())
            self.store.put("event", info.event)
        else:
            raise ValueError(f"{folder} holds no event: give its format and players")
        self.settings = settings_from_info(self.info)
        self.plan = TournamentPlan(self.settings, self.store.seatings())
        self._correction: Correction | None = None
        self._searching: set[tuple[object, ...]] = set()
        """The seating searches running off the lock (:meth:`_search_next`), by their inputs."""
        """The last correction to a round before the one seated, as the screens say it."""
        self.topics = Topics(self.info.event)
        self.broker = broker
        self.files = BrokerFiles(folder)
        self.code_minutes = code_minutes
        self.clock = clock
        password = self.store.get("host_password")
        if password is None:
            password = new_secret().get_secret_value()
            self.store.put("host_password", password)
        self._password = SecretStr(password)
        self._lock = threading.RLock()
        self._code = JoinCode.new(clock(), code_minutes)
        self.address: str | None = None
        """Where the tables reach this host's broker (``HOST`` or ``HOST:PORT``), for its screen;
        set by whoever started the broker and knows the LAN address."""
        self._previous: JoinCode | None = None
        """The code shown before this one: a table that types it is told it expired."""
        self._tables: dict[str, TableRow] = {t.id: t for t in self.store.tables()}
        self._entries: dict[tuple[str, str, int], dict[int, EntryMessage]] = defaultdict(dict)
        self._records: dict[tuple[str, str, int], GameRecord] = {}
        self._presence: dict[str, tuple[bool, float | None]] = {}
        self._published: dict[str, bytes] = {}
        self._listeners: Listeners[[]] = Listeners(failed=_failed)
        self._dirty = False
        self._waiting: list[str] = []
        """Recorded times of the entries stored since the state was last published."""
        self._stopping = threading.Event()
        self._publishing = threading.Thread(target=self._publisher, name="event-state",
                                            daemon=True)
        self._answered: dict[str, JoinReply] = {}
        """Each joining client's answer, so a repeated request gets the same table."""
        self._version = 0
        """Grows with every change the standings, seating or tables depend on."""
        self._cache: tuple[int, tuple[tuple[StandingLine, ...], SeatingMessage,
                                      tuple[TableLine, ...]]] | None = None
        self.latencies_ms: list[float] = []
        """Entry-to-standings latency of each entry stored for the first time."""
        self.redeliveries = 0
        self.refused = 0
        self.connection = Connection(
            client_id=f"host-{self.info.event}", username=HOST_USER, password=self._password,
            host=broker.host, port=broker.port, on_message=self._message,
            subscriptions=[self.topics.all_entries, self.topics.all_statuses,
                           Topics.ALL_JOIN_REQUESTS],
            on_connect=self._on_connect, on_disconnect=self._changed, keepalive=keepalive,
            will=Will(topic=self.topics.host, payload=to_payload(
                HostStatus(event=self.info.event, online=False))))
        self._count = 0
        for entry in self.store.entries():
            self._entries[(entry.table, entry.journal, entry.game)][entry.seq] = entry
            self._count += 1
        for key in list(self._entries):
            self._refold(key)

    # -- running -----------------------------------------------------------------------------

    def write_broker_files(self) -> None:
        """The password and ACL files as they must be now; the broker reloads them."""
        hashes = {HOST_USER: hash_password(self._password.get_secret_value()),
                  JOIN_USER: hash_password(self._code.code.get_secret_value())}
        if self._previous is not None:
            hashes[JOIN_LATE_USER] = hash_password(self._previous.code.get_secret_value())
        hashes |= {t.id: t.password_hash for t in self._tables.values()}
        self.files.write(hashes, acl_text(self.topics, sorted(self._tables)))
        self.broker.reload()

    def start(self) -> None:
        """Write the broker's files and connect (returns at once; paho reconnects as needed)."""
        with self._lock:
            self.write_broker_files()
        self.connection.start()
        self._publishing.start()

    def wait_connected(self, timeout_s: float = 20.0) -> bool:
        """Whether the host reached the broker (and subscribed) within ``timeout_s``."""
        return self.connection.connected.wait(timeout_s)

    def stop(self) -> None:
        """Publish the last state, say goodbye (``online: false``) and disconnect."""
        self._stopping.set()
        try:
            if self._publishing.is_alive():
                self._publishing.join(timeout=5)
            self._flush()
        finally:
            self.connection.stop(last=(self.topics.host,
                                       HostStatus(event=self.info.event, online=False)))
            self.store.close()

    def tick(self) -> None:
        """Once a second: a new join code when the old one expired."""
        with self._lock:
            if self.clock() >= self._code.expires:
                self._previous = self._code
                self._code = JoinCode.new(self.clock(), self.code_minutes)
                self.write_broker_files()
                log.info("a new join code is shown (the last one expired)")
                self._changed()

    def subscribe(self, listener: Listener) -> None:
        """Call ``listener`` (on paho's thread) whenever the view changed."""
        self._listeners.subscribe(listener)

    # -- reading -----------------------------------------------------------------------------

    @property
    def join_code(self) -> JoinCode:
        return self._code

    def records(self) -> tuple[GameRecord, ...]:
        with self._lock:
            return tuple(self._records.values())

    def standings(self) -> tuple[StandingLine, ...]:
        """The leaderboard now."""
        return self._derived()[0]

    def seating(self) -> SeatingMessage:
        """The round to play now and who sits where."""
        return self._derived()[1]

    def tables(self) -> tuple[TableLine, ...]:
        """Every table of the event, joined or not, online or not."""
        return self._derived()[2]

    def _derived(self) -> tuple[tuple[StandingLine, ...], SeatingMessage, tuple[TableLine, ...]]:
        """Standings, seating and tables, computed once per change of what they depend on."""
        with self._lock:
            if self._cache is not None and self._cache[0] == self._version:
                return self._cache[1]
            records = list(self._records.values())
            current = self.plan.current(records, search=False)
            self._keep_seated(records)
            self._search_next(records)
            lines = tuple(StandingLine.model_construct(**{f: getattr(line, f) for f in FIELDS})
                          for line in self.plan.standings(records, search=False))
            derived = (lines, self._seating_message(current), self._table_lines(records, current))
            self._cache = (self._version, derived)
            return derived

    def _search_next(self, records: list[GameRecord]) -> None:
        """Start the next round's seating search on a thread of its own when a round is complete:
        it may take seconds, and the lock is the host's (every entry waits for it). Meanwhile
        the round just played stays the round shown; the answer, remembered under the lock,
        seats the next round at the next look unless the games it was searched for changed
        (then another search starts)."""
        job = self.plan.pending(records)
        if job is None or job.key in self._searching:
            return
        self._searching.add(job.key)

        def search() -> None:
            seating: Seating | None = None
            try:
                seating = self.plan.search(job)
            except Exception:
                log.exception("seating round %d failed", job.number)
            with self._lock:
                self._searching.discard(job.key)
                if seating is not None:
                    self.plan.remember(job, seating)
                    self._dirty = True
                    self._changed()

        threading.Thread(target=search, name=f"seat-round-{job.number}", daemon=True).start()

    def _keep_seated(self, records: list[GameRecord]) -> None:
        """Record every round seated now that is not recorded yet: from here on it is played as
        the tables are told it, whatever a correction to an earlier round changes."""
        for seating in self.plan.seatings(records, search=False):
            if seating.round not in self.plan.kept:
                self.store.keep_seating(seating, self.clock())
                self.plan.keep(seating)
                self._correction = None  # the new round is seated from the corrected standings
                log.info("round %d is seated", seating.round)

    def _table_lines(self, records: list[GameRecord], current: Seating | None
                     ) -> tuple[TableLine, ...]:
        hands: dict[str, int] = defaultdict(int)
        in_round: dict[str, int] = defaultdict(int)
        for record in records:
            hands[record.table] += record.hands
            if current is not None and record.round == current.round:
                in_round[record.table] = record.hands
        leading = max(in_round.values(), default=0)
        lines = []
        for table in self.settings.tables:
            online, since = self._presence.get(table, (False, None))
            row = self._tables.get(table)
            waiting = 0
            if current is not None and self.settings.format is not TournamentFormat.FREE and \
                    current.at(table):
                waiting = leading - in_round.get(table, 0)
            lines.append(TableLine(table=table, name=row.name if row else "", online=online,
                                   since=since, hands=hands[table], waiting=waiting))
        return tuple(lines)

    def view(self) -> TournamentView:
        """Everything a screen shows (the join code included: the host's screen shows it)."""
        with self._lock:
            return TournamentView(info=self.info, standings=self.standings(),
                                  tables=self.tables(), seating=self.seating(),
                                  host_online=self.connection.connected.is_set(),
                                  join_code=self._code.code.get_secret_value(),
                                  join_expires=self._code.expires, join_address=self.address)

    def summary(self) -> dict[str, Any]:
        """The host's figures as JSON values (``showdown event host --json``)."""
        latencies = sorted(self.latencies_ms)

        def pct(share: float) -> float | None:
            if not latencies:
                return None
            return round(latencies[min(len(latencies) - 1, int(share * len(latencies)))], 1)

        return {
            "event": self.info.event,
            "format": self.info.format,
            "entries_counted": self._count,
            "redeliveries": self.redeliveries,
            "refused": self.refused,
            "latency_ms": {"p50": pct(0.5), "p99": pct(0.99), "count": len(latencies),
                           "mean": round(statistics.fmean(latencies), 1) if latencies else None},
            "standings": [line.model_dump() for line in self.standings()],
            "tables": [line.model_dump() for line in self.tables()],
            "seating": self.seating().model_dump(),
        }

    # -- messages ----------------------------------------------------------------------------

    def _on_connect(self) -> None:
        with self._lock:
            self._published.clear()  # a broker restarted without its database lost them
            self.connection.publish(self.topics.host, HostStatus(event=self.info.event,
                                                                 online=True), retain=True)
            self.connection.publish(self.topics.info, self.info, retain=True)
            self._publish_state()
        self._changed()  # the view's host_online: back on line

    def _message(self, topic: str, payload: bytes) -> None:
        with self._lock:
            if topic.endswith("/entry"):
                self._entry(topic, payload)
            elif topic.endswith("/status"):
                self._status(topic, payload)
            elif topic.endswith("/request"):
                self._join(topic, payload)

    def _refuse(self, why: str) -> None:
        self.refused += 1
        log.warning("refused: %s", why)

    def _entry(self, topic: str, payload: bytes) -> None:
        named = self.topics.table_of(topic)
        try:
            entry = parse(EntryMessage, payload)
        except MessageError as error:
            self._refuse(f"an entry on {named}'s topic: {error}")
            return
        row = self._tables.get(entry.table)
        if named != entry.table:
            self._refuse(f"an entry of table {entry.table} on table {named}'s topic")
            return
        if entry.event != self.info.event:
            self._refuse(f"an entry of another event ({entry.event}) from table {named}")
            return
        if row is None:
            self._refuse(f"an entry from {named}, which has not joined")
            return
        if not verify(row.signing_key, entry.signed_part(), entry.mac):
            self._refuse(f"an entry on table {named}'s topic whose signature is not {named}'s")
            return
        key = (entry.table, entry.journal, entry.game)
        held = self._entries.get(key, {}).get(entry.seq)
        if held is not None:  # a redelivery: no need to touch the disk
            new = False
            if held.model_dump(exclude={"sent_at", "mac", "event"}) != entry.model_dump(
                    exclude={"sent_at", "mac", "event"}):
                self._refuse(f"table {entry.table} entry {entry.journal}:{entry.seq} is stored "
                             "with other content")
                return
        else:
            try:
                new = self.store.store(entry, received_at=self.clock())
            except ConflictError as error:
                self._refuse(str(error))
                return
        self.connection.publish(self.topics.ack(entry.table), AckMessage(
            event=self.info.event, table=entry.table, entries=[entry.id]))
        if not new:
            self.redeliveries += 1
            return
        self._entries[key][entry.seq] = entry
        self._count += 1
        self._refold(key)
        self._waiting.append(entry.recorded_at)
        self._dirty = True
        self._changed()

    def _flush(self) -> None:
        """Publish the retained state if it changed, and note each new entry's latency: from
        its commit at the table to these standings."""
        with self._lock:
            if not self._dirty or not self.connection.connected.is_set():
                return
            self._dirty = False
            self._publish_state()
            now, waiting, self._waiting = time.time(), self._waiting, []
        for recorded_at in waiting:
            try:
                recorded = datetime.fromisoformat(recorded_at).timestamp()
            except ValueError:
                continue
            self.latencies_ms.append(max(0.0, (now - recorded) * 1000))

    def _publisher(self) -> None:
        """The retained state goes out at most every :data:`STATE_INTERVAL_S`: one message per
        change of many entries, not one standings message per entry to every table."""
        while not self._stopping.wait(STATE_INTERVAL_S):
            try:
                self._flush()
            except Exception:
                log.exception("publishing the event's state failed")

    def _refold(self, key: tuple[str, str, int]) -> None:
        record = game_record(self.info.event, self._entries[key].values())
        if record is not None:
            held = self._records.get(key)
            self._records[key] = record
            self._version += 1
            if held is not None and held.over and held.round is not None and \
                    held.round < max(self.plan.kept, default=0) and \
                    (held.over, held.players) != (record.over, record.players):
                self._correction = Correction(round=held.round, table=held.table,
                                              seated=max(self.plan.kept))
                log.info("round %d at table %s was corrected: the standings change, round %d "
                         "stays as seated", held.round, held.table, max(self.plan.kept))

    def _status(self, topic: str, payload: bytes) -> None:
        named = self.topics.table_of(topic)
        try:
            status = parse(TableStatus, payload)
        except MessageError as error:
            self._refuse(f"a status on {named}'s topic: {error}")
            return
        if named != status.table or named not in self.settings.tables:
            self._refuse(f"a status of table {status.table} on {named}'s topic")
            return
        was = self._presence.get(named, (False, None))[0]
        if was != status.online or named not in self._presence:
            self._presence[named] = (status.online, self.clock())
            self._version += 1
            log.info("table %s is %s", named, "online" if status.online else "offline")
            self._dirty = True
            self._changed()

    def _join(self, topic: str, payload: bytes) -> None:
        client = topic.split("/")[-2]
        reply_topic = Topics.join_reply(client)
        try:
            request = parse(JoinRequest, payload)
        except MessageError as error:
            self._refuse(f"a join request from {client}: {error}")
            return
        if request.client != client:
            self._refuse(f"a join request for client {request.client} on {client}'s topic")
            return
        offered = request.code.get_secret_value()
        if not self._code.accepts(offered, self.clock()):
            shown = [c for c in (self._code, self._previous) if c is not None]
            expired = any(c.accepts(offered, c.expires - 1) for c in shown)
            self._refuse(f"a join request from {client} with "
                         f"{'an expired' if expired else 'a wrong'} code")
            self.connection.publish(reply_topic, JoinReply(
                error="that join code has expired: the host's screen shows a new one" if expired
                else "that join code is not this event's: read the one on the host's screen "
                     "again", reason="expired-code" if expired else "wrong-code"))
            return
        answered = self._answered.get(client)
        if answered is not None:  # asked again: the same answer, not a second table
            self.connection.publish(reply_topic, answered)
            return
        free = [t for t in self.settings.tables if t not in self._tables]
        if not free:
            self.connection.publish(reply_topic, JoinReply(
                error=f"all {len(self.settings.tables)} tables of this event have joined",
                reason="full"))
            return
        table, password, key = free[0], new_secret(), new_secret()
        row = TableRow(table, request.name or f"Table {table[1:]}",
                       hash_password(password.get_secret_value()), key, self.clock())
        self.store.add_table(row)
        self._tables[table] = row
        self._version += 1
        self.write_broker_files()
        log.info("table %s joined (%s)", table, row.name)
        reply = JoinReply(table=table, password=password, signing_key=key, info=self.info)
        self._answered[client] = reply
        self.connection.publish(reply_topic, reply)
        self._dirty = True
        self._changed()

    # -- publishing --------------------------------------------------------------------------

    def _seating_message(self, current: Seating | None) -> SeatingMessage:
        if current is None:
            return SeatingMessage(event=self.info.event, rounds=self.settings.rounds, over=True)
        return SeatingMessage(event=self.info.event, round=current.round,
                              rounds=self.settings.rounds,
                              tables={t: list(p) for t, p in current.tables},
                              byes=list(current.byes), correction=self._correction)

    def _publish_state(self) -> None:
        if not self.connection.connected.is_set():
            return
        lines = self.standings()
        state: dict[str, Any] = {
            self.topics.standings: StandingsMessage(event=self.info.event, lines=list(lines),
                                                    entries=self._count,
                                                    updated_at=self.clock()),
            self.topics.seating: self.seating(),
            self.topics.tables: TablesMessage(event=self.info.event, tables=list(self.tables())),
        }
        for topic, message in state.items():
            payload = to_payload(message)
            compared = json.dumps({k: v for k, v in json.loads(payload).items()
                                   if k not in ("updated_at", "entries")}, sort_keys=True)
            if self._published.get(topic) == compared.encode():
                continue
            self._published[topic] = compared.encode()
            self.connection.publish(topic, message, retain=True)

    def _changed(self) -> None:
        self._version += 1
        self._listeners.tell()
