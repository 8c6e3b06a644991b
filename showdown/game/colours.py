"""Each player's colour: the set players pick from, the seats' colours, and a game's colours.

A player's pick is kept in the journal with their name
(:meth:`showdown.game.journal.Journal.players`); the scoreboard and the phone page
(``showdown.web``) draw every player in the colour :func:`game_colours` gives them, so both show
the same colours without importing each other.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

__all__ = ["PLAYER_COLOURS", "PLAYER_PALETTE", "Colour", "game_colours"]

Colour = tuple[int, int, int]

PLAYER_COLOURS: tuple[Colour, ...] = (
    (0, 114, 178),
    (230, 159, 0),
    (0, 158, 115),
    (204, 121, 167),
    (86, 180, 233),
    (213, 94, 0),
    (240, 228, 66),
    (170, 170, 170),
    (120, 90, 200),
    (140, 200, 120),
)
"""Line colours of the chart: the Okabe-Ito set first (distinct under common colour blindness);
each line also carries its player's initial at every point, so colour is never the only key."""


PLAYER_PALETTE: dict[str, Colour] = {
    "blue": (0, 114, 178),
    "orange": (230, 159, 0),
    "green": (0, 158, 115),
    "purple": (204, 121, 167),
    "sky": (86, 180, 233),
    "red": (213, 94, 0),
    "yellow": (240, 228, 66),
    "grey": (210, 210, 210),
}
"""The colours a player can pick for themselves: the Okabe-Ito set (without its black, lost on
the dark background) and a light grey. Every two stay at least
:data:`showdown.scoreboard.colour_vision.PLAYER_MIN_DELTA_E` apart in CIEDE2000 with normal
colour vision and under each simulated dichromacy (a test checks it); the chart's marker
shapes and the names beside every line do the rest."""


def game_colours(players: Sequence[str], picked: Mapping[str, str | None]) -> list[Colour]:
    """Each seat's colour in a game: the player's own pick where no one before them took it,
    else the seat's colour where free, else the first palette colour nobody has."""
    colours: list[Colour | None] = [None] * len(players)
    taken: set[Colour] = set()
    for seat, name in enumerate(players):
        key = picked.get(name)
        own = PLAYER_PALETTE.get(key) if key else None
        if own is not None and own not in taken:
            colours[seat] = own
            taken.add(own)
    for seat in range(len(players)):
        if colours[seat] is not None:
            continue
        default = PLAYER_COLOURS[seat % len(PLAYER_COLOURS)]
        free = [c for c in (default, *PLAYER_PALETTE.values(), *PLAYER_COLOURS)
                if c not in taken]
        chosen = free[0] if free else default
        colours[seat] = chosen
        taken.add(chosen)
    return [colour for colour in colours if colour is not None]
