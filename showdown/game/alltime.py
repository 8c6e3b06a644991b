"""All-time figures per player, from every game in the journal.

A player is known by name from game to game, as the table knows them; a seat nobody named
("Player 7", :func:`~showdown.game.names.default_name`) is a place at one table, not a person,
and adds to nobody's figures (the other players' showdowns against it still count for them).
The figures come from the
games the table kept (:meth:`showdown.game.session.Session.kept_games`: none deleted, none the
simulated table played) and only from what was recorded in them: games played and won, the
points scored per round played, showdowns won and lost, the best and median reaction time the
unit measured, and the false starts (showdowns lost by pressing before green).
"""

from __future__ import annotations

import statistics
from collections.abc import Iterable
from dataclasses import dataclass, field

from showdown.game.names import is_default_name
from showdown.game.session import GameState

__all__ = ["PlayerRecord", "all_time"]


@dataclass
class PlayerRecord:
    """One player's figures over every game."""

    name: str
    games: int = 0
    """Games played (with something entered in them: a round, a showdown, a penalty)."""
    won: int = 0
    """Finished games won."""
    rounds: int = 0
    """Rounds played (not counting rounds after being eliminated)."""
    points: int = 0
    """Points scored over those rounds (what the sheet added to the player's total)."""
    showdowns_won: int = 0
    showdowns_lost: int = 0
    false_starts: int = 0
    """Showdowns lost by pressing the paddle before green."""
    reactions_ms: list[float] = field(default_factory=list)

    @property
    def points_per_round(self) -> float | None:
        """The average points scored per round played, or None before a round."""
        return self.points / self.rounds if self.rounds else None

    @property
    def best_ms(self) -> float | None:
        """The fastest reaction the unit measured, or None."""
        return min(self.reactions_ms) if self.reactions_ms else None

    @property
    def median_ms(self) -> float | None:
        """The median reaction the unit measured, or None."""
        return statistics.median(self.reactions_ms) if self.reactions_ms else None

    def as_dict(self) -> dict[str, object]:
        """The figures as JSON-ready values (what ``showdown export --players`` writes)."""
        per_round = self.points_per_round
        return {
            "player": self.name, "games": self.games, "won": self.won, "rounds": self.rounds,
            "points": self.points,
            "points_per_round": None if per_round is None else round(per_round, 1),
            "showdowns_won": self.showdowns_won, "showdowns_lost": self.showdowns_lost,
            "best_ms": self.best_ms, "median_ms": self.median_ms,
            "false_starts": self.false_starts,
        }


def all_time(games: Iterable[GameState]) -> list[PlayerRecord]:
    """Every named player's figures over ``games``: most games played first, then by name."""
    records: dict[str, PlayerRecord] = {}
    nobody = PlayerRecord("")  # an unnamed seat's figures: counted, and listed nowhere

    def record(name: str) -> PlayerRecord:
        if is_default_name(name):
            return nobody
        return records.setdefault(name, PlayerRecord(name))

    for state in games:
        for name in state.players:
            record(name).games += 1
        for name in state.winners:
            record(name).won += 1
        out: set[int] = set()  # seats eliminated by an earlier round (Challenge UNO)
        for line in state.sheet.history:
            for seat, delta in enumerate(line.deltas):
                if seat not in out:
                    player = record(state.players[seat])
                    player.rounds += 1
                    player.points += delta
            out.update(line.eliminated)
        for showdown in state.showdowns:
            record(showdown.winner).showdowns_won += 1
            loser = record(showdown.loser)
            loser.showdowns_lost += 1
            if showdown.reason == "false-start":
                loser.false_starts += 1
            for name, ms in showdown.reaction_ms.items():
                record(name).reactions_ms.append(ms)
    return sorted(records.values(), key=lambda r: (-r.games, r.name.casefold()))
