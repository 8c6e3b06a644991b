"""Saying UNO and catching a player who did not: the call's rules, whatever the rule set.

A player says UNO with :class:`~engine.commands.PlayCard` (``uno=True``), or with
:class:`~engine.commands.CallUno` on their turn holding two cards (001: "before playing your
next-to-last card"), or after playing it, before anyone catches them (the self-catch). A player
left with one card who said nothing is *exposed*: any other player may catch them
(:class:`~engine.commands.CatchUno`) until the catch window closes, which the round decides
(001: the next player begins their turn; 003: the next card is discarded;
``RuleSet.uno_catch_window``). Being caught costs ``uno_penalty`` cards; calling UNO with more
cards left costs ``false_call_penalty`` where that option is on.
"""

from __future__ import annotations

from engine.commands import CallUno, CatchUno
from engine.effects import RoundHooks
from engine.errors import RuleError
from engine.interned import UNO_CALLED, UNO_CAUGHT
from engine.legality import phase_refusal
from engine.state import Phase

__all__ = ["call", "catch", "settle"]


def settle(rnd: RoundHooks, player: int, said: bool) -> None:
    """Step 2 of a play: a player down to one card has said UNO (now or just before) or is
    exposed to a catch; with more cards left any call lapses, and saying UNO then costs the
    false-call penalty when that is on."""
    st = rnd.state
    remaining = len(st.hands[player])
    if remaining == 1:
        announced = st.uno_called[player]  # said just before playing (CallUno with 2 cards)
        st.uno_called[player] = said or announced
        if said and not announced:
            rnd.emit(UNO_CALLED[player])
        elif not said and not announced:
            st.exposed = player
        return
    st.uno_called[player] = False
    penalty = rnd.rules.false_call_penalty
    if said and remaining > 1 and penalty:
        rnd.draw_cards(player, penalty, "false-uno")


def call(rnd: RoundHooks, cmd: CallUno) -> None:
    """:class:`~engine.commands.CallUno`: the self-catch, the call before the next-to-last card,
    or a false call (refused unless its penalty is on)."""
    st = rnd.state
    player = cmd.player
    if st.phase is Phase.OVER or st.phase is Phase.SHOWDOWN:
        raise phase_refusal(st.phase)
    if not 0 <= player < st.players:
        raise RuleError("no-such-player", f"there is no player {player}", seat=player)
    if st.exposed == player:
        st.exposed = None
        st.uno_called[player] = True
        rnd.emit(UNO_CALLED[player])
        return
    size = len(st.hands[player])
    if size == 1:
        raise RuleError(
            "uno-already-safe", "you are already safe: UNO was said or is not due", seat=player
        )
    if size == 2 and player == st.turn and st.phase in (Phase.PLAY, Phase.DRAWN):
        # 001: "before playing your next-to-last card, you must say UNO"
        if st.uno_called[player]:
            raise RuleError("uno-already-said", "you have already said UNO", seat=player)
        st.uno_called[player] = True
        rnd.emit(UNO_CALLED[player])
        return
    penalty = rnd.rules.false_call_penalty
    if not penalty:
        raise RuleError("uno-needs-one-card", "UNO is said with one card left", seat=player)
    rnd.draw_cards(player, penalty, "false-uno")


def catch(rnd: RoundHooks, cmd: CatchUno) -> None:
    """:class:`~engine.commands.CatchUno`: ``cmd.player`` catches the exposed ``cmd.target``,
    who draws the UNO penalty; refused (naming the target) outside the catch window."""
    st = rnd.state
    target = cmd.target
    if st.phase is Phase.SHOWDOWN:
        raise phase_refusal(st.phase)
    if (
        st.phase is Phase.OVER
        or st.exposed != target
        or cmd.player == target
        or not 0 <= cmd.player < st.players
        or len(st.hands[target]) != 1
    ):
        until = (
            "before the next player begins their turn"
            if rnd.rules.uno_catch_window == "next-turn"
            else "until the next card is discarded"
        )
        raise RuleError(
            "catch-window",
            f"a player can be caught only holding one card without having said UNO, {until}",
            seat=target,
        )
    st.exposed = None
    rnd.emit(UNO_CAUGHT[cmd.player][target])
    rnd.draw_cards(target, rnd.rules.uno_penalty, "uno-caught")
