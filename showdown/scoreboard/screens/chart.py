"""The score progression: each player's cumulative score after every round, against the target.

Lines are told apart by colour and by the player's initial written at the end of each line and
in the legend, so the chart reads without colour vision.
"""

from __future__ import annotations

import pygame

from showdown.scoreboard import theme
from showdown.scoreboard.i18n import _
from showdown.scoreboard.screens.base import CONTENT_BOTTOM, Screen
from showdown.scoreboard.view import TableView
from showdown.scoreboard.widgets import Canvas, Custom, Label, Widget

PLOT = pygame.Rect(60, 52, 540, CONTENT_BOTTOM - 84)


def initial(name: str) -> str:
    """A short mark for a player on the chart."""
    return name[:2] if name else "?"


def paint_chart(canvas: Canvas, box: pygame.Rect, view: TableView) -> None:
    """Axes, the target line, and one line per player with its initial at the end."""
    surface = canvas.surface
    real = canvas.rect(box)
    surface.fill(theme.BACKGROUND, real)
    series = view.cumulative()
    rounds = max(1, len(view.rounds))
    low = min([0, *(v for s in series for v in s)])
    high = max([view.target, *(v for s in series for v in s)])
    span = max(1, high - low)
    pygame.draw.rect(surface, theme.PANEL, real)

    def point(rnd: int, value: int) -> tuple[int, int]:
        x = real.left + round(real.width * rnd / rounds)
        y = real.bottom - round(real.height * (value - low) / span)
        return x, y

    target_y = point(0, view.target)[1]
    dash = canvas.layout.px(12)
    for x in range(real.left, real.right, dash * 2):
        pygame.draw.line(surface, theme.ACCENT, (x, target_y), (min(x + dash, real.right),
                                                                 target_y), canvas.layout.px(2))
    label = canvas.text.render(_("Target {target}").format(target=view.target), 16,
                               theme.ACCENT)
    surface.blit(label, label.get_rect(bottomright=(real.right - 4, target_y - 2)))
    width = canvas.layout.px(3)
    ends: list[tuple[int, int]] = []
    for i, values in enumerate(series):
        colour = theme.PLAYER_COLOURS[i % len(theme.PLAYER_COLOURS)]
        points = [point(r, v) for r, v in enumerate(values)]
        if len(points) > 1:
            pygame.draw.lines(surface, colour, False, points, width)
        for p in points:
            pygame.draw.circle(surface, colour, p, canvas.layout.px(4))
        ends.append((points[-1][1], i))
    # Each line's initials at its end, pushed apart vertically so equal scores stay legible.
    gap = canvas.layout.px(18)
    placed: list[int] = []
    for end_y, i in sorted(ends):
        y = max(end_y - canvas.layout.px(10), real.top + gap // 2)
        if placed and y - placed[-1] < gap:
            y = placed[-1] + gap
        placed.append(y)
        colour = theme.PLAYER_COLOURS[i % len(theme.PLAYER_COLOURS)]
        mark = canvas.text.render(initial(view.players[i].name), 16, colour, True)
        surface.blit(mark, mark.get_rect(midright=(real.right - 6, y)))


class ChartScreen(Screen):
    """Cumulative score per player per round."""

    name = "chart"

    def widgets(self, view: TableView) -> list[Widget]:
        """See :meth:`Screen.widgets`."""
        series = view.cumulative()
        found: list[Widget] = [
            Label("title", pygame.Rect(8, 4, 592, 44), _("Score after each round"), 28,
                  theme.ACCENT, bold=True, align="left"),
            Custom("plot", PLOT, (tuple(tuple(s) for s in series), view.target,
                                  tuple(p.name for p in view.players)),
                   lambda c, r: paint_chart(c, r, view)),
            Label("axis", pygame.Rect(8, PLOT.bottom + 2, 592, 28),
                  _("Rounds: {count}").format(count=len(view.rounds)), 18, theme.TEXT_DIM),
            Label("top", pygame.Rect(0, PLOT.top, 56, 24),
                  str(max([view.target, *(v for s in series for v in s)])), 16,
                  theme.TEXT_DIM, align="right"),
        ]
        count = max(1, len(view.players))
        row_h = min(52, (CONTENT_BOTTOM - 56) // count)
        for i, player in enumerate(view.players):
            top = 52 + i * row_h
            colour = theme.PLAYER_COLOURS[i % len(theme.PLAYER_COLOURS)]
            found.append(Label(f"key{i}", pygame.Rect(612, top, 44, row_h - 4),
                               initial(player.name), 20, theme.BACKGROUND, colour, bold=True))
            found.append(Label(f"legend{i}", pygame.Rect(660, top, 136, row_h - 4),
                               f"{player.name} {player.total}", 20, theme.TEXT, align="left"))
        return found
