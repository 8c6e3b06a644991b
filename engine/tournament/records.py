"""What one game at one table amounts to for the event, and the rule that makes arrival order
and repetition irrelevant: one record per game, the latest version wins."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

__all__ = ["GameRecord", "PlayerLine", "latest_records"]


@dataclass(frozen=True, slots=True)
class PlayerLine:
    """One player's figures in one game."""

    name: str
    points: int
    """The player's total on the table's sheet (a partner's is the team's total)."""
    rounds_won: int
    showdowns_won: int
    fastest_ms: float | None
    """Fastest reaction in a race or side-count showdown; None when none was measured."""


@dataclass(frozen=True, slots=True)
class GameRecord:
    """One game at one table as the table's journal says it stands.

    ``game`` names the game at its table (unique there: the table's journal and game id);
    ``version`` grows with every entry the table recorded for it (the journal's sequence number
    of the last one), so of two records of the same game the later one holds everything the
    earlier one did, undos and edits included. ``round`` is the event round the game was seated
    for (None in free play).
    """

    table: str
    game: str
    version: int
    round: int | None
    players: tuple[PlayerLine, ...]
    hands: int
    over: bool
    winners: tuple[str, ...] = ()

    @property
    def key(self) -> tuple[str, str]:
        """Which game this is a version of."""
        return (self.table, self.game)


def latest_records(records: Iterable[GameRecord]) -> tuple[GameRecord, ...]:
    """One record per game (the highest version; equal versions are the same facts), in a fixed
    order (table, game): the same answer for any order or repetition of the input.

    >>> a1 = GameRecord("t1", "g1", 3, None, (), hands=0, over=False)
    >>> a2 = GameRecord("t1", "g1", 9, None, (), hands=1, over=False)
    >>> latest_records([a2, a1, a2]) == (a2,)
    True
    """
    best: dict[tuple[str, str], GameRecord] = {}
    for record in records:
        held = best.get(record.key)
        if held is None or (record.version, repr(record)) > (held.version, repr(held)):
            best[record.key] = record
    return tuple(best[key] for key in sorted(best))
