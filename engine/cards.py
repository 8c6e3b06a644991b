"""Cards: colours, kinds, the compact card code, and point values.

Every physical card in a deck has its own integer id (its index in the deck), so two red 7s
differ. A card's face is written as a short *code*:

====================  =========================================================
code                  card
====================  =========================================================
``R7``, ``Y0``        a number card (colour letter ``R`` ``Y`` ``G`` ``B`` + digit)
``RS`` ``RR`` ``R+2``  Skip, Reverse, Draw Two of that colour
``W`` ``W+4``          Wild, Wild Draw 4
``WSH``               Wild Shuffle Hands
``WC``                Wild Customizable (the 2017 deck's erasable card)
``WX``                Wild Swap Hands
``BL``                Blank (the 2018 deck's customizable card; played as a wild)
``WSD``               Wild Showdown
====================  =========================================================

A coloured card carrying the Showdown icon appends ``*N`` with its load count:
``G5*2`` is a green 5 whose Showdown icon loads 2 cards. The icon never changes a card's value.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum

from engine.rules import RuleSet

__all__ = [
    "COLOUR_LETTERS",
    "Card",
    "CardKind",
    "Colour",
    "format_code",
    "parse_code",
    "point_value",
]


class Colour(IntEnum):
    """The four card colours. Wild cards have no colour (``None``) until one is chosen."""

    RED = 0
    YELLOW = 1
    GREEN = 2
    BLUE = 3


COLOUR_LETTERS = "RYGB"
"""Colour letters in :class:`Colour` order, used by card codes."""


class CardKind(IntEnum):
    """What a card does, independent of its colour. Numbers ``ZERO``..``NINE`` equal their face."""

    ZERO = 0
    ONE = 1
    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    SKIP = 10
    REVERSE = 11
    DRAW_TWO = 12
    WILD = 13
    WILD_DRAW_FOUR = 14
    WILD_SHUFFLE_HANDS = 15
    WILD_CUSTOMIZABLE = 16
    WILD_SWAP_HANDS = 17
    BLANK = 18
    WILD_SHOWDOWN = 19

    @property
    def is_number(self) -> bool:
        """True for ``ZERO``..``NINE``."""
        return self <= CardKind.NINE

    @property
    def is_wild(self) -> bool:
        """True for every colourless card (they are played on anything)."""
        return self >= CardKind.WILD


_FACE_CODES: dict[CardKind, str] = {
    CardKind.SKIP: "S",
    CardKind.REVERSE: "R",
    CardKind.DRAW_TWO: "+2",
}
_WILD_CODES: dict[CardKind, str] = {
    CardKind.WILD: "W",
    CardKind.WILD_DRAW_FOUR: "W+4",
    CardKind.WILD_SHUFFLE_HANDS: "WSH",
    CardKind.WILD_CUSTOMIZABLE: "WC",
    CardKind.WILD_SWAP_HANDS: "WX",
    CardKind.BLANK: "BL",
    CardKind.WILD_SHOWDOWN: "WSD",
}
_WILD_BY_CODE = {code: kind for kind, code in _WILD_CODES.items()}
_FACE_BY_CODE = {code: kind for kind, code in _FACE_CODES.items()}


@dataclass(frozen=True, slots=True)
class Card:
    """One card face: its kind, its colour (``None`` for wilds) and its Showdown icon count.

    ``icon`` is 0 for a card without the Showdown icon, otherwise how many cards it loads (1-3).
    """

    kind: CardKind
    colour: Colour | None = None
    icon: int = 0

    @property
    def code(self) -> str:
        """The compact code, e.g. ``"R7"``, ``"B+2*1"``, ``"W+4"``."""
        return format_code(self)

    def __str__(self) -> str:
        return self.code


def format_code(card: Card) -> str:
    """The compact code of ``card`` (see the module docstring)."""
    if card.kind.is_wild:
        text = _WILD_CODES[card.kind]
    else:
        assert card.colour is not None
        face = str(int(card.kind)) if card.kind.is_number else _FACE_CODES[card.kind]
        text = COLOUR_LETTERS[card.colour] + face
    return f"{text}*{card.icon}" if card.icon else text


def parse_code(code: str) -> Card:
    """Parse a compact card code; raises ``ValueError`` naming what is wrong."""
    text = code.strip().upper()
    icon = 0
    if "*" in text:
        text, _, count = text.partition("*")
        if not count.isdigit() or not 1 <= int(count) <= 3:
            raise ValueError(f"card {code!r}: a Showdown icon count must be 1, 2 or 3")
        icon = int(count)
    if text in _WILD_BY_CODE:
        if icon:
            raise ValueError(f"card {code!r}: only coloured cards carry a Showdown icon")
        return Card(_WILD_BY_CODE[text])
    if len(text) < 2 or text[0] not in COLOUR_LETTERS:
        raise ValueError(
            f"card {code!r}: expected a colour letter R, Y, G or B then 0-9, S, R or +2, "
            f"or one of {', '.join(_WILD_BY_CODE)}"
        )
    colour = Colour(COLOUR_LETTERS.index(text[0]))
    face = text[1:]
    if face.isdigit() and len(face) == 1:
        return Card(CardKind(int(face)), colour, icon)
    if face in _FACE_BY_CODE:
        return Card(_FACE_BY_CODE[face], colour, icon)
    raise ValueError(f"card {code!r}: unknown face {face!r} (0-9, S, R or +2)")


_FIXED_VALUES: dict[CardKind, int] = {
    CardKind.SKIP: 20,
    CardKind.REVERSE: 20,
    CardKind.DRAW_TWO: 20,
    CardKind.WILD: 50,
    CardKind.WILD_DRAW_FOUR: 50,
    CardKind.WILD_SHUFFLE_HANDS: 40,
}


_DEFAULT_RULES = RuleSet()


def point_value(kind: CardKind, rules: RuleSet | None = None) -> int:
    """Points a card of ``kind`` is worth in a hand at the end of a round (rules.md, "Card values").

    Numbers score their face; Skip, Reverse, Draw Two 20; Wild and Wild Draw 4 50; Wild Shuffle
    Hands 40. The unpublished or agreed values come from ``rules`` (defaults without one):
    Wild Customizable 40, Blank 40, Wild Swap Hands 40, Wild Showdown 50.
    """
    if kind.is_number:
        return int(kind)
    fixed = _FIXED_VALUES.get(kind)
    if fixed is not None:
        return fixed
    if rules is None:
        rules = _DEFAULT_RULES
    if kind is CardKind.WILD_CUSTOMIZABLE:
        return rules.customizable_value
    if kind is CardKind.BLANK:
        return rules.blank_value
    if kind is CardKind.WILD_SWAP_HANDS:
        return rules.swap_hands_value
    return rules.wild_showdown_value
