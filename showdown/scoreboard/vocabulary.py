"""The game's shared words, translated when drawn: card colours and kinds, scoring modes, presets.

The tables map stable keys (what the engine and the journal store) to English message ids
marked with :func:`~showdown.scoreboard.i18n.N_`; the functions translate them into the current
language at
call time, so a screen that calls them every frame follows a change of language at once. Card and
rule names follow the seed rule sheets' own translations (000: Chinese, Indonesian; 003: Japanese).

Every colour also has a one-letter (or one-character) mark in each language, drawn on the card
swatch, so no colour is told by its hue alone.

>>> from showdown.scoreboard.i18n import use_language
>>> with use_language("ja"):
...     print(colour_name("red"), kind_name("draw_two"), colour_mark("red"))
赤 ドロー2 赤
"""

from __future__ import annotations

import re
from enum import Enum

from showdown.game.names import default_name, default_number, is_default_name
from showdown.scoreboard.i18n import N_, _, ngettext, pgettext

__all__ = [
    "COLOURS",
    "CUSTOM_EFFECTS",
    "DECKS",
    "KINDS",
    "LANGUAGE_NAMES",
    "PENALTIES",
    "PRESETS",
    "PRESET_EXPLANATIONS",
    "SCORING_MODES",
    "SCORING_MODE_EXPLANATIONS",
    "colour_mark",
    "colour_name",
    "custom_effect_name",
    "deck_name",
    "default_name",
    "is_default_name",
    "key_of",
    "kind_name",
    "language_called",
    "penalty_name",
    "pig_count",
    "player_name",
    "player_sort_key",
    "preset_explanation",
    "preset_name",
    "scoring_mode_explanation",
    "scoring_mode_name",
]

COLOURS: dict[str, str] = {
    "red": N_("Red"),
    "yellow": N_("Yellow"),
    "green": N_("Green"),
    "blue": N_("Blue"),
}
"""The four card colours, in the order the seeds list them on the score sheets."""

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
    # TRANSLATORS: 002's hero scoring: the winner banks the others' hands; pigs at 500.
    "hero": N_("Hero (pigs)"),
    # TRANSLATORS: 002's mean scoring: each player banks their own hand; pigs at 100.
    "mean": N_("Mean (pigs)"),
}
"""The scoring modes of ``rules.md``."""

SCORING_MODE_EXPLANATIONS: dict[str, str] = {
    # TRANSLATORS: Set-up's list of scoring modes: one line under "Standard" on what it does.
    "standard": N_("Who goes out scores the cards left in the others' hands; first to the "
                   "target wins"),
    "running_tally": N_("Everyone adds up the cards they hold; when one reaches the target, "
                        "the lowest wins"),
    "challenge": N_("Everyone adds up the cards they hold; at the target you are out; the last "
                    "one left wins"),
    "plus_minus": N_("Who goes out scores plus the others' cards, the others minus their own; "
                     "first to the target wins"),
    "partners": N_("Four players, partners sitting opposite: a pair scores the other pair's "
                   "cards"),
    # TRANSLATORS: 002's hero scoring; a pig is the loser's mark, the fewest pigs win.
    "hero": N_("Who goes out banks the others' cards; reaching the target gives everyone "
               "else a pig"),
    # TRANSLATORS: 002's mean scoring: over the target, that player gets a pig; landing on it
    # exactly, every other player gets one.
    "mean": N_("Everyone banks the cards they hold; over the target you get a pig, exactly on "
               "it the others do"),
}
"""What each scoring mode changes, in one line beside its name (Set-up's list shows it under
the name); true to ``rules.md``, "Scoring the game", as Set-up starts each mode."""

LANGUAGE_NAMES: dict[str, str] = {
    "en": N_("English"),
    "zh_CN": N_("Simplified Chinese"),
    # TRANSLATORS: the scoreboard's Traditional Chinese, as written in Hong Kong.
    "zh_HK": N_("Traditional Chinese (Hong Kong)"),
    "id": N_("Indonesian"),
    "ja": N_("Japanese"),
}
"""Each supported language's name in English, translated when drawn: Set-up's list of languages
shows it under the language's own name, so a player who reads the language in use finds theirs."""

