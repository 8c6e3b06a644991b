"""Scaling from the 800x480 design space to whatever screen the scoreboard runs on.

Every screen is laid out once, in design pixels on an 800x480 canvas (the official Raspberry Pi
7" display); :class:`Layout` maps those rectangles to the real window, keeping the aspect ratio
and centring the picture, and maps touches back. Widgets never see real pixels, so one layout
serves a 480p panel, a 1080p monitor and the tests alike.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import pygame

DESIGN_WIDTH = 800
DESIGN_HEIGHT = 480
DESIGN_SIZE = (DESIGN_WIDTH, DESIGN_HEIGHT)
MIN_TARGET = 48
"""Smallest touch target, in real pixels at 800x480: a fingertip, not a mouse pointer."""


@dataclass(frozen=True)
class Layout:
    """Maps design rectangles (800x480) to the window and touches back to design points."""

    width: int
    height: int
    design: tuple[int, int] = DESIGN_SIZE
    """The design canvas (800x480 for the scoreboard; the simulated unit's panel is narrower)."""

    @cached_property
    def scale(self) -> float:
        """Real pixels per design pixel (the smaller of the two axes, so nothing is cut off)."""
        return min(self.width / self.design[0], self.height / self.design[1])

    @cached_property
    def origin(self) -> tuple[int, int]:
        """Top-left corner of the design canvas in the window (letter-boxed when ratios differ)."""
        return (
            round((self.width - self.design[0] * self.scale) / 2),
            round((self.height - self.design[1] * self.scale) / 2),
        )

    @cached_property
    def _rects(self) -> dict[tuple[int, int, int, int], pygame.Rect]:
        return {}

    def rect(self, design: pygame.Rect) -> pygame.Rect:
        """The window rectangle covering a design rectangle (a fresh copy each call)."""
        key = (design.x, design.y, design.width, design.height)
        known = self._rects.get(key)
        if known is None:
            known = self._compute(design)
            self._rects[key] = known
        return known.copy()

    def _compute(self, design: pygame.Rect) -> pygame.Rect:
        s = self.scale
        ox, oy = self.origin
        left = ox + round(design.x * s)
        top = oy + round(design.y * s)
        right = ox + round(design.right * s)
        bottom = oy + round(design.bottom * s)
        return pygame.Rect(left, top, right - left, bottom - top)

    def px(self, design: float) -> int:
        """A design length (a font size, a line width) in window pixels, at least 1."""
        return max(1, round(design * self.scale))

    def to_design(self, window_pos: tuple[float, float]) -> tuple[float, float]:
        """A window position mapped back into design coordinates (for hit-testing)."""
        ox, oy = self.origin
        return ((window_pos[0] - ox) / self.scale, (window_pos[1] - oy) / self.scale)


@dataclass(frozen=True)
class Placement:
    """Where a scoreboard and something drawn beside it (the simulated unit) sit in one window."""

    window: tuple[int, int]
    board: pygame.Rect
    beside: pygame.Rect


def place_beside(board: tuple[int, int], beside: int,
                 screen: tuple[int, int] | None) -> Placement:
    """The scoreboard at ``board`` size with a ``beside``-wide panel at its right, at full size
    when the screen has room, otherwise both scaled down together so the window fits the
    screen (a window wider than the screen opens partly off it)."""
    width, height = board[0] + beside, board[1]
    scale = 1.0
    if screen is not None and screen[0] > 0 and screen[1] > 0:
        scale = min(1.0, screen[0] / width, screen[1] / height)
    window = (round(width * scale), round(height * scale))
    shown = pygame.Rect(0, 0, round(board[0] * scale), window[1])
    return Placement(window, shown,
                     pygame.Rect(shown.width, 0, window[0] - shown.width, window[1]))
