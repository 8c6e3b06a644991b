"""Saved games: every game the table kept, the latest played first, to take up, look at, rename
or delete.

A game left for a new one is never lost, and neither is a finished one: both stay in the journal
as they were. An unfinished game is taken up again (it becomes the game played, and the one a
restart resumes; the game left for it stays saved in turn); a finished game opens to read, with
its history, chart, statistics and final standings, and nothing in it can be changed. Deleting
asks first and can be undone for a while; renaming goes through the name keyboard. A game with
nothing entered in it is not listed (there is nothing to take up), nor one the simulated table
played.
"""

from __future__ import annotations

from datetime import datetime
from functools import partial

import pygame

from showdown.scoreboard import theme
from showdown.scoreboard.i18n import _, pgettext
from showdown.scoreboard.screens.base import Question, Screen, Ui
from showdown.scoreboard.screens.names import NamesScreen
from showdown.scoreboard.view import SavedGame, TableView
from showdown.scoreboard.vocabulary import pig_count, player_name
from showdown.scoreboard.widgets import Button, Canvas, Custom, Label, Widget

VISIBLE = 5
ROW_H = 64
TOP = 60
SHOWN_SCORES = 4
"""Players whose scores a row shows (the best first); the rest are counted."""
MAX_GAME_NAME = 24
"""Longest name of a game, in characters."""


def when(stamp: str) -> str:
    """The time a game was last played, in the table's own time zone."""
    try:
        moment = datetime.fromisoformat(stamp).astimezone()
    except ValueError:
        return stamp
    return moment.strftime("%Y-%m-%d %H:%M")


def title(game: SavedGame) -> str:
    """What the table calls a game: its name, or its number."""
    return game.name or _("Game {number}").format(number=game.game_id)


def status(game: SavedGame) -> str:
    """Who won a finished game; the round and the leader of one still open."""
    separator = pgettext("list separator", ", ")
    if game.finished:
        return _("{names} won").format(
            names=separator.join(player_name(name) for name in game.winners))
    if game.pigs:
        # TRANSLATORS: Saved games, a hero or mean game still open: the round being played and
        # who leads with the fewest pigs ({pigs} is "1 pig", "2 pigs"...).
        return _("round {number} · {leader} leads ({pigs})").format(
            number=game.round, leader=player_name(game.leader), pigs=pig_count(game.pigs[0]))
    return _("round {number} · {leader} leads with {points}").format(
        number=game.round, leader=player_name(game.leader), points=game.leader_total)


def scores(game: SavedGame) -> str:
    """The scores, best first: the first few players' and how many more there are; in hero and
    mean scoring their pigs, which rank them (every score goes back to 0 at a pig)."""
    if game.pigs:
        shown = [f"{player_name(name)} {pig_count(pigs)}"
                 for (name, _total), pigs in zip(game.standings[:SHOWN_SCORES], game.pigs,
                                                 strict=False)]
    else:
        shown = [f"{player_name(name)} {total}"
                 for name, total in game.standings[:SHOWN_SCORES]]
    line = " · ".join(shown)
    more = len(game.standings) - SHOWN_SCORES
    if more > 0:
        line = _("{scores} · {count} more").format(scores=line, count=more)
    return line


def paint_row(canvas: Canvas, box: pygame.Rect, *, first: str, second: str, chosen: bool,
              finished: bool) -> None:
    """A game's row: its title, date and status on the first line, its scores on the second,
    a frame when chosen, and a finished game's row a shade darker than an open one's."""
    real = canvas.rect(box)
    canvas.surface.fill(theme.BACKGROUND, real)
    radius = canvas.layout.px(10)
    pygame.draw.rect(canvas.surface, theme.PANEL if finished else theme.PANEL_LIGHT, real,
                     border_radius=radius)
    if chosen:
        pygame.draw.rect(canvas.surface, theme.ACCENT, real, width=canvas.layout.px(4),
                         border_radius=radius)
    half = (box.height - 8) // 2
    top = pygame.Rect(box.x + 12, box.y + 4, box.width - 24, half)
    bottom = pygame.Rect(box.x + 12, box.y + 4 + half, box.width - 24, half)
    canvas.text.draw(canvas.surface, first, top, 22, theme.TEXT, bold=True, align="left")
    canvas.text.draw(canvas.surface, second, bottom, 20, theme.TEXT_DIM, align="left")


