"""On-screen keyboard for a player's name: no physical keyboard is ever needed."""

from __future__ import annotations

from functools import partial

import pygame

from showdown.scoreboard import theme
from showdown.scoreboard.i18n import _
from showdown.scoreboard.screens.base import Screen, Ui
from showdown.scoreboard.screens.setup import SetupScreen
from showdown.scoreboard.view import TableView
from showdown.scoreboard.widgets import Button, Label, Widget

ROWS = ("QWERTYUIOP", "ASDFGHJKL", "ZXCVBNM")
MAX_NAME = 12


class NamesScreen(Screen):
    """Type the selected seat's name with big keys."""

    name = "names"
    nav = False

    def __init__(self, ui: Ui) -> None:
        super().__init__(ui)
        self.buffer = ""

    def entered(self, view: TableView) -> None:
        """Start from the seat's current typed name."""
        setup = self._setup()
        names = setup.names
        self.buffer = names[setup.selected] if setup.selected < len(names) else ""

    def _setup(self) -> SetupScreen:
        screen = self.ui.screens["setup"]
        assert isinstance(screen, SetupScreen)
        return screen

    def _key(self, char: str) -> None:
        if len(self.buffer) < MAX_NAME:
            self.buffer += char if self.buffer else char.upper()

    def _done(self) -> None:
        setup = self._setup()
        setup.rename(setup.selected, self.buffer)
        self.ui.go("setup")

    def widgets(self, view: TableView) -> list[Widget]:
        """See :meth:`Screen.widgets`."""
        setup = self._setup()
        shown = self.buffer or setup.name_of(setup.selected)
        found: list[Widget] = [
            Label("title", pygame.Rect(8, 4, 380, 56),
                  _("Name for seat {number}").format(number=setup.selected + 1), 26,
                  theme.TEXT_DIM, align="left"),
            Label("buffer", pygame.Rect(392, 4, 400, 56), shown, 36,
                  theme.TEXT if self.buffer else theme.TEXT_DIM, theme.PANEL, bold=True),
        ]
        for r, row in enumerate(ROWS):
            offset = 8 + r * 38
            for c, char in enumerate(row):
                rect = pygame.Rect(offset + c * 78, 72 + r * 74, 72, 66)
                shown_char = char if not self.buffer else char.lower()
                found.append(Button(f"key:{char}", rect, shown_char,
                                    partial(self._key, char.lower()),
                                    colour=theme.PANEL_LIGHT, size=30))
        found += [
            Button("space", pygame.Rect(8, 300, 300, 66), _("Space"), lambda: self._key(" "),
                   colour=theme.PANEL_LIGHT, size=24),
            Button("delete", pygame.Rect(316, 300, 200, 66), _("Delete"),
                   lambda: setattr(self, "buffer", self.buffer[:-1]), colour=theme.DANGER,
                   size=24),
            Button("cancel", pygame.Rect(8, 400, 300, 72), _("Cancel"),
                   lambda: self.ui.go("setup"), colour=theme.PANEL_LIGHT, size=26),
            Button("done", pygame.Rect(492, 400, 300, 72), _("Done"), self._done,
                   colour=theme.OK, size=28),
        ]
        return found

