"""Saved games: every unfinished game in the journal, the latest played first, to take up again.

A game left for a new one is never lost: it stays in the journal as it was, and a tap here makes
it the game played (and the one a restart resumes). The game left for it stays saved in turn.
"""

from __future__ import annotations

from datetime import datetime
from functools import partial

import pygame

from showdown.scoreboard import theme
from showdown.scoreboard.i18n import _, pgettext
from showdown.scoreboard.screens.base import Screen, Ui
from showdown.scoreboard.view import SavedGame, TableView
from showdown.scoreboard.vocabulary import player_name
from showdown.scoreboard.widgets import Button, Label, Widget

VISIBLE = 5
ROW_H = 60


def when(stamp: str) -> str:
    """The time a game was last played, in the table's own time zone."""
    try:
        moment = datetime.fromisoformat(stamp).astimezone()
    except ValueError:
        return stamp
    return moment.strftime("%Y-%m-%d %H:%M")


def summary(game: SavedGame) -> str:
    """One line: who plays, which round, who leads."""
    players = pgettext("list separator", ", ").join(player_name(p) for p in game.players)
    return _("{players} · round {number} · {leader} leads with {points}").format(
        players=players, number=game.round, leader=player_name(game.leader),
        points=game.leader_total)


class GamesScreen(Screen):
    """The list of saved games; tap one to play it again."""

    name = "games"
    nav = False
    banner_area = pygame.Rect(0, 0, 560, 52)

    def __init__(self, ui: Ui) -> None:
        super().__init__(ui)
        self.games: tuple[SavedGame, ...] = ()
        self.first = 0

    def entered(self, view: TableView) -> None:
        """Read the saved games once (each is folded from the journal)."""
        self.games = self.ui.port.saved_games()
        self.first = 0

    def _resume(self, game: SavedGame) -> None:
        if self.ui.send("resume_game", game.game_id):
            self.ui.go("table")

    def _scroll(self, delta: int) -> None:
        self.first = max(0, min(max(0, len(self.games) - VISIBLE), self.first + delta))

    def widgets(self, view: TableView) -> list[Widget]:
        """See :meth:`Screen.widgets`."""
        found: list[Widget] = [
            Label("title", pygame.Rect(8, 4, 552, 48), _("Saved games"), 30, theme.ACCENT,
                  bold=True, align="left"),
            Button("back", pygame.Rect(568, 4, 224, 56), _("Back"), lambda: self.ui.go("setup"),
                   colour=theme.PANEL_LIGHT, size=24),
        ]
        shown = self.games[self.first : self.first + VISIBLE]
        for row, game in enumerate(shown):
            top = 68 + row * (ROW_H + 8)
            found.append(Button(f"game{row}", pygame.Rect(8, top, 620, ROW_H), summary(game),
                                partial(self._resume, game), colour=theme.PANEL_LIGHT, size=22))
            found.append(Label(f"when{row}", pygame.Rect(636, top, 156, ROW_H),
                               when(game.last_played), 20, theme.TEXT_DIM))
        if not self.games:
            found.append(Label("empty", pygame.Rect(100, 140, 600, 60), _("No saved games"), 28,
                               theme.TEXT_DIM))
        found += [
            Button("up", pygame.Rect(8, 412, 140, 60), _("Earlier"), lambda: self._scroll(-1),
                   enabled=self.first > 0, size=20),
            Button("down", pygame.Rect(156, 412, 140, 60), _("Later"), lambda: self._scroll(1),
                   enabled=self.first + VISIBLE < len(self.games), size=20),
        ]
        return found
