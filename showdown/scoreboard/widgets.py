"""The building blocks of every screen: labels, buttons, bars and custom painters.

A widget is a value: its design rectangle, what it shows, and what a tap on it does. A screen
builds its widgets afresh from the view whenever something changes; :class:`Painter` compares
each widget's :meth:`Widget.key` with the one on screen and repaints only those that differ,
so an unchanged frame costs nothing and a changed total repaints one small rectangle.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field

import pygame

from showdown.scoreboard import theme
from showdown.scoreboard.colour_vision import readable_ink
from showdown.scoreboard.layout import Layout
from showdown.scoreboard.text import TextRenderer
from showdown.scoreboard.theme import Colour

Action = Callable[[], None]


@dataclass(frozen=True)
class Canvas:
    """Where widgets draw: the surface, the design-to-window mapping and the text renderer."""

    surface: pygame.Surface
    layout: Layout
    text: TextRenderer

    def rect(self, design: pygame.Rect) -> pygame.Rect:
        """A design rectangle in window pixels."""
        return self.layout.rect(design)


class Widget:
    """Something drawn in a design rectangle, maybe tappable."""

    id: str
    rect: pygame.Rect
    action: Action | None = None

    def key(self) -> Hashable:
        """Everything that decides how the widget looks: equal keys mean identical pixels."""
        raise NotImplementedError

    def draw(self, canvas: Canvas) -> None:
        """Paint the widget's whole rectangle (background included)."""
        raise NotImplementedError


def _rect_key(rect: pygame.Rect) -> tuple[int, int, int, int]:
    return (rect.x, rect.y, rect.width, rect.height)


@dataclass
class Label(Widget):
    """Text in a box, fitted to it (:meth:`showdown.scoreboard.text.TextRenderer.fit`): one
    line where it fits down to the floor size, else lines, else cut short with "…"."""

    id: str
    rect: pygame.Rect
    text: str
    size: int = 28
    colour: Colour = theme.TEXT
    background: Colour = theme.BACKGROUND
    bold: bool = False
    align: str = "center"
    wrap: bool = False
    """Lines at the size asked for before a smaller single line (a sentence, not a label)."""
    padding: int = 0
    """Design pixels kept clear of text at the left and right (cells side by side stay apart)."""
    anywhere: bool = False
    """A word too wide for the box even at the floor size breaks between any two of its
    letters at once (a long name in a narrow column); without it, only where the lines fit no
    other way."""
    floor: int = 0
    """The smallest design size the lines may shrink to (0: the readable floor,
    :data:`showdown.scoreboard.theme.MIN_TEXT`); a banner in a scaled-down window asks more."""

    def key(self) -> Hashable:
        """See :meth:`Widget.key`."""
        return ("label", _rect_key(self.rect), self.text, self.size, self.colour,
                self.background, self.bold, self.align, self.wrap, self.padding, self.anywhere,
                self.floor)

    def draw(self, canvas: Canvas) -> None:
        """See :meth:`Widget.draw`."""
        canvas.surface.fill(self.background, canvas.rect(self.rect))
        box = self.rect.inflate(-2 * self.padding, 0) if self.padding else self.rect
        canvas.text.draw(canvas.surface, self.text, box, self.size, self.colour,
                         bold=self.bold, align=self.align, wrap=self.wrap,
                         anywhere=self.anywhere, floor=self.floor)


