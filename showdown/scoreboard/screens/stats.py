"""Statistics per player: this game as a reaction-time leaderboard (fastest first), or every
game the table kept (All time).

Only players with a reaction time are ranked: before the first showdown nobody is "#1", and
nobody is highlighted. The unit (ms) is in the column heads, so a cell holds a figure alone and
figures side by side never run together, in any language. All time shows, for every player named
in a game (a seat nobody named is nobody's record), games played and won, the points scored per
round, showdowns won and lost, the
best and median reaction time and the false starts (:mod:`showdown.game.alltime`).
"""

from __future__ import annotations

import pygame

from showdown.scoreboard import theme
from showdown.scoreboard.i18n import N_, _
from showdown.scoreboard.screens.base import Screen, Ui
from showdown.scoreboard.view import AllTimeView, StatsView, TableView
from showdown.scoreboard.vocabulary import player_name, player_sort_key
from showdown.scoreboard.widgets import Button, Label, Widget

COLUMNS: tuple[tuple[str, int], ...] = (
    (N_("#"), 36),
    (N_("Player"), 216),
    (N_("Fastest"), 84),
    (N_("Median"), 84),
    (N_("Won"), 70),
    (N_("Lost"), 70),
    (N_("Cards taken"), 88),
    (N_("Rounds"), 72),
    (N_("Points"), 72),
)
"""Column message ids and design widths (they add up to the screen's 792 px): the player's
column takes a name of twelve CJK characters on one line, bold at 16 px."""

ALL_TIME: tuple[tuple[str, str, int], ...] = (
    ("", N_("Player"), 204),
    (N_("Games"), N_("Played"), 64),
    (N_("Games"), N_("Won"), 70),
    (N_("Points"), N_("Per round"), 90),
    (N_("Showdowns"), N_("Won"), 70),
    (N_("Showdowns"), N_("Lost"), 58),
    (N_("Reaction (ms)"), N_("Best"), 68),
    (N_("Reaction (ms)"), N_("Median"), 66),
    ("", N_("False starts"), 102),
)
"""The all-time columns: a group head, the column's own head, the design width (792 px in
all; a name of twelve CJK characters fits the first at 16 px)."""

IN_MS = frozenset({"Fastest", "Median"})
"""The columns of reaction times: their head says the unit on a line of its own."""

CELL_PADDING = 4
"""Design pixels between a cell's text and its edges."""


def _ms(value: float | None) -> str:
    return "—" if value is None else f"{value:.0f}"


def leaderboard(stats: tuple[StatsView, ...]) -> list[StatsView]:
    """Fastest reaction first; players who never reacted come last. Equal times and the
    unranked are in name order as a reader sorts them ("Player 9" before "Player 10")."""
    return sorted(stats, key=lambda s: (s.fastest_ms is None, s.fastest_ms or 0.0,
                                        player_sort_key(s.name)))


def _one(value: float | None) -> str:
    return "—" if value is None else f"{value:.1f}"


