"""The players who come back: the colours they pick, and each player's colour in a game.

The list itself is kept in the journal (:meth:`showdown.game.journal.Journal.players`): every
name set up on the scoreboard joins it (not the default "Player 4"), with the colour its player
picked from :data:`showdown.scoreboard.theme.PLAYER_PALETTE`, a colour-blind-safe set. In a game
two players never share a colour: a picked colour goes to the first who picked it, and everyone
else keeps their seat's colour or takes the next one nobody has.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from showdown.scoreboard import theme
from showdown.scoreboard.i18n import N_, _
from showdown.scoreboard.theme import Colour

__all__ = ["COLOUR_NAMES", "colour_label", "game_colours"]

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


def game_colours(players: Sequence[str], picked: Mapping[str, str | None]) -> list[Colour]:
    """Each seat's colour in a game: the player's own pick where no one before them took it,
    else the seat's colour where free, else the first palette colour nobody has."""
    colours: list[Colour | None] = [None] * len(players)
    taken: set[Colour] = set()
    for seat, name in enumerate(players):
        key = picked.get(name)
        own = theme.PLAYER_PALETTE.get(key) if key else None
        if own is not None and own not in taken:
            colours[seat] = own
            taken.add(own)
    for seat in range(len(players)):
        if colours[seat] is not None:
            continue
        default = theme.PLAYER_COLOURS[seat % len(theme.PLAYER_COLOURS)]
        free = [c for c in (default, *theme.PLAYER_PALETTE.values(), *theme.PLAYER_COLOURS)
                if c not in taken]
        chosen = free[0] if free else default
        colours[seat] = chosen
        taken.add(chosen)
    return [colour for colour in colours if colour is not None]
