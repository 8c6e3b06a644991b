"""Table penalties: a player draws because the table caught them breaking a table rule.

The seeds give four, each costing 2 cards (``RuleSet.table_penalty_cards``): silence after a 2
and slapping after a 9 (002's Killer UNO), advice to another player (003, and 002's option) and a
wrong card (003, and 002's option). The engine cannot hear a sound or see a slap: the table says
who is penalised and why with a :class:`~engine.commands.Penalty`, out of turn, and the turn does
not change. A wrong card is reported with :class:`~engine.commands.WrongCard` instead, which also
takes the card back and ends the turn, and a missing UNO is caught with
:class:`~engine.commands.CatchUno`, which knows the catch window.

:data:`TRIGGERS` says which card's play starts a table rule, for a table of bots that plays them.
"""

from __future__ import annotations

from typing import Final

from engine.cards import CardKind
from engine.commands import Penalty
from engine.effects import RoundHooks
from engine.errors import RuleError
from engine.events import PenaltyGiven
from engine.legality import phase_refusal
from engine.rules import PenaltyReason, RuleSet
from engine.state import Phase, RoundState

__all__ = ["TRIGGERS", "check", "give"]

TRIGGERS: Final = {PenaltyReason.SILENCE: int(CardKind.TWO), PenaltyReason.SLAP: int(CardKind.NINE)}
"""The card kind whose play starts a table rule: a 2 calls for silence, a 9 for the slap."""

MAX_CARDS: Final = 20
"""More cards than this is not a penalty any sheet gives: refused as a mistake."""


def check(state: RoundState, rules: RuleSet, cmd: Penalty) -> int:
    """The cards ``cmd`` costs, or :class:`~engine.errors.RuleError` naming its player."""
    player = cmd.player
    if state.phase is Phase.OVER or state.phase is Phase.SHOWDOWN:
        raise phase_refusal(state.phase)
    if not 0 <= player < state.players:
        raise RuleError("no-such-player", f"there is no player {player}", seat=player)
    if cmd.reason == PenaltyReason.WRONG_CARD:
        raise RuleError(
            "wrong-card-is-reported",
            "report a wrong card with WrongCard: the card is taken back and the turn ends",
            seat=player,
        )
    if cmd.reason == PenaltyReason.MISSED_UNO:
        raise RuleError(
            "missed-uno-is-caught",
            "catch a missing UNO with CatchUno: it knows the catch window and the cards it costs",
            seat=player,
        )
    if cmd.reason not in rules.table_penalties:
        agreed = ", ".join(str(reason) for reason in rules.table_penalties) or "none"
        raise RuleError(
            "penalty-not-agreed",
            f"{cmd.reason} is not a table rule of this game (agreed: {agreed})",
            seat=player,
        )
    cards = rules.table_penalty_cards if cmd.cards is None else cmd.cards
    if not 1 <= cards <= MAX_CARDS:
        raise RuleError(
            "penalty-cards", f"a penalty is 1 to {MAX_CARDS} cards, not {cards}", seat=player
        )
    return cards


def give(rnd: RoundHooks, cmd: Penalty, cards: int) -> None:
    """``cmd.player`` draws ``cards`` (checked by :func:`check`)."""
    rnd.emit(PenaltyGiven(player=cmd.player, reason=str(cmd.reason), cards=cards))
    rnd.draw_cards(cmd.player, cards, "table-penalty")
