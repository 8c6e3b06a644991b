"""The one translation of the unit's showdown outcome into a session entry, and the recorder.

Every caller that records what the unit decided (the service's unit source, for a real table or
the keyboard's unit, and the simulated referee) goes through :func:`entry_from_unit`, so an entry
always carries the cards actually loaded and a ``showdown_id`` that makes recording it twice
impossible.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable

from showdown.game.messages import EntryRejected, RecordShowdown, ShowdownReason
from showdown.game.session import Session
from showdown.unit.events import ShowdownEvent, ShowdownOutcome
from showdown.unit.hardware import Side
from showdown.unit.verdict import Reason

__all__ = ["UnitRecorder", "entry_from_unit"]

log = logging.getLogger(__name__)

_REASONS: dict[Reason, ShowdownReason] = {
    Reason.RACE: "race",
    Reason.FALSE_START: "false-start",
    Reason.SIDE_COUNT: "side-count",
}


def entry_from_unit(result: ShowdownOutcome, showdown_id: str) -> RecordShowdown | None:
    """The session entry for a unit result; None for a replay (tie, timeout, fault) or when the
    unit was not told who sat at the paddles."""
    reason = _REASONS.get(result.reason)
    winner, loser = result.player(result.winner), result.player(result.loser)
    if reason is None or winner is None or loser is None or not result.cards_loaded:
        return None
    reactions = {
        name: round(value, 3)
        for side, value in result.reaction_ms.items()
        if (name := result.player(side)) is not None and value >= 0
    }
    counts = None
    if result.counts:
        counts = (result.counts.get(Side.LEFT, 0), result.counts.get(Side.RIGHT, 0))
    return RecordShowdown(
        winner=winner,
        loser=loser,
        cards_loaded=result.cards_loaded,
        reason=reason,
        source="unit",
        left=result.left_player,
        right=result.right_player,
        reaction_ms=reactions,
        side_counts=counts,
        showdown_id=showdown_id,
    )


class UnitRecorder:
    """Records each decided showdown of a real table in the session (subscribe it to the machine).

    The unit numbers showdowns from 1 each time the service starts, so the entry's key joins that
    number with the moment the service started: a result is recorded once, never twice.

    A result the journal cannot store (disk full, read-only) is never dropped: it waits in
    :attr:`waiting`, in order, and :meth:`retry` (called by the service's main loop) sends it
    again every :attr:`RETRY_S` seconds. Each failed try is refused again, so the scoreboard's
    banner and the status line say it is not stored until it is.
    """

    RETRY_S = 5.0
    """How often a result waiting to be stored is tried again."""

    def __init__(
        self, session: Session, started: str, *, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.session = session
        self.started = started
        self.unrecorded: list[ShowdownOutcome] = []
        """Decided results without players (nobody loaded the unit): shown, not scored."""
        self.waiting: list[RecordShowdown] = []
        """Results not stored yet (the journal could not be written), oldest first."""
        self._clock = clock
        self._tried = 0.0
        self._lock = threading.Lock()

    def __call__(self, event: ShowdownEvent) -> None:
        if not isinstance(event, ShowdownOutcome) or event.replay:
            return
        entry = entry_from_unit(event, f"{self.started}#{event.showdown_id}")
        if entry is None:
            self.unrecorded.append(event)
            log.warning(
                "showdown %d: %s won, but the unit was not told who played; enter it by hand",
                event.showdown_id, event.winner.value if event.winner else "nobody",
            )
            return
        with self._lock:
            self.waiting.append(entry)
            self._store()

    def retry(self) -> None:
        """Send the results still waiting again, if the last try is :attr:`RETRY_S` old."""
        with self._lock:
            if self.waiting and self._clock() - self._tried >= self.RETRY_S:
                self._store()

    def _store(self) -> None:
        self._tried = self._clock()
        while self.waiting:
            entry = self.waiting[0]
            answer = self.session.handle(entry)
            first = answer[0]
            if isinstance(first, EntryRejected) and first.unstored:
                log.warning("showdown %s not stored yet (%d waiting), trying again in %.0f s: %s",
                            entry.showdown_id, len(self.waiting), self.RETRY_S, first.message)
                return
            self.waiting.pop(0)
            if isinstance(first, EntryRejected) and not first.duplicate:
                log.warning("showdown %s not recorded: %s", entry.showdown_id, first.message)
