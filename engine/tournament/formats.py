"""The event's formats and the settings a host chooses when it opens an event."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Final

from engine.scoring import (
    HANDS_PER_PARTNERSHIP,
    TWO_TABLE_HANDS,
    PartnerVariation,
    ScoringMode,
    ScoringSettings,
)

__all__ = ["TABLE_SIZE", "TournamentFormat", "TournamentSettings", "TournamentSettingsError"]

TABLE_SIZE: Final = 4
"""Players at one table in ``partners-8`` and ``swiss`` (free play tables seat 2 to 10)."""

PARTNERS_8_PLAYERS: Final = 8
PARTNERS_8_ROUNDS: Final = TWO_TABLE_HANDS // HANDS_PER_PARTNERSHIP
"""Seven pairings of four hands: 28 hands at each table (001)."""


class TournamentFormat(StrEnum):
    """How an event's tables play and how its standings are reckoned."""

    FREE = "free"
    """Each table plays its own games; one leaderboard over the evening."""
    PARTNERS_8 = "partners-8"
    """001's eight players at two tables, every pair partnered for four hands, 28 hands."""
    SWISS = "swiss"
    """Rounds of four-player tables; after each round the standings seat the next one."""


class TournamentSettingsError(ValueError):
    """Settings that cannot make an event; the message says which and why."""


@dataclass(frozen=True, slots=True)
class TournamentSettings:
    """What the host agreed before the first deal.

    ``tables`` are the tables' ids in the order seats are given out; ``players`` the names.
    ``rounds`` counts the event's rounds (``partners-8``: its seven pairings; ``swiss``: as
    agreed; free play: one round lasting the evening). ``hands_per_round`` is how many hands a
    table plays in one round (``partners-8``: four; free play: games to ``target``).
    """

    format: TournamentFormat
    players: tuple[str, ...]
    tables: tuple[str, ...]
    rounds: int = 1
    hands_per_round: int | None = None
    target: int = 500

    def __post_init__(self) -> None:
        if len(set(self.tables)) != len(self.tables) or not self.tables:
            raise TournamentSettingsError(f"the tables need distinct ids, not {list(self.tables)}")
        folded = [name.casefold() for name in self.players]
        if len(set(folded)) != len(folded):
            raise TournamentSettingsError("two players have the same name")
        if self.rounds < 1:
            raise TournamentSettingsError(f"an event has at least one round, not {self.rounds}")
        if self.format is TournamentFormat.PARTNERS_8:
            if len(self.players) != PARTNERS_8_PLAYERS or len(self.tables) != 2:
                raise TournamentSettingsError(
                    f"partners-8 is eight players at two tables, not {len(self.players)} players "
                    f"at {len(self.tables)} tables")
            if self.rounds != PARTNERS_8_ROUNDS or self.hands_per_round != HANDS_PER_PARTNERSHIP:
                raise TournamentSettingsError(
                    f"partners-8 plays {PARTNERS_8_ROUNDS} rounds of {HANDS_PER_PARTNERSHIP} hands")
        elif self.format is TournamentFormat.SWISS:
            if len(self.players) < TABLE_SIZE:
                raise TournamentSettingsError(
                    f"a Swiss event needs at least {TABLE_SIZE} players, not {len(self.players)}")
        elif self.rounds != 1:
            raise TournamentSettingsError("free play is one round lasting the evening")

    @classmethod
    def partners_8(cls, players: tuple[str, ...], tables: tuple[str, str]) -> TournamentSettings:
        """001's game: eight players, two tables, seven rounds of four hands."""
        return cls(TournamentFormat.PARTNERS_8, players, tables, rounds=PARTNERS_8_ROUNDS,
                   hands_per_round=HANDS_PER_PARTNERSHIP)

    def scoring(self) -> ScoringSettings:
        """How a table scores one game of this event."""
        if self.format is TournamentFormat.PARTNERS_8:
            return ScoringSettings(mode=ScoringMode.PARTNERS, partners=PartnerVariation.FIXED,
                                   rounds=self.hands_per_round, target=None)
        if self.hands_per_round is not None:
            return ScoringSettings(rounds=self.hands_per_round, target=None)
        return ScoringSettings(target=self.target)
