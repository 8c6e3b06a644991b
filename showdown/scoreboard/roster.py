"""The players who come back: the colours they pick, and each player's colour in a game.

The list itself is kept in the journal (:meth:`showdown.game.journal.Journal.players`): every
name set up on the scoreboard joins it (not the default "Player 4"), with the colour its player
picked from :data:`showdown.game.colours.PLAYER_PALETTE`, a colour-blind-safe set. In a game
two players never share a colour (:func:`showdown.game.colours.game_colours`).
"""

from __future__ import annotations

from showdown.scoreboard.i18n import N_, _

__all__ = ["COLOUR_NAMES", "colour_label"]

COLOUR_NAMES: dict[str, str] = {
    "blue": N_("Blue"),
    "orange": N_("Orange"),
    "green": N_("Green"),
    "purple": N_("Purple"),
    "sky": N_("Sky blue"),
    "red": N_("Red"),
    "yellow": N_("Yellow"),
    "grey": N_("Grey"),
}
"""Each palette colour's name, written on its swatch (the colour is never the only cue)."""


def colour_label(key: str) -> str:
    """A palette colour's name in the language in use."""
    return _(COLOUR_NAMES[key]) if key in COLOUR_NAMES else key
