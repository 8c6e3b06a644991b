"""One size of a chain of fonts, measured and drawn as one font: each character in the first font
of the chain that has it (:class:`showdown.scoreboard.fonts.FontSet`), and the faces the screens
ask for by size (:func:`font`, :func:`fit_font`).

:mod:`showdown.scoreboard.fonts` chooses the fonts; this module draws with them and builds on it,
never the other way round.

Where one font covers a text (the usual case: a CJK font that also has Latin letters), this is
that font and nothing more. Where none does (Debian's Droid Sans Fallback has CJK but no Latin),
the text is cut into runs by font, each run drawn in its own font, and the runs set side by side
on one baseline, so "Chen：3枚" shows every glyph rather than boxes.
"""

from __future__ import annotations

import pygame

from showdown.scoreboard.fonts import FontSet, current_fonts, load_font
from showdown.scoreboard.theme import Colour

__all__ = ["Face", "ellipsize", "face", "fit_font", "font"]

_RUNS_LIMIT = 4096


class Face:
    """A :class:`FontSet` at one pixel size (bold synthesised where asked): the part of
    :class:`pygame.font.Font` the scoreboard uses, ``size``, ``render`` and ``get_linesize``."""

    def __init__(self, fonts: FontSet, size: int, bold: bool = False) -> None:
        self.fonts = fonts
        self.point_size = size
        self.bold = bold
        self._runs: dict[str, list[tuple[int, str]]] = {}

    def _font(self, index: int) -> pygame.font.Font:
        return load_font(self.fonts.fonts[index].path, self.point_size, self.bold)

    def runs(self, text: str) -> list[tuple[int, str]]:
        """``text`` cut where the font drawing it changes: (index in the chain, characters)."""
        known = self._runs.get(text)
        if known is None:
            known = []
            for char in text:
                index = self.fonts.font_index(char) if not char.isspace() else (
                    known[-1][0] if known else 0)
                if known and known[-1][0] == index:
                    known[-1] = (index, known[-1][1] + char)
                else:
                    known.append((index, char))
            if len(self._runs) > _RUNS_LIMIT:
                self._runs.clear()
            self._runs[text] = known
        return known

    def _single(self, text: str) -> pygame.font.Font | None:
        """The one font that draws all of ``text``, if one does."""
        runs = self.runs(text)
        if len(runs) <= 1:
            return self._font(runs[0][0] if runs else 0)
        return None

    def _metrics(self, runs: list[tuple[int, str]]) -> tuple[int, int]:
        """Ascent and descent of the fonts used by ``runs`` (the shared baseline)."""
        fonts = [self._font(index) for index in {index for index, _text in runs}]
        return max(f.get_ascent() for f in fonts), max(-f.get_descent() for f in fonts)

    def size(self, text: str) -> tuple[int, int]:
        """Width and height of ``text`` drawn in this face, in pixels."""
        single = self._single(text)
        if single is not None:
            width, height = single.size(text)
            return int(width), int(height)
        runs = self.runs(text)
        ascent, descent = self._metrics(runs)
        width = sum(int(self._font(index).size(part)[0]) for index, part in runs)
        return width, ascent + descent

    def render(self, text: str, antialias: bool, colour: Colour) -> pygame.Surface:
        """``text`` drawn on a transparent surface, each run in its font on one baseline."""
        single = self._single(text)
        if single is not None:
            return single.render(text, antialias, colour)
        runs = self.runs(text)
        ascent, descent = self._metrics(runs)
        pieces = [(self._font(index), self._font(index).render(part, antialias, colour))
                  for index, part in runs]
        surface = pygame.Surface(
            (sum(piece.get_width() for _font, piece in pieces), ascent + descent),
            pygame.SRCALPHA,
        )
        x = 0
        for used, piece in pieces:
            surface.blit(piece, (x, ascent - used.get_ascent()))
            x += piece.get_width()
        return surface

    def get_linesize(self) -> int:
        """The distance from one line's top to the next's, for the fonts that draw the language."""
        return max(int(self._font(index).get_linesize()) for index in range(self.fonts.covering))

    def get_height(self) -> int:
        """The height of one line of text, for the fonts that draw the language."""
        return max(int(self._font(index).get_height()) for index in range(self.fonts.covering))


_faces: dict[tuple[FontSet, int, bool], Face] = {}


def face(fonts: FontSet, size: int, bold: bool = False) -> Face:
    """The :class:`Face` of ``fonts`` at ``size`` pixels, cached (it caches its text runs)."""
    key = (fonts, size, bold)
    found = _faces.get(key)
    if found is None:
        if len(_faces) > _RUNS_LIMIT:
            _faces.clear()
        found = Face(fonts, size, bold)
        _faces[key] = found
    return found


def font(size: int, bold: bool = False, language: str | None = None) -> Face:
    """The current language's fonts (or ``language``'s) at ``size`` pixels: what screens call."""
    return face(current_fonts(language), size, bold)


def fit_font(
    text: str,
    box: tuple[int, int],
    max_size: int,
    *,
    min_size: int = 10,
    bold: bool = False,
    language: str | None = None,
) -> Face:
    """The largest font (``min_size`` to ``max_size`` px) in which ``text`` fits ``box`` (w, h).

    Translations run longer or shorter than English, so labels are fitted, not sized once. When
    even ``min_size`` is too big, that font is returned; :func:`ellipsize` then shortens the text.
    """
    width, height = box
    low, high = min_size, max(min_size, max_size)
    best = low
    while low <= high:
        middle = (low + high) // 2
        w, h = font(middle, bold, language).size(text)
        if w <= width and h <= height:
            best, low = middle, middle + 1
        else:
            high = middle - 1
    return font(best, bold, language)


def ellipsize(text: str, shown_in: Face, width: int) -> str:
    """``text``, cut and ended with "…" if needed so that it fits ``width`` pixels in
    ``shown_in``."""
    if shown_in.size(text)[0] <= width:
        return text
    low, high = 0, len(text)
    while low < high:
        middle = (low + high + 1) // 2
        if shown_in.size(text[:middle].rstrip() + "…")[0] <= width:
            low = middle
        else:
            high = middle - 1
    return text[:low].rstrip() + "…"
