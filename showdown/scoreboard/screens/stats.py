"""Statistics per player: this game as a reaction-time leaderboard (fastest first), or every
game the table kept (All time).

Only players with a reaction time are ranked: before the first showdown nobody is "#1", and
nobody is highlighted. The unit (ms) is in the column heads, so a cell holds a figure alone and
figures side by side never run together, in any language. A table without a unit measures no
reaction time: its game is listed by place, without the reaction columns. The column heads
share one size, shrunk together until the longest fits its column. All time shows, for every
player named in a game (a seat nobody named is nobody's record), games played and won, the points
scored per round, showdowns won and lost, the best and median reaction time and the false starts
(:mod:`showdown.game.alltime`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial

import pygame

from showdown.scoreboard import theme
from showdown.scoreboard.i18n import N_, _
from showdown.scoreboard.screens.base import Screen, Ui
from showdown.scoreboard.view import AllTimeView, StatsView, TableView
from showdown.scoreboard.vocabulary import player_name, player_sort_key
from showdown.scoreboard.widgets import Button, Canvas, Custom, Label, Widget

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

BY_HAND: tuple[tuple[str, int], ...] = (
    (N_("#"), 36),
    (N_("Player"), 300),
    (N_("Won"), 84),
    (N_("Lost"), 84),
    (N_("Cards taken"), 104),
    (N_("Rounds"), 92),
    (N_("Points"), 92),
)
"""The columns of a game played without a unit (no reaction time to show), 792 px in all."""

HEAD_TEXT = 18
"""Design size of this game's column heads, all shrunk together until every head fits."""

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


Piece = tuple[str, pygame.Rect, bool]
"""A line of a column head: its words, its design box, and whether it is bold."""


def paint_head(canvas: Canvas, box: pygame.Rect, *, own: tuple[Piece, ...],
               every: tuple[Piece, ...]) -> None:
    """A column head (``own``) at the one size every head of the row (``every``) fits at, on
    one line where it fits so, else wrapped."""
    canvas.surface.fill(theme.BACKGROUND, canvas.rect(box))
    size = min(canvas.text.shared_size((words,), piece, HEAD_TEXT, bold)[0]
               for words, piece, bold in every)
    for words, piece, bold in own:
        if canvas.text.shared_size((words,), piece, size, bold) == (size, False):
            canvas.text.draw(canvas.surface, words, piece, size, theme.TEXT_DIM, bold=bold)
        else:
            canvas.text.draw(canvas.surface, words, piece, size, theme.TEXT_DIM, bold=bold,
                             wrap=True)


def by_place(view: TableView) -> list[StatsView]:
    """This game's lines in the order of the standings (names as a reader sorts them within a
    place)."""
    place = {player.name: player.place for player in view.players}
    return sorted(view.stats, key=lambda s: (place.get(s.name, len(place)),
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
        if not view.has_unit and all(line.fastest_ms is None for line in view.stats):
            return found + self._by_hand(view)
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
        found += self._heads(COLUMNS)
        cells = [(str(r + 1) if r < ranked else "", player_name(line.name),
                  _ms(line.fastest_ms), _ms(line.median_ms),
                  str(line.showdowns_won), str(line.showdowns_lost), str(line.cards_taken),
                  str(line.rounds_won), str(line.points)) for r, line in enumerate(rows)]
        found += self._rows(COLUMNS, cells, lambda r, c: r == 0 and bool(ranked) and c < 3)
        if not rows:
            found.append(Label("empty", pygame.Rect(100, 140, 600, 60), _("No showdowns yet"),
                               28, theme.TEXT_DIM))
        return found

    def _by_hand(self, view: TableView) -> list[Widget]:
        """This game at a table without a unit: by place, showdowns, cards and rounds, with no
        reaction time (none was measured) and no leaderboard of one."""
        rows = by_place(view)
        place = {player.name: player.place for player in view.players}
        played = bool(view.rounds)
        cells = [(str(place.get(line.name, "")) if played else "", player_name(line.name),
                  str(line.showdowns_won), str(line.showdowns_lost), str(line.cards_taken),
                  str(line.rounds_won), str(line.points)) for line in rows]
        found: list[Widget] = [
            Label("title", pygame.Rect(8, 4, 576, 44), _("This game"), 28, theme.ACCENT,
                  bold=True, align="left"),
            *self._heads(BY_HAND),
            *self._rows(BY_HAND, cells, lambda r, c: played and place.get(rows[r].name) == 1
                        and c in (0, 1, len(BY_HAND) - 1)),
        ]
        return found

    @staticmethod
    def _heads(columns: tuple[tuple[str, int], ...]) -> list[Widget]:
        """The column heads, one size for all (the reaction times' with their unit under)."""
        pieces: list[tuple[Piece, ...]] = []
        x = 4
        for key, width in columns:
            if key in IN_MS:
                head = (_(key), pygame.Rect(x, 48, width - 4, 26), True)
                # TRANSLATORS: the unit of reaction times, under the Fastest and Median heads.
                unit = (_("(ms)"), pygame.Rect(x, 74, width - 4, 24), False)
                pieces.append((head, unit))
            else:
                pieces.append(((_(key), pygame.Rect(x, 48, width - 4, 50), True),))
            x += width
        every = tuple(piece for own in pieces for piece in own)
        found: list[Widget] = []
        x = 4
        for (key, width), own in zip(columns, pieces, strict=True):
            found.append(Custom(f"head:{key}", pygame.Rect(x, 48, width - 4, 50),
                                tuple((words, bold) for words, _box, bold in every),
                                partial(paint_head, own=own, every=every)))
            x += width
        return found

    @staticmethod
    def _rows(columns: tuple[tuple[str, int], ...], cells: Sequence[tuple[str, ...]],
              leading: Callable[[int, int], bool]) -> list[Widget]:
        """The rows of figures, one line per player; ``leading`` picks the cells in the accent
        colour (the leader's)."""
        found: list[Widget] = []
        row_h = min(48, (408 - 100) // max(1, len(cells)))
        for r, row in enumerate(cells):
            top = 100 + r * row_h
            x = 4
            for c, ((_key, width), text) in enumerate(zip(columns, row, strict=True)):
                found.append(Label(f"cell{r}:{c}", pygame.Rect(x, top, width - 4, row_h - 4),
                                   text, 22, theme.ACCENT if leading(r, c) else theme.TEXT,
                                   theme.PANEL if r % 2 == 0 else theme.BACKGROUND,
                                   bold=c == 1, align="left" if c == 1 else "center",
                                   padding=CELL_PADDING))
                x += width
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
