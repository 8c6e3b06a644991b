"""Text on the scoreboard: fonts per language, a render cache, and text that fits its box.

Rendering a string with FreeType is the most expensive thing a frame does, so rendered strings
are cached by (text, size, colour, bold); a repaint of an unchanged label is a blit. Text is
shrunk to fit its box down to a floor that stays readable at arm's length; anything that still
does not fit is clipped and recorded in :attr:`TextRenderer.overflows`, which the tests assert
is empty for every screen in every language.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pygame

from showdown.scoreboard.face import Face, face
from showdown.scoreboard.fonts import FontSet, current_fonts
from showdown.scoreboard.layout import Layout
from showdown.scoreboard.theme import MIN_TEXT, Colour

MIN_FONT = MIN_TEXT
"""Smallest design font size text may shrink to (:data:`showdown.scoreboard.theme.MIN_TEXT`)."""

_CACHE_LIMIT = 2048


@dataclass(frozen=True)
class Overflow:
    """A string that did not fit its box even at the smallest allowed size."""

    text: str
    box: tuple[int, int, int, int]
    needed_width: int


class TextRenderer:
    """Draws text in design coordinates, in the current language's fonts, cached.

    ``fonts`` answers the fonts of the language currently in use
    (:func:`showdown.scoreboard.fonts.current_fonts`); it is asked on every draw, so a change of
    language shows at once. :attr:`sizes` keeps the design size each text was last drawn at, so
    the tests can check that nothing is drawn below the readable floor.
    """

    def __init__(self, layout: Layout, fonts: Callable[[], FontSet] = current_fonts) -> None:
        self.layout = layout
        self._fonts = fonts
        self._renders: dict[tuple[FontSet, str, int, Colour, bool], pygame.Surface] = {}
        self._fits: dict[tuple[FontSet, str, int, int, int, bool], bool] = {}
        self._fitted: dict[tuple[Any, ...], tuple[pygame.Surface, int]] = {}
        self._wraps: dict[tuple[Any, ...], tuple[list[str], int, int]] = {}
        self._shared: dict[tuple[Any, ...], tuple[int, bool]] = {}
        self.overflows: list[Overflow] = []
        self.sizes: dict[str, int] = {}
        """The design size each text was last drawn at (emptied now and then, like a cache)."""

    def font(self, size: int, bold: bool = False) -> Face:
        """The current language's fonts at a design size."""
        return face(self._fonts(), self.layout.px(size), bold)

    def render(self, text: str, size: int, colour: Colour, bold: bool = False) -> pygame.Surface:
        """A rendered (anti-aliased, transparent) string, from the cache when possible."""
        key = (self._fonts(), text, size, colour, bold)
        surface = self._renders.get(key)
        if surface is None:
            if len(self._renders) > _CACHE_LIMIT:
                self._renders.clear()
            surface = self.font(size, bold).render(text, True, colour)
            self._renders[key] = surface
        self._drawn(text, size)
        return surface

    def _drawn(self, text: str, size: int) -> None:
        if len(self.sizes) > _CACHE_LIMIT:
            self.sizes.clear()
        self.sizes[text] = size

    def fitted(
        self, text: str, box: pygame.Rect, size: int, colour: Colour, bold: bool = False
    ) -> pygame.Surface:
        """The string at the largest size <= ``size`` whose rendering fits the real box."""
        real_box = self.layout.rect(box)
        key = (self._fonts(), text, real_box.width, real_box.height, size, colour, bold)
        cached = self._fitted.get(key)
        if cached is not None:
            self._drawn(text, cached[1])
            return cached[0]
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
            self._fitted[key] = (surface, current)
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
        anywhere: bool = False,
        floor: int = 0,
    ) -> None:
        """Draw text on several centred lines: split at spaces, and CJK text (when a word is too
        wide) between characters as Japanese line-breaking rules allow (:func:`break_units`);
        with ``anywhere``, any word too wide breaks between letters. ``floor``: the smallest
        design size (default :data:`MIN_FONT`)."""
        real_box = self.layout.rect(box)
        lines, current, line_h = self._wrapped(text, real_box, size, bold, anywhere,
                                               floor=floor)
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
        key = (self._fonts(), text, real_box.width, real_box.height, size, bold)
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

    def wrapped_height(self, text: str, box: pygame.Rect, size: int, *, bold: bool = False,
                       floor: int = 0) -> int:
        """The design height ``text`` takes wrapped in ``box``'s width at the size
        :meth:`draw_wrapped` would draw it (a box that must grow to hold it)."""
        real_box = self.layout.rect(box)
        lines, _current, line_h = self._wrapped(text, real_box, size, bold, floor=floor)
        return math.ceil(line_h * len(lines) / self.layout.scale)

    def _wrapped(
        self, text: str, real_box: pygame.Rect, size: int, bold: bool, anywhere: bool = False,
        *, floor: int = 0,
    ) -> tuple[list[str], int, int]:
        """Lines, font size and line height for wrapped text (cached: measuring is slow)."""
        key = (self._fonts(), text, real_box.width, real_box.height, size, bold, anywhere, floor)
        known = self._wraps.get(key)
        if known is not None:
            return known
        current = size
        lowest = max(floor, MIN_FONT)
        while True:
            lines = self._wrap(text, real_box.width, current, bold, anywhere)
            line_h = self.font(current, bold).get_linesize()
            widest = max((self.font(current, bold).size(line)[0] for line in lines), default=0)
            fits = line_h * len(lines) <= real_box.height and widest <= real_box.width
            if fits or current <= lowest:
                break
            current = max(lowest, int(current * 0.88))
        if len(self._wraps) > _CACHE_LIMIT:
            self._wraps.clear()
        self._wraps[key] = (lines, current, line_h)
        return lines, current, line_h

    def _wrap(self, text: str, width: int, size: int, bold: bool,
              anywhere: bool = False) -> list[str]:
        """Lines of at most ``width`` pixels, as even as the breaks allow: as few lines as
        filling each line would give, but no wider than needed ("万能并罚 / 抽四张牌", not
        "万能并罚抽四 / 张牌")."""
        font = self.font(size, bold)
        pieces: list[tuple[str, str]] = []  # (piece, what joins it to the one before)
        for word in text.split(" "):
            if not word:
                continue
            parts = break_units(word) if font.size(word)[0] > width else [word]
            smallest = self.font(MIN_FONT, bold)
            if anywhere and any(smallest.size(part)[0] > width for part in parts):
                parts = list(word)  # too wide even at the floor: break between letters
            pieces += [(part, " " if index == 0 else "") for index, part in enumerate(parts)]
        lines = _fill(pieces, font, width)
        if len(lines) > 1:
            low, high = 1, width
            while low < high:  # the narrowest width that needs no more lines
                middle = (low + high) // 2
                if len(_fill(pieces, font, middle)) <= len(lines):
                    high = middle
                else:
                    low = middle + 1
            lines = _fill(pieces, font, low)
        return lines

    def shared_size(
        self, texts: tuple[str, ...], box: pygame.Rect, size: int, bold: bool = False
    ) -> tuple[int, bool]:
        """One design size for labels seen side by side (the round end's card buttons), so
        they do not mix sizes: the largest up to ``size`` at which every text fits ``box`` on
        one line, else (``True``) the largest at which every text fits wrapped; the floor
        :data:`MIN_FONT` if none does."""
        real_box = self.layout.rect(box)
        key = (self._fonts(), texts, real_box.width, real_box.height, size, bold)
        known = self._shared.get(key)
        if known is not None:
            return known
        known = (MIN_FONT, True)
        for wrap in (False, True):
            found = next((s for s in range(size, MIN_FONT - 1, -1)
                          if all(self._fits_box(t, real_box, s, bold, wrap) for t in texts)),
                         None)
            if found is not None:
                known = (found, wrap)
                break
        if len(self._shared) > _CACHE_LIMIT:
            self._shared.clear()
        self._shared[key] = known
        return known

    def _fits_box(self, text: str, real_box: pygame.Rect, size: int, bold: bool,
                  wrap: bool) -> bool:
        font = self.font(size, bold)
        if not wrap:
            width, height = font.size(text)
            return bool(width <= real_box.width and height <= real_box.height)
        lines = self._wrap(text, real_box.width, size, bold)
        widest = max((font.size(line)[0] for line in lines), default=0)
        return bool(widest <= real_box.width and
                    font.get_linesize() * len(lines) <= real_box.height)


def _fill(pieces: list[tuple[str, str]], font: Face, width: int) -> list[str]:
    """Lines filled piece by piece up to ``width`` pixels (a piece wider than that alone)."""
    lines: list[str] = []
    current = ""
    for piece, joiner in pieces:
        candidate = f"{current}{joiner}{piece}" if current else piece
        if font.size(candidate)[0] <= width or not current:
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
