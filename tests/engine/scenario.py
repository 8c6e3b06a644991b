"""Test helpers in the table's words: positions by card code, finding a card, dealing orders,
refused commands, a seeded choice among the legal actions."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest

from engine.commands import Command, PlayCard
from engine.deck import Deck
from engine.errors import RuleError
from engine.events import Event
from engine.round import Round


def codes(rnd: Round, seat: int) -> list[str]:
    """The codes of ``seat``'s hand, in hand order."""
    return [rnd.deck.cards[c].code for c in rnd.state.hands[seat]]


def card(rnd: Round, seat: int, code: str) -> int:
    """The id of the first card with ``code`` in ``seat``'s hand."""
    for c in rnd.state.hands[seat]:
        if rnd.deck.cards[c].code == code:
            return c
    raise AssertionError(f"seat {seat} holds no {code}: {codes(rnd, seat)}")


def top_code(rnd: Round) -> str:
    return rnd.deck.cards[rnd.top].code


def kinds(events: Sequence[Event]) -> list[str]:
    """The ``type`` of each event."""
    return [e.type for e in events]


def deck_order(deck: Deck, placed: dict[int, str]) -> tuple[int, ...]:
    """A full deck order (top first) with ``placed[position] = code``; the rest in id order."""
    free = list(range(len(deck)))
    chosen: dict[int, int] = {}
    for position, code in sorted(placed.items()):
        found = next(i for i in free if deck.cards[i].code == code)
        free.remove(found)
        chosen[position] = found
    order = []
    for position in range(len(deck)):
        order.append(chosen[position] if position in chosen else free.pop(0))
    return tuple(order)


def refused(rnd: Round, command: Command) -> RuleError:
    """The refusal ``command`` meets; the round (state, shuffle, history) is unchanged by it."""
    before = rnd.to_dict()
    with pytest.raises(RuleError) as caught:
        rnd.apply(command)
    assert rnd.to_dict() == before
    return caught.value


def choose(rnd: Round, rng: random.Random) -> Command:
    """A legal action drawn by ``rng``, a card play 95 times in 100 (rounds then end quickly)."""
    actions = rnd.legal_actions()
    plays = [a for a in actions if isinstance(a, PlayCard)]
    if plays and rng.random() < 0.95:
        return plays[rng.randrange(len(plays))]
    return actions[rng.randrange(len(actions))]
