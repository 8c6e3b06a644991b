"""Text on the scoreboard: fonts per language, a render cache, and text that fits its box.

Rendering a string with FreeType is the most expensive thing a frame does, so rendered strings
are cached by (text, size, colour, bold); a repaint of an unchanged label is a blit. Text is
shrunk to fit its box down to a floor that stays readable at arm's length; anything that still
does not fit is clipped and recorded in :attr:`TextRenderer.overflows`, which the tests assert
is empty for every screen in every language.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pygame

from showdown.scoreboard.fonts import choose_font, load_font
from showdown.scoreboard.i18n import current_language
from showdown.scoreboard.layout import Layout
from showdown.scoreboard.theme import MIN_TEXT, Colour

MIN_FONT = MIN_TEXT
"""Smallest design font size text may shrink to (:data:`showdown.scoreboard.theme.MIN_TEXT`)."""

_CACHE_LIMIT = 2048


_chosen: dict[str, Path | None] = {}


def current_font() -> Path | None:
    """The font file for the language in use (see :func:`showdown.scoreboard.fonts.choose_font`),
    looked
    up once per language: finding it touches the file system, and every label asks."""
    language = current_language()
    if language not in _chosen:
        _chosen[language] = choose_font(language).path
    return _chosen[language]


@dataclass(frozen=True)
class Overflow:
    """A string that did not fit its box even at the smallest allowed size."""

    text: str
    box: tuple[int, int, int, int]
    needed_width: int


class TextRenderer:
    """Draws text in design coordinates, in the current language's font, cached.

    ``font_path`` answers the font file for the language currently in use (``None`` for
    pygame's bundled default); it is asked on every draw, so a change of language shows at once.
    """

    def __init__(self, layout: Layout, font_path: Callable[[], Path | None] = current_font) -> None:
        self.layout = layout
        self._font_path = font_path
        self._renders: dict[tuple[Path | None, str, int, Colour, bool], pygame.Surface] = {}
        self._fits: dict[tuple[Path | None, str, int, int, int, bool], bool] = {}
        self._fitted: dict[tuple[Any, ...], pygame.Surface] = {}
        self._wraps: dict[tuple[Any, ...], tuple[list[str], int, int]] = {}
        self.overflows: list[Overflow] = []

    def font(self, size: int, bold: bool = False) -> pygame.font.Font:
        """The font for the current language at a design size."""
        return load_font(self._font_path(), self.layout.px(size), bold)

    def render(self, text: str, size: int, colour: Colour, bold: bool = False) -> pygame.Surface:
        """A rendered (anti-aliased, transparent) string, from the cache when possible."""
        key = (self._font_path(), text, size, colour, bold)
        surface = self._renders.get(key)
        if surface is None:
            if len(self._renders) > _CACHE_LIMIT:
                self._renders.clear()
            surface = self.font(size, bold).render(text, True, colour)
            self._renders[key] = surface
        return surface

    def fitted(
        self, text: str, box: pygame.Rect, size: int, colour: Colour, bold: bool = False
    ) -> pygame.Surface:
        """The string at the largest size <= ``size`` whose rendering fits the real box."""
        real_box = self.layout.rect(box)
        key = (self._font_path(), text, real_box.width, real_box.height, size, colour, bold)
        cached = self._fitted.get(key)
        if cached is not None:
            return cached
        if len(self._fitted) > _CACHE_LIMIT:
            self._fitted.clear()
        current = size
        floor = min(size, MIN_FONT)
        while True:
            surface = self.render(text, current, colour, bold)
            fits = surface.get_width() <= real_box.width
            fits = fits and surface.get_height() <= real_box.height
            if fits or current <= floor:
                break
            current = max(floor, int(current * 0.88))
        if surface.get_width() > real_box.width or surface.get_height() > real_box.height + 2:
            self.overflows.append(
                Overflow(text, (box.x, box.y, box.width, box.height), surface.get_width())
            )
        else:  # an overflow is recomputed (and recorded) each time it is drawn
            self._fitted[key] = surface
        return surface

    def draw(
        self,
        canvas: pygame.Surface,
        text: str,
        box: pygame.Rect,
        size: int,
        colour: Colour,
        *,
        bold: bool = False,
        align: str = "center",
    ) -> None:
        """Draw one line of text fitted into a design box, aligned left, centre or right."""
        surface = self.fitted(text, box, size, colour, bold)
        real_box = self.layout.rect(box)
        target = surface.get_rect()
        target.centery = real_box.centery
        if align == "left":
            target.left = real_box.left
        elif align == "right":
            target.right = real_box.right
        else:
            target.centerx = real_box.centerx
        canvas.blit(surface, target, area=None)

    def draw_wrapped(
        self,
        canvas: pygame.Surface,
        text: str,
        box: pygame.Rect,
        size: int,
        colour: Colour,
        *,
        bold: bool = False,
    ) -> None:
        """Draw text on several centred lines: split at spaces, and CJK text (when a word is too
        wide) between characters as Japanese line-breaking rules allow (:func:`break_units`)."""
        real_box = self.layout.rect(box)
        lines, current, line_h = self._wrapped(text, real_box, size, bold)
        total = line_h * len(lines)
        top = real_box.centery - total // 2
        if total > real_box.height + 2:
            self.overflows.append(Overflow(text, (box.x, box.y, box.width, box.height), total))
        for line in lines:
            surface = self.render(line, current, colour, bold)
            if surface.get_width() > real_box.width:
                self.overflows.append(
                    Overflow(line, (box.x, box.y, box.width, box.height), surface.get_width())
                )
            rect = surface.get_rect(centerx=real_box.centerx, top=top)
            canvas.blit(surface, rect)
            top += line_h

    def fits_on_one_line(self, text: str, box: pygame.Rect, size: int, bold: bool = False) -> bool:
        """Whether ``text`` fits the box on one line at some size down to the floor."""
        real_box = self.layout.rect(box)
        key = (self._font_path(), text, real_box.width, real_box.height, size, bold)
        known = self._fits.get(key)
        if known is None:
            if len(self._fits) > _CACHE_LIMIT:
                self._fits.clear()
            width, height = self.font(min(size, MIN_FONT), bold).size(text)
            known = width <= real_box.width and height <= real_box.height + 2
            self._fits[key] = known
        return known

    def draw_fitting(
        self,
        canvas: pygame.Surface,
        text: str,
        box: pygame.Rect,
        size: int,
        colour: Colour,
        *,
        bold: bool = False,
        align: str = "center",
    ) -> None:
        """One line if it fits (shrunk as needed), otherwise wrapped over several lines."""
        if self.fits_on_one_line(text, box, size, bold):
            self.draw(canvas, text, box, size, colour, bold=bold, align=align)
        else:
            self.draw_wrapped(canvas, text, box, size, colour, bold=bold)

    def _wrapped(
        self, text: str, real_box: pygame.Rect, size: int, bold: bool
    ) -> tuple[list[str], int, int]:
        """Lines, font size and line height for wrapped text (cached: measuring is slow)."""
        key = (self._font_path(), text, real_box.width, real_box.height, size, bold)
        known = self._wraps.get(key)
        if known is not None:
            return known
        current = size
        while True:
            lines = self._wrap(text, real_box.width, current, bold)
            line_h = self.font(current, bold).get_linesize()
            widest = max((self.font(current, bold).size(line)[0] for line in lines), default=0)
            fits = line_h * len(lines) <= real_box.height and widest <= real_box.width
            if fits or current <= MIN_FONT:
                break
            current = max(MIN_FONT, int(current * 0.88))
        if len(self._wraps) > _CACHE_LIMIT:
            self._wraps.clear()
        self._wraps[key] = (lines, current, line_h)
        return lines, current, line_h

    def _wrap(self, text: str, width: int, size: int, bold: bool) -> list[str]:
        font = self.font(size, bold)

        def fits(candidate: str) -> bool:
            return bool(font.size(candidate)[0] <= width)

        pieces: list[tuple[str, str]] = []  # (piece, what joins it to the one before)
        for word in text.split(" "):
            if not word:
                continue
            parts = break_units(word) if not fits(word) else [word]
            pieces += [(part, " " if index == 0 else "") for index, part in enumerate(parts)]
        lines: list[str] = []
        current = ""
        for piece, joiner in pieces:
            candidate = f"{current}{joiner}{piece}" if current else piece
            if fits(candidate) or not current:
                current = candidate
            else:
                lines.append(current)
                current = piece
        if current:
            lines.append(current)
        return lines


NO_LINE_START = frozenset(
    "ー‐–〜～。、，．・：；？！?!,.:;%％)）]］}｝〕〉》」』】〙〗"
    "ぁぃぅぇぉっゃゅょゎゕゖァィゥェォッャュョヮヵヶㇰㇱㇲㇳㇴㇵㇶㇷㇸㇹㇺㇻㇼㇽㇾㇿ々〻ゝゞヽヾ゛゜"
)
"""Characters no line may start with (Japanese kinsoku shori, as JIS X 4051 lists them: the
long-vowel mark, closing brackets, stops and commas, small kana, iteration marks)."""

NO_LINE_END = frozenset("(（[［{｛〔〈《「『【〘〖")
"""Characters no line may end with: the opening brackets."""


def _is_wide(char: str) -> bool:
    return ord(char) >= 0x2E80


def break_units(word: str) -> list[str]:
    """A word without spaces cut into the pieces a line may break between.

    CJK text breaks between any two characters except where kinsoku forbids it: a character
    that may not start a line stays with the one before it, an opening bracket stays with the
    one after it, and a run of Latin letters or digits ("4", "+2") is never cut. Text that is
    not CJK is one piece (it breaks only at spaces).
    """
    if not any(_is_wide(char) for char in word):
        return [word]
    units: list[str] = []
    glue_next = False
    for char in word:
        narrow_run = bool(units) and not _is_wide(char) and not _is_wide(units[-1][-1])
        if units and (glue_next or char in NO_LINE_START or narrow_run):
            units[-1] += char
        else:
            units.append(char)
        glue_next = char in NO_LINE_END
    return units
