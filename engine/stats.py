"""Per-player statistics from the scoresheet's rounds and the game's showdowns.

A showdown reaches the scorekeeper from two places: the engine's rules (a bot game, or a hand
entered at the table) and the unit's result event (paddles, launcher, side-count lines). Both are
turned into one small immutable :class:`ShowdownRecord`, and the statistics are computed from those
records and the sheet's lines alone, so they are always recomputable after an undo or an edit.
"""

from __future__ import annotations

import statistics
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from engine.scoring import RoundScore, ScoringError

__all__ = ["PlayerStats", "ShowdownReason", "ShowdownRecord", "player_stats"]


class ShowdownReason(StrEnum):
    """Why a showdown ended as it did (unit.md, "A showdown, step by step")."""

    RACE = "race"
    """The first press after go won."""
    FALSE_START = "false-start"
    """A press before go (or inside the anticipation window) lost at once."""
    SIDE_COUNT = "side-count"
    """Presses too close to call: the side-count lines decided (more cards on your side: lost)."""
    TIMEOUT = "timeout"
    """Nobody pressed in time: no contest, the cards stay loaded and the showdown is replayed."""
    AGREED = "agreed"
    """Decided at the table without the unit (entered by hand)."""


_REASON_ALIASES = {
    "paddle": ShowdownReason.RACE,  # the engine's ShowdownResult default
    "faster-press": ShowdownReason.RACE,
    "side-lines": ShowdownReason.SIDE_COUNT,
    "side-line": ShowdownReason.SIDE_COUNT,
    "hand": ShowdownReason.AGREED,
    "manual": ShowdownReason.AGREED,
}


class ShowdownRecord(BaseModel):
    """One settled showdown, whoever reported it.

    ``players`` are the two seats (left paddle first when the unit reports it); ``reaction_ms``
    lines up with ``players`` and holds None where no time was reported. A timeout has no winner
    and no loser; every other reason has both, and they are the two players.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    players: tuple[int, int]
    cards_loaded: int = Field(ge=1, le=20)
    winner: int | None
    loser: int | None
    reason: ShowdownReason
    reaction_ms: tuple[float | None, float | None] = (None, None)

    @field_validator("reason", mode="before")
    @classmethod
    def _spelling(cls, value: object) -> object:
        """Accept "false start", "false_start", "SIDE_COUNT": reporters spell reasons their way."""
        if isinstance(value, str) and not isinstance(value, ShowdownReason):
            spelled = value.strip().lower().replace("_", "-").replace(" ", "-")
            return _REASON_ALIASES.get(spelled, spelled)
        return value

    @model_validator(mode="after")
    def _consistent(self) -> ShowdownRecord:
        first, second = self.players
        if first == second or min(self.players) < 0:
            raise ValueError(f"a showdown is between two different seats, not {self.players}")
        if self.reason is ShowdownReason.TIMEOUT:
            if self.winner is not None or self.loser is not None:
                raise ValueError("a timeout has no winner and no loser: the showdown is replayed")
            return self
        if {self.winner, self.loser} != set(self.players):
            raise ValueError(
                f"winner {self.winner} and loser {self.loser} must be the two players "
                f"{self.players}"
            )
        return self

    @classmethod
    def settled(
        cls,
        *,
        winner: int,
        loser: int,
        reason: str,
        cards_loaded: int,
        winner_ms: float | None = None,
        loser_ms: float | None = None,
        players: tuple[int, int] | None = None,
    ) -> ShowdownRecord:
        """From a result given as winner and loser, as the engine's ``ShowdownSettled`` event
        (``cards_loaded=len(event.cards)``) and a hand entry give it. ``players`` fixes the
        order (left paddle first, or challenger first); by default the winner comes first.
        """
        order = players if players is not None else (winner, loser)
        times = {winner: winner_ms, loser: loser_ms}
        return cls.model_validate(
            {
                "players": order,
                "cards_loaded": cards_loaded,
                "winner": winner,
                "loser": loser,
                "reason": reason,
                "reaction_ms": (times.get(order[0]), times.get(order[1])),
            }
        )

    def reaction_of(self, seat: int) -> float | None:
        """The reaction time reported for ``seat`` in this showdown, if any."""
        return self.reaction_ms[self.players.index(seat)] if seat in self.players else None


_TIMED = (ShowdownReason.RACE, ShowdownReason.SIDE_COUNT)
"""Reasons whose reaction times measure speed: both players pressed after go."""


@dataclass(frozen=True, slots=True)
class PlayerStats:
    """What the scoreboard shows per player at the end of (or during) a game."""

    seat: int
    rounds_won: int
    """Rounds this player went out."""
    points: int
    """The player's total on the scoresheet."""
    points_held: int
    """Sum of the points left in this player's hand at the end of each round."""
    showdowns_won: int
    showdowns_lost: int
    false_starts: int
    """Showdowns lost by pressing too early (counted in ``showdowns_lost`` too)."""
    cards_taken: int
    """Cards this player took from lost showdowns."""
    fastest_ms: float | None
    """Fastest reaction over race and side-count showdowns; None when none was reported."""
    median_ms: float | None
    pigs: int = 0
    """Pigs drawn on this player (hero and mean scoring)."""


def player_stats(
    players: int,
    rounds: Sequence[RoundScore],
    showdowns: Iterable[ShowdownRecord],
) -> tuple[PlayerStats, ...]:
    """Statistics for every seat from the sheet's lines and the game's showdown records.

    Reaction times count only from races and side-count decisions, where both players pressed
    after go; a false start's time says nothing about speed. A showdown naming a seat the game
    does not have raises :class:`~engine.scoring.ScoringError`.
    """
    won = [0] * players
    lost = [0] * players
    false_starts = [0] * players
    taken = [0] * players
    times: list[list[float]] = [[] for _ in range(players)]
    for record in showdowns:
        if max(record.players) >= players:
            raise ScoringError(
                f"a showdown between seats {record.players[0]} and {record.players[1]}, "
                f"but the game has seats 0 to {players - 1}"
            )
        if record.winner is None or record.loser is None:
            continue
        won[record.winner] += 1
        lost[record.loser] += 1
        taken[record.loser] += record.cards_loaded
        if record.reason is ShowdownReason.FALSE_START:
            false_starts[record.loser] += 1
        if record.reason not in _TIMED:
            continue
        for seat, reaction in zip(record.players, record.reaction_ms, strict=True):
            if reaction is not None and reaction >= 0:
                times[seat].append(reaction)
    totals = rounds[-1].totals if rounds else (0,) * players
    return tuple(
        PlayerStats(
            seat=seat,
            rounds_won=sum(1 for line in rounds if line.result.went_out == seat),
            points=totals[seat],
            points_held=sum(line.result.hand_points[seat] for line in rounds),
            showdowns_won=won[seat],
            showdowns_lost=lost[seat],
            false_starts=false_starts[seat],
            cards_taken=taken[seat],
            fastest_ms=min(times[seat]) if times[seat] else None,
            median_ms=statistics.median(times[seat]) if times[seat] else None,
            pigs=rounds[-1].pigs[seat] if rounds and rounds[-1].pigs else 0,
        )
        for seat in range(players)
    )
