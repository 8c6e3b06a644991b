"""Precomputed per-deck tables, so the hot path looks cards up by integer id.

Matching depends only on the current colour and the top card's kind, so for each of the
4 x 21 (colour, top kind or "wild on top") pairs we store one ``bytes`` with a 1 for every card id
that may be played on it. Built once per deck and cached.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Final

from engine.cards import CardKind
from engine.deck import Deck

__all__ = ["NO_KIND", "DeckTables", "tables_for"]

NO_KIND: Final = 20
"""Stands for "the top card is a wild": it matches by colour only."""

_K: Final = NO_KIND + 1


@dataclass(frozen=True, slots=True)
class DeckTables:
    """Per-card facts by id, and the match table."""

    size: int
    kind: tuple[int, ...]
    colour: tuple[int, ...]
    """Colour by id; -1 for wild cards."""
    icon: tuple[int, ...]
    is_wild: tuple[bool, ...]
    match: tuple[bytes, ...]
    """``match[colour * 21 + top_kind][card]`` is 1 when ``card`` may be played."""
    top_kind: tuple[int, ...]
    """Each card's kind as a top card: its kind, or :data:`NO_KIND` for a wild (which then
    matches by colour only), so the hot path finds the match row with one lookup."""

    plain: tuple[bool, ...]
    """A number card without a Showdown icon: playing it (not as the last card) only moves the
    card and the turn, so the round takes a short path for it (unless a rule set gives a number
    card an effect: :func:`engine.card_facts.plain_cards`)."""
    draws: tuple[int, ...]
    """Cards playing it makes the next player draw: 2 for a Draw Two, 4 for a Wild Draw 4
    (a rule set may add one: :func:`engine.card_facts.card_draws`)."""

    def row(self, colour: int, top: int) -> bytes:
        """The match row for this current colour and top card: ``row[card]`` is 1 when
        ``card`` may be played on it."""
        return self.match[colour * _K + self.top_kind[top]]


@cache
def tables_for(deck: Deck) -> DeckTables:
    """The tables for ``deck`` (cached: decks are immutable)."""
    kinds = tuple(int(card.kind) for card in deck.cards)
    colours = tuple(-1 if card.colour is None else int(card.colour) for card in deck.cards)
    wild = tuple(card.kind >= CardKind.WILD for card in deck.cards)
    rows = []
    for colour in range(4):
        for top_kind in range(_K):
            rows.append(
                bytes(
                    1 if wild[i] or colours[i] == colour or kinds[i] == top_kind else 0
                    for i in range(len(deck.cards))
                )
            )
    return DeckTables(
        size=len(deck.cards),
        kind=kinds,
        colour=colours,
        icon=tuple(card.icon for card in deck.cards),
        is_wild=wild,
        match=tuple(rows),
        top_kind=tuple(NO_KIND if wild[i] else kinds[i] for i in range(len(deck.cards))),
        plain=tuple(card.kind <= CardKind.NINE and not card.icon for card in deck.cards),
        draws=tuple(_DRAWS.get(card.kind, 0) for card in deck.cards),
    )


_DRAWS: Final = {CardKind.DRAW_TWO: 2, CardKind.WILD_DRAW_FOUR: 4}
