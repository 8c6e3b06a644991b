"""Hand effects of the special wilds: the named hooks a played card calls.

Wild Swap Hands and Wild Shuffle Hands (rules.md), and each preset effect of a Wild Customizable /
Blank card (:class:`~engine.rules.CustomEffect`). A player left with one card by someone else's
card has not played a next-to-last card, so there is no UNO to say and nobody can catch them.
Cards discarded by an effect go *under* the top card of the discard pile, so the card just
played stays on top. None of these run when the card was its player's last (going out wins).
"""

from __future__ import annotations

import random
from typing import Protocol

from engine.events import CardsDiscarded, CustomEffectApplied, Event, HandsSwapped
from engine.interned import hands_shuffled
from engine.rng import shuffle
from engine.rules import CustomEffect, RuleSet
from engine.state import RoundState
from engine.tables import DeckTables

__all__ = ["RoundHooks", "apply_custom", "shuffle_hands", "swap_hands"]


class RoundHooks(Protocol):
    """All an effect may use of the round it changes (:class:`~engine.round.Round` is one):
    the state, the rule set, the shuffle, the deck's tables and four hooks. Naming them here
    keeps effects (and the other modules a round hands a command to: :mod:`engine.uno_call`,
    :mod:`engine.hand_passing`, :mod:`engine.penalties`) off the round's own bookkeeping
    (turns, history, the catch window)."""

    state: RoundState
    rules: RuleSet
    rng: random.Random
    tables: DeckTables

    def emit(self, event: Event) -> None:
        """Record an event of the command being applied."""
        ...

    def next_seat(self, seat: int, steps: int = 1) -> int:
        """The seat ``steps`` places after ``seat`` in the direction of play."""
        ...

    def draw_cards(self, seat: int, count: int, reason: str) -> list[int]:
        """``seat`` draws up to ``count`` cards; the cards drawn."""
        ...

    def hand_changed(self, seat: int) -> None:
        """``seat``'s hand changed by another's card: its UNO call lapses, no catch."""
        ...


def swap_hands(rnd: RoundHooks, player: int, target: int) -> None:
    """Wild Swap Hands (001): ``player`` and ``target`` exchange hands."""
    hands = rnd.state.hands
    hands[player], hands[target] = hands[target], hands[player]
    rnd.hand_changed(player)
    rnd.hand_changed(target)
    rnd.emit(HandsSwapped(player=player, target=target))


def shuffle_hands(rnd: RoundHooks, player: int) -> None:
    """Wild Shuffle Hands (000, 003): collect every hand, shuffle, deal one at a time starting
    left of ``player`` until none remain. Direction is unchanged."""
    st = rnd.state
    pool = [card for hand in st.hands for card in hand]
    shuffle(rnd.rng, pool)
    n = st.players
    hands: list[list[int]] = [[] for _ in range(n)]
    for index, card in enumerate(pool):
        hands[(player + 1 + index) % n].append(card)
    st.hands = hands
    for seat in range(n):
        rnd.hand_changed(seat)
    rnd.emit(hands_shuffled(player, tuple(len(h) for h in hands)))


def _discard_under_top(rnd: RoundHooks, seat: int, cards: list[int]) -> None:
    if not cards:
        return
    st = rnd.state
    hand = st.hands[seat]
    for card in cards:
        hand.remove(card)
    st.discard[-1:-1] = cards
    rnd.hand_changed(seat)
    rnd.emit(CardsDiscarded(player=seat, cards=tuple(cards)))


def _to_exactly(rnd: RoundHooks, seat: int, size: int) -> None:
    """Draw, or discard the newest cards, until ``seat`` holds exactly ``size`` cards."""
    hand = rnd.state.hands[seat]
    if len(hand) < size:
        rnd.draw_cards(seat, size - len(hand), "custom")
    elif len(hand) > size:
        _discard_under_top(rnd, seat, hand[size:])


def apply_custom(rnd: RoundHooks, player: int, effect: CustomEffect) -> bool:
    """Apply a Customizable / Blank card's agreed effect; True when the player plays again."""
    if effect is CustomEffect.NONE:
        return False
    st = rnd.state
    rnd.emit(CustomEffectApplied(player=player, effect=str(effect)))
    victim = rnd.next_seat(player)
    if effect is CustomEffect.NEXT_DRAWS_UNTIL_COLOUR:
        colours = rnd.tables.colour
        while True:
            drawn = rnd.draw_cards(victim, 1, "custom")
            if not drawn or colours[drawn[0]] == st.colour:
                break
    elif effect is CustomEffect.OTHERS_DISCARD_WILDS:
        wild = rnd.tables.is_wild
        for seat in range(st.players):
            if seat == player:
                continue
            hand = st.hands[seat]
            wilds = [card for card in hand if wild[card]]
            if len(wilds) == len(hand):
                wilds = wilds[:-1]  # never the last card: discarding cannot make anyone go out
            _discard_under_top(rnd, seat, wilds)
    elif effect is CustomEffect.EXTRA_TURN:
        return True
    elif effect is CustomEffect.NEXT_TO_SEVEN:
        _to_exactly(rnd, victim, 7)
    elif effect is CustomEffect.EVERYONE_TO_THREE:
        for seat in range(st.players):
            _to_exactly(rnd, seat, 3)
    elif effect is CustomEffect.HANDS_FACE_UP:
        st.face_up_until = player
    return False
