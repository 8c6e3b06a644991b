"""Game over: the winner, the final standings, a rematch and a new game.

A finished game stays finished: reopened after a restart, the table comes back here, never to a
round-end keypad that would refuse only at Save. Rematch is one tap: the same players in the
same seats, the same rules and target (and the agreed pigs or rounds), the deal passed on as
the rules pass it. In 002's hero and mean scoring the standings go by pigs, the fewest first,
each with its pigs. Players level share a place, as the event's standings number them (two tied
for first are both 1st, the next is 3rd), and a game won by more than one says they tie.
"""

from __future__ import annotations

import pygame

from showdown.locale.lists import listed
from showdown.scoreboard import theme
from showdown.scoreboard.i18n import _, current_language
from showdown.scoreboard.screens.base import Screen
from showdown.scoreboard.view import TableView
from showdown.scoreboard.vocabulary import pig_count, player_name
from showdown.scoreboard.widgets import Button, Label, Widget

ROWS = 5
"""Players a column of the final standings holds."""

Column = tuple[tuple[int, int], ...]
"""Where a column's place, name, total (and pigs) go: (x, width) each, in design pixels."""
ONE_COLUMN: tuple[Column, ...] = (((200, 60), (264, 240), (508, 100)),)
TWO_COLUMNS: tuple[Column, ...] = (((24, 48), (76, 224), (304, 84)),
                                   ((412, 48), (464, 224), (692, 84)))
ONE_COLUMN_PIGS: tuple[Column, ...] = (((130, 60), (194, 240), (572, 100), (438, 130)),)
TWO_COLUMNS_PIGS: tuple[Column, ...] = (((8, 32), (44, 208), (340, 52), (256, 80)),
                                        ((404, 32), (440, 208), (736, 56), (652, 80)))
"""Ten players' names of twelve CJK characters keep 208 px: bold at 16 px they need 204."""


def result(view: TableView) -> str:
    """Who won, in words: one winner wins, more tie (their names listed as the language lists
    them); default names in the language in use."""
    names = [player_name(name) for name in view.winners] or ["?"]
    if len(names) == 1:
        return _("{name} wins!").format(name=names[0])
    # TRANSLATORS: a game won by more than one player. {names}: their names, listed as the
    # language lists names ("Ben and Dev", "Ben, Dev, and Eve").
    return _("{names} tie!").format(names=listed(names, current_language()))


class GameOverScreen(Screen):
    """Who won, everyone's final total."""

    name = "gameover"

    def widgets(self, view: TableView) -> list[Widget]:
        """See :meth:`Screen.widgets`."""
        heading = _("Game over")
        if view.read_only:  # a game opened from the saved games: say which
            heading = view.game_name or _("Game {number}").format(number=view.game_id)
        found: list[Widget] = [
            Label("title", pygame.Rect(8, 4, 784, 40), heading, 28, theme.TEXT_DIM),
            Label("winner", pygame.Rect(8, 48, 784, 80), result(view), 56, theme.ACCENT,
                  bold=True),
        ]
        # Best first (in hero and mean scoring the fewest pigs), seat order among players level.
        order = sorted(view.players, key=lambda p: p.place)
        # One column of up to five; a bigger table in two, so each line keeps its 40 px.
        per_column = ROWS if len(order) > ROWS else max(1, len(order))
        row_h = min(40, 200 // per_column)
        if view.uses_pigs:
            columns = ONE_COLUMN_PIGS if len(order) <= ROWS else TWO_COLUMNS_PIGS
        else:
            columns = ONE_COLUMN if len(order) <= ROWS else TWO_COLUMNS
        for i, player in enumerate(order):
            column, row = divmod(i, per_column)
            place, name, total = columns[column][:3]
            top = 136 + row * row_h
            found.append(Label(f"place{i}", pygame.Rect(place[0], top, place[1], row_h - 2),
                               str(player.place), 24, theme.TEXT_DIM))
            found.append(Label(f"name{i}", pygame.Rect(name[0], top, name[1], row_h - 2),
                               player_name(player.name),
                               24, theme.TEXT, bold=True, align="left"))
            found.append(Label(f"total{i}", pygame.Rect(total[0], top, total[1], row_h - 2),
                               str(player.total), 24, theme.TEXT, align="right"))
            if view.uses_pigs:
                pigs = columns[column][3]
                found.append(Label(f"pigs{i}", pygame.Rect(pigs[0], top, pigs[1], row_h - 2),
                                   pig_count(player.pigs), 24,
                                   theme.TEXT if player.pigs else theme.TEXT_DIM, bold=True))
        if view.read_only:  # the navigation bar's Close leaves it
            return found
        found.append(Button("new-game", pygame.Rect(88, 344, 300, 64), _("New game"),
                            lambda: self.ui.go("setup"), colour=theme.PANEL_LIGHT, size=30))
        found.append(Button("rematch", pygame.Rect(412, 344, 300, 64), _("Rematch"),
                            self._rematch, colour=theme.OK, size=30))
        return found

    def _rematch(self) -> None:
        if self.ui.command(self.ui.port.rematch):
            self.ui.go("table")
