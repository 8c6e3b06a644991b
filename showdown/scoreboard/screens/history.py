"""History: every recorded round and showdown, in the order they happened, with undo (and
redo) of the last entry and editing of any round."""

from __future__ import annotations

from functools import partial

import pygame

from showdown.scoreboard import theme
from showdown.scoreboard.i18n import _
from showdown.scoreboard.screens.base import Screen, Ui
from showdown.scoreboard.screens.round_end import RoundEndScreen
from showdown.scoreboard.view import Fact, RoundView, ShowdownRow, TableView
from showdown.scoreboard.vocabulary import player_name
from showdown.scoreboard.widgets import Button, Label, Widget

VISIBLE = 6
ROW_H = 44
TOP = 56
"""Design y of the first row: the header above it is where a banner (Undone, Redo) goes."""

Item = RoundView | ShowdownRow


def items(view: TableView) -> list[Item]:
    """Rounds and showdowns in the order they happened: a round's showdowns before it."""
    found: list[Item] = []
    for rnd in view.rounds:
        found += [s for s in view.showdowns if s.round == rnd.number]
        found.append(rnd)
    found += [s for s in view.showdowns if s.round > len(view.rounds)]
    return found


def describe(fact: Fact) -> str:
    """A recorded entry in the players' words (what Undo takes back, what Redo brings back)."""
    if fact.kind == "showdown":
        return _("showdown: {winner} beat {loser}").format(winner=player_name(fact.who),
                                                            loser=player_name(fact.other))
    if fact.kind == "edit":
        return _("the edit of round {number}").format(number=fact.round)
    return _("round {number}: {name} went out").format(number=fact.round,
                                                       name=player_name(fact.who))


class HistoryScreen(Screen):
    """A scrollable table of rounds; tap one to edit it."""

    name = "history"
    banner_area = pygame.Rect(0, 0, 800, 52)

    def __init__(self, ui: Ui) -> None:
        super().__init__(ui)
        self.first = 0
        self.selected: int | None = None

    def entered(self, view: TableView) -> None:
        """Show the latest entries."""
        self.first = max(0, len(items(view)) - VISIBLE)
        self.selected = None

    def _scroll(self, view: TableView, delta: int) -> None:
        self.first = max(0, min(max(0, len(items(view)) - VISIBLE), self.first + delta))

    def _edit(self, view: TableView) -> None:
        if self.selected is None:
            return
        rnd = next((r for r in view.rounds if r.number == self.selected), None)
        screen = self.ui.screens["round"]
        if rnd is None or not isinstance(screen, RoundEndScreen):
            return
        screen.edit(rnd, view)
        self.ui.go("round")

    def _latest(self) -> None:
        self.entered(self.ui.port.view())

    def _undo(self) -> None:
        """Take back the last entry and say what went, with a Redo button."""
        fact = self.ui.port.view().last
        if self.ui.send("undo"):
            self._latest()
            if fact is not None:
                self.ui.notice(lambda: _("Undone: {what}").format(what=describe(fact)),
                               (lambda: _("Redo"), partial(self._redo, fact)))

    def _redo(self, fact: Fact) -> None:
        if self.ui.send("redo"):
            self._latest()
            self.ui.notice(lambda: _("Back again: {what}").format(what=describe(fact)), None)

    def widgets(self, view: TableView) -> list[Widget]:
        """See :meth:`Screen.widgets`."""
        count = max(1, len(view.players))
        # The round column: wide enough for "3 · Daisuke" with a margin, unless a big table
        # needs the room for its players' columns.
        first = 196 if count <= 6 else 142
        col_w = (800 - first - 8) // count
        found: list[Widget] = [
            Label("head:round", pygame.Rect(4, 4, first, 40), _("Round · went out"), 20,
                  theme.TEXT_DIM),
        ]
        for i, player in enumerate(view.players):
            found.append(Label(f"head:{i}", pygame.Rect(first + 8 + i * col_w, 4, col_w - 4, 40),
                               player_name(player.name), 22, theme.TEXT_DIM, bold=True))
        shown = items(view)[self.first : self.first + VISIBLE]
        for row in range(VISIBLE):
            top = TOP + row * (ROW_H + 4)
            if row >= len(shown):
                found.append(Label(f"row{row}", pygame.Rect(4, top, 792, ROW_H), "", 16))
                continue
            item = shown[row]
            if isinstance(item, ShowdownRow):
                text = _("Showdown: {winner} beat {loser}, {loser} takes {count}").format(
                    winner=player_name(item.winner), loser=player_name(item.loser),
                    count=item.cards)
                if item.by_hand:
                    text = _("{entry} (by hand)").format(entry=text)
                found.append(Label(f"row{row}", pygame.Rect(4, top, 792, ROW_H), text, 22,
                                   theme.TEXT_DIM, theme.PANEL))
                continue
            rnd = item
            chosen = rnd.number == self.selected
            found.append(Button(f"row{row}", pygame.Rect(4, top, first, ROW_H),
                                f"{rnd.number} · {player_name(rnd.went_out)}",
                                partial(setattr, self, "selected", rnd.number),
                                selected=chosen, colour=theme.PANEL_LIGHT, size=24))
            for i, player in enumerate(view.players):
                pts = rnd.points[i] if i < len(rnd.points) else 0
                text = f"{pts:+d}" if pts else "0"
                found.append(Label(f"cell{row}:{i}", pygame.Rect(first + 8 + i * col_w,
                                                                 top, col_w - 4, ROW_H), text, 24,
                                   theme.ACCENT if player.name == rnd.went_out else theme.TEXT,
                                   theme.PANEL if chosen else theme.BACKGROUND))
        if not view.rounds and not view.showdowns:
            found.append(Label("empty", pygame.Rect(150, 100, 500, 60),
                               _("No rounds yet"), 28, theme.TEXT_DIM))
        bottom = TOP + VISIBLE * (ROW_H + 4)
        found += [
            Button("up", pygame.Rect(4, bottom, 96, 56), _("Earlier"),
                   lambda: self._scroll(view, -VISIBLE), enabled=self.first > 0, size=20),
            Button("down", pygame.Rect(104, bottom, 96, 56), _("Later"),
                   lambda: self._scroll(view, VISIBLE),
                   enabled=self.first + VISIBLE < len(items(view)), size=20),
            Button("edit", pygame.Rect(220, bottom, 280, 56),
                   _("Edit round {number}").format(number=self.selected)
                   if self.selected is not None else _("Tap a round to edit"),
                   lambda: self._edit(view),
                   enabled=self.selected is not None and not view.read_only, size=22),
            Button("undo", pygame.Rect(516, bottom, 276, 56), _("Undo last entry"),
                   self._undo, colour=theme.DANGER,
                   enabled=view.last is not None and not view.read_only, size=22),
        ]
        return found
