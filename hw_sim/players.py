"""Virtual players: each has a reaction-time distribution around human values and a habit of
jumping the gun.

Human simple reaction times to a light sit between about 150 and 400 ms; each player gets their own
mean and spread inside that band, so some players really are faster. A false start is a press at
a random moment of the countdown, before green.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

__all__ = ["VirtualPlayer", "make_players"]

REACTION_FLOOR_MS = 150.0
REACTION_CEILING_MS = 400.0


@dataclass(frozen=True)
class VirtualPlayer:
    """A player's reflexes: mean and spread of reaction time, chance of a false start or a miss."""

    name: str
    reaction_mean_ms: float
    reaction_sd_ms: float
    false_start_probability: float
    miss_probability: float = 0.01

    def reaction_ms(self, rng: random.Random) -> float:
        """One reaction time, drawn from a normal curve clipped to the human band."""
        value = rng.gauss(self.reaction_mean_ms, self.reaction_sd_ms)
        return min(REACTION_CEILING_MS, max(REACTION_FLOOR_MS, value))

    def jumps_the_gun(self, rng: random.Random) -> bool:
        """True if this time the player presses before green."""
        return rng.random() < self.false_start_probability

    def misses(self, rng: random.Random) -> bool:
        """True if this time the player does not press at all."""
        return rng.random() < self.miss_probability


def make_players(count: int, rng: random.Random) -> list[VirtualPlayer]:
    """*count* players with their own reflexes (means 180-320 ms, spreads 15-45 ms)."""
    return [
        VirtualPlayer(
            name=f"player{index + 1}",
            reaction_mean_ms=rng.uniform(180, 320),
            reaction_sd_ms=rng.uniform(15, 45),
            false_start_probability=rng.uniform(0.01, 0.06),
        )
        for index in range(count)
    ]
