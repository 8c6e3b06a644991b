"""Hand effects of the special wilds: the named hooks a played card calls.

Wild Swap Hands and Wild Shuffle Hands (rules.md), and each preset effect of a Wild Customizable /
Blank card (:class:`~engine.rules.CustomEffect`). A player left with one card by someone else's
card has not played a next-to-last card, so there is no UNO to say and nobody can catch them.
Cards discarded by an effect go *under* the top card of the discard pile, so the card just
played stays on top. None of these run when the card was its player's last (going out wins).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.events import CardsDiscarded, CustomEffectApplied, HandsSwapped
from engine.interned import hands_shuffled
from engine.rng import shuffle
from engine.rules import CustomEffect

if TYPE_CHECKING:
    from engine.round import Round

__all__ = ["apply_custom", "shuffle_hands", "swap_hands"]


def swap_hands(rnd: Round, player: int, target: int) -> None:
    """Wild Swap Hands (001): ``player`` and ``target`` exchange hands."""
    hands = rnd.state.hands
    hands[player], hands[target] = hands[target], hands[player]
    rnd._gained(player)
    rnd._gained(target)
    rnd._emit(HandsSwapped(player=player, target=target))


def shuffle_hands(rnd: Round, player: int) -> None:
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
        rnd._gained(seat)
    rnd._emit(hands_shuffled(player, tuple(len(h) for h in hands)))


def _discard_under_top(rnd: Round, seat: int, cards: list[int]) -> None:
    if not cards:
        return
    st = rnd.state
    hand = st.hands[seat]
    for card in cards:
        hand.remove(card)
    st.discard[-1:-1] = cards
    rnd._gained(seat)
    rnd._emit(CardsDiscarded(player=seat, cards=tuple(cards)))


def _to_exactly(rnd: Round, seat: int, size: int) -> None:
    """Draw, or discard the newest cards, until ``seat`` holds exactly ``size`` cards."""
    hand = rnd.state.hands[seat]
    if len(hand) < size:
        rnd._draw(seat, size - len(hand), "custom")
    elif len(hand) > size:
        _discard_under_top(rnd, seat, hand[size:])


def apply_custom(rnd: Round, player: int, effect: CustomEffect) -> bool:
    """Apply a Customizable / Blank card's agreed effect; True when the player plays again."""
    if effect is CustomEffect.NONE:
        return False
    st = rnd.state
    rnd._emit(CustomEffectApplied(player=player, effect=str(effect)))
    victim = rnd._next(player)
    if effect is CustomEffect.NEXT_DRAWS_UNTIL_COLOUR:
        colours = rnd.tables.colour
        while True:
            drawn = rnd._draw(victim, 1, "custom")
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
