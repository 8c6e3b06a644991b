"""Colours, sizes and the cues that never rely on colour alone.

The palette is dark (readable in a dim room, kind to an LCD's backlight). Every colour that
carries meaning has a second channel: the countdown's waiting and go states differ in shape and
word, and each card colour has a letter and a pattern (:data:`CARD_COLOURS`).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

Colour = tuple[int, int, int]

MIN_TEXT = 16
"""Smallest design font size any scoreboard text may shrink to (16 px at 800x480 is a line about
3 mm high on a 7-inch panel); text that does not fit at this size wraps, and the tests fail on
any that still overflows."""

READABLE_TEXT = 20
"""Smallest design size of text read across the table rather than up close (navigation, column
heads, captions): 20 px at 800x480 is a line about 4 mm high on a 7-inch panel. Such labels get
boxes they fit at this size in every language (tests/showdown/scoreboard/test_readability.py)."""

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
NEWS: Colour = (30, 78, 120)
"""The banner that says what was recorded: calm, and never the error colour (:data:`DANGER`)."""
WAITING_RED: Colour = (200, 30, 30)
"""Countdown: wait. Chosen with :data:`GO_GREEN` to stay apart under protanopia and
deuteranopia (CIEDE2000 >= 27 after Machado 2009), besides the shape and word."""
GO_GREEN: Colour = (20, 210, 160)
"""Countdown: go. A blue-leaning green, as signal greens for colour-blind viewers are."""

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


class Pattern(Enum):
    """A texture drawn over a card colour, so the four colours differ without hue."""

    PLAIN = "plain"
    STRIPES = "stripes"
    DOTS = "dots"
    GRID = "grid"


@dataclass(frozen=True)
class CardColourStyle:
    """How one card colour is drawn: its fill and the pattern over it (the mark comes from
    :func:`showdown.scoreboard.vocabulary.colour_mark`, in the language in use)."""

    fill: Colour
    pattern: Pattern


CARD_COLOURS: dict[str, CardColourStyle] = {
    "red": CardColourStyle((190, 25, 35), Pattern.STRIPES),
    "yellow": CardColourStyle((245, 200, 20), Pattern.DOTS),
    "green": CardColourStyle((30, 160, 110), Pattern.GRID),
    "blue": CardColourStyle((30, 90, 210), Pattern.PLAIN),
}
"""The four card colours, keyed as :data:`showdown.scoreboard.vocabulary.COLOURS` keys them. The
fills
stay at least 17 CIEDE2000 apart under every simulated dichromacy; marks and patterns do
the rest."""
