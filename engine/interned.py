"""Shared instances of the small events and commands the hot path makes again and again.

Events and commands are frozen dataclasses compared by value, so one shared instance per value is
indistinguishable from a fresh one (except by ``is``), and looking it up costs a tuple index
instead of a frozen dataclass construction (~0.6 us, a fifth of a benchmark round's time before
this). Only values with few possibilities are shared: per seat, per seat and colour, per seat and
card. Anything else (drawn cards, targets, showdowns) is built as usual.

The events a round makes that cannot be shared (several cards drawn, the round's start and end,
hands shuffled) are built by :func:`cards_drawn`, :func:`round_started`, :func:`round_ended` and
:func:`hands_shuffled`: they fill the slots directly instead of running the frozen dataclass's
generated ``__init__`` (one ``object.__setattr__`` per field, interpreted even in a compiled
build: ~1.8 us, about a sixth of a compiled benchmark round). The result is equal to the
constructor's, which the tests check.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import fields
from typing import Any, Final

from engine.commands import CallUno, CatchUno, Challenge, Draw, Pass, PlayCard
from engine.events import (
    CardPlayed,
    CardsDrawn,
    ChallengeDecided,
    ColourChosen,
    DirectionChanged,
    HandsShuffled,
    RoundEnded,
    RoundStarted,
    TurnSkipped,
    TurnStarted,
    UnoCalled,
    UnoCaught,
)

__all__ = [
    "CALL_UNO",
    "CATCH_UNO",
    "CHALLENGE",
    "CHALLENGE_DECIDED",
    "COLOUR_CHOSEN",
    "DIRECTION_CHANGED",
    "DRAW",
    "PASS",
    "SEATS",
    "TURN_SKIPPED",
    "TURN_STARTED",
    "UNO_CALLED",
    "UNO_CAUGHT",
    "card_drawn",
    "card_played",
    "cards_drawn",
    "hands_shuffled",
    "play_card",
    "round_ended",
    "round_started",
]

SEATS: Final = 10
"""Seats covered (``engine.round.MAX_PLAYERS``; a round checks its player count against it)."""

_SEATS: Final = range(SEATS)

TURN_STARTED: Final = tuple(TurnStarted(player=seat) for seat in _SEATS)
"""``TURN_STARTED[seat] == TurnStarted(player=seat)``."""
TURN_SKIPPED: Final = tuple(TurnSkipped(player=seat) for seat in _SEATS)
"""``TURN_SKIPPED[seat] == TurnSkipped(player=seat)``."""
UNO_CALLED: Final = tuple(UnoCalled(player=seat) for seat in _SEATS)
"""``UNO_CALLED[seat] == UnoCalled(player=seat)``."""
COLOUR_CHOSEN: Final = tuple(
    tuple(ColourChosen(player=seat, colour=colour) for colour in range(4)) for seat in _SEATS
)
"""``COLOUR_CHOSEN[seat][colour] == ColourChosen(player=seat, colour=colour)``."""
DIRECTION_CHANGED: Final = {d: DirectionChanged(direction=d) for d in (1, -1)}
"""``DIRECTION_CHANGED[d] == DirectionChanged(direction=d)``."""

UNO_CAUGHT: Final = tuple(
    tuple(UnoCaught(catcher=seat, target=t) for t in _SEATS) for seat in _SEATS
)
"""``UNO_CAUGHT[catcher][target] == UnoCaught(catcher=catcher, target=target)``."""
CHALLENGE_DECIDED: Final = tuple(
    tuple(
        tuple(ChallengeDecided(challenger=seat, offender=o, guilty=g) for g in (False, True))
        for o in _SEATS
    )
    for seat in _SEATS
)
"""``CHALLENGE_DECIDED[challenger][offender][guilty] == ChallengeDecided(...)``."""

DRAW: Final = tuple(Draw(player=seat) for seat in _SEATS)
"""``DRAW[seat] == Draw(player=seat)``."""
PASS: Final = tuple(Pass(player=seat) for seat in _SEATS)
"""``PASS[seat] == Pass(player=seat)``."""
CHALLENGE: Final = tuple(Challenge(player=seat) for seat in _SEATS)
"""``CHALLENGE[seat] == Challenge(player=seat)``."""
CALL_UNO: Final = tuple(CallUno(player=seat) for seat in _SEATS)
"""``CALL_UNO[seat] == CallUno(player=seat)``."""
CATCH_UNO: Final = tuple(tuple(CatchUno(player=seat, target=t) for t in _SEATS) for seat in _SEATS)
"""``CATCH_UNO[seat][target] == CatchUno(player=seat, target=target)``."""

_CARDS: Final = 256
"""Values are shared for card ids below this (the built-in decks have 112 cards at most); the
caches are lists indexed by a key made of the fields, filled as values first occur (a list index
is cheaper than a dict lookup on this path). Final: the bindings never change."""
_played: Final[list[CardPlayed | None]] = [None] * (_CARDS * SEATS * 2)
_drawn: Final[list[CardsDrawn | None]] = [None] * (_CARDS * SEATS)
_plays: Final[list[PlayCard | None]] = [None] * (_CARDS * SEATS * 5 * 2)


def card_played(player: int, card: int, legal: bool = True) -> CardPlayed:
    """``CardPlayed(player=player, card=card, legal=legal)``, shared per value."""
    if card >= _CARDS:
        return CardPlayed(player=player, card=card, legal=legal)
    key = (card * SEATS + player) * 2 + legal
    event = _played[key]
    if event is None:
        event = _played[key] = CardPlayed(player=player, card=card, legal=legal)
    return event


def play_card(player: int, card: int, colour: int | None, uno: bool) -> PlayCard:
    """``PlayCard(player=player, card=card, colour=colour, uno=uno)`` with no target, opponent
    or count, shared per value."""
    if card >= _CARDS:
        return PlayCard(player=player, card=card, colour=colour, uno=uno)
    key = ((card * SEATS + player) * 5 + (4 if colour is None else colour)) * 2 + uno
    command = _plays[key]
    if command is None:
        command = _plays[key] = PlayCard(player=player, card=card, colour=colour, uno=uno)
    return command


def card_drawn(player: int, card: int) -> CardsDrawn:
    """``CardsDrawn(player=player, cards=(card,), reason="draw")`` (one card drawn instead of
    playing), shared per value."""
    if card >= _CARDS:
        return CardsDrawn(player=player, cards=(card,), reason="draw")
    key = card * SEATS + player
    event = _drawn[key]
    if event is None:
        event = _drawn[key] = CardsDrawn(player=player, cards=(card,), reason="draw")
    return event


_Setter = Callable[[Any, Any], None]


def _setters(cls: type) -> tuple[_Setter, ...]:
    """The slot setters of a frozen slotted dataclass's fields, in field order."""
    assert not hasattr(cls, "__post_init__"), cls  # nothing may run after the fields are set
    return tuple(cls.__dict__[field.name].__set__ for field in fields(cls))


