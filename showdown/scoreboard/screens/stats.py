"""Statistics per player, ordered as a reaction-time leaderboard (fastest first).

Only players with a reaction time are ranked: before the first showdown nobody is "#1", and
nobody is highlighted. The unit (ms) is in the column heads, so a cell holds a figure alone and
figures side by side never run together, in any language.
"""

from __future__ import annotations

import pygame

from showdown.scoreboard import theme
from showdown.scoreboard.i18n import N_, _
from showdown.scoreboard.screens.base import Screen
from showdown.scoreboard.view import StatsView, TableView
from showdown.scoreboard.vocabulary import player_name, player_sort_key
from showdown.scoreboard.widgets import Label, Widget

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


class StatsScreen(Screen):
    """The leaderboard and each player's figures."""

    name = "stats"

    def widgets(self, view: TableView) -> list[Widget]:
        """See :meth:`Screen.widgets`."""
        rows = leaderboard(view.stats)
        ranked = sum(1 for line in rows if line.fastest_ms is not None)
        played = sum(line.showdowns_won for line in rows)
        found: list[Widget] = [
            Label("title", pygame.Rect(8, 4, 784 if ranked or not rows else 480, 44),
                  _("Reaction-time leaderboard"), 28, theme.ACCENT, bold=True, align="left"),
        ]
        if rows and not ranked:
            # Showdowns entered by hand count in Won and Lost but carry no reaction time.
            found.append(Label("empty", pygame.Rect(492, 4, 300, 44),
                               _("No reaction times yet") if played else _("No showdowns yet"),
                               22, theme.TEXT_DIM, align="right"))
        x = 4
        for key, width in COLUMNS:
            if key in IN_MS:
                found.append(Label(f"head:{key}", pygame.Rect(x, 46, width - 4, 28), _(key), 18,
                                   theme.TEXT_DIM, bold=True))
                # TRANSLATORS: the unit of reaction times, under the Fastest and Median heads.
                found.append(Label(f"unit:{key}", pygame.Rect(x, 74, width - 4, 24), _("(ms)"),
                                   16, theme.TEXT_DIM))
            else:
                found.append(Label(f"head:{key}", pygame.Rect(x, 46, width - 4, 50), _(key),
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
