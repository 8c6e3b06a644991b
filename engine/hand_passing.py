"""Killer UNO's 0 (002, ``RuleSet.zero_passes_hands``): every hand moves on one seat.

002 says: "If any player has a 0 card of any color, all players give their hand the card, that is,
take the house card. Be careful not to hit 0 on the last card, otherwise you lose the advantage of
taking home cards." Read as: after a 0 is played, every player passes their hand to the next
player in the direction of play (so takes the previous player's); a 0 played as the last card
passes nothing, its player has gone out. Under ``red_zero_draw`` the red 0 is a +10 instead
and passes nothing ("The remaining three 0 card or in accordance with the rules above").

As with Swap and Shuffle Hands, a player left with one card by the pass had nothing to say, so
every UNO call lapses and nobody can be caught.
"""

from __future__ import annotations

from engine.effects import RoundHooks
from engine.events import HandsPassed

__all__ = ["pass_hands"]


def pass_hands(rnd: RoundHooks, player: int) -> None:
    """``player`` played a 0: each hand goes to the next player in the direction of play."""
    st = rnd.state
    n, step = st.players, st.direction
    hands = st.hands
    st.hands = [hands[(seat - step) % n] for seat in range(n)]
    for seat in range(n):
        rnd.hand_changed(seat)
    rnd.emit(HandsPassed(player=player, direction=step))
