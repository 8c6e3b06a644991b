"""What each card of a deck is under one rule set: its points, the draw it puts on the next
player, and whether playing it has any effect. A round reads these per card id on its hot path;
they are worked out once per deck and rule set and cached."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from engine.cards import CardKind, point_value
from engine.deck import Deck
from engine.rules import RuleSet
from engine.tables import DeckTables, tables_for

__all__ = ["CardFacts", "card_draws", "card_facts", "plain_cards"]

_ZERO: Final = int(CardKind.ZERO)
_RED: Final = 0


@dataclass(frozen=True, slots=True)
class CardFacts:
    """Per card id under one rule set: ``values`` (points at the round's end), ``draws`` (cards
    its play makes the next player draw) and ``plain`` (a number card whose play has no effect,
    so the round takes its short path)."""

    values: tuple[int, ...]
    draws: tuple[int, ...]
    plain: tuple[bool, ...]


_FACTS: Final[dict[tuple[int, int], tuple[Deck, RuleSet, CardFacts]]] = {}


def card_facts(deck: Deck, rules: RuleSet) -> CardFacts:
    """Each card id's facts under ``rules``. Cached by identity: hashing a pydantic rule set
    costs more than the rest of a round's set-up bookkeeping. The entry holds both objects, so
    their ids cannot be reused while cached; at most 64 entries (loaded rounds bring new ones)."""
    key = (id(deck), id(rules))
    hit = _FACTS.get(key)
    if hit is not None and hit[0] is deck and hit[1] is rules:
        return hit[2]
    if len(_FACTS) >= 64:
        _FACTS.clear()
    tables = tables_for(deck)
    facts = CardFacts(
        values=tuple(point_value(card.kind, rules) for card in deck.cards),
        draws=card_draws(tables, rules),
        plain=plain_cards(tables, rules),
    )
    _FACTS[key] = (deck, rules, facts)
    return facts


def card_draws(tables: DeckTables, rules: RuleSet) -> tuple[int, ...]:
    """Each card id's draw on the next player under ``rules``: the deck's Draw Twos and Wild
    Draw 4s, and Killer UNO's red 0 (``RuleSet.red_zero_draw``)."""
    if not rules.red_zero_draw:
        return tables.draws
    return tuple(
        rules.red_zero_draw if kind == _ZERO and tables.colour[card] == _RED else draws
        for card, (kind, draws) in enumerate(zip(tables.kind, tables.draws, strict=True))
    )


def plain_cards(tables: DeckTables, rules: RuleSet) -> tuple[bool, ...]:
    """Each card id: a number card whose play has no effect under ``rules`` (the round's short
    path). Killer UNO's 0s pass hands or draw (``zero_passes_hands``, ``red_zero_draw``)."""
    if not (rules.zero_passes_hands or rules.red_zero_draw):
        return tables.plain
    kinds = tables.kind
    return tuple(plain and kinds[card] != _ZERO for card, plain in enumerate(tables.plain))
