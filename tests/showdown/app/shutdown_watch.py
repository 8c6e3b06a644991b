"""Watching ``showdown run`` stop: what a user could see at the end of each shutdown phase.

Shared by ``tests/showdown/app/test_shutdown_order.py`` (the five ways the loop ends) and
``tests/showdown/tournament/test_run_in_an_event_stops_in_order.py`` (a table in an event). The
service runs in this process; its log is read as it runs: the loop's first stats line (its first
tick) is the moment the test brings the ending about, and each phase's debug line the moment it
looks at the unit's edge thread, the window, the phone page, the journal's lock and entries, and
the event link's thread. No sleeps.
"""

from __future__ import annotations

import contextlib
import logging
import signal
import socket
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

import pygame

from showdown.app.parts.shutdown import Phase
from showdown.app.stats import LINE_PREFIX
from showdown.game.journal import Journal
from showdown.game.lock import JournalBusyError, JournalLock

ORDER = [Phase.TABLE.value, Phase.UNIT.value, Phase.FRONT_ENDS.value, Phase.JOURNAL.value]
"""The phases a simulated table with a scoreboard and a phone page goes through (no event)."""


@dataclass(frozen=True)
class Seen:
    """What a user could see at the end of one shutdown phase."""

    phase: str
    unit_running: bool
    window_open: bool
    phone_answers: bool
    journal_held: bool
    entries: int
    link_running: bool


class Watch(logging.Handler):
    """Reads the service's log as it runs: brings the ending about at the loop's first tick,
    and looks around at the end of each shutdown phase."""

    def __init__(self, db: Path, ending: Callable[[], None],
                 running: Callable[[str], bool]) -> None:
        super().__init__(logging.DEBUG)
        self.db = db
        self.ending = ending
        self.running = running
        self.phone: tuple[str, int] | None = None
        self.ended = False
        self.seen: list[Seen] = []
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        text = record.getMessage()
        self.lines.append(text)
        if text.startswith("phone page: "):
            url = urlsplit(text.removeprefix("phone page: "))
            assert url.hostname is not None and url.port is not None
            self.phone = (url.hostname, url.port)
        elif text.startswith(LINE_PREFIX) and not self.ended:
            self.ended = True
            self.ending()
        elif text.startswith("shutdown: "):
            self.seen.append(Seen(text.removeprefix("shutdown: "), self.running("sim-edges"),
                                  pygame.display.get_init(), self._answers(),
                                  held(self.db), entries(self.db), self.running("outbox")))

    def _answers(self) -> bool:
        if self.phone is None:
            return False
        with contextlib.suppress(OSError), socket.create_connection(self.phone, timeout=5):
            return True
        return False


def held(db: Path) -> bool:
    """Whether a service holds the journal (a second one could not start on it now)."""
    try:
        lock = JournalLock.acquire(db)
    except JournalBusyError:
        return True
    lock.release()
    return False


def entries(db: Path) -> int:
    """How many entries the journal holds (read as export reads it)."""
    with Journal.open(db, read_only=True) as journal:
        return sum(len(journal.entries(game.id)) for game in journal.games())


@contextlib.contextmanager
def watching(db: Path, ending: Callable[[], None]) -> Iterator[Watch]:
    """The service's log read by a :class:`Watch` while the block runs (debug lines too)."""
    before = set(threading.enumerate())

    def running(name: str) -> bool:
        """Whether a thread of this run called ``name`` runs: the simulated unit's edges
        (``sim-edges``), the event link's outbox (``outbox``)."""
        return any(t.name == name and t.is_alive() for t in set(threading.enumerate()) - before)

    watch = Watch(db, ending, running)
    logger = logging.getLogger("showdown")
    level = logger.level
    logger.addHandler(watch)
    logger.setLevel(logging.DEBUG)
    try:
        yield watch
    finally:
        logger.removeHandler(watch)
        logger.setLevel(level)


def command(db: Path, *more: str, http: str = "127.0.0.1:0") -> list[str]:
    """``showdown run`` on the simulated table, with the scoreboard and a phone page."""
    return ["run", "--sim", "--fast", "--players", "3", "--seed", "4", "--db", str(db),
            "--http", http, *more]


def stop_signal() -> None:
    """SIGTERM, as systemd stops the service."""
    main_thread = threading.main_thread().ident
    assert main_thread is not None
    signal.pthread_kill(main_thread, signal.SIGTERM)


def close_window() -> None:
    """The scoreboard's window is closed (a desktop's close button; Esc does the same)."""
    pygame.event.post(pygame.event.Event(pygame.QUIT))


def nothing() -> None:
    """The games finish, or the output is lost before the loop's first tick, by themselves."""


def display_gone() -> None:
    """The display goes away under the scoreboard: its next frame raises."""
    pygame.display.quit()


def check_order(watch: Watch, db: Path, *, window: bool = True, event: bool = False) -> None:
    """The phases in order, each leaving what the next needs and closing what it names."""
    expected = ORDER[:3] + ([Phase.TOURNAMENT_LINK.value] if event else []) + ORDER[3:]
    assert [seen.phase for seen in watch.seen] == expected
    table, unit, front_ends, *link, journal = watch.seen
    # The table has stopped: nothing is recorded after it; the rest is still up.
    assert table.unit_running and table.phone_answers and table.journal_held
    assert table.entries == journal.entries
    # The unit's outputs are safe first, while the front ends still show the table.
    assert not unit.unit_running
    assert unit.phone_answers and unit.journal_held
    if window:
        assert table.window_open and unit.window_open
    # The front ends close while the journal is still open (a last undo still reaches it).
    assert not front_ends.window_open and not front_ends.phone_answers
    assert front_ends.journal_held
    # The event link stops after them, while the journal it publishes is still open.
    assert front_ends.link_running is event
    if link:
        assert not link[0].link_running and link[0].journal_held
    # The journal last: closed, released, whole; the next start opens it.
    assert not journal.journal_held
    with Journal.open(db) as opened:
        assert opened.integrity_check() == "ok"
