"""The game's shared words, translated when drawn: card colours and kinds, scoring modes, presets.

The tables map stable keys (what the engine and the journal store) to English message ids
marked with :func:`~showdown.i18n.N_`; the functions translate them into the current language at
call time, so a screen that calls them every frame follows a change of language at once. Card and
rule names follow the seed rule sheets' own translations (000: Chinese, Indonesian; 003: Japanese).

Every colour also has a one-letter (or one-character) mark in each language, drawn on the card
swatch, so no colour is told by its hue alone.

>>> from showdown.i18n import use_language
>>> with use_language("ja"):
...     print(colour_name("red"), kind_name("draw_two"), colour_mark("red"))
赤 ドロー2 赤
"""

from __future__ import annotations

from showdown.i18n import N_, _, pgettext

__all__ = [
    "COLOURS",
    "KINDS",
    "PRESETS",
    "SCORING_MODES",
    "colour_mark",
    "colour_name",
    "kind_name",
    "preset_name",
    "scoring_mode_name",
]

COLOURS: dict[str, str] = {
    "red": N_("Red"),
    "yellow": N_("Yellow"),
    "green": N_("Green"),
    "blue": N_("Blue"),
}
"""The four card colours, in the order the seeds list them on the score sheets."""

_COLOUR_MARKS: dict[str, str] = {
    # The extractor needs literal calls, so the marks are spelled out once here.
    "red": "R",
    "yellow": "Y",
    "green": "G",
    "blue": "B",
}

KINDS: dict[str, str] = {
    "number": N_("Number"),
    "skip": N_("Skip"),
    "reverse": N_("Reverse"),
    "draw_two": N_("Draw Two"),
    "wild": N_("Wild"),
    "wild_draw_four": N_("Wild Draw Four"),
    "wild_shuffle_hands": N_("Wild Shuffle Hands"),
    "wild_customizable": N_("Wild Customizable"),
    "wild_swap_hands": N_("Wild Swap Hands"),
    "blank": N_("Blank"),
    "wild_showdown": N_("Wild Showdown"),
    "showdown": N_("Showdown"),
}
"""Card kinds (what the round-end tally taps), with the seed sheets' own names."""

SCORING_MODES: dict[str, str] = {
    "standard": N_("Standard"),
    "running_tally": N_("Running tally"),
    "challenge": N_("Challenge UNO"),
    "plus_minus": N_("Plus/minus sheet"),
    "partners": N_("Partners"),
}
"""The scoring modes of ``rules.md``."""

PRESETS: dict[str, str] = {
    "classic": N_("Classic"),
    "modern": N_("Modern (2017)"),
    "swap": N_("Swap Hands (2018)"),
    "showdown": N_("Showdown"),
    "killer": N_("Killer UNO"),
    "house": N_("House rules"),
}
"""Rule presets and decks a table can pick by name."""


def colour_mark(colour: str) -> str:
    """The short mark drawn on a card of ``colour`` beside its hue (R/Y/G/B, 赤/黄/緑/青, ...)."""
    marks = {
        "red": pgettext("colour mark", "R"),
        "yellow": pgettext("colour mark", "Y"),
        "green": pgettext("colour mark", "G"),
        "blue": pgettext("colour mark", "B"),
    }
    return marks.get(colour, _COLOUR_MARKS.get(colour, colour[:1].upper()))


def _lookup(table: dict[str, str], key: str) -> str:
    """A translated name, or the key itself for something the table does not know (user data)."""
    message = table.get(key)
    return key if message is None else _(message)


def colour_name(colour: str) -> str:
    """The name of a card colour in the current language."""
    return _lookup(COLOURS, colour)


def kind_name(kind: str) -> str:
    """The name of a card kind in the current language."""
    return _lookup(KINDS, kind)


def scoring_mode_name(mode: str) -> str:
    """The name of a scoring mode in the current language."""
    return _lookup(SCORING_MODES, mode)


def preset_name(preset: str) -> str:
    """The name of a preset in the current language; an unknown (user) preset keeps its own name."""
    return _lookup(PRESETS, preset)
