"""Decks as data: the built-in deck files and a loader for a user's own deck file.

A deck file is JSON::

    {"name": "my-showdown",
     "description": "optional text",
     "cards": [{"code": "R7*2", "count": 1}, {"code": "R7", "count": 1}, ...]}

Codes are those of :mod:`engine.cards`. A deck expands into a tuple of :class:`~engine.cards.Card`
faces; a card's *id* is its index in that tuple, so every physical card is distinct.
The engine does no file I/O: read the file yourself and pass its text to :meth:`Deck.from_json`.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from importlib import resources

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from engine.cards import Card, parse_code

__all__ = ["BUILTIN_DECKS", "Deck", "DeckError", "builtin_deck"]

BUILTIN_DECKS = ("classic", "modern", "swap", "showdown")
"""Names of the decks shipped in :mod:`engine.decks`."""

MIN_CARDS = 40
"""A deck must hold at least enough cards to deal 2 players and keep a draw pile."""


class DeckError(ValueError):
    """A deck definition is unusable; the message says which entry and why."""


class _Entry(BaseModel):
    model_config = ConfigDict(extra="forbid")
    code: str
    count: int = Field(ge=1, le=20)


class _DeckFile(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str = Field(min_length=1)
    description: str = ""
    cards: list[_Entry] = Field(min_length=1)


@dataclass(frozen=True, slots=True)
class Deck:
    """A named deck: ``cards[i]`` is the face of the physical card with id ``i``."""

    name: str
    cards: tuple[Card, ...]
    description: str = ""

    def __len__(self) -> int:
        return len(self.cards)

    def __hash__(self) -> int:
        # Cheap and consistent with equality; the per-deck caches look decks up every round.
        return hash((self.name, len(self.cards)))

    @property
    def codes(self) -> list[str]:
        """The code of every card, in id order (enough to rebuild the deck)."""
        return [card.code for card in self.cards]

    @classmethod
    def from_codes(cls, name: str, codes: list[str], description: str = "") -> Deck:
        """A deck from one code per physical card (the inverse of :attr:`codes`)."""
        cards = []
        for index, code in enumerate(codes):
            try:
                cards.append(parse_code(code))
            except ValueError as exc:
                raise DeckError(f"deck {name!r}, card {index}: {exc}") from None
        return cls._checked(name, tuple(cards), description)

    @classmethod
    def from_json(cls, text: str, source: str = "deck file") -> Deck:
        """Parse a deck file's text; raises :class:`DeckError` with a one-line reason."""
        try:
            raw = json.loads(text)
        except json.JSONDecodeError as exc:
            raise DeckError(f"{source}: not valid JSON ({exc.msg}, line {exc.lineno})") from None
        try:
            parsed = _DeckFile.model_validate(raw)
        except ValidationError as exc:
            first = exc.errors()[0]
            where = ".".join(str(part) for part in first["loc"]) or "top level"
            raise DeckError(f"{source}: {where}: {first['msg']}") from None
        cards: list[Card] = []
        for number, entry in enumerate(parsed.cards):
            try:
                card = parse_code(entry.code)
            except ValueError as exc:
                raise DeckError(f"{source}: cards.{number}: {exc}") from None
            cards.extend([card] * entry.count)
        return cls._checked(parsed.name, tuple(cards), parsed.description, source)

    @classmethod
    def _checked(
        cls, name: str, cards: tuple[Card, ...], description: str, source: str = "deck"
    ) -> Deck:
        if len(cards) < MIN_CARDS:
            raise DeckError(f"{source}: {len(cards)} cards is too few (at least {MIN_CARDS})")
        colours = {card.colour for card in cards if card.colour is not None}
        if not colours:
            raise DeckError(f"{source}: needs coloured cards to start the discard pile")
        return cls(name, cards, description)


@cache
def builtin_deck(name: str) -> Deck:
    """One of :data:`BUILTIN_DECKS`; raises :class:`DeckError` for an unknown name."""
    if name not in BUILTIN_DECKS:
        raise DeckError(f"unknown deck {name!r}: choose one of {', '.join(BUILTIN_DECKS)}")
    text = resources.files("engine.decks").joinpath(f"{name}.json").read_text(encoding="utf-8")
    return Deck.from_json(text, source=f"built-in deck {name!r}")
