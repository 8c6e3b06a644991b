"""A refusal's words in the table's language: the template through :func:`_`, values substituted.

The session and the engine refuse in English and hand over the message as plain data
(:class:`~engine.error_text.ErrorText`): the template is the message id, nested texts (``seat 1
(Bo)``, ``the winner``) are translated the same way, lists are joined with the language's own
separator, and a card kind or scoring mode named in a message takes its seed-sheet name
(:mod:`showdown.scoreboard.vocabulary`). The translation happens when the banner is drawn, so a
language
changed while the banner shows redraws it in the new language.

>>> from showdown.scoreboard.i18n import use_language
>>> refusal = ErrorText("{who}: points cannot be negative ({points})",
...                     {"who": ErrorText("seat {seat} ({name})", {"seat": 1, "name": "Bo"}),
...                      "points": -5})
>>> with use_language("id"):
...     print(translate(refusal))
kursi 1 (Bo): poin tidak boleh negatif (-5)
"""

from __future__ import annotations

from engine.error_text import ErrorText
from showdown.scoreboard.i18n import N_, _, pgettext
from showdown.scoreboard.vocabulary import kind_name, scoring_mode_name

__all__ = ["translate"]

PARTNER_GAMES: dict[str, str] = {
    "fixed": N_("fixed partners"),
    "rotating": N_("rotating partners"),
    "two-tables": N_("two tables"),
}
"""The partner games of ``engine.scoring.PartnerVariation``, as a refusal names them."""


def _partner_game(value: str) -> str:
    message = PARTNER_GAMES.get(value)
    return value if message is None else _(message)


_NAMED = {"kind": kind_name, "mode": scoring_mode_name, "partners": _partner_game}
"""Values that are names the catalogue knows (card kinds, scoring modes, partner games)."""


def translate(text: ErrorText) -> str:
    """``text`` in the current language; an unknown template (user data, a plain message) stays
    as written, and a translation that breaks its placeholders falls back to English."""
    values = {key: _value(key, value) for key, value in text.params.items()}
    try:
        return _(text.template).format(**values)
    except (KeyError, IndexError, ValueError):
        return text.template.format(**values)


def _value(key: str, value: object) -> object:
    if isinstance(value, ErrorText):
        return translate(value)
    if isinstance(value, tuple):
        separator = pgettext("list separator", ", ")
        return separator.join(str(_value(key, item)) for item in value)
    if isinstance(value, str) and key in ("kind", "mode"):
        return _NAMED[key](value.replace(" ", "_"))
    if isinstance(value, str) and key in _NAMED:
        return _NAMED[key](value)
    return value
