"""Shared instances of the small events and commands the hot path makes again and again.

Events and commands are frozen dataclasses compared by value, so one shared instance per value is
indistinguishable from a fresh one (except by ``is``), and looking it up costs a tuple index
instead of a frozen dataclass construction (~0.6 us, a fifth of a benchmark round's time before
this). Only values with few possibilities are shared: per seat, per seat and colour, per seat and
card. Anything else (drawn cards, targets, showdowns, a bluffed Wild Draw 4) is built as usual.
"""

from __future__ import annotations

from typing import Final

from engine.commands import CallUno, CatchUno, Challenge, Draw, Pass, PlayCard
from engine.events import (
    CardPlayed,
    CardsDrawn,
    ColourChosen,
    DirectionChanged,
    TurnSkipped,
    TurnStarted,
    UnoCalled,
)

__all__ = [
    "CALL_UNO",
    "CATCH_UNO",
    "CHALLENGE",
    "COLOUR_CHOSEN",
    "DIRECTION_CHANGED",
    "DRAW",
    "PASS",
    "SEATS",
    "TURN_SKIPPED",
    "TURN_STARTED",
    "UNO_CALLED",
    "card_drawn",
    "card_played",
    "play_card",
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

# Final: the bindings never change (the dicts fill up), so a compiled build reads them directly.
_played: Final[dict[int, CardPlayed]] = {}
_drawn: Final[dict[int, CardsDrawn]] = {}
_plays: Final[dict[int, PlayCard]] = {}


def card_played(player: int, card: int) -> CardPlayed:
    """``CardPlayed(player=player, card=card)`` (a legal play), shared per value."""
    key = card * SEATS + player
    event = _played.get(key)
    if event is None:
        event = _played[key] = CardPlayed(player=player, card=card)
    return event


def play_card(player: int, card: int, colour: int | None, uno: bool) -> PlayCard:
    """``PlayCard(player=player, card=card, colour=colour, uno=uno)`` with no target, opponent
    or count, shared per value."""
    key = ((card * SEATS + player) * 5 + (4 if colour is None else colour)) * 2 + uno
    command = _plays.get(key)
    if command is None:
        command = _plays[key] = PlayCard(player=player, card=card, colour=colour, uno=uno)
    return command


def card_drawn(player: int, card: int) -> CardsDrawn:
    """``CardsDrawn(player=player, cards=(card,), reason="draw")`` (one card drawn instead of
    playing), shared per value."""
    key = card * SEATS + player
    event = _drawn.get(key)
    if event is None:
        event = _drawn[key] = CardsDrawn(player=player, cards=(card,), reason="draw")
    return event