@dataclass
class Button(Widget):
    """A tappable rounded box with a label; at least 48 px each way at 800x480."""

    id: str
    rect: pygame.Rect
    text: str
    action: Action | None = None
    enabled: bool = True
    selected: bool = False
    colour: Colour = theme.BUTTON
    size: int = 26
    background: Colour = theme.BACKGROUND

    def key(self) -> Hashable:
        """See :meth:`Widget.key`."""
        return ("button", _rect_key(self.rect), self.text, self.enabled, self.selected,
                self.colour, self.size, self.background)

    def draw(self, canvas: Canvas) -> None:
        """See :meth:`Widget.draw`."""
        real = canvas.rect(self.rect)
        canvas.surface.fill(self.background, real)
        fill = self.colour if self.enabled else theme.BUTTON_DISABLED
        radius = canvas.layout.px(10)
        pygame.draw.rect(canvas.surface, fill, real, border_radius=radius)
        if self.selected:
            pygame.draw.rect(canvas.surface, theme.ACCENT, real, width=canvas.layout.px(4),
                             border_radius=radius)
        inner = self.rect.inflate(-8, -6)
        if canvas.text.fit(self.text, inner, self.size, bold=True).shortened:
            inner = self.rect.inflate(-8, -2)  # words that would be cut take the whole height
        colour = theme.TEXT if self.enabled else theme.TEXT_DIM
        canvas.text.draw(canvas.surface, self.text, inner, self.size, colour, bold=True)

    @property
    def tappable(self) -> bool:
        """Whether a tap does anything."""
        return self.enabled and self.action is not None


NAME_HEIGHT = 34
"""Design pixels of a :class:`Choice`'s name line; its explanation takes the rest (two lines of
18 px in a row 100 high)."""


@dataclass
class Choice(Widget):
    """One entry of a list to choose from: the choice's name, and under it a line on what it
    changes, so a table chooses by what it reads rather than by trying each value in turn. The
    whole box is the target; the current choice is outlined (a shape, not a colour alone) and
    filled like a button."""

    id: str
    rect: pygame.Rect
    name: str
    line: str
    action: Action | None = None
    selected: bool = False

    def key(self) -> Hashable:
        """See :meth:`Widget.key`."""
        return ("choice", _rect_key(self.rect), self.name, self.line, self.selected)

    def draw(self, canvas: Canvas) -> None:
        """See :meth:`Widget.draw`."""
        real = canvas.rect(self.rect)
        canvas.surface.fill(theme.BACKGROUND, real)
        radius = canvas.layout.px(10)
        fill = theme.BUTTON if self.selected else theme.PANEL_LIGHT
        pygame.draw.rect(canvas.surface, fill, real, border_radius=radius)
        if self.selected:
            pygame.draw.rect(canvas.surface, theme.ACCENT, real, width=canvas.layout.px(4),
                             border_radius=radius)
        inner = self.rect.inflate(-16, -8)
        name = pygame.Rect(inner.x, inner.y, inner.width, NAME_HEIGHT)
        line = pygame.Rect(inner.x, name.bottom, inner.width, inner.bottom - name.bottom)
        canvas.text.draw(canvas.surface, self.name, name, 22, theme.TEXT, bold=True)
        canvas.text.draw(canvas.surface, self.line, line, 18, theme.TEXT, wrap=True)
BAR_MARGIN = 5
"""Design pixels between a bar's figure and the ends of the part it is written on."""


@dataclass
class Bar(Widget):
    """A progress bar toward a target, with its figure written on it."""

    id: str
    rect: pygame.Rect
    fraction: float
    colour: Colour
    text: str = ""
    background: Colour = theme.PANEL

    def key(self) -> Hashable:
        """See :meth:`Widget.key`."""
        return ("bar", _rect_key(self.rect), round(self.fraction, 3), self.colour, self.text,
                self.background)

    def draw(self, canvas: Canvas) -> None:
        """See :meth:`Widget.draw`."""
        real = canvas.rect(self.rect)
        canvas.surface.fill(theme.BACKGROUND, real)
        radius = canvas.layout.px(6)
        pygame.draw.rect(canvas.surface, self.background, real, border_radius=radius)
        filled = real.copy()
        filled.width = round(real.width * max(0.0, min(1.0, self.fraction)))
        if filled.width > 0:
            pygame.draw.rect(canvas.surface, self.colour, filled, border_radius=radius)
        if self.text:
            self._words(canvas)

    def _words(self, canvas: Canvas) -> None:
        """The figure wholly on one side of the fill's end, never across it: beyond the fill
        where it fits there, else on the fill; in an ink that reads on what lies under it
        (WCAG AA, :func:`~showdown.scoreboard.colour_vision.readable_ink`)."""
        size = max(16, int(self.rect.height * 0.6))
        end = self.rect.x + self.rect.width * max(0.0, min(1.0, self.fraction))
        on_fill = pygame.Rect(self.rect.x + BAR_MARGIN, self.rect.y,
                              max(0, math.floor(end) - self.rect.x - 2 * BAR_MARGIN),
                              self.rect.height)
        left = math.ceil(end) + BAR_MARGIN
        beyond = pygame.Rect(left, self.rect.y, max(0, self.rect.right - BAR_MARGIN - left),
                             self.rect.height)
        width = canvas.text.font(size).size(self.text)[0]
        def fits(box: pygame.Rect) -> bool:
            return bool(width <= canvas.rect(box).width)
        if fits(beyond) or (not fits(on_fill) and beyond.width >= on_fill.width):
            box, under = beyond, self.background
        else:
            box, under = on_fill, self.colour
        ink = readable_ink(under, (theme.TEXT, theme.BACKGROUND))
        canvas.text.draw(canvas.surface, self.text, box, size, ink, align="right")