_CARDS_DRAWN: Final = _setters(CardsDrawn)
_ROUND_STARTED: Final = _setters(RoundStarted)
_ROUND_ENDED: Final = _setters(RoundEnded)
_HANDS_SHUFFLED: Final = _setters(HandsShuffled)


def cards_drawn(player: int, cards: tuple[int, ...], reason: str) -> CardsDrawn:
    """``CardsDrawn(player=player, cards=cards, reason=reason)``, built fast (see above)."""
    event = object.__new__(CardsDrawn)
    put = _CARDS_DRAWN  # explicit calls: a loop over zip() costs more than the __init__ saved
    put[0](event, player)
    put[1](event, cards)
    put[2](event, reason)
    put[3](event, "cards-drawn")
    return event


def round_started(
    dealer: int, players: int, starter: int, first_player: int, direction: int
) -> RoundStarted:
    """``RoundStarted(dealer=..., players=..., starter=..., first_player=..., direction=...)``,
    built fast (see above)."""
    event = object.__new__(RoundStarted)
    put = _ROUND_STARTED
    put[0](event, dealer)
    put[1](event, players)
    put[2](event, starter)
    put[3](event, first_player)
    put[4](event, direction)
    put[5](event, "round-started")
    return event


def round_ended(went_out: int, points: int, hand_points: tuple[int, ...]) -> RoundEnded:
    """``RoundEnded(went_out=..., points=..., hand_points=...)``, built fast (see above)."""
    event = object.__new__(RoundEnded)
    put = _ROUND_ENDED
    put[0](event, went_out)
    put[1](event, points)
    put[2](event, hand_points)
    put[3](event, "round-ended")
    return event


def hands_shuffled(player: int, sizes: tuple[int, ...]) -> HandsShuffled:
    """``HandsShuffled(player=player, sizes=sizes)``, built fast (see above)."""
    event = object.__new__(HandsShuffled)
    put = _HANDS_SHUFFLED
    put[0](event, player)
    put[1](event, sizes)
    put[2](event, "hands-shuffled")
    return event
