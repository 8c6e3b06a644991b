"""Typed events: what happened, in order, as a round answers each command.

Events are small frozen dataclasses; :data:`EVENT_ADAPTER` turns any event into JSON and back
(``EVENT_ADAPTER.dump_json(event)``, ``EVENT_ADAPTER.validate_json(text)``). Card fields are card
ids. The same events are what a journal stores and what a scoreboard draws from.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Literal

from pydantic import Field, TypeAdapter

__all__ = [
    "EVENT_ADAPTER",
    "CardPlayed",
    "CardReturned",
    "CardsDiscarded",
    "CardsDrawn",
    "ChallengeDecided",
    "ColourChosen",
    "CustomEffectApplied",
    "DirectionChanged",
    "Event",
    "HandsPassed",
    "HandsShuffled",
    "HandsSwapped",
    "JumpedIn",
    "PenaltyGiven",
    "Reshuffled",
    "RoundEnded",
    "RoundStarted",
    "ShowdownSettled",
    "ShowdownStarted",
    "TurnSkipped",
    "TurnStarted",
    "UnoCalled",
    "UnoCaught",
    "WrongCardPenalised",
]


@dataclass(frozen=True, slots=True, kw_only=True)
class RoundStarted:
    """Cards dealt and the first card turned up (``starter``); ``first_player`` acts first."""

    dealer: int
    players: int
    starter: int
    first_player: int
    direction: int
    type: Literal["round-started"] = "round-started"


@dataclass(frozen=True, slots=True, kw_only=True)
class CardReturned:
    """A first card that may not start play (a Wild Draw 4, or a Wild under that option) went
    back into the deck, which was reshuffled."""

    card: int
    type: Literal["card-returned"] = "card-returned"


@dataclass(frozen=True, slots=True, kw_only=True)
class TurnStarted:
    """It is now ``player``'s turn."""

    player: int
    type: Literal["turn-started"] = "turn-started"


@dataclass(frozen=True, slots=True, kw_only=True)
class CardPlayed:
    """``player`` played ``card``; ``legal`` is False only for a bluffed Wild Draw 4."""

    player: int
    card: int
    legal: bool = True
    type: Literal["card-played"] = "card-played"


@dataclass(frozen=True, slots=True, kw_only=True)
class ColourChosen:
    """The colour to follow, chosen with a wild."""

    player: int
    colour: int
    type: Literal["colour-chosen"] = "colour-chosen"


@dataclass(frozen=True, slots=True, kw_only=True)
class CardsDrawn:
    """``player`` took ``cards``; ``reason`` is ``draw``, ``penalty``, ``challenge-guilty``,
    ``challenge-innocent``, ``uno-caught``, ``false-uno``, ``wrong-card``, ``showdown``,
    ``custom``, ``take-back`` (a guilty Wild Draw 4 returned to hand), ``opening`` or
    ``table-penalty``."""

    player: int
    cards: tuple[int, ...]
    reason: str
    type: Literal["cards-drawn"] = "cards-drawn"


@dataclass(frozen=True, slots=True, kw_only=True)
class CardsDiscarded:
    """``player`` put ``cards`` under the top of the discard pile (a Customizable effect)."""

    player: int
    cards: tuple[int, ...]
    type: Literal["cards-discarded"] = "cards-discarded"


@dataclass(frozen=True, slots=True, kw_only=True)
class TurnSkipped:
    """``player`` loses their turn."""

    player: int
    type: Literal["turn-skipped"] = "turn-skipped"


@dataclass(frozen=True, slots=True, kw_only=True)
class DirectionChanged:
    """Play now goes ``direction``: +1 left (clockwise), -1 right."""

    direction: int
    type: Literal["direction-changed"] = "direction-changed"


@dataclass(frozen=True, slots=True, kw_only=True)
class UnoCalled:
    """``player`` said UNO (as they played, or as a self-catch)."""

    player: int
    type: Literal["uno-called"] = "uno-called"


@dataclass(frozen=True, slots=True, kw_only=True)
class UnoCaught:
    """``catcher`` caught ``target`` holding one card without having said UNO."""

    catcher: int
    target: int
    type: Literal["uno-caught"] = "uno-caught"


@dataclass(frozen=True, slots=True, kw_only=True)
class ChallengeDecided:
    """A Wild Draw 4 challenge: ``guilty`` when the offender held a card they could not play it
    over."""

    challenger: int
    offender: int
    guilty: bool
    type: Literal["challenge-decided"] = "challenge-decided"


