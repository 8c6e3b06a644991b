"""Colours, sizes and the cues that never rely on colour alone.

The palette is dark (readable in a dim room, kind to an LCD's backlight). Every colour that
carries meaning has a second channel: the countdown's waiting and go states differ in shape and
word, and each card colour has a letter and a pattern (:data:`CARD_COLOURS`).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

Colour = tuple[int, int, int]

BACKGROUND: Colour = (18, 22, 30)
PANEL: Colour = (34, 40, 54)
PANEL_LIGHT: Colour = (52, 60, 80)
TEXT: Colour = (240, 240, 235)
TEXT_DIM: Colour = (160, 168, 185)
ACCENT: Colour = (255, 196, 0)
BUTTON: Colour = (58, 92, 160)
BUTTON_DISABLED: Colour = (60, 64, 74)
DANGER: Colour = (200, 60, 50)
OK: Colour = (40, 150, 90)
# Waiting is darker and go lighter, so they stay apart by lightness where red and green merge
# (deuteranopia, protanopia): tests/showdown/test_colour_vision_screens.py holds them to it.
WAITING_RED: Colour = (190, 30, 40)
GO_GREEN: Colour = (70, 235, 110)

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


class Pattern(Enum):
    """A texture drawn over a card colour, so the four colours differ without hue."""

    PLAIN = "plain"
    STRIPES = "stripes"
    DOTS = "dots"
    GRID = "grid"


@dataclass(frozen=True)
class CardColourStyle:
    """How one card colour is drawn: its fill and the pattern over it (the mark comes from
    :func:`showdown.vocabulary.colour_mark`, in the language in use)."""

    fill: Colour
    pattern: Pattern


CARD_COLOURS: dict[str, CardColourStyle] = {
    "red": CardColourStyle((180, 25, 35), Pattern.STRIPES),
    "yellow": CardColourStyle((250, 210, 30), Pattern.DOTS),
    "green": CardColourStyle((40, 160, 110), Pattern.GRID),
    "blue": CardColourStyle((30, 90, 210), Pattern.PLAIN),
}
"""The four card colours, keyed as :data:`showdown.vocabulary.COLOURS` keys them. Red is dark
and green a lighter blue-green, so all four stay apart under red-green colour blindness (checked
by tests/showdown/test_colour_vision_screens.py)."""
