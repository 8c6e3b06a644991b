"""The one translation of the unit's showdown outcome into a session entry, and the recorder.

Every caller that records what the unit decided (the service on a real table, the simulated
referee, the scoreboard with the keyboard unit) goes through :func:`entry_from_unit`, so an entry
always carries the cards actually loaded and a ``showdown_id`` that makes recording it twice
impossible.
"""

from __future__ import annotations

import logging

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
    """

    def __init__(self, session: Session, started: str) -> None:
        self.session = session
        self.started = started
        self.unrecorded: list[ShowdownOutcome] = []
        """Decided results without players (nobody loaded the unit): shown, not scored."""

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
        answer = self.session.handle(entry)
        if isinstance(answer[0], EntryRejected):
            log.warning("showdown %d not recorded: %s", event.showdown_id, answer[0].message)
