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
from showdown.scoreboard.vocabulary import kind_name, player_name, scoring_mode_name

__all__ = ["SPOKEN", "spoken", "translate"]

PARTNER_GAMES: dict[str, str] = {
    "fixed": N_("fixed partners"),
    "rotating": N_("rotating partners"),
    "two-tables": N_("two tables"),
}
"""The partner games of ``engine.scoring.PartnerVariation``, as a refusal names them."""


def _partner_game(value: str) -> str:
    message = PARTNER_GAMES.get(value)
    return value if message is None else _(message)


_NAMED = {"kind": kind_name, "mode": scoring_mode_name, "partners": _partner_game,
          "name": player_name, "players": player_name, "winner": player_name,
          "loser": player_name}
"""Values that are names the catalogue knows (card kinds, scoring modes, partner games) and
players' names (a default name, "Player 4", is shown in the language in use)."""


SPOKEN: dict[str, str] = {
    "there is nothing to undo": N_("Nothing to undo yet"),
    "there is nothing to redo": N_("Nothing to redo"),
    "there is no showdown to correct": N_("No showdown to correct yet"),
    "{who}: {total} points is more than the cards not yet counted are worth ({worth})":
        N_("{who} can't hold {total} points: only {worth} are left in the other hands"),
    "{who}: no hand of the cards not yet counted adds up to {total}":
        N_("{who} can't hold exactly {total} points with the cards that are left"),
    "{holders}: no cards left uncounted add up to {total} points together":
        N_("{holders} can't hold {total} points between them with the cards that are left"),
    "{who}: holds {count} {kind} cards, but the deck has only {copies}":
        N_("{who} can't hold {count} {kind} cards: the deck has only {copies}"),
    "{holders} hold {count} {kind} cards between them, but the deck has only {copies}":
        N_("{holders} can't hold {count} {kind} cards between them: the deck has only {copies}"),
    "{who}: this deck has no {kind} cards": N_("This deck has no {kind} cards"),
    "every player needs a name": N_("Every player needs a name"),
    "two players have the same name: {names}": N_("Two players can't have the same name: {names}"),
    "the game is over: no more rounds can be recorded":
        N_("This game is over: start a new one to play on"),
    "the game is over: no more showdowns can be recorded":
        N_("This game is over: start a new one to play on"),
    "{name} is not in this round": N_("{name} is out of the game"),
    "showdown {id} already has a result": N_("This showdown already has a result"),
    "this entry was already recorded": N_("That was already recorded"),
    "no game is set up yet: set up the players first": N_("Set up a game first"),
    "{player}: {name!r} is not a kind of card (use 0-9, skip, reverse, draw-two, wild, "
    "wild-draw-four, ...)": N_("There is no card called {name}"),
}
"""Refusals as the banner says them to the players: the session's and the engine's messages are
written for logs ("seat 4 (Ana): 3333 points is more than the cards not yet counted are worth
(1351)"); the banner names the player and says what is wrong in a sentence. Same values."""


def spoken(text: ErrorText) -> str:
    """``text`` as the banner says it: the players' sentence if there is one (a seat is named by
    its player), otherwise the translated message with a capital letter."""
    words = SPOKEN.get(text.template)
    if words is None:
        said = translate(text)
        return said[:1].upper() + said[1:]
    params = {key: _by_name(value) for key, value in text.params.items()}
    return translate(ErrorText(words, params))  # type: ignore[arg-type]


def _by_name(value: object) -> object:
    """A seat as the players know it: by the name of who sits there (a default name in the
    language in use)."""
    if isinstance(value, ErrorText) and "name" in value.params:
        name = value.params["name"]
        return player_name(name) if isinstance(name, str) else name
    if isinstance(value, tuple):
        return tuple(_by_name(item) for item in value)
    return value


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
