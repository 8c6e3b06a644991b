"""Statistics per player, ordered as a reaction-time leaderboard (fastest first)."""

from __future__ import annotations

import pygame

from showdown.scoreboard import theme
from showdown.scoreboard.i18n import N_, _
from showdown.scoreboard.screens.base import Screen
from showdown.scoreboard.view import StatsView, TableView
from showdown.scoreboard.widgets import Label, Widget

COLUMNS: tuple[tuple[str, int], ...] = (
    (N_("#"), 36),
    (N_("Player"), 150),
    (N_("Fastest"), 100),
    (N_("Median"), 100),
    (N_("Won"), 76),
    (N_("Lost"), 76),
    (N_("Cards taken"), 100),
    (N_("Rounds"), 78),
    (N_("Points"), 76),
)
"""Column message ids and design widths (they add up to the screen's 792 px)."""


def _ms(value: float | None) -> str:
    return "—" if value is None else _("{ms} ms").format(ms=f"{value:.0f}")


def leaderboard(stats: tuple[StatsView, ...]) -> list[StatsView]:
    """Fastest reaction first; players who never reacted come last, by name."""
    return sorted(stats, key=lambda s: (s.fastest_ms is None, s.fastest_ms or 0.0, s.name))


class StatsScreen(Screen):
    """The leaderboard and each player's figures."""

    name = "stats"

    def widgets(self, view: TableView) -> list[Widget]:
        """See :meth:`Screen.widgets`."""
        found: list[Widget] = [
            Label("title", pygame.Rect(8, 4, 784, 44), _("Reaction-time leaderboard"), 28,
                  theme.ACCENT, bold=True, align="left"),
        ]
        x = 4
        for key, width in COLUMNS:
            found.append(Label(f"head:{key}", pygame.Rect(x, 46, width - 4, 50), _(key), 18,
                               theme.TEXT_DIM, bold=True, wrap=True))
            x += width
        rows = leaderboard(view.stats)
        row_h = min(48, (408 - 100) // max(1, len(rows)))
        for r, line in enumerate(rows):
            top = 100 + r * row_h
            cells = (
                str(r + 1), line.name, _ms(line.fastest_ms), _ms(line.median_ms),
                str(line.showdowns_won), str(line.showdowns_lost), str(line.cards_taken),
                str(line.rounds_won), str(line.points),
            )
            x = 4
            for c, ((_key, width), text) in enumerate(zip(COLUMNS, cells, strict=True)):
                found.append(Label(f"cell{r}:{c}", pygame.Rect(x, top, width - 4, row_h - 4),
                                   text, 22, theme.ACCENT if r == 0 and c < 3 else theme.TEXT,
                                   theme.PANEL if r % 2 == 0 else theme.BACKGROUND,
                                   bold=c == 1, align="left" if c == 1 else "center"))
                x += width
        if not rows:
            found.append(Label("empty", pygame.Rect(100, 140, 600, 60), _("No showdowns yet"),
                               28, theme.TEXT_DIM))
        return found
