"""The draw for the first dealer: every player draws a card and the highest deals.

000 and 003: "the player that draws the highest number deals (count any card with a symbol as
zero)"; 001: "Player with the highest point value is the dealer", so there a Wild (50 points)
beats a 9 (``RuleSet.first_dealer_by``). No sheet says what a tie does: the players tied for
highest draw again, until one is highest.

>>> import random
>>> from engine import builtin_deck, draw_first_dealer, preset
>>> deck = builtin_deck("modern")
>>> draw = draw_first_dealer(deck, 4, random.Random(9), rules=preset("official"))
>>> [[deck.cards[card].code for _seat, card in one] for one in draw.rounds]
[['G5', 'B2', 'YR', 'Y5'], ['R9', 'R+2']]
>>> draw.dealer   # seats 0 and 3 tied on 5 and drew again: the red 9 beat the Draw Two's 0
0
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from engine.cards import point_value
from engine.deck import Deck
from engine.rules import RuleSet

__all__ = ["DealerDraw", "draw_first_dealer"]


@dataclass(frozen=True, slots=True)
class DealerDraw:
    """The outcome: ``dealer``'s seat, and each draw round as ``(seat, card id)`` pairs (the
    first round every seat, then only those tied for highest)."""

    dealer: int
    rounds: tuple[tuple[tuple[int, int], ...], ...]


def draw_first_dealer(
    deck: Deck,
    players: int,
    rng: random.Random,
    order: Sequence[int] | None = None,
    *,
    rules: RuleSet | None = None,
) -> DealerDraw:
    """Draw for the first dealer from a shuffled ``deck``; ties for highest draw again.

    ``rules.first_dealer_by`` says how a card counts: ``"number"`` (default; symbols and wilds
    count 0) or ``"points"`` (its point value under ``rules``). ``order`` (card ids, top first)
    replaces the shuffle, for a known draw; if it runs out, the deck is shuffled again.
    Raises ``ValueError`` for fewer than 2 players or more than the deck can serve.
    """
    if not 2 <= players <= len(deck):
        raise ValueError(f"the first dealer is drawn among 2 to {len(deck)} players, not {players}")
    by_points = rules is not None and rules.first_dealer_by == "points"

    def value(card: int) -> int:
        kind = deck.cards[card].kind
        if by_points:
            return point_value(kind, rules)
        return int(kind) if kind.is_number else 0

    if order is None:
        pile = list(range(len(deck)))
        rng.shuffle(pile)
    else:
        pile = list(reversed(order))
    in_contention = list(range(players))
    rounds: list[tuple[tuple[int, int], ...]] = []
    while True:
        if len(pile) < len(in_contention):
            pile = list(range(len(deck)))
            rng.shuffle(pile)
        draws = tuple((seat, pile.pop()) for seat in in_contention)
        rounds.append(draws)
        best = max(value(card) for _, card in draws)
        in_contention = [seat for seat, card in draws if value(card) == best]
        if len(in_contention) == 1:
            return DealerDraw(dealer=in_contention[0], rounds=tuple(rounds))
