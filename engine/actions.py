"""The legal-action generator: every command the round would accept right now.

Choices are spelled out: a wild appears once per colour, a Wild Swap Hands once per colour and
target, a Wild Showdown once per colour, opponent and count, and a next-to-last card both with and
without the UNO call (forgetting is allowed; it can be caught). Under Killer UNO's jump-in, every
player but the current one is offered each card they could jump in with. Generating from this list
and applying any item never raises :class:`~engine.errors.RuleError`.
"""

from __future__ import annotations

from typing import Final

from engine import jump_in
from engine.cards import CardKind
from engine.commands import (
    CallUno,
    CatchUno,
    Challenge,
    ChooseOpening,
    Command,
    Draw,
    JumpIn,
    Pass,
    PlayCard,
    ShowdownResult,
)
from engine.legality import playable_cards
from engine.rules import RuleSet
from engine.state import Phase, RoundState
from engine.tables import DeckTables

__all__ = ["legal_actions"]

_SWAP: Final = int(CardKind.WILD_SWAP_HANDS)
_SHOWDOWN: Final = int(CardKind.WILD_SHOWDOWN)
_COLOURS: Final = (0, 1, 2, 3)


def _plays(state: RoundState, t: DeckTables, player: int, card: int) -> list[Command]:
    n = state.players
    hand_size = len(state.hands[player])
    unos = (False, True) if hand_size == 2 else (False,)
    last = hand_size == 1
    out: list[Command] = []
    if not t.is_wild[card]:
        for uno in unos:
            out.append(PlayCard(player=player, card=card, uno=uno))
        return out
    kind = t.kind[card]
    others = [seat for seat in range(n) if seat != player]
    for colour in _COLOURS:
        for uno in unos:
            if kind == _SWAP and not last:
                for target in others:
                    out.append(
                        PlayCard(player=player, card=card, colour=colour, uno=uno, target=target)
                    )
            elif kind == _SHOWDOWN:
                for opponent in others:
                    for count in (1, 2, 3):
                        out.append(
                            PlayCard(
                                player=player,
                                card=card,
                                colour=colour,
                                uno=uno,
                                opponent=opponent,
                                count=count,
                            )
                        )
            else:
                out.append(PlayCard(player=player, card=card, colour=colour, uno=uno))
    return out


def legal_actions(
    st: RoundState,
    tables: DeckTables,
    rules: RuleSet,
    seat: int | None = None,
    *,
    reactions: bool = True,
) -> list[Command]:
    """Every command a round in state ``st`` (with its deck's ``tables`` and its ``rules``)
    accepts now; only ``seat``'s when given (see module docstring).

    ``reactions=False`` leaves out the UNO self-call and catches (what a player does on their
    turn, rather than in the catch window)."""
    out: list[Command] = []
    phase = st.phase
    if phase is Phase.OVER:
        return out
    if phase is Phase.SHOWDOWN:
        duel = st.showdown
        assert duel is not None
        a, b = duel.challenger, duel.opponent
        if seat is None or seat in (a, b):
            out.append(ShowdownResult(winner=a, loser=b))
            out.append(ShowdownResult(winner=b, loser=a))
        return out
    exposed = st.exposed
    if exposed is not None and reactions:
        if seat is None or seat == exposed:
            out.append(CallUno(player=exposed))
        for catcher in range(st.players) if seat is None else (seat,):
            if catcher != exposed:
                out.append(CatchUno(player=catcher, target=exposed))
    player = st.turn
    if rules.jump_in:
        for jumper in range(st.players) if seat is None else (seat,):
            for card in jump_in.candidates(st, tables, rules, jumper):
                unos = (False, True) if len(st.hands[jumper]) == 2 else (False,)
                out.extend(JumpIn(player=jumper, card=card, uno=uno) for uno in unos)
    if seat is not None and seat != player:
        return out
    if phase is Phase.OPENING:
        kind = tables.kind[st.discard[-1]]
        others = [s for s in range(st.players) if s != player]
        for colour in _COLOURS:
            if kind == _SWAP:
                out.append(ChooseOpening(player=player, colour=colour))
                out.extend(ChooseOpening(player=player, colour=colour, target=t) for t in others)
            elif kind == _SHOWDOWN:
                out.extend(
                    ChooseOpening(player=player, colour=colour, opponent=o, count=c)
                    for o in others
                    for c in (1, 2, 3)
                )
            else:
                out.append(ChooseOpening(player=player, colour=colour))
        return out
    for card in playable_cards(st, tables, rules):
        out.extend(_plays(st, tables, player, card))
    if phase is Phase.DRAWN:
        out.append(Pass(player=player))
    else:
        out.append(Draw(player=player))
        if st.challenge_offender is not None:
            out.append(Challenge(player=player))
    return out
