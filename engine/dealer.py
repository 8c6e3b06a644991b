"""The first-dealer draw (rules.md, seeds 000 and 003): each player draws a card, the highest
number deals, symbols (action and wild cards) count 0, and the players tied for highest draw again.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from engine.deck import Deck

__all__ = ["DealerDraw", "draw_first_dealer"]


@dataclass(frozen=True, slots=True)
class DealerDraw:
    """The outcome: ``dealer``'s seat, and each draw round as ``(seat, card id)`` pairs."""

    dealer: int
    rounds: tuple[tuple[tuple[int, int], ...], ...]


def draw_first_dealer(
    deck: Deck, players: int, rng: random.Random, order: Sequence[int] | None = None
) -> DealerDraw:
    """Draw for the first dealer from a shuffled ``deck``; ties for highest redraw.

    ``order`` (card ids, top first) replaces the shuffle, for a known draw.
    """
    if order is None:
        pile = list(range(len(deck)))
        rng.shuffle(pile)
        order = pile
    else:
        order = list(reversed(order))
    in_contention = list(range(players))
    rounds: list[tuple[tuple[int, int], ...]] = []
    while True:
        if len(order) < len(in_contention):
            order = list(range(len(deck)))
            rng.shuffle(order)
        draws = tuple((seat, order.pop()) for seat in in_contention)
        rounds.append(draws)

        def value(card: int) -> int:
            kind = deck.cards[card].kind
            return int(kind) if kind.is_number else 0

        best = max(value(card) for _, card in draws)
        in_contention = [seat for seat, card in draws if value(card) == best]
        if len(in_contention) == 1:
            return DealerDraw(dealer=in_contention[0], rounds=tuple(rounds))
