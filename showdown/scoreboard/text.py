"""Text on the scoreboard: fonts per language, a render cache, and text that fits its box.

Rendering a string with FreeType is the most expensive thing a frame does, so rendered strings
are cached by (text, size, colour, bold); a repaint of an unchanged label is a blit. Every
widget fits its text the one way (:meth:`TextRenderer.fit`), so none runs out of its box or
over its neighbour's, whatever the name or the language: shrunk down to a floor that stays
readable at arm's length, then broken over lines where the box has room, and only then cut short
with "…", the whole a tap away (the scoreboard tells it on its banner). Each line drawn is
recorded with the widget that drew it (:attr:`TextRenderer.drawn`): the tests read from those
rectangles that no text leaves its widget and no two overlap, on every screen in every language.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pygame

from showdown.scoreboard.face import Face, ellipsize, face
from showdown.scoreboard.fonts import FontSet, current_fonts
from showdown.scoreboard.layout import Layout
from showdown.scoreboard.theme import MIN_TEXT, Colour

MIN_FONT = MIN_TEXT
"""Smallest design font size text may shrink to (:data:`showdown.scoreboard.theme.MIN_TEXT`)."""

_CACHE_LIMIT = 2048


@dataclass(frozen=True)
class Drawn:
    """One line of text as it went on the screen, and the widget that drew it: what a test (or
    a tap) reads to know where text is, whether it stays inside its widget, and whether it was
    shortened. The ink is measured only when asked, so recording costs a tuple per line."""

    owner: str
    """The id of the widget that drew it."""
    widget: pygame.Rect
    """The widget's design rectangle."""
    box: pygame.Rect
    """The window rectangle the text was fitted to."""
    line: str
    """What was drawn (one line; "…" at the end where the text was shortened)."""
    whole: str
    """The whole text the line is part of."""
    shortened: bool
    """Whether some of :attr:`whole` was left out (the ellipsis)."""
    at: pygame.Rect
    """The window rectangle the rendered line was put in."""
    surface: pygame.Surface

    @property
    def ink(self) -> pygame.Rect:
        """The window rectangle of the pixels the line actually inked."""
        return self.surface.get_bounding_rect().move(self.at.topleft)


@dataclass(frozen=True)
class Fit:
    """How a text goes in its box (:meth:`TextRenderer.fit`)."""

    lines: tuple[str, ...]
    size: int
    """The design size the lines are drawn at."""
    line_height: int
    """Window pixels from one line's top to the next's."""
    wrapped: bool = False
    """Drawn as centred lines (even where there is one), not as one aligned line."""
    shortened: bool = False
    """Some of the text was left out, the last line ending in "…"."""
    fits: bool = True
    """False only where not even one line at the floor size is as low as the box."""


