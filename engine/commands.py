"""Typed commands: everything a player (or the Showdown unit) can ask a round to do.

Commands are small frozen dataclasses. Seats are numbered 0..players-1 going *left* (clockwise)
around the table. Card fields are card ids (indices into the round's deck), never codes, because
two physical cards can look alike. :data:`COMMAND_ADAPTER` turns any command into JSON and back.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Literal

from pydantic import Field, TypeAdapter

from engine.rules import PenaltyReason

__all__ = [
    "COMMAND_ADAPTER",
    "CallUno",
    "CatchUno",
    "Challenge",
    "ChooseOpening",
    "Command",
    "Draw",
    "JumpIn",
    "Pass",
    "Penalty",
    "PlayCard",
    "ShowdownResult",
    "WrongCard",
]


@dataclass(frozen=True, slots=True, kw_only=True)
class PlayCard:
    """Play ``card`` from ``player``'s hand.

    ``colour`` (0-3, see :class:`~engine.cards.Colour`) is required for a wild card.
    ``uno`` is the UNO call said as the next-to-last card is played.
    ``target``: the player whose hand a Wild Swap Hands swaps with (not when it is the last card).
    ``opponent`` and ``count`` (1-3): a Wild Showdown's chosen opponent and number of cards.
    """

    player: int
    card: int
    colour: int | None = None
    uno: bool = False
    target: int | None = None
    opponent: int | None = None
    count: int | None = None
    type: Literal["play"] = "play"


@dataclass(frozen=True, slots=True, kw_only=True)
class Draw:
    """Draw instead of playing, or take a pending Draw Two / Wild Draw 4 penalty (turn ends)."""

    player: int
    type: Literal["draw"] = "draw"


@dataclass(frozen=True, slots=True, kw_only=True)
class Pass:
    """Keep the playable card just drawn and end the turn."""

    player: int
    type: Literal["pass"] = "pass"


@dataclass(frozen=True, slots=True, kw_only=True)
class Challenge:
    """Challenge the Wild Draw 4 just played on you (only its victim, before their turn starts)."""

    player: int
    type: Literal["challenge"] = "challenge"


@dataclass(frozen=True, slots=True, kw_only=True)
class CallUno:
    """Say "UNO": on your turn holding two cards, just before playing the next-to-last one
    (001; the same as ``PlayCard(uno=True)``), or after playing it without saying it, before
    anyone catches you (the self-catch)."""

    player: int
    type: Literal["call-uno"] = "call-uno"


@dataclass(frozen=True, slots=True, kw_only=True)
class CatchUno:
    """``player`` catches ``target``, who holds one card without having said UNO."""

    player: int
    target: int
    type: Literal["catch-uno"] = "catch-uno"


@dataclass(frozen=True, slots=True, kw_only=True)
class ChooseOpening:
    """The first player's choice when the first card turned up is a wild.

    ``colour`` always; ``target`` optionally for Wild Swap Hands (swap with that player);
    ``opponent`` and ``count`` (1-3) for Wild Showdown.
    """

    player: int
    colour: int
    target: int | None = None
    opponent: int | None = None
    count: int | None = None
    type: Literal["choose-opening"] = "choose-opening"


@dataclass(frozen=True, slots=True, kw_only=True)
class WrongCard:
    """Report that ``player`` put down ``card`` although it does not match (rules.md "wrong card
    played", seed 003): the card is taken back, the player draws the penalty and the turn ends."""

    player: int
    card: int
    type: Literal["wrong-card"] = "wrong-card"


@dataclass(frozen=True, slots=True, kw_only=True)
class JumpIn:
    """Killer UNO's jump-in (002, ``RuleSet.jump_in``): ``player``, whose turn it is not, plays
    ``card``, identical to the top card (same colour and the same number or symbol), before the
    player whose turn it is; play goes on from ``player``. ``uno`` as in :class:`PlayCard`."""

    player: int
    card: int
    uno: bool = False
    type: Literal["jump-in"] = "jump-in"


@dataclass(frozen=True, slots=True, kw_only=True)
class Penalty:
    """The table penalises ``player`` for breaking a table rule (``reason``, one of the rule
    set's ``table_penalties``): they draw ``cards`` (None: the rule set's
    ``table_penalty_cards``). Out of turn; the turn does not change."""

    player: int
    reason: PenaltyReason
    cards: int | None = None
    type: Literal["penalty"] = "penalty"


@dataclass(frozen=True, slots=True, kw_only=True)
class ShowdownResult:
    """The outcome of the pending showdown, as the unit (or the table) reports it.

    ``reason`` says how it was decided, e.g. ``"paddle"`` (faster press), ``"false-start"``,
    ``"side-lines"`` (more cards on one side), ``"agreed"``. Reaction times in milliseconds are
    optional.
    """

    winner: int
    loser: int
    reason: str = "paddle"
    winner_ms: float | None = None
    loser_ms: float | None = None
    type: Literal["showdown-result"] = "showdown-result"


Command = Annotated[
    PlayCard
    | Draw
    | Pass
    | Challenge
    | CallUno
    | CatchUno
    | ChooseOpening
    | WrongCard
    | ShowdownResult
    | JumpIn
    | Penalty,
    Field(discriminator="type"),
]
"""Any command (a union discriminated by its ``type`` field)."""

COMMAND_ADAPTER: TypeAdapter[Command] = TypeAdapter(Command)
"""``COMMAND_ADAPTER.dump_json(cmd)`` and ``COMMAND_ADAPTER.validate_json(text)``."""
