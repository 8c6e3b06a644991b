"""A whole simulated evening on one machine: ``showdown event demo``.

A broker (the embedded one, or Debian's Mosquitto), the host (``showdown event host``) and N
tables, each its own ``showdown run --sim --event`` process with its own journal, bots and the
simulated unit, each reaching the broker through a relay that can cut it off. Faults are spread
over the evening by its progress (hands recorded): broker restarts, a table SIGKILLed and started
again, one table cut off for a while. At the end every table's journal is compared with the
host's event journal (``lost``, ``duplicated``) and the standings recomputed from the journals
with those the host published (``standings_match``). The host serves the event's page for phones
(``http``: where; None, port 8080 where free; ``""``: none); with ``keep_page`` it stays up after
the evening until stopped, so the final standings can be read.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine.tournament import TournamentFormat, TournamentPlan
from showdown.game.journal import Journal, JournalError
from showdown.playtest.proxy import Relay
from showdown.tournament.broker_files import BrokerFiles
from showdown.tournament.brokers import BrokerProcess, free_port
from showdown.tournament.games import records
from showdown.tournament.host import settings_from_info
from showdown.tournament.messages import EntryMessage, TournamentInfo
from showdown.tournament.outbox import Outbox, journal_identity, tournament_entries, tournament_file
from showdown.tournament.store import TournamentStore

__all__ = ["DemoOptions", "run_demo"]

log = logging.getLogger("showdown.tournament.demo")

KEEPALIVE = 4
JOIN_BATCH = 8
"""Tables started together; the next ones once these joined (50 Python processes starting at
once on two cores left joins unanswered for 20 s)."""
START_LIMIT_S = 600.0
"""How long a host or a table may take to start and join before it counts as hung (a start
that ends in an error says so at once)."""
RESEND_S = 5.0


@dataclass
class DemoOptions:
    """What ``showdown event demo`` was asked for."""

    tables: int
    format: str
    broker: str = "embedded"
    broker_restarts: int = 0
    table_crashes: int = 0
    partition_s: float = 0.0
    speed: float | None = None
    games: int = 1
    target: int = 200
    rounds: int = 3
    seed: int = 1
    folder: Path = Path(".")
    timeout_s: float = 1800.0
    http: str | None = None
    keep_page: bool = False


@dataclass
class _Table:
    number: int
    db: Path
    relay: Relay
    process: subprocess.Popen[bytes] | None = None
    crashes: int = 0
    done: bool = False


@dataclass
class _Run:
    options: DemoOptions
    broker: BrokerProcess
    host: subprocess.Popen[bytes] | None = None
    tables: list[_Table] = field(default_factory=list)
    restarts: int = 0
    crashes: int = 0
    partitions: int = 0
    host_cpu_s: float | None = None
    broker_cpu_s: float | None = None
    stopped_by: str | None = None


def _python() -> list[str]:
    return [sys.executable, "-m", "showdown"]


def expected_hands(options: DemoOptions) -> int:
    """Roughly how many hands the evening has (faults are spread over them)."""
    if options.format == "partners-8":
        return 56
    if options.format == "swiss":
        return options.rounds * 4 * options.tables
    # A hand's winner scores about 70 points on average: a game to 200 is three hands or so.
    return max(2, options.target // 70) * options.games * options.tables


class _Hands:
    """How many hands each table's journal holds, read through the journal itself (opened
    read-only once it exists, then kept open: a poll costs one query)."""

    def __init__(self) -> None:
        self._open: dict[Path, Journal] = {}

    def __call__(self, db: Path) -> int:
        journal = self._open.get(db)
        if journal is None:
            if not db.exists():
                return 0
            try:
                journal = self._open[db] = Journal.open(db, read_only=True)
            except JournalError:  # being made, or refused: no hands to count yet
                return 0
        try:
            return journal.count("round")
        except sqlite3.Error:
            return 0

    def close(self) -> None:
        """Let go of every journal opened."""
        for journal in self._open.values():
            journal.close()
        self._open.clear()


def _cpu_seconds(pid: int) -> float | None:
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _start_table(run: _Run, table: _Table, code: str) -> None:
    options = run.options
    command = [*_python(), "run", "--sim", "--headless", "--no-http", "--db", str(table.db),
               "--event", f"{code}@127.0.0.1:{table.relay.port}", "--seed", str(table.number),
               "--games", str(options.games), "--event-keepalive", str(KEEPALIVE),
               "--event-resend-s", str(RESEND_S)]
    command += ["--speed", str(options.speed)] if options.speed else ["--fast"]
    output = (options.folder / f"t{table.number}.log").open("ab")
    table.process = subprocess.Popen(command, stdout=output, stderr=subprocess.STDOUT,
                                     stdin=subprocess.DEVNULL, start_new_session=True)
    output.close()


def _watch_files(run: _Run, stop: threading.Event) -> None:
    """Mosquitto reloads its files on SIGHUP: what deploy/'s systemd path unit does, done here."""
    path = run.broker.files.passwords
    seen = None
    while not stop.wait(0.2):
        with contextlib.suppress(OSError):
            stamp = path.stat().st_mtime_ns
            if seen is not None and stamp != seen:
                run.broker.reload()
            seen = stamp