@dataclass(frozen=True, slots=True, kw_only=True)
class HandsSwapped:
    """Wild Swap Hands: ``player`` and ``target`` exchanged hands."""

    player: int
    target: int
    type: Literal["hands-swapped"] = "hands-swapped"


@dataclass(frozen=True, slots=True, kw_only=True)
class HandsShuffled:
    """Wild Shuffle Hands: every hand collected, shuffled and dealt from the player's left;
    ``sizes`` are the new hand sizes by seat."""

    player: int
    sizes: tuple[int, ...]
    type: Literal["hands-shuffled"] = "hands-shuffled"


@dataclass(frozen=True, slots=True, kw_only=True)
class HandsPassed:
    """Killer UNO's 0: every hand moved to the next player in ``direction`` (+1 left, -1
    right); ``player`` played the 0."""

    player: int
    direction: int
    type: Literal["hands-passed"] = "hands-passed"


@dataclass(frozen=True, slots=True, kw_only=True)
class JumpedIn:
    """Killer UNO's jump-in: ``player`` played out of turn, before ``instead_of`` (whose turn it
    was); the card follows as a :class:`CardPlayed`."""

    player: int
    instead_of: int
    type: Literal["jumped-in"] = "jumped-in"


@dataclass(frozen=True, slots=True, kw_only=True)
class PenaltyGiven:
    """The table penalised ``player`` for ``reason`` (a table rule); the cards follow as a
    :class:`CardsDrawn` with reason ``table-penalty``."""

    player: int
    reason: str
    cards: int
    type: Literal["penalty-given"] = "penalty-given"


@dataclass(frozen=True, slots=True, kw_only=True)
class CustomEffectApplied:
    """A Wild Customizable / Blank card's agreed effect (:class:`~engine.rules.CustomEffect`)."""

    player: int
    effect: str
    type: Literal["custom-effect"] = "custom-effect"


@dataclass(frozen=True, slots=True, kw_only=True)
class Reshuffled:
    """The discard pile except its top card became the new draw pile (``cards`` many)."""

    cards: int
    type: Literal["reshuffled"] = "reshuffled"


@dataclass(frozen=True, slots=True, kw_only=True)
class WrongCardPenalised:
    """A wrong card was taken back; ``player`` drew the penalty and lost the turn."""

    player: int
    card: int
    type: Literal["wrong-card"] = "wrong-card"


@dataclass(frozen=True, slots=True, kw_only=True)
class ShowdownStarted:
    """A showdown between ``challenger`` (who played ``card``) and ``opponent``; ``loaded`` are
    the cards drawn into the unit. ``source``: ``icon``, ``wild`` or ``going-out``; ``last_card``
    when the round ends if the challenger wins."""

    challenger: int
    opponent: int
    loaded: tuple[int, ...]
    source: str
    card: int | None
    last_card: bool = False
    type: Literal["showdown-started"] = "showdown-started"


@dataclass(frozen=True, slots=True, kw_only=True)
class ShowdownSettled:
    """The showdown's result: ``loser`` took ``cards``."""

    winner: int
    loser: int
    reason: str
    cards: tuple[int, ...]
    winner_ms: float | None = None
    loser_ms: float | None = None
    type: Literal["showdown-settled"] = "showdown-settled"


@dataclass(frozen=True, slots=True, kw_only=True)
class RoundEnded:
    """``went_out`` emptied their hand; ``points`` is the standard score (sum of the others'
    hands); ``hand_points`` are each seat's card values (0 for ``went_out``)."""

    went_out: int
    points: int
    hand_points: tuple[int, ...]
    type: Literal["round-ended"] = "round-ended"


Event = Annotated[
    RoundStarted
    | CardReturned
    | TurnStarted
    | CardPlayed
    | ColourChosen
    | CardsDrawn
    | CardsDiscarded
    | TurnSkipped
    | DirectionChanged
    | UnoCalled
    | UnoCaught
    | ChallengeDecided
    | HandsSwapped
    | HandsShuffled
    | CustomEffectApplied
    | HandsPassed
    | JumpedIn
    | PenaltyGiven
    | Reshuffled
    | WrongCardPenalised
    | ShowdownStarted
    | ShowdownSettled
    | RoundEnded,
    Field(discriminator="type"),
]
"""Any event (a union discriminated by its ``type`` field)."""

EVENT_ADAPTER: TypeAdapter[Event] = TypeAdapter(Event)
"""``EVENT_ADAPTER.dump_json(event)`` and ``EVENT_ADAPTER.validate_json(text)``."""
