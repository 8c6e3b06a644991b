"""Phones: the QR code of the table's live page, its address, and the PIN for corrections.

Reached from Settings. The service gives the scoreboard the page's address and a way to read
this evening's PIN (``Scoreboard.phone``); where no page is served, the screen says so. The QR
code is drawn module by module from segno's matrix (a dark-on-light code with its quiet zone,
as phone cameras expect), large enough to scan from across the table.
"""

from __future__ import annotations

from collections.abc import Callable

import pygame
import segno

from showdown.scoreboard import theme
from showdown.scoreboard.i18n import _
from showdown.scoreboard.screens.base import CONTENT_BOTTOM, Screen, Ui
from showdown.scoreboard.view import TableView
from showdown.scoreboard.widgets import Button, Canvas, Custom, Label, Widget

__all__ = ["PhonesScreen", "qr_modules"]

QUIET = 4
"""Light modules around the code, as the QR standard asks."""

QR_BOX = pygame.Rect(8, 56, 340, 340)


def qr_modules(text: str) -> tuple[tuple[bool, ...], ...]:
    """The QR code of ``text`` as rows of dark (True) modules, quiet zone included."""
    code = segno.make(text, error="m", micro=False)
    return tuple(tuple(bool(m) for m in row) for row in code.matrix_iter(border=QUIET))


def _paint_qr(modules: tuple[tuple[bool, ...], ...]) -> Callable[[Canvas, pygame.Rect], None]:
    def paint(canvas: Canvas, box: pygame.Rect) -> None:
        real = canvas.rect(box)
        canvas.surface.fill(theme.BACKGROUND, real)
        count = len(modules)
        size = min(real.width, real.height) // count  # whole pixels: every module square
        left = real.x + (real.width - size * count) // 2
        top = real.y + (real.height - size * count) // 2
        canvas.surface.fill((255, 255, 255), pygame.Rect(left, top, size * count, size * count))
        for y, row in enumerate(modules):
            for x, dark in enumerate(row):
                if dark:
                    canvas.surface.fill((0, 0, 0),
                                        pygame.Rect(left + x * size, top + y * size, size, size))

    return paint


class PhonesScreen(Screen):
    """Where players find the live page for their phones."""

    name = "phones"
    banner_area = pygame.Rect(0, 0, 800, 52)

    def __init__(self, ui: Ui) -> None:
        super().__init__(ui)
        self.link: tuple[str, Callable[[], str]] | None = None
        """The page's address and this evening's PIN (set by the service), or None."""
        self._modules: tuple[str, tuple[tuple[bool, ...], ...]] | None = None

    def _qr(self, url: str) -> tuple[tuple[bool, ...], ...]:
        if self._modules is None or self._modules[0] != url:
            self._modules = (url, qr_modules(url))
        return self._modules[1]

    def widgets(self, view: TableView) -> list[Widget]:
        """See :meth:`Screen.widgets`."""
        found: list[Widget] = [
            Label("title", pygame.Rect(8, 4, 640, 48), _("Phones"), 30, theme.ACCENT,
                  bold=True, align="left"),
            Button("back", pygame.Rect(656, 4, 136, 48), _("Back"),
                   lambda: self.ui.go("settings"), colour=theme.PANEL_LIGHT, size=22),
        ]
        if self.link is None:
            found.append(Label("none", pygame.Rect(8, 120, 784, 120),
                               _("No live page for phones is served at this table"), 26,
                               theme.TEXT_DIM))
            return found
        url, pin = self.link
        modules = self._qr(url)
        found += [
            Custom("qr", QR_BOX, ("qr", url), _paint_qr(modules)),
            Label("scan", pygame.Rect(364, 60, 428, 64),
                  _("Scan to follow the table on your phone"), 24, theme.TEXT, align="left"),
            Label("url", pygame.Rect(364, 128, 428, 48), url, 24, theme.ACCENT, bold=True,
                  align="left"),
            Label("pin:caption", pygame.Rect(364, 200, 428, 56),
                  _("PIN for corrections from a phone"), 22, theme.TEXT_DIM, align="left"),
            Label("pin", pygame.Rect(364, 256, 428, 96), pin(), 72, theme.TEXT, bold=True,
                  align="left"),
            Label("pin:note", pygame.Rect(364, 352, 428, CONTENT_BOTTOM - 356),
                  _("Valid this evening"), 20, theme.TEXT_DIM, align="left"),
        ]
        return found
