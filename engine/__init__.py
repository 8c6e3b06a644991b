"""The UNO rules and the scorekeeper: pure Python, no I/O, no threads, no hardware.

Public API (everything a caller needs; see each name's docstring)::

    from engine import Round, RoundSetup, RuleSet, preset, PRESETS
    from engine import PlayCard, Draw, Pass, Challenge, CallUno, CatchUno, ChooseOpening
    from engine import WrongCard, ShowdownResult, RuleError
    from engine import JumpIn, Penalty, PenaltyReason     # Killer UNO's out-of-turn commands
    from engine import draw_first_dealer, DealerDraw      # who deals first (000, 001, 003)

    rules = preset("official")                     # or RuleSet(stack_draw_two=True, ...)
    rnd = Round.new(rules, RoundSetup(players=4, dealer=0, seed=7))
    # or an explicit deck order: RoundSetup(players=4, deck_order=(ids, top card first))
    # or a position written in card codes: Round.from_position(rules, hands=[["R7", "W"], ...],
    #                                                          discard=["G5"], turn=0)
    rnd.state.turn, rnd.state.hands, rnd.top     # read the state (card ids)
    rnd.deck.cards[card_id].code                   # "R7", "W+4", "G5*2" (Showdown icon)
    actions = rnd.legal_actions()                  # every command accepted now
    events = rnd.apply(actions[0])                 # typed events; RuleError leaves state as is
    rnd.to_json(); Round.from_json(text)           # the whole round, and back
    rnd.replayed()                                 # rebuilt from its start and its commands

- :mod:`engine.cards` - :class:`Colour`, :class:`CardKind`, :class:`Card`, card codes,
  :func:`point_value`.
- :mod:`engine.deck` - :class:`Deck` (built-in decks ``classic``, ``modern``, ``swap``,
  ``showdown``; ``Deck.from_json`` for a user's deck file), :class:`DeckError`.
- :mod:`engine.rules` - :class:`RuleSet` (every switch of rules.md), :class:`CustomEffect`,
  :class:`PenaltyReason`, :data:`PRESETS` (with :data:`PRESET_SUMMARIES`), :func:`preset`.
- :mod:`engine.dealer` - :func:`draw_first_dealer`: who deals first.
- :mod:`engine.round` - :class:`Round`, :class:`RoundSetup` (the order of effects is in its
  docstring); :mod:`engine.state` - :class:`RoundState`, :class:`Phase`.
- :mod:`engine.commands`, :mod:`engine.events` - the typed commands and events, with
  ``COMMAND_ADAPTER`` / ``EVENT_ADAPTER`` for JSON.
- :mod:`engine.errors` - :class:`RuleError`, the one error a rule-breaking command raises.
- :mod:`engine.bots` - :class:`RandomBot`, :class:`HeuristicBot`, :func:`play_round`.
- :mod:`engine.game` - :class:`Game`: rounds to the target, the deal passing, totals, winners.
- :mod:`engine.scoring`, :mod:`engine.tally`, :mod:`engine.stats` - the scorekeeper (every
  scoring mode, tabletop round entry, showdown statistics), separable from the round engine.
"""

from engine.bots import HeuristicBot, RandomBot, play_round
from engine.cards import Card, CardKind, Colour, point_value
from engine.commands import (
    COMMAND_ADAPTER,
    CallUno,
    CatchUno,
    Challenge,
    ChooseOpening,
    Command,
    Draw,
    JumpIn,
    Pass,
    Penalty,
    PlayCard,
    ShowdownResult,
    WrongCard,
)
from engine.dealer import DealerDraw, draw_first_dealer
from engine.deck import Deck, DeckError, builtin_deck
from engine.errors import RuleError
from engine.events import EVENT_ADAPTER, Event
from engine.game import Game
from engine.round import Round, RoundSetup
from engine.rules import PRESET_SUMMARIES, PRESETS, CustomEffect, PenaltyReason, RuleSet, preset
from engine.state import Phase, RoundState

__all__ = [
    "COMMAND_ADAPTER",
    "EVENT_ADAPTER",
    "PRESETS",
    "PRESET_SUMMARIES",
    "CallUno",
    "Card",
    "CardKind",
    "CatchUno",
    "Challenge",
    "ChooseOpening",
    "Colour",
    "Command",
    "CustomEffect",
    "DealerDraw",
    "Deck",
    "DeckError",
    "Draw",
    "Event",
    "Game",
    "HeuristicBot",
    "JumpIn",
    "Pass",
    "Penalty",
    "PenaltyReason",
    "Phase",
    "PlayCard",
    "RandomBot",
    "Round",
    "RoundSetup",
    "RoundState",
    "RuleError",
    "RuleSet",
    "ShowdownResult",
    "WrongCard",
    "builtin_deck",
    "draw_first_dealer",
    "play_round",
    "point_value",
    "preset",
]