PRESETS: dict[str, str] = {
    "official": N_("Official"),
    "classic": N_("Classic"),
    "edition_2018": N_("2018 edition"),
    "showdown": N_("Showdown"),
    "party": N_("Party"),
    # TRANSLATORS: the house rules of the 002 sheet (stacking, no going out on an action card).
    "house": N_("House rules"),
    "killer": N_("Killer UNO"),
}
"""The engine's named rule sets (``engine.rules.PRESETS``)."""

PRESET_EXPLANATIONS: dict[str, str] = {
    # TRANSLATORS: Set-up's list of rules: one line under "Official" on what it plays.
    "official": N_("The 2017 rules: 112 cards with Wild Shuffle Hands and 3 Wild "
                   "Customizable"),
    "classic": N_("The official rules with the 108-card deck: no special wild cards"),
    "edition_2018": N_("The 2018 rules: Wild Swap Hands and 3 Blanks; a missed UNO costs 4 "
                       "cards"),
    "showdown": N_("The Showdown deck: icon cards and Wild Showdown start a showdown on the "
                   "unit"),
    "party": N_("Stack any +2 and +4, Skip or Reverse deflects a +2; draw until you can "
                "play"),
    "house": N_("Stack +2 and +4, Wild Draw Four at any time, no going out on an action or "
                "wild"),
    "killer": N_("House rules, and draw until you can play, jump in, 0s pass hands, red 0 "
                 "is +10"),
}
"""What each preset changes, in one line beside its name (Set-up's list shows it under the
name); true to ``rules.md``, "Presets" (the engine's own line on each,
``engine.rules.PRESET_SUMMARIES``, names the seed sheets instead, for developers)."""

DECKS: dict[str, str] = {
    "classic": N_("Classic (108 cards)"),
    "modern": N_("Modern (112 cards)"),
    "swap": N_("Swap Hands (112 cards)"),
    "showdown": N_("Showdown (112 cards)"),
}
"""The engine's built-in decks (``rules.md``, "Decks")."""

CUSTOM_EFFECTS: dict[str, str] = {
    "none": N_("No effect"),
    "next_draws_until_colour": N_("Next player draws until the colour"),
    "others_discard_wilds": N_("Everyone else discards their wilds"),
    "extra_turn": N_("Extra turn"),
    "next_to_seven": N_("Next player to exactly 7 cards"),
    "everyone_to_three": N_("Everyone to exactly 3 cards"),
    "hands_face_up": N_("Hands face up"),
}
"""The house rules a Wild Customizable or Blank card can carry (``engine.rules.CustomEffect``)."""

PENALTIES: dict[str, str] = {
    # TRANSLATORS: a table penalty (Killer UNO): someone made a sound after a 2 was played.
    "silence": N_("Silence after a 2"),
    # TRANSLATORS: a table penalty (Killer UNO): the last to slap a hand down after a 9.
    "slap": N_("Last to slap a 9"),
    # TRANSLATORS: a table penalty: advising another player what to play.
    "advice": N_("Advice to another player"),
    # TRANSLATORS: a table penalty: a card put down that does not match.
    "wrong_card": N_("Wrong card"),
    # TRANSLATORS: a table penalty: a player down to one card did not say "UNO" and was caught.
    "missed_uno": N_("Forgot to call UNO"),
}
"""The table's penalties (``engine.rules.PenaltyReason``), named for what the player did."""

_NUMBER_KINDS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine")


def key_of(value: str | Enum) -> str:
    """The table key for an engine enum member or a stored string: ``RUNNING_TALLY``,
    ``"running-tally"`` and ``"running_tally"`` are all ``"running_tally"``."""
    text = value.name if isinstance(value, Enum) else value
    return text.strip().lower().replace("-", "_")


