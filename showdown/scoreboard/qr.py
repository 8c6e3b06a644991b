"""A QR code on the scoreboard (segno makes the symbol; pygame draws its modules).

Each module is a whole number of window pixels, on white with the four-module quiet zone the
standard asks, so a phone's camera reads it off a 7-inch panel as off a printed sheet.
"""

from __future__ import annotations

import pygame
import segno

from showdown.scoreboard.widgets import Canvas, Custom

__all__ = ["QUIET", "qr_widget"]

QUIET = 4
"""Modules of white around the symbol (ISO/IEC 18004's quiet zone)."""

DARK = (0, 0, 0)
LIGHT = (255, 255, 255)


def qr_widget(widget_id: str, rect: pygame.Rect, text: str) -> Custom:
    """The QR code of ``text`` (error correction M), as large as fits in ``rect`` and centred."""
    symbol = segno.make(text, error="m", micro=False)
    rows = tuple(bytes(row) for row in symbol.matrix)

    def paint(canvas: Canvas, design: pygame.Rect) -> None:
        box = canvas.rect(design)
        canvas.surface.fill(LIGHT, box)
        side = len(rows) + 2 * QUIET
        module = max(1, min(box.width, box.height) // side)
        left = box.x + (box.width - module * side) // 2 + QUIET * module
        top = box.y + (box.height - module * side) // 2 + QUIET * module
        for y, row in enumerate(rows):
            for x, dark in enumerate(row):
                if dark & 1:
                    canvas.surface.fill(DARK, (left + x * module, top + y * module, module,
                                               module))

    return Custom(widget_id, rect, ("qr", text), paint)