class StatsScreen(Screen):
    """The leaderboard and each player's figures, this game's or all time."""

    name = "stats"
    banner_area = pygame.Rect(0, 0, 588, 48)
    """Over the title, beside the All time switch."""

    def __init__(self, ui: Ui) -> None:
        super().__init__(ui)
        self.all_time = False
        self.records: tuple[AllTimeView, ...] = ()

    def entered(self, view: TableView) -> None:
        """Read the all-time figures once (every game kept is folded from the journal)."""
        if self.all_time:
            self.records = self.ui.port.all_time()

    def _switch(self) -> None:
        self.all_time = not self.all_time
        self.entered(self.ui.port.view())

    def widgets(self, view: TableView) -> list[Widget]:
        """See :meth:`Screen.widgets`."""
        found: list[Widget] = [
            Button("all-time", pygame.Rect(592, 0, 200, 48),
                   _("This game") if self.all_time else _("All time"), self._switch,
                   colour=theme.PANEL_LIGHT, size=22),
        ]
        if self.all_time:
            return found + self._all_time()
        rows = leaderboard(view.stats)
        ranked = sum(1 for line in rows if line.fastest_ms is not None)
        played = sum(line.showdowns_won for line in rows)
        found.append(Label("title", pygame.Rect(8, 4, 296 if rows and not ranked else 576, 44),
                           _("Reaction-time leaderboard"), 28, theme.ACCENT, bold=True,
                           align="left"))
        if rows and not ranked:
            # Showdowns entered by hand count in Won and Lost but carry no reaction time.
            found.append(Label("empty", pygame.Rect(308, 4, 280, 44),
                               _("No reaction times yet") if played else _("No showdowns yet"),
                               22, theme.TEXT_DIM, align="right"))
        x = 4
        for key, width in COLUMNS:
            if key in IN_MS:
                found.append(Label(f"head:{key}", pygame.Rect(x, 48, width - 4, 26), _(key), 18,
                                   theme.TEXT_DIM, bold=True))
                # TRANSLATORS: the unit of reaction times, under the Fastest and Median heads.
                found.append(Label(f"unit:{key}", pygame.Rect(x, 74, width - 4, 24), _("(ms)"),
                                   16, theme.TEXT_DIM))
            else:
                found.append(Label(f"head:{key}", pygame.Rect(x, 48, width - 4, 50), _(key),
                                   18, theme.TEXT_DIM, bold=True, wrap=True))
            x += width
        row_h = min(48, (408 - 100) // max(1, len(rows)))
        for r, line in enumerate(rows):
            top = 100 + r * row_h
            cells = (
                str(r + 1) if r < ranked else "", player_name(line.name),
                _ms(line.fastest_ms), _ms(line.median_ms),
                str(line.showdowns_won), str(line.showdowns_lost), str(line.cards_taken),
                str(line.rounds_won), str(line.points),
            )
            x = 4
            for c, ((_key, width), text) in enumerate(zip(COLUMNS, cells, strict=True)):
                found.append(Label(f"cell{r}:{c}", pygame.Rect(x, top, width - 4, row_h - 4),
                                   text, 22,
                                   theme.ACCENT if r == 0 and ranked and c < 3 else theme.TEXT,
                                   theme.PANEL if r % 2 == 0 else theme.BACKGROUND,
                                   bold=c == 1, align="left" if c == 1 else "center",
                                   padding=CELL_PADDING))
                x += width
        if not rows:
            found.append(Label("empty", pygame.Rect(100, 140, 600, 60), _("No showdowns yet"),
                               28, theme.TEXT_DIM))
        return found

    def _all_time(self) -> list[Widget]:
        """Every player who sat down in a game the table kept, most games first."""
        found: list[Widget] = [
            Label("title", pygame.Rect(8, 4, 576, 44), _("All time"), 28, theme.ACCENT,
                  bold=True, align="left"),
        ]
        x = 4
        groups: dict[str, tuple[int, int]] = {}
        for group, head, width in ALL_TIME:
            if group:
                start, span = groups.get(group, (x, 0))
                groups[group] = (start, span + width)
            found.append(Label(f"head:{head}:{x}", pygame.Rect(x, 72, width - 4, 28), _(head),
                               16, theme.TEXT_DIM, bold=True))
            x += width
        for group, (start, span) in groups.items():
            found.append(Label(f"group:{group}", pygame.Rect(start, 48, span - 4, 24), _(group),
                               16, theme.TEXT, theme.PANEL, bold=True))
        records = self.records
        row_h = min(48, (408 - 104) // max(1, len(records)))
        for r, record in enumerate(records):
            top = 104 + r * row_h
            cells = (
                player_name(record.name), str(record.games), str(record.won),
                _one(record.points_per_round), str(record.showdowns_won),
                str(record.showdowns_lost), _ms(record.best_ms), _ms(record.median_ms),
                str(record.false_starts),
            )
            x = 4
            for c, ((_group, _head, width), text) in enumerate(zip(ALL_TIME, cells,
                                                                   strict=True)):
                found.append(Label(f"all{r}:{c}", pygame.Rect(x, top, width - 4, row_h - 4),
                                   text, 22, theme.TEXT,
                                   theme.PANEL if r % 2 == 0 else theme.BACKGROUND,
                                   align="left" if c == 0 else "center",
                                   padding=CELL_PADDING))
                x += width
        if not records:
            found.append(Label("none", pygame.Rect(100, 160, 600, 60), _("No games yet"), 28,
                               theme.TEXT_DIM))
        return found