def run_demo(options: DemoOptions, stop: threading.Event | None = None) -> dict[str, Any]:
    """Play the evening; the figures as a JSON-ready dict (also when stopped early)."""
    stop = stop or threading.Event()
    started = time.monotonic()
    folder = options.folder
    folder.mkdir(parents=True, exist_ok=True)
    host_dir = folder / "host"
    files = BrokerFiles(host_dir)
    run = _Run(options, BrokerProcess(options.broker, files, port=free_port(),
                                      log=folder / "broker.log"))
    watcher_stop = threading.Event()
    try:
        _play(run, stop, watcher_stop)
        if options.keep_page and run.stopped_by is None:
            _keep_page(host_dir, stop)
    except KeyboardInterrupt:  # pragma: no cover - SIGINT arrives as Stopped in the CLI
        run.stopped_by = "SIGINT"
    finally:
        summary = _finish(run)
        watcher_stop.set()
    return _report(run, summary, time.monotonic() - started)


def _play(run: _Run, stop: threading.Event, watcher_stop: threading.Event) -> None:
    options = run.options
    host_dir = options.folder / "host"
    command = [*_python(), "event", "host", "--dir", str(host_dir), "--format", options.format,
               "--tables", str(options.tables), "--broker", "system", "--bind", "127.0.0.1",
               "--port", str(run.broker.port), "--no-mdns", "--json", "--keepalive",
               str(KEEPALIVE), "--target", str(options.target), "--rounds", str(options.rounds),
               "--code-minutes", "600"]
    command += ["--no-http"] if options.http == "" else \
        [] if options.http is None else ["--http", options.http]
    run.host = subprocess.Popen(command, stdout=subprocess.PIPE,
                                stderr=(options.folder / "host.log").open("ab"),
                                stdin=subprocess.DEVNULL, start_new_session=True)
    if not _wait(run.broker.files.acl.exists, stop, run.host):
        raise RuntimeError(f"the host did not write the broker's files: see "
                           f"{options.folder / 'host.log'}")
    run.broker.start()
    threading.Thread(target=_watch_files, args=(run, watcher_stop), daemon=True).start()
    code_file = host_dir / "join-code"
    if not _wait(code_file.exists, stop, run.host):
        raise RuntimeError(f"the host did not start: see {options.folder / 'host.log'}")
    code = code_file.read_text().strip().split("@")[0]
    for number in range(1, options.tables + 1):
        run.tables.append(_Table(number, options.folder / f"t{number}.db",
                                 Relay(("127.0.0.1", run.broker.port))))
    for first in range(0, len(run.tables), JOIN_BATCH):  # a few at a time: each starts Python
        batch = run.tables[first:first + JOIN_BATCH]
        for table in batch:
            _start_table(run, table, code)
        for table in batch:
            if not _wait(lambda t=table: _joined(t), stop, table.process):
                raise RuntimeError(f"table {table.number} did not join: see "
                                   f"{options.folder / f't{table.number}.log'}")
    log.info("all %d tables joined the event", len(run.tables))
    total = expected_hands(options)
    faults = _schedule(options)
    began = time.monotonic()
    hands = _Hands()
    try:
        while not stop.is_set():
            for table in run.tables:
                if table.process is not None and table.process.poll() is not None:
                    table.done = table.process.returncode == 0
            if all(t.done for t in run.tables):
                return
            progress = sum(hands(t.db) for t in run.tables) / max(1, total)
            while faults and progress >= faults[0][0]:
                _fault(run, faults.pop(0)[1], code)
            if time.monotonic() - began > options.timeout_s:
                raise RuntimeError(f"the evening did not end within {options.timeout_s:.0f} s")
            stop.wait(0.25)
        run.stopped_by = "SIGINT"
    finally:
        hands.close()


