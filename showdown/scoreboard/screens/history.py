"""History: every recorded round and showdown, in the order they happened, with undo (and
redo) of the last entry and editing of any round.

It reads as a paper score sheet does: under each player's name, for every round, the points
entered for them (what they held, or what the player who went out scored) and their running
total, so a 300 typed for a 30 shows at a glance. Showdowns and false starts sit between the
rounds, each worded for what it was, and so do the table's penalties, apart from them and in
words of their own. In 002's hero and mean scoring a round that drew pigs is followed by a line
of the pigs each player drew and now has (every score went back to zero). Ten players with long
names still fit: the names wrap onto up to three lines, breaking inside a name where they must,
and nothing is drawn under 16 px.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial

import pygame

from showdown.scoreboard import theme
from showdown.scoreboard.i18n import _, ngettext
from showdown.scoreboard.news import penalty_entry, showdown_words, undo_last
from showdown.scoreboard.screens.base import Screen, Ui
from showdown.scoreboard.screens.round_end import RoundEndScreen
from showdown.scoreboard.view import PenaltyRow, RoundView, ShowdownRow, TableView
from showdown.scoreboard.vocabulary import pig_count, player_name
from showdown.scoreboard.widgets import Button, Label, Widget

ROUND_H = 54
"""A round's row: the points entered and the running total, one above the other."""
EVENT_H = 36
"""A showdown's or false start's row: one line of words."""
GAP = 4
HEAD_H = 48
"""The names' row for up to six players; a bigger table's names get :data:`TALL_HEAD_H`."""
TALL_HEAD_H = 72
ROWS_BOTTOM = 348
"""Rows end above the buttons."""
WIDE_TABLE = 6
"""Up to this many players the round column also names who went out."""



@dataclass(frozen=True)
class PigLine:
    """The pigs a round drew (hero and mean scoring): its own row under the round."""

    round: RoundView


Item = RoundView | ShowdownRow | PenaltyRow | PigLine


def items(view: TableView) -> list[Item]:
    """Rounds, showdowns and penalties in the order they happened: a round's showdowns and
    penalties before it, in the order entered, and the pigs it drew after it."""
    between: list[ShowdownRow | PenaltyRow] = [*view.showdowns, *view.penalties]
    events = sorted(between, key=lambda e: e.order)
    found: list[Item] = []
    for rnd in view.rounds:
        found += [e for e in events if e.round == rnd.number]
        found.append(rnd)
        if rnd.reset:
            found.append(PigLine(rnd))
    found += [e for e in events if e.round > len(view.rounds)]
    return found


def height(item: Item) -> int:
    """The design height of an item's row."""
    return ROUND_H if isinstance(item, RoundView | PigLine) else EVENT_H


def fitting(entries: list[Item], first: int, room: int) -> int:
    """How many entries from ``first`` fit in ``room`` design pixels (at least one)."""
    used = count = 0
    for item in entries[first:]:
        used += height(item) + GAP
        if used > room + GAP and count:
            break
        count += 1
    return count


