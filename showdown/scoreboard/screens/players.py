"""The players who come back: one tap seats a player, and each picks a colour of their own.

Everyone the table named in a game is kept (:mod:`showdown.scoreboard.roster`), the one who
played last first. On Set-up, Players opens this list: each tap puts a player not seated yet in
the next seat, from the seat chosen on Set-up, adding a seat when the table is full. A tap on a
player already seated chooses them for their colour and leaves them where they sit (Set-up's
Earlier and Later move a seated player). The colours come from a colour-blind-safe set, each
swatch with its colour's name written on it.
"""

from __future__ import annotations

from functools import partial

import pygame

from showdown.scoreboard import theme
from showdown.scoreboard.colour_vision import readable_ink
from showdown.scoreboard.i18n import _
from showdown.scoreboard.roster import colour_label
from showdown.scoreboard.screens.base import Screen, Ui
from showdown.scoreboard.screens.setup import MAX_PLAYERS, SetupScreen
from showdown.scoreboard.view import RosterPlayer, TableView
from showdown.scoreboard.widgets import Button, Canvas, Custom, Label, Widget

COLUMNS = 4
ROWS = 4
PAGE = COLUMNS * ROWS


def paint_player(canvas: Canvas, box: pygame.Rect, *, text: str, colour: theme.Colour | None,
                 chosen: bool) -> None:
    """A kept player: their colour as a stripe at the left, the name (and seat) beside it."""
    real = canvas.rect(box)
    canvas.surface.fill(theme.BACKGROUND, real)
    radius = canvas.layout.px(10)
    pygame.draw.rect(canvas.surface, theme.PANEL_LIGHT, real, border_radius=radius)
    if colour is not None:
        stripe = canvas.rect(pygame.Rect(box.x + 6, box.y + 8, 12, box.height - 16))
        pygame.draw.rect(canvas.surface, colour, stripe, border_radius=canvas.layout.px(4))
    if chosen:
        pygame.draw.rect(canvas.surface, theme.ACCENT, real, width=canvas.layout.px(4),
                         border_radius=radius)
    canvas.text.draw(canvas.surface, text, box.inflate(-30, -8).move(10, 0), 22, theme.TEXT,
                     bold=True)


def paint_swatch(canvas: Canvas, box: pygame.Rect, *, colour: theme.Colour, name: str,
                 chosen: bool) -> None:
    """A colour to pick, with its name on it in whichever ink reads better."""
    real = canvas.rect(box)
    canvas.surface.fill(theme.BACKGROUND, real)
    radius = canvas.layout.px(8)
    pygame.draw.rect(canvas.surface, colour, real, border_radius=radius)
    if chosen:
        pygame.draw.rect(canvas.surface, theme.TEXT, real, width=canvas.layout.px(4),
                         border_radius=radius)
    ink = readable_ink(colour, (theme.BACKGROUND, theme.TEXT))
    canvas.text.draw(canvas.surface, name, box.inflate(-8, -8), 18, ink, bold=True)


class PlayersScreen(Screen):
    """The kept players: tap to seat, then pick a colour for the one chosen."""

    name = "players"
    nav = False
    banner_area = pygame.Rect(0, 0, 400, 56)

    def __init__(self, ui: Ui) -> None:
        super().__init__(ui)
        self.roster: tuple[RosterPlayer, ...] = ()
        self.first = 0
        self.chosen: str | None = None
        self.seat = 0
        """Where the next tap seats a player."""

    def _setup(self) -> SetupScreen:
        screen = self.ui.screens["setup"]
        assert isinstance(screen, SetupScreen)
        return screen

    def entered(self, view: TableView) -> None:
        """Read the list once; seating starts at the seat chosen on Set-up."""
        self.roster = self.ui.port.roster()
        self.first = 0
        self.chosen = None
        self.seat = self._setup().selected

    def _seat(self, player: RosterPlayer) -> None:
        """Put the player in the next seat, or choose one already seated (to pick a colour)
        without moving them."""
        self.chosen = player.name
        setup = self._setup()
        names = [setup.names[i] if i < len(setup.names) else "" for i in range(setup.count)]
        if player.name in names:
            return
        if self.seat >= setup.count and setup.count < MAX_PLAYERS:
            setup.count += 1
            names.append("")
        seat = min(self.seat, setup.count - 1)
        names[seat] = player.name
        setup.names = names
        setup.selected = seat
        self.seat = seat + 1

    def _pick(self, key: str) -> None:
        if self.chosen is not None and self.ui.command(self.ui.port.pick_colour, self.chosen, key):
            self.roster = self.ui.port.roster()

    def _page(self, delta: int) -> None:
        self.first = max(0, min(self.first + delta * PAGE,
                                (max(0, len(self.roster) - 1) // PAGE) * PAGE))

    def widgets(self, view: TableView) -> list[Widget]:
        """See :meth:`Screen.widgets`."""
        setup = self._setup()
        seated = {name: i for i, name in enumerate(setup.names[: setup.count]) if name}
        found: list[Widget] = [
            Label("title", pygame.Rect(8, 4, 392, 52), _("Players"), 30, theme.ACCENT,
                  bold=True, align="left"),
            Button("earlier", pygame.Rect(408, 4, 120, 52), _("Earlier"),
                   lambda: self._page(-1), enabled=self.first > 0, size=20),
            Button("later", pygame.Rect(532, 4, 120, 52), _("Later"), lambda: self._page(1),
                   enabled=self.first + PAGE < len(self.roster), size=20),
            Button("done", pygame.Rect(660, 4, 132, 52), _("Done"),
                   lambda: self.ui.go("setup"), colour=theme.OK, size=24),
        ]
        shown = self.roster[self.first : self.first + PAGE]
        for i, player in enumerate(shown):
            row, col = divmod(i, COLUMNS)
            box = pygame.Rect(8 + col * 196, 64 + row * 62, 188, 56)
            colour = theme.PLAYER_PALETTE.get(player.colour or "")
            text = player.name
            if player.name in seated:
                text = _("{name} · seat {number}").format(name=player.name,
                                                          number=seated[player.name] + 1)
            chosen = player.name == self.chosen
            found.append(Custom(f"player:{player.name}", box, (text, colour, chosen),
                                partial(paint_player, text=text, colour=colour, chosen=chosen),
                                action=partial(self._seat, player)))
        if not self.roster:
            found.append(Label("empty", pygame.Rect(40, 120, 720, 120),
                               _("Players named in a game are kept here for the next one"), 26,
                               theme.TEXT_DIM, wrap=True))
        picked = next((p.colour for p in self.roster if p.name == self.chosen), None)
        found.append(Label("colour:caption", pygame.Rect(8, 314, 784, 34),
                           _("{name}'s colour").format(name=self.chosen) if self.chosen
                           else _("Tap a player to seat them, then pick their colour"), 22,
                           theme.TEXT_DIM, align="left"))
        for i, (key, colour) in enumerate(theme.PLAYER_PALETTE.items()):
            box = pygame.Rect(8 + i * 98, 352, 92, 60)
            name = colour_label(key)
            found.append(Custom(f"colour:{key}", box, (colour, name, key == picked),
                                partial(paint_swatch, colour=colour, name=name,
                                        chosen=key == picked),
                                action=partial(self._pick, key) if self.chosen else None))
        return found
