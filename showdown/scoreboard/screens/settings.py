"""Settings, reachable from the table at any moment: the language (one tap on its own name), the
cues that never rely on colour, the way to the phones' page (its QR code and PIN), and the way to
a new game or the saved games.

The Set-up tab leads here once a game is on the table, so changing the language never means
opening a screen titled "New game"; nothing here touches the game being played.
"""

from __future__ import annotations

from functools import partial

import pygame

from showdown.scoreboard import theme
from showdown.scoreboard.i18n import LANGUAGES, _, current_language
from showdown.scoreboard.screens.base import Screen, Ui
from showdown.scoreboard.view import TableView
from showdown.scoreboard.widgets import Button, Label, Widget


class SettingsScreen(Screen):
    """The table's choices, mid-game."""

    name = "settings"
    banner_area = pygame.Rect(0, 0, 800, 52)

    def __init__(self, ui: Ui) -> None:
        super().__init__(ui)
        self.saved = 0

    def entered(self, view: TableView) -> None:
        """Count the saved games once (each is read from the journal)."""
        self.saved = len(self.ui.port.games())

    def _saved_games(self) -> None:
        """The saved games, with Back here."""
        self.ui.screens["games"].opened_from(self.name)
        self.ui.go("games")

    def _toggle_cues(self) -> None:
        self.ui.cues = self.ui.cues.toggled()

    def widgets(self, view: TableView) -> list[Widget]:
        """See :meth:`Screen.widgets`."""
        found: list[Widget] = [
            Label("title", pygame.Rect(8, 4, 784, 48), _("Settings"), 30, theme.ACCENT,
                  bold=True, align="left"),
            Label("language:caption", pygame.Rect(8, 56, 784, 36), _("Language"), 22,
                  theme.TEXT_DIM, align="left"),
        ]
        now = current_language()
        for i, (code, native) in enumerate(LANGUAGES.items()):
            found.append(Button(f"language:{code}", pygame.Rect(8 + i * 158, 96, 150, 64),
                                native, partial(self.ui.set_language, code),
                                selected=code == now, colour=theme.PANEL_LIGHT, size=24))
        found += [
            Label("cues:caption", pygame.Rect(8, 176, 392, 64), _("Shapes and words"), 22,
                  theme.TEXT_DIM, align="left"),
            Button("cues", pygame.Rect(404, 176, 388, 64),
                   _("On") if self.ui.cues.countdown_words else _("Off"), self._toggle_cues,
                   size=26),
            Button("phones", pygame.Rect(8, 248, 384, 64), _("Phones"),
                   lambda: self.ui.go("phones"), colour=theme.PANEL_LIGHT, size=24),
            Button("new-game", pygame.Rect(8, 328, 384, 72), _("New game"),
                   lambda: self.ui.go("setup"), colour=theme.PANEL_LIGHT, size=26),
            Button("saved", pygame.Rect(408, 328, 384, 72),
                   _("Saved games ({count})").format(count=self.saved),
                   self._saved_games, enabled=bool(self.saved),
                   colour=theme.PANEL_LIGHT, size=24),
        ]
        return found
