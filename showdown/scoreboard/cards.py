"""Cards drawn on the scoreboard: colour, plus a mark and a pattern so no one needs the hue.

Used by the round-end tally (the colour picker and the card buttons). With the colour-mark cue
off (:class:`showdown.scoreboard.accessibility.CueSettings`), only the fill colour remains.
"""

from __future__ import annotations

import pygame

from showdown.scoreboard import theme
from showdown.scoreboard.theme import CARD_COLOURS, Pattern
from showdown.scoreboard.vocabulary import colour_mark
from showdown.scoreboard.widgets import Canvas

WILD_FILL: theme.Colour = (30, 30, 30)
_PATTERN_INK: theme.Colour = (255, 255, 255)
_PLATE: theme.Colour = (20, 20, 20)


def paint_pattern(surface: pygame.Surface, real: pygame.Rect, pattern: Pattern, step: int) -> None:
    """Texture over a card colour: stripes, dots, a grid, or nothing."""
    clip = surface.get_clip()
    surface.set_clip(real)
    ink = _PATTERN_INK
    if pattern is Pattern.STRIPES:
        for x in range(real.left - real.height, real.right, step):
            pygame.draw.line(surface, ink, (x, real.bottom), (x + real.height, real.top), 2)
    elif pattern is Pattern.DOTS:
        for y in range(real.top + step // 2, real.bottom, step):
            for x in range(real.left + step // 2, real.right, step):
                pygame.draw.circle(surface, ink, (x, y), max(2, step // 6))
    elif pattern is Pattern.GRID:
        for x in range(real.left, real.right, step):
            pygame.draw.line(surface, ink, (x, real.top), (x, real.bottom), 1)
        for y in range(real.top, real.bottom, step):
            pygame.draw.line(surface, ink, (real.left, y), (real.right, y), 1)
    surface.set_clip(clip)


def card_text(colour: str | None, face: str, *, marks: bool, word: bool = False) -> str:
    """What a card's plate says: its face, after the colour's mark where marks are on ("G7",
    "G Skip"; a word card always with a space, "绿 跳过", so all word cards read alike)."""
    if colour not in CARD_COLOURS or not marks:
        return face
    mark = colour_mark(colour)
    return f"{mark} {face}" if face and (word or len(face) > 2) else f"{mark}{face}"


WORD_PLATE_INSET = (10, 8)
"""How much narrower and lower than its card a word card's text box is (plate and margin)."""

WORD_TEXT = 22
"""The largest design size of a word card's text; all word cards share one size up to it."""


def paint_card(
    canvas: Canvas,
    box: pygame.Rect,
    colour: str | None,
    face: str,
    *,
    marks: bool,
    selected: bool = False,
    peers: tuple[str, ...] = (),
) -> None:
    """A card (or a colour swatch) in a design box: fill, pattern, then mark and face on a plate.

    ``face`` is the card's own text (a digit, or a translated kind name). A word card names its
    ``peers`` (every word card's :func:`card_text`, its own among them): all are drawn at the one
    size at which each fits its plate, on one line where they can, else wrapped evenly.
    """
    real = canvas.rect(box)
    surface = canvas.surface
    surface.fill(theme.BACKGROUND, real)
    radius = canvas.layout.px(6)
    style = CARD_COLOURS.get(colour) if colour else None
    pygame.draw.rect(surface, style.fill if style else WILD_FILL, real, border_radius=radius)
    text = card_text(colour, face, marks=marks, word=bool(peers))
    if style is not None and marks:
        paint_pattern(surface, real.inflate(-4, -4), style.pattern, canvas.layout.px(12))
    if text and peers:
        plate = box.inflate(-6, -6)
        pygame.draw.rect(surface, _PLATE, canvas.rect(plate), border_radius=radius)
        inner = box.inflate(-WORD_PLATE_INSET[0], -WORD_PLATE_INSET[1])
        size, wrap = canvas.text.shared_size(peers, inner, WORD_TEXT, bold=True)
        canvas.text.draw(surface, text, inner, size, theme.TEXT, bold=True, wrap=wrap)
    elif text:
        plate = box.inflate(-6, -6) if len(text) > 3 else box.inflate(-box.width // 4, -12)
        pygame.draw.rect(surface, _PLATE, canvas.rect(plate), border_radius=radius)
        if len(text) > 3:
            canvas.text.draw(surface, text, plate.inflate(-4, -2), 18, theme.TEXT, bold=True,
                             wrap=True)
        else:
            canvas.text.draw(surface, text, plate.inflate(-4, 0), max(16, plate.height - 4),
                             theme.TEXT, bold=True)
    border = theme.ACCENT if selected else theme.PANEL_LIGHT
    pygame.draw.rect(surface, border, real, width=canvas.layout.px(4 if selected else 2),
                     border_radius=radius)
