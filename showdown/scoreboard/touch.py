"""Fingers and the mouse turned into taps, each exactly once.

A touchscreen makes SDL send two things for one touch: FINGERDOWN/FINGERUP with positions
normalised to 0..1 of the window, and a synthesised mouse click. The synthesised clicks carry
``event.touch`` (pygame sets it when SDL's ``which`` is ``SDL_TOUCH_MOUSEID``) and are dropped
here, so a touch acts once; a real mouse still works for developers. Positions come from the
finger's own normalised coordinates, never from the mouse cursor, so hiding the cursor changes
nothing.

A tap is decided on release: the widget under the finger when it went down must be the widget
under it when it comes up (a slide off a button cancels it, as on a phone).

A touch panel that does not match its picture (turned, mirrored, or offset: ``showdown check
--screen`` finds out) is corrected by a :data:`~showdown.scoreboard.touch_matrix.TouchMatrix`, the
configuration's ``[scoreboard] touch_matrix``: the first two rows of libinput's calibration
matrix, over positions normalised to 0..1. SDL's own input on the Pi's console (KMSDRM) reads
the panel's raw axes and takes no calibration from the system, so the scoreboard applies it.
"""

from __future__ import annotations

from dataclasses import dataclass

import pygame

from showdown.scoreboard.layout import Layout
from showdown.scoreboard.touch_matrix import IDENTITY, TouchMatrix

SDL_TOUCH_MOUSEID = 0xFFFFFFFF
"""SDL's ``which`` for mouse events synthesised from touch ((Uint32)-1)."""

MOUSE_POINTER = -1
"""Pointer id used for the real mouse (fingers use their SDL finger ids)."""


def corrected(matrix: TouchMatrix, x: float, y: float) -> tuple[float, float]:
    """Where a finger at the panel's ``(x, y)`` (0..1) is on the screen, by *matrix*."""
    a, b, c, d, e, f = matrix
    return a * x + b * y + c, d * x + e * y + f


@dataclass(frozen=True)
class Press:
    """A pointer went down (``down=True``) or up at a design point."""

    pointer: int
    pos: tuple[float, float]
    down: bool


def synthesised_from_touch(event: pygame.event.Event) -> bool:
    """Whether a mouse event was made up by SDL from a touch (and so must be ignored)."""
    if getattr(event, "touch", False):
        return True
    which = getattr(event, "which", None)
    return which is not None and which in (SDL_TOUCH_MOUSEID, -1)


def to_press(
    event: pygame.event.Event,
    layout: Layout,
    window_size: tuple[int, int] | None = None,
    offset: tuple[int, int] = (0, 0),
    touch: TouchMatrix = IDENTITY,
) -> Press | None:
    """The press a pygame event means, in design coordinates, or ``None`` if it means none.

    When the scoreboard does not fill the window (the interactive simulator draws the unit
    beside it), ``window_size`` is the whole window and ``offset`` where the scoreboard sits.
    ``touch`` corrects a finger's position (a real mouse needs no correction).
    """
    width, height = window_size or (layout.width, layout.height)
    if event.type in (pygame.FINGERDOWN, pygame.FINGERUP):
        x, y = corrected(touch, float(event.x), float(event.y))
        return Press(
            pointer=int(event.finger_id),
            pos=layout.to_design((x * width - offset[0], y * height - offset[1])),
            down=event.type == pygame.FINGERDOWN,
        )
    if event.type in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP):
        if synthesised_from_touch(event) or getattr(event, "button", 1) != 1:
            return None
        return Press(
            pointer=MOUSE_POINTER,
            pos=layout.to_design((event.pos[0] - offset[0], event.pos[1] - offset[1])),
            down=event.type == pygame.MOUSEBUTTONDOWN,
        )
    return None


def finger_event(kind: int, x: float, y: float, finger: int = 1) -> pygame.event.Event:
    """A FINGERDOWN/FINGERUP event as SDL delivers it (normalised position), for tests and tools."""
    return pygame.event.Event(
        kind, touch_id=1, finger_id=finger, x=x, y=y, dx=0.0, dy=0.0, pressure=1.0
    )