Paint = Callable[[Canvas, pygame.Rect], None]


@dataclass
class Custom(Widget):
    """Anything else (a chart, the countdown light): a painter and the key that drives it."""

    id: str
    rect: pygame.Rect
    state: Hashable
    paint: Paint = field(compare=False)
    action: Action | None = None

    def key(self) -> Hashable:
        """See :meth:`Widget.key`."""
        return ("custom", _rect_key(self.rect), self.state)

    def draw(self, canvas: Canvas) -> None:
        """See :meth:`Widget.draw`."""
        self.paint(canvas, self.rect)


class Painter:
    """Repaints only the widgets whose key changed since the last frame; returns dirty rects.

    It keeps the text renderer's record of the lines on screen in step with the widgets
    (:attr:`showdown.scoreboard.text.TextRenderer.drawn`): each widget's lines go when it is
    drawn again or leaves."""

    def __init__(self, canvas: Canvas) -> None:
        self.canvas = canvas
        self._shown: dict[str, tuple[Hashable, pygame.Rect]] = {}

    def invalidate(self) -> None:
        """Forget what is on screen, so the next paint redraws everything."""
        self._shown.clear()

    def paint(self, widgets: list[Widget]) -> list[pygame.Rect]:
        """Bring the surface up to date with ``widgets``; the window rects that changed."""
        dirty: list[pygame.Rect] = []
        text = self.canvas.text
        if not self._shown:
            self.canvas.surface.fill(theme.BACKGROUND)
            text.forget()
            dirty.append(self.canvas.surface.get_rect())
        current = {widget.id: widget for widget in widgets}
        cleared: list[pygame.Rect] = []
        for wid, (_, old_rect) in list(self._shown.items()):
            widget = current.get(wid)
            if widget is None or widget.rect != old_rect:
                cleared.append(old_rect)
                if widget is None:
                    del self._shown[wid]
                    text.forget(wid)
        for old_rect in cleared:
            real = self.canvas.rect(old_rect)
            self.canvas.surface.fill(theme.BACKGROUND, real)
            dirty.append(real)
        for widget in widgets:
            key = widget.key()
            shown = self._shown.get(widget.id)
            unchanged = shown is not None and shown[0] == key
            if unchanged and widget.rect.collidelist(cleared) < 0:
                continue
            text.begin(widget.id, widget.rect)
            try:
                widget.draw(self.canvas)
            finally:
                text.end()
            self._shown[widget.id] = (key, widget.rect.copy())
            dirty.append(self.canvas.rect(widget.rect))
        return dirty


def hit(widgets: list[Widget], point: tuple[float, float]) -> Widget | None:
    """The topmost tappable widget under a design point, if any."""
    for widget in reversed(widgets):
        if widget.action is None:
            continue
        if isinstance(widget, Button) and not widget.enabled:
            continue
        if widget.rect.collidepoint(point):
            return widget
    return None