def colour_mark(colour: str | Enum) -> str:
    """The short mark drawn on a card of ``colour`` beside its hue (R/Y/G/B, 赤/黄/緑/青, ...)."""
    marks = {
        "red": pgettext("colour mark", "R"),
        "yellow": pgettext("colour mark", "Y"),
        "green": pgettext("colour mark", "G"),
        "blue": pgettext("colour mark", "B"),
    }
    key = key_of(colour)
    return marks.get(key, key[:1].upper())


def _lookup(table: dict[str, str], value: str | Enum) -> str:
    """A translated name, or the value itself for something the table does not know (user data)."""
    message = table.get(key_of(value))
    if message is None:
        return value.name if isinstance(value, Enum) else value
    return _(message)


def colour_name(colour: str | Enum) -> str:
    """The name of a card colour in the current language."""
    return _lookup(COLOURS, colour)


def kind_name(kind: str | Enum) -> str:
    """The name of a card kind in the current language; number kinds are their digit."""
    key = key_of(kind)
    if key in _NUMBER_KINDS:
        return str(_NUMBER_KINDS.index(key))
    return _lookup(KINDS, kind)


def scoring_mode_name(mode: str | Enum) -> str:
    """The name of a scoring mode in the current language."""
    return _lookup(SCORING_MODES, mode)


def preset_name(preset: str | Enum) -> str:
    """The name of a preset in the current language; an unknown (user) preset keeps its own name."""
    return _lookup(PRESETS, preset)


def language_called(code: str) -> str:
    """What a language is called in the language in use ("" for one this table has no name for)."""
    message = LANGUAGE_NAMES.get(code)
    return "" if message is None else _(message)


def preset_explanation(preset: str | Enum) -> str:
    """What a preset changes, in one line in the current language ("" for a user's own)."""
    message = PRESET_EXPLANATIONS.get(key_of(preset))
    return "" if message is None else _(message)


def scoring_mode_explanation(mode: str | Enum) -> str:
    """What a scoring mode changes, in one line in the current language."""
    message = SCORING_MODE_EXPLANATIONS.get(key_of(mode))
    return "" if message is None else _(message)


def penalty_name(reason: str | Enum) -> str:
    """What a table penalty is for, in the current language."""
    return _lookup(PENALTIES, reason)


def pig_count(pigs: int) -> str:
    """A player's pigs in words ("2 pigs"), as the table, History and Game over say them."""
    # TRANSLATORS: pigs drawn on a player in 002's hero and mean scoring; the fewest win.
    return ngettext("{count} pig", "{count} pigs", pigs).format(count=pigs)


def deck_name(deck: str | Enum) -> str:
    """The name of a built-in deck in the current language; a user's deck file keeps its name."""
    return _lookup(DECKS, deck)


def custom_effect_name(effect: str | Enum) -> str:
    """The house rule of a Wild Customizable / Blank card in the current language."""
    return _lookup(CUSTOM_EFFECTS, effect)


DEFAULT_NAME = N_("Player {number}")
"""The name of a seat nobody named as every screen shows it (in the language in use): the
message id of :data:`showdown.game.names.DEFAULT_NAME`, the name the game records in English."""


def player_name(name: str) -> str:
    """A player's name as the screens show it: a default name ("Player 4") in the language in
    use, any other name as entered.

    >>> from showdown.scoreboard.i18n import use_language
    >>> with use_language("ja"):
    ...     print(player_name("Player 4"), player_name("Ana"))
    プレイヤー4 Ana
    """
    number = default_number(name)
    if number is None:
        return name
    return _(DEFAULT_NAME).format(number=number)


def player_sort_key(name: str) -> tuple[str, int, str]:
    """Order names as a reader does: "Player 9" before "Player 10" (numbers by value)."""
    found = re.fullmatch(r"(.*?)(\d+)", name)
    if found is None:
        return (name.casefold(), -1, name)
    return (found.group(1).casefold(), int(found.group(2)), name)