class GamesScreen(Screen):
    """The list of saved games: choose one, then take it up (or open it), rename or delete it."""

    name = "games"
    nav = False
    banner_area = pygame.Rect(0, 0, 560, 56)

    def __init__(self, ui: Ui) -> None:
        super().__init__(ui)
        self.games: tuple[SavedGame, ...] = ()
        self.first = 0
        self.chosen: int | None = None
        """The game id of the row chosen, if any."""
        self.back_to = "setup"
        """Where Back goes: the screen the list was opened from (Set-up, or Settings during a
        game)."""

    def opened_from(self, screen: str) -> None:
        """See :meth:`Screen.opened_from`: Back goes to ``screen``."""
        self.back_to = screen

    def entered(self, view: TableView) -> None:
        """Read the games once (each is folded from the journal), the latest chosen."""
        self.games = self.ui.port.games()
        self.first = min(self.first, max(0, len(self.games) - VISIBLE))
        ids = [game.game_id for game in self.games]
        if self.chosen not in ids:
            self.chosen = ids[0] if ids else None

    def _chosen(self) -> SavedGame | None:
        return next((game for game in self.games if game.game_id == self.chosen), None)

    def _open(self) -> None:
        """An open game is taken up, a finished one opened to read, the current one shown."""
        game = self._chosen()
        if game is None:
            return
        if game.current:
            self.ui.command(self.ui.port.close_game)
            self.ui.go("table")
        elif game.finished:
            if self.ui.command(self.ui.port.open_game, game.game_id):
                self.ui.go("gameover")
        elif self.ui.command(self.ui.port.resume_game, game.game_id):
            self.ui.go("table")

    def _rename(self) -> None:
        game = self._chosen()
        if game is None:
            return
        names = self.ui.screens["names"]
        assert isinstance(names, NamesScreen)
        names.ask_for(lambda: _("Name for game {number}").format(number=game.game_id),
                      game.name or "", MAX_GAME_NAME, partial(self._renamed, game), "games")
        self.ui.go("names")

    def _renamed(self, game: SavedGame, name: str) -> None:
        if self.ui.command(self.ui.port.rename_game, game.game_id, name):
            shown = name or _("Game {number}").format(number=game.game_id)
            self.ui.notice(lambda: _("Game {number} is now called {name}").format(
                number=game.game_id, name=shown),
                (lambda: _("Undo"), partial(self.ui.command, self.ui.port.rename_game,
                                            game.game_id, game.name or "")))

    def _delete(self) -> None:
        game = self._chosen()
        if game is None or game.current:
            return
        self.ui.ask(Question(
            text=lambda: _("Delete {game} ({players}; {status})? It leaves this list and the "
                           "all-time figures.").format(
                game=title(game),
                players=pgettext("list separator", ", ").join(
                    player_name(p) for p in game.players),
                status=status(game)),
            yes=lambda: _("Delete"),
            on_yes=partial(self._deleted, game),
            no=lambda: _("Keep it"),
        ))

    def _deleted(self, game: SavedGame) -> None:
        if not self.ui.command(self.ui.port.delete_game, game.game_id):
            return
        self.entered(self.ui.port.view())
        self.ui.notice(lambda: _("{game} deleted").format(game=title(game)),
                       (lambda: _("Undo"), partial(self._restore, game)))

    def _restore(self, game: SavedGame) -> None:
        if self.ui.command(self.ui.port.restore_game, game.game_id):
            self.chosen = game.game_id
            self.entered(self.ui.port.view())

    def _scroll(self, delta: int) -> None:
        self.first = max(0, min(max(0, len(self.games) - VISIBLE), self.first + delta))

    def widgets(self, view: TableView) -> list[Widget]:
        """See :meth:`Screen.widgets`."""
        found: list[Widget] = [
            Label("title", pygame.Rect(8, 4, 552, 52), _("Saved games"), 30, theme.ACCENT,
                  bold=True, align="left"),
            Button("back", pygame.Rect(568, 4, 224, 52), _("Back"),
                   lambda: self.ui.go(self.back_to), colour=theme.PANEL_LIGHT, size=24),
        ]
        shown = self.games[self.first : self.first + VISIBLE]
        for row, kept in enumerate(shown):
            top = TOP + row * (ROW_H + 4)
            first = _("{game} · {date} · {status}").format(
                game=title(kept), date=when(kept.last_played), status=status(kept))
            second = scores(kept)
            chosen = kept.game_id == self.chosen
            found.append(Custom(f"game{row}", pygame.Rect(8, top, 784, ROW_H),
                                (first, second, chosen, kept.finished),
                                partial(paint_row, first=first, second=second, chosen=chosen,
                                        finished=kept.finished),
                                action=partial(setattr, self, "chosen", kept.game_id)))
        if not self.games:
            found.append(Label("empty", pygame.Rect(100, 140, 600, 60), _("No saved games"), 28,
                               theme.TEXT_DIM))
        game = self._chosen()
        if game is None or game.current:
            opening = _("Back to it")
        elif game.finished:
            opening = _("Open")
        else:
            opening = _("Take it up")
        found += [
            Button("up", pygame.Rect(8, 408, 120, 64), _("Earlier"), lambda: self._scroll(-1),
                   enabled=self.first > 0, size=20),
            Button("down", pygame.Rect(132, 408, 120, 64), _("Later"), lambda: self._scroll(1),
                   enabled=self.first + VISIBLE < len(self.games), size=20),
            Button("open", pygame.Rect(264, 408, 200, 64), opening, self._open,
                   enabled=game is not None, colour=theme.OK, size=24),
            Button("rename", pygame.Rect(472, 408, 156, 64), _("Rename"), self._rename,
                   enabled=game is not None, colour=theme.PANEL_LIGHT, size=22),
            Button("delete", pygame.Rect(636, 408, 156, 64), _("Delete"), self._delete,
                   enabled=game is not None and not game.current, colour=theme.DANGER, size=22),
        ]
        return found
