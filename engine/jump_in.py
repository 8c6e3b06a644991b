"""Killer UNO's jump-in (002, ``RuleSet.jump_in``): a card played out of turn.

002 says: "If the player has exactly the same hand as the current card (the same color or the
same function card), but not the player currently plays, you can grab the card before the current
card players out [...]. If successfully snatched out, the next home by the raider out of the
card." Read as: a player whose turn it is not, holding a card of the same colour and the same
number or symbol as the top card, may play it before the player whose turn it is; play then goes
on from them, as if it had been their turn. A wild on top has no printed colour, so no card is
identical to it. Everything else about the play is a play's rules, checked by the round as for any
play: a pending draw is answered only as the rules allow, and 002's last-card rule holds.

This module holds the jump-in's own checks and the list of cards a seat could jump in with (for
the legal-action generator and the bots); :meth:`engine.round.Round.apply` plays a
:class:`~engine.commands.JumpIn`.
"""

from __future__ import annotations

from typing import Final

from engine.errors import RuleError
from engine.legality import answer_allowed, match_row, may_go_out_with, phase_refusal
from engine.rules import RuleSet
from engine.state import Phase, RoundState
from engine.tables import DeckTables

__all__ = ["candidates", "check", "identical"]

_PLAY: Final = Phase.PLAY
_DRAWN: Final = Phase.DRAWN


def identical(state: RoundState, tables: DeckTables, card: int) -> bool:
    """Whether ``card`` is identical to the top card: the same colour and the same number or
    symbol (never for a wild on top)."""
    top = state.discard[-1]
    return (
        not tables.is_wild[top]
        and tables.kind[card] == tables.kind[top]
        and tables.colour[card] == tables.colour[top]
    )


def check(state: RoundState, tables: DeckTables, rules: RuleSet, player: int, card: int) -> None:
    """Raise :class:`~engine.errors.RuleError` (naming ``player``) unless ``player`` may jump
    in with ``card`` now; the play's own rules are checked by the round after this."""
    if not rules.jump_in:
        raise RuleError("jump-in-off", "jumping in is not one of these rules", seat=player)
    phase = state.phase
    if phase is not _PLAY and phase is not _DRAWN:
        raise phase_refusal(phase)
    if not 0 <= player < state.players:
        raise RuleError("no-such-player", f"there is no player {player}", seat=player)
    if player == state.turn:
        raise RuleError(
            "jump-in-own-turn", f"it is player {player}'s turn: play the card", seat=player
        )
    if card not in state.hands[player]:
        raise RuleError(
            "card-not-in-hand", f"player {player} does not hold card {card}", seat=player
        )
    if not identical(state, tables, card):
        raise RuleError(
            "jump-in-not-identical",
            f"player {player} may jump in only with a card identical to the top card (the same "
            "colour and the same number or symbol)",
            seat=player,
        )


def candidates(state: RoundState, tables: DeckTables, rules: RuleSet, seat: int) -> list[int]:
    """The cards ``seat`` could jump in with now, every rule of the play included."""
    phase = state.phase
    if not rules.jump_in or (phase is not _PLAY and phase is not _DRAWN) or seat == state.turn:
        return []
    hand = state.hands[seat]
    cards = [card for card in hand if identical(state, tables, card)]
    if cards and state.pending_draw:
        kinds = tables.kind
        cards = [c for c in cards if answer_allowed(state, tables, rules, c, kinds[c])]
    elif cards:
        # Identical is not always playable: a spent Draw Two matches by colour only, and the
        # colour to follow can differ from its own (a guilty Wild Draw 4 taken back off it).
        row = match_row(state, tables)
        cards = [card for card in cards if row[card]]
    if cards and len(hand) == 1:
        cards = [card for card in cards if may_go_out_with(tables, rules, card)]
    return cards
