"""What the scoreboard draws, as plain read-only values, so screens never reach into the session.

Screens draw the table's :class:`~showdown.game.table_view.TableView`, the one read model the
phone page draws too (:mod:`showdown.game.table_model`); it and its parts are named here again
so a screen finds all it draws in one import. The values only the scoreboard shows (saved
games, the roster, the set-up's choices) are defined here; the adapter
(:mod:`showdown.scoreboard.adapter`) fills them from the session.
"""

from __future__ import annotations

from dataclasses import dataclass

from showdown.game.live import ShowdownView, Stage
from showdown.game.table_view import (
    Fact,
    PenaltyRow,
    PlayerView,
    RoundView,
    ShowdownRow,
    StatsView,
    TableView,
)
from showdown.unit.hardware import Side

__all__ = [
    "AllTimeView",
    "CardKind",
    "Fact",
    "PenaltyRow",
    "PlayerView",
    "RosterPlayer",
    "RoundView",
    "SavedGame",
    "ScoringChoice",
    "ShowdownRow",
    "ShowdownView",
    "Side",
    "Stage",
    "StatsView",
    "TableView",
]


@dataclass(frozen=True)
class SavedGame:
    """A game the table kept: one still open can be taken up again, a finished one read."""

    game_id: int
    players: tuple[str, ...]
    round: int
    """The round being played (numbered from 1)."""
    leader: str
    leader_total: int
    last_played: str
    """When its last entry was made (ISO 8601, UTC)."""
    standings: tuple[tuple[str, int], ...] = ()
    """Every player and total, the best first."""
    pigs: tuple[int, ...] = ()
    """In hero and mean scoring, the pigs of each player in :attr:`standings` (the fewest
    first, which is what ranks them); empty in the other modes, which have none."""
    finished: bool = False
    winners: tuple[str, ...] = ()
    name: str | None = None
    """What the table named the game, if it did."""
    current: bool = False
    """The game on the table now (a finished one stays there until the next)."""


@dataclass(frozen=True)
class RosterPlayer:
    """A player the table keeps across games: the name, and the colour they picked."""

    name: str
    colour: str | None = None
    """A key of :data:`showdown.game.colours.PLAYER_PALETTE`, or None."""


@dataclass(frozen=True)
class AllTimeView:
    """One player's figures over every game the table kept."""

    name: str
    games: int
    won: int
    points_per_round: float | None
    showdowns_won: int
    showdowns_lost: int
    best_ms: float | None
    median_ms: float | None
    false_starts: int


@dataclass(frozen=True)
class ScoringChoice:
    """A scoring mode the set-up screen offers, with what the set-up needs to know of it."""

    mode: str
    """The engine's name (``standard``, ``hero``...)."""
    target: int
    """The target it plays to unless the table agrees another (500; 100 in mean scoring)."""
    pigs: bool = False
    """002's hero and mean scoring: the target draws pigs, and the game ends at an agreed
    number of pigs or rounds."""


@dataclass(frozen=True)
class CardKind:
    """A kind of card that can be tapped into a round-end tally, with its point value."""

    key: str
    """The face in card codes: ``"7"``, ``"S"``, ``"+2"``, ``"W+4"``, ``"WSD"``."""
    name: str
    """Key of its name in :data:`showdown.scoreboard.vocabulary.KINDS` (``"skip"``), or the
    digit."""
    points: int
    coloured: bool
