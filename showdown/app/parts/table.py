"""The table's record, opened first and closed last: the journal's lock, the journal, the session.

One journal has one service: the lock is taken before the journal opens, so a second service on
the same file is refused at once, naming the process that holds it.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from pathlib import Path

from engine.scoring import ScoringSettings
from showdown.app.errors import UserError
from showdown.app.parts.shutdown import Phase, Shutdown
from showdown.game.journal import Entry, Journal, JournalError, check_file, check_writable
from showdown.game.lock import JournalLock
from showdown.game.session import Session, SessionError
from showdown.game.storage import StorageSettings

__all__ = ["Table", "open_table"]

log = logging.getLogger("showdown.run")


@dataclass(frozen=True)
class Table:
    """The journal being kept and the session over it (the lock is held until the shutdown)."""

    path: Path
    journal: Journal
    session: Session

    def say_open_game(self, players: int, preset: str, scoring: ScoringSettings) -> None:
        """Log the game that resumes, warning when the command line asks for another one (its
        players, rules and scoring apply to the next new game only)."""
        state = self.session.state
        if state is None or state.is_over:
            log.info("journal %s: no open game", self.path)
            return
        log.info("journal %s: resuming game %d at round %d", self.path, state.game_id,
                 state.current_round)
        if len(state.players) != players or state.preset != preset or state.scoring != scoring:
            log.warning(
                "the open game %d goes on with its own %d players, rules %r and %s scoring; "
                "--players %d --preset %s --scoring %s apply to a new game (finish this one, or "
                "start one with another --db)", state.game_id, len(state.players), state.preset,
                state.scoring.mode, players, preset, scoring.mode,
            )


def open_table(path: Path, storage: StorageSettings, shutdown: Shutdown) -> Table:
    """Lock, open and read the journal at ``path``; its closing goes in the last phase. A file
    that is no journal, cannot be written or is held by another service is one line."""
    try:
        check_file(path)  # not a journal, or not writable: say that, not that it cannot be locked
        check_writable(path)
        lock = JournalLock.acquire(path)
    except JournalError as error:
        raise UserError(str(error)) from None
    shutdown.add(Phase.JOURNAL, lock.release, "releasing the journal's lock")
    try:
        journal = Journal.open(path, writable=True)
        shutdown.add(Phase.JOURNAL, journal.close, "closing the journal")
        if storage.log_entries:
            journal.on_append = _log_entry
        session = Session(journal)
    except (JournalError, SessionError) as error:
        raise UserError(str(error)) from None
    return Table(path, journal, session)


def _log_entry(entry: Entry) -> None:
    """``storage.log_entries``: one line per journal entry once it is on disk (a power-cut test
    reads them from the console and checks each is still there after the cut)."""
    log.info("journal entry on disk: game %d seq %d %s key %s", entry.game_id, entry.seq,
             entry.kind, entry.key)