@dataclass(frozen=True)
class Overflow:
    """A string that did not fit its box even cut short: a box lower than one line at the
    floor size."""

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
        self._fitted: dict[tuple[Any, ...], Fit] = {}
        self._wraps: dict[tuple[Any, ...], tuple[list[str], int, int]] = {}
        self._shared: dict[tuple[Any, ...], tuple[int, bool]] = {}
        self.overflows: list[Overflow] = []
        self.sizes: dict[str, int] = {}
        """The design size each text was last drawn at (emptied now and then, like a cache)."""
        self.drawn: dict[str, list[Drawn]] = {}
        """The lines on the screen now, by the widget that drew them (kept by the painter:
        :meth:`begin` when a widget is drawn again, :meth:`forget` when it goes)."""
        self._owner: tuple[str, pygame.Rect] | None = None

    def begin(self, owner: str, widget: pygame.Rect) -> None:
        """What is drawn from now until :meth:`end` is ``owner``'s, in its design rectangle
        ``widget``; what it drew before is gone."""
        self._owner = (owner, widget)
        self.drawn.pop(owner, None)

    def end(self) -> None:
        """Text drawn from now on belongs to no widget (and is not recorded)."""
        self._owner = None

    def forget(self, owner: str | None = None) -> None:
        """A widget left the screen (``None``: the whole screen was cleared)."""
        if owner is None:
            self.drawn.clear()
        else:
            self.drawn.pop(owner, None)

    def whole(self, owner: str) -> str | None:
        """The whole of what ``owner`` draws cut short ("…"), if it cut any (its texts joined
        by " · "); ``None`` if everything it draws is shown whole."""
        cut = dict.fromkeys(line.whole for line in self.drawn.get(owner, ()) if line.shortened)
        return " · ".join(cut) if cut else None

    def _record(self, box: pygame.Rect, line: str, surface: pygame.Surface, at: pygame.Rect,
                *, whole: str, shortened: bool = False) -> None:
        if self._owner is not None:
            owner, widget = self._owner
            self.drawn.setdefault(owner, []).append(
                Drawn(owner, widget, box, line, whole, shortened, at, surface))

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

    def fit(
        self, text: str, box: pygame.Rect, size: int, *, bold: bool = False, wrap: bool = False,
        anywhere: bool = False, floor: int = 0,
    ) -> Fit:
        """How ``text`` goes in the design ``box``: the one way every widget fits its text.

        One line at the largest size from ``size`` down to the readable floor
        (:data:`MIN_FONT`); else (or at once, with ``wrap``) even lines broken at spaces and
        between CJK characters (:func:`break_units`), shrunk down to ``floor`` (default the
        readable floor); else the same with a word too wide for the box broken between its
        letters (at once, with ``anywhere``); else, at the floor, as many lines as the box
        holds, the last cut short with "…" (:attr:`Fit.shortened`: a tap shows the whole text).
        Cached: measuring is slow.
        """
        real_box = self.layout.rect(box)
        key = (self._fonts(), text, real_box.width, real_box.height, size, bold, wrap,
               anywhere, floor)
        known = self._fitted.get(key)
        if known is None:
            known = self._fit(text, real_box, size, bold=bold, wrap=wrap, anywhere=anywhere,
                              floor=floor)
            if len(self._fitted) > _CACHE_LIMIT:
                self._fitted.clear()
            self._fitted[key] = known
        return known

    def _fit(self, text: str, real_box: pygame.Rect, size: int, *, bold: bool, wrap: bool,
             anywhere: bool, floor: int) -> Fit:
        if not wrap and self._fits_one_line(text, real_box, size, bold):
            current = size
            lowest = min(size, MIN_FONT)
            while True:
                width, height = self.font(current, bold).size(text)
                if (width <= real_box.width and height <= real_box.height) or current <= lowest:
                    break
                current = max(lowest, int(current * 0.88))
            return Fit((text,), current, self.font(current, bold).get_linesize())
        for breaking in (True,) if anywhere else (False, True):
            lines, current, line_h = self._wrapped(text, real_box, size, bold, breaking,
                                                   floor=floor)
            font = self.font(current, bold)
            if (line_h * len(lines) <= real_box.height + 2
                    and all(font.size(line)[0] <= real_box.width for line in lines)):
                return Fit(tuple(lines), current, line_h, wrapped=True)
        return self._shortened(text, real_box, min(size, max(floor, MIN_FONT)), bold)

    def _shortened(self, text: str, real_box: pygame.Rect, size: int, bold: bool) -> Fit:
        """At ``size``, as many lines as the box holds, filled in order, the last holding the
        rest of the text cut with "…" where it runs past the box."""
        font = self.font(size, bold)
        line_h = font.get_linesize()
        room = max(1, (real_box.height + 2) // line_h)
        pieces = self._pieces(text, real_box.width, size, bold, anywhere=True)
        filled = _filled(pieces, font, real_box.width)
        lines = [line for line, _end in filled[:room - 1]]
        if len(filled) <= room:
            lines = [line for line, _end in filled]
        else:  # the last line the box holds takes the rest
            used = filled[room - 2][1] if room > 1 else 0
            lines.append("".join((joiner if index else "") + piece
                                 for index, (piece, joiner) in enumerate(pieces[used:])))
        shown = tuple(ellipsize(line, font, real_box.width) for line in lines)
        return Fit(shown, size, line_h, wrapped=True, shortened=shown != tuple(lines),
                   fits=line_h * len(shown) <= real_box.height + 2)

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
        wrap: bool = False,
        anywhere: bool = False,
        floor: int = 0,
    ) -> None:
        """Draw ``text`` fitted into a design box (:meth:`fit`): one line aligned left, centre
        or right, or centred lines; each line recorded in :attr:`drawn`."""
        fitted = self.fit(text, box, size, bold=bold, wrap=wrap, anywhere=anywhere, floor=floor)
        real_box = self.layout.rect(box)
        if not fitted.fits:
            self.overflows.append(Overflow(text, (box.x, box.y, box.width, box.height),
                                           fitted.line_height * len(fitted.lines)))
        if not fitted.wrapped:
            surface = self.render(text, fitted.size, colour, bold)
            target = surface.get_rect()
            target.centery = real_box.centery
            if align == "left":
                target.left = real_box.left
            elif align == "right":
                target.right = real_box.right
            else:
                target.centerx = real_box.centerx
            canvas.blit(surface, target)
            self._record(real_box, text, surface, target, whole=text)
            return
        top = real_box.centery - fitted.line_height * len(fitted.lines) // 2
        for line in fitted.lines:
            surface = self.render(line, fitted.size, colour, bold)
            target = surface.get_rect(centerx=real_box.centerx, top=top)
            canvas.blit(surface, target)
            self._record(real_box, line, surface, target, whole=text,
                         shortened=fitted.shortened)
            top += fitted.line_height

    def fits_on_one_line(self, text: str, box: pygame.Rect, size: int, bold: bool = False) -> bool:
        """Whether ``text`` fits the box on one line at some size down to the floor."""
        return self._fits_one_line(text, self.layout.rect(box), size, bold)

    def _fits_one_line(self, text: str, real_box: pygame.Rect, size: int, bold: bool) -> bool:
        key = (self._fonts(), text, real_box.width, real_box.height, size, bold)
        known = self._fits.get(key)
        if known is None:
            if len(self._fits) > _CACHE_LIMIT:
                self._fits.clear()
            width, height = self.font(min(size, MIN_FONT), bold).size(text)
            known = width <= real_box.width and height <= real_box.height + 2
            self._fits[key] = known
        return known

    def wrapped_height(self, text: str, box: pygame.Rect, size: int, *, bold: bool = False,
                       floor: int = 0) -> int:
        """The design height ``text`` takes wrapped in ``box``'s width at the size
        :meth:`draw` would draw it in lines (a box that must grow to hold it)."""
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

    def _pieces(self, text: str, width: int, size: int, bold: bool,
                anywhere: bool = False) -> list[tuple[str, str]]:
        """``text`` cut where a line may break: at spaces; inside a word wider than ``width``
        between CJK characters (:func:`break_units`), and with ``anywhere`` between any two
        letters of a word too wide even at the floor. Each piece with what joins it to the one
        before (a space, or nothing)."""
        font = self.font(size, bold)
        pieces: list[tuple[str, str]] = []
        for word in text.split(" "):
            if not word:
                continue
            parts = break_units(word) if font.size(word)[0] > width else [word]
            smallest = self.font(MIN_FONT, bold)
            if anywhere and any(smallest.size(part)[0] > width for part in parts):
                parts = list(word)  # too wide even at the floor: break between letters
            pieces += [(part, " " if index == 0 else "") for index, part in enumerate(parts)]
        return pieces

    def _wrap(self, text: str, width: int, size: int, bold: bool,
              anywhere: bool = False) -> list[str]:
        """Lines of at most ``width`` pixels, as even as the breaks allow: as few lines as
        filling each line would give, but no wider than needed ("万能并罚 / 抽四张牌", not
        "万能并罚抽四 / 张牌")."""
        font = self.font(size, bold)
        pieces = self._pieces(text, width, size, bold, anywhere)
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
    return [line for line, _end in _filled(pieces, font, width)]


def _filled(pieces: list[tuple[str, str]], font: Face, width: int) -> list[tuple[str, int]]:
    """:func:`_fill`'s lines, each with the index of the piece that starts the next."""
    lines: list[tuple[str, int]] = []
    current = ""
    for index, (piece, joiner) in enumerate(pieces):
        candidate = f"{current}{joiner}{piece}" if current else piece
        if font.size(candidate)[0] <= width or not current:
            current = candidate
        else:
            lines.append((current, index))
            current = piece
    if current:
        lines.append((current, len(pieces)))
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