class HistoryScreen(Screen):
    """A scrollable score sheet of rounds and showdowns; tap a round to edit it."""

    name = "history"
    banner_area = pygame.Rect(0, 0, 800, 52)

    def __init__(self, ui: Ui) -> None:
        super().__init__(ui)
        self.first = 0
        self._chosen: tuple[int, RoundView] | None = None
        """The round tapped, with its game: dropped once the game in play no longer holds
        it (taken back, or another game)."""

    @property
    def selected(self) -> int | None:
        """The number of the round tapped, if any."""
        return None if self._chosen is None else self._chosen[1].number

    def _choose(self, view: TableView, rnd: RoundView) -> None:
        self._chosen = (view.game_id, rnd)

    def _fit(self, view: TableView) -> None:
        """Drop a chosen round that the game in play no longer holds as it was chosen."""
        if self._chosen is not None:
            game, rnd = self._chosen
            if game != view.game_id or rnd not in view.rounds:
                self._chosen = None

    @staticmethod
    def _room(view: TableView) -> tuple[int, int]:
        """Where the rows start, and how much height they have."""
        top = (HEAD_H if len(view.players) <= WIDE_TABLE else TALL_HEAD_H) + 8
        return top, ROWS_BOTTOM - top

    def entered(self, view: TableView) -> None:
        """Show the latest entries."""
        entries = items(view)
        _top, room = self._room(view)
        self.first = len(entries)
        while self.first > 0 and fitting(entries, self.first - 1, room) == \
                len(entries) - self.first + 1:
            self.first -= 1
        self._chosen = None

    def _scroll(self, view: TableView, delta: int) -> None:
        entries = items(view)
        _top, room = self._room(view)
        if delta > 0:
            self.first = min(len(entries) - 1, self.first + fitting(entries, self.first, room))
        else:
            target = self.first
            while target > 0 and fitting(entries, target - 1, room) <= self.first - target + 1:
                target -= 1
            self.first = target
        self.first = max(0, self.first)

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
        undo_last(self.ui, after=self._latest)

    def widgets(self, view: TableView) -> list[Widget]:
        """See :meth:`Screen.widgets`."""
        self._fit(view)
        count = max(1, len(view.players))
        wide = count <= WIDE_TABLE
        # The round column: wide enough for "3 · Daisuke" with a margin, or the round number
        # alone for a big table, which needs the room for its players' columns.
        first = 196 if wide else 56
        col_w = (800 - first - 8) // count
        top, room = self._room(view)
        head_h = top - 8
        found: list[Widget] = [
            Label("head:round", pygame.Rect(4, 4, first, head_h),
                  _("Round · went out") if wide else "#", 20, theme.TEXT_DIM),
        ]
        for i, player in enumerate(view.players):
            found.append(Label(f"head:{i}", pygame.Rect(first + 8 + i * col_w, 4, col_w - 4,
                                                        head_h),
                               player_name(player.name), 22 if wide else 18, theme.TEXT_DIM,
                               bold=True, wrap=True, anywhere=True))
        entries = items(view)
        shown = entries[self.first : self.first + fitting(entries, self.first, room)]
        y = top
        for row, item in enumerate(shown):
            h = height(item)
            if isinstance(item, ShowdownRow):
                found.append(Label(f"row{row}", pygame.Rect(4, y, 792, h), showdown_words(item),
                                   22, theme.TEXT_DIM, theme.PANEL))
                y += h + GAP
                continue
            if isinstance(item, PenaltyRow):
                found.append(Label(f"row{row}", pygame.Rect(4, y, 792, h), penalty_entry(item),
                                   22, theme.TEXT, theme.PANEL_LIGHT))
                y += h + GAP
                continue
            if isinstance(item, PigLine):
                found += self._pigs(row, item.round, view, first=first, col_w=col_w, y=y,
                                    wide=wide)
                y += h + GAP
                continue
            rnd = item
            chosen = rnd.number == self.selected
            label = f"{rnd.number} · {player_name(rnd.went_out)}" if wide else str(rnd.number)
            found.append(Button(f"row{row}", pygame.Rect(4, y, first, h), label,
                                partial(self._choose, view, rnd),
                                selected=chosen, colour=theme.PANEL_LIGHT, size=24))
            back = theme.PANEL if chosen else theme.BACKGROUND
            for i, player in enumerate(view.players):
                x = first + 8 + i * col_w
                scored = rnd.points[i] if i < len(rnd.points) else 0
                held = rnd.hands[i] if i < len(rnd.hands) else 0
                out = player.name == rnd.went_out
                if scored:
                    figure, ink = f"{scored:+d}", theme.ACCENT if out else theme.TEXT
                else:
                    figure, ink = str(held), theme.TEXT_DIM
                half = h // 2
                found.append(Label(f"cell{row}:{i}", pygame.Rect(x, y, col_w - 4, half),
                                   figure, 20, ink, back, bold=out))
                found.append(Label(f"total{row}:{i}", pygame.Rect(x, y + half, col_w - 4,
                                                                  h - half),
                                   str(rnd.totals[i]) if i < len(rnd.totals) else "", 20,
                                   theme.TEXT, back,
                                   bold=True))
            y += h + GAP
        if not view.rounds and not view.showdowns and not view.penalties:
            found.append(Label("empty", pygame.Rect(150, 100, 500, 60),
                               _("No rounds yet"), 28, theme.TEXT_DIM))
        bottom = ROWS_BOTTOM + 4
        later = self.first + len(shown) < len(entries)
        found += [
            Button("up", pygame.Rect(4, bottom, 96, 56), _("Earlier"),
                   lambda: self._scroll(view, -1), enabled=self.first > 0, size=20),
            Button("down", pygame.Rect(104, bottom, 96, 56), _("Later"),
                   lambda: self._scroll(view, 1), enabled=later, size=20),
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

    @staticmethod
    def _pigs(row: int, rnd: RoundView, view: TableView, *, first: int, col_w: int, y: int,
              wide: bool) -> list[Widget]:
        """A round's pigs: what each player drew (over) and has now (under)."""
        # TRANSLATORS: History: a round reached the pig target; pigs are drawn, scores go to 0.
        words = _("Pigs drawn, every score back to 0") if wide else _("Pigs")
        found: list[Widget] = [Label(f"row{row}", pygame.Rect(4, y, first, ROUND_H), words, 20,
                                     theme.TEXT, theme.PANEL, bold=True, wrap=True)]
        half = ROUND_H // 2
        for i, _player in enumerate(view.players):
            x = first + 8 + i * col_w
            drawn = rnd.pigs_drawn[i] if i < len(rnd.pigs_drawn) else 0
            found.append(Label(f"cell{row}:{i}", pygame.Rect(x, y, col_w - 4, half),
                               ngettext("+{count} pig", "+{count} pigs", drawn).format(
                                   count=drawn) if drawn else "", 20, theme.ACCENT,
                               theme.PANEL, bold=True))
            found.append(Label(f"total{row}:{i}", pygame.Rect(x, y + half, col_w - 4,
                                                              ROUND_H - half),
                               pig_count(rnd.pigs[i]) if i < len(rnd.pigs) else "", 20,
                               theme.TEXT, theme.PANEL, bold=True))
        return found