def _keep_page(host_dir: Path, stop: threading.Event) -> None:
    """The evening is over: the host (and its page) stays up until ``stop``."""
    url = host_dir / "page-url"
    where = url.read_text().strip() if url.exists() else "(no page: see host.log)"
    log.info("the evening is over; its page stays at %s until Ctrl-C", where)
    stop.wait()


def _joined(table: _Table) -> bool:
    path = tournament_file(table.db)
    if not path.exists():
        return False
    outbox = Outbox(path)
    try:
        return outbox.membership() is not None
    finally:
        outbox.close()


def _schedule(options: DemoOptions) -> list[tuple[float, str]]:
    faults = [((k + 1) / (options.broker_restarts + 1) * 0.9, "restart")
              for k in range(options.broker_restarts)]
    faults += [((k + 0.5) / (options.table_crashes + 1) * 0.9, f"crash:{k}")
               for k in range(options.table_crashes)]
    if options.partition_s > 0:
        faults.append((0.4, "partition"))
    return sorted(faults)


def _fault(run: _Run, what: str, code: str) -> None:
    if what == "restart":
        log.info("fault: restarting the broker")
        run.broker.restart()
        run.restarts += 1
    elif what == "partition":
        table = run.tables[0]
        log.info("fault: table %d cut off for %.0f s", table.number, run.options.partition_s)
        table.relay.cut(run.options.partition_s)
        run.partitions += 1
    else:
        table = run.tables[int(what.split(":")[1]) % len(run.tables)]
        if table.process is None or table.process.poll() is not None:
            return
        log.info("fault: SIGKILL to table %d, started again", table.number)
        os.killpg(table.process.pid, signal.SIGKILL)
        table.process.wait()
        table.crashes += 1
        run.crashes += 1
        _start_table(run, table, code)


def _wait(condition: Any, stop: threading.Event, process: subprocess.Popen[Any] | None) -> bool:
    """Whether ``condition`` came true while ``process`` (the host or a table starting) ran: a
    process that ends first, a stop, or :data:`START_LIMIT_S` is False. A slow start on a busy
    machine is waited for; only a process that has died or hung is given up on."""
    deadline = time.monotonic() + START_LIMIT_S
    while not condition():
        if (stop.is_set() or time.monotonic() > deadline
                or (process is not None and process.poll() is not None)):
            return False
        stop.wait(0.1)
    return True


def _finish(run: _Run) -> dict[str, Any]:
    for table in run.tables:
        if table.process is not None and table.process.poll() is None:
            table.process.send_signal(signal.SIGINT)
    for table in run.tables:
        if table.process is not None:
            try:
                table.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(table.process.pid, signal.SIGKILL)
                table.process.wait()
        table.relay.close()
    summary: dict[str, Any] = {}
    if run.host is not None:
        run.host_cpu_s = _cpu_seconds(run.host.pid)
        if run.host.poll() is None:
            run.host.send_signal(signal.SIGINT)
        try:
            out, _ = run.host.communicate(timeout=30)
            line = out.decode().strip().splitlines()[-1] if out.strip() else "{}"
            summary = json.loads(line)
        except (subprocess.TimeoutExpired, ValueError, IndexError):
            run.host.kill()
    if run.broker.process is not None:
        run.broker_cpu_s = _cpu_seconds(run.broker.process.pid)
    run.broker.stop()
    return summary


