"""Game over: the winner, the final standings, and a new game."""

from __future__ import annotations

import pygame

from showdown.scoreboard import theme
from showdown.scoreboard.i18n import _
from showdown.scoreboard.screens.base import Screen
from showdown.scoreboard.view import TableView
from showdown.scoreboard.widgets import Button, Label, Widget


class GameOverScreen(Screen):
    """Who won, everyone's final total."""

    name = "gameover"

    def widgets(self, view: TableView) -> list[Widget]:
        """See :meth:`Screen.widgets`."""
        found: list[Widget] = [
            Label("title", pygame.Rect(8, 4, 784, 40), _("Game over"), 28, theme.TEXT_DIM),
            Label("winner", pygame.Rect(8, 48, 784, 80),
                  _("{name} wins!").format(name=view.winner or "?"), 56, theme.ACCENT,
                  bold=True),
        ]
        order = sorted(view.players, key=lambda p: p.total, reverse=not view.lowest_wins)
        row_h = min(40, 200 // max(1, len(order)))
        for i, player in enumerate(order):
            top = 136 + i * row_h
            found.append(Label(f"place{i}", pygame.Rect(200, top, 60, row_h - 2), str(i + 1), 24,
                               theme.TEXT_DIM))
            found.append(Label(f"name{i}", pygame.Rect(264, top, 240, row_h - 2), player.name,
                               24, theme.TEXT, bold=True, align="left"))
            found.append(Label(f"total{i}", pygame.Rect(508, top, 100, row_h - 2),
                               str(player.total), 24, theme.TEXT, align="right"))
        found.append(Button("new-game", pygame.Rect(250, 344, 300, 64), _("New game"),
                            lambda: self.ui.go("setup"), colour=theme.OK, size=30))
        return found