def _report(run: _Run, summary: dict[str, Any], seconds: float) -> dict[str, Any]:
    options = run.options
    host_db = options.folder / "host" / "event.db"
    stored: list[tuple[str, str, int]] = []
    info: TournamentInfo | None = None
    if host_db.exists():
        store = TournamentStore(host_db)  # the host has stopped: the journal is the demo's to read
        try:
            stored = [(e.table, e.journal, e.seq) for e in store.entries()]
            row = store.get("info")
            info = TournamentInfo.model_validate_json(row) if row else None
        finally:
            store.close()
    made: list[EntryMessage] = []
    hands: dict[str, int] = {}
    acked: set[tuple[str, str, int]] = set()
    for table in run.tables:
        if not table.db.exists() or not tournament_file(table.db).exists():
            continue
        outbox = Outbox(tournament_file(table.db))
        member = outbox.membership()
        name = member.table if member else f"t{table.number}"
        with Journal.open(table.db) as journal:
            if not journal.games():
                outbox.close()
                continue
            identity = journal_identity(journal)
            acked |= {(name, identity, seq) for seq in outbox.acked(identity)}
            outbox.close()
            count = 0
            for entry, previous in tournament_entries(journal, info.event if info else "",
                                                      member.joined_seq if member else 0):
                made.append(EntryMessage(
                    event=info.event if info else "000000", table=name, journal=identity,
                    seq=entry.seq, game=entry.game_id, prev=previous, kind=entry.kind,
                    key=entry.key, events=entry.events, recorded_at=entry.recorded_at))
                count += entry.kind == "round"
            hands[name] = count
    made_ids = {(e.table, e.journal, e.seq) for e in made}
    missing = made_ids - set(stored)
    lost = len(missing & acked)  # the table was told the host had it, and the host has not
    pending = len(missing - acked)  # still in a table's outbox: it goes out at the next start
    duplicated = len(stored) - len(set(stored))
    recomputed: list[dict[str, Any]] = []
    if info is not None:
        plan = TournamentPlan(settings_from_info(info))
        recomputed = [
            {"name": s.name, "table": s.table, "points": s.points, "rank": s.rank}
            for s in plan.standings(records(info.event, made))]
    published = [{"name": s["name"], "table": s["table"], "points": s["points"],
                  "rank": s["rank"]} for s in summary.get("standings", [])]
    latency = summary.get("latency_ms", {})
    return {
        "tables": options.tables,
        "format": options.format,
        "hands": hands,
        "entries_made": len(made_ids),
        "entries_counted": len(set(stored)),
        "lost": lost,
        "pending": pending,
        "duplicated": duplicated,
        "redeliveries": summary.get("redeliveries"),
        "refused": summary.get("refused"),
        "standings_match": bool(published) and published == recomputed,
        "standings": [{k: s[k] for k in ("name", "table", "points")} for s in published],
        "broker": options.broker,
        "faults": {"broker_restarts": run.restarts, "table_crashes": run.crashes,
                   "partitions": run.partitions, "partition_s": options.partition_s},
        "latency_ms": {"p50": latency.get("p50"), "p99": latency.get("p99")},
        "host_cpu_s": None if run.host_cpu_s is None else round(run.host_cpu_s, 2),
        "host_cpu_percent": None if run.host_cpu_s is None or seconds <= 0 else
        round(100 * run.host_cpu_s / seconds, 1),
        "broker_cpu_s": None if run.broker_cpu_s is None else round(run.broker_cpu_s, 2),
        "seconds": round(seconds, 1),
        "stopped": run.stopped_by,
        "format_over": TournamentFormat(options.format) is not TournamentFormat.FREE and bool(
            summary.get("seating", {}).get("over")),
    }
