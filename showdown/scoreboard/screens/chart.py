"""The score progression: each player's cumulative score after every round, against the target.

Each player has a colour and a marker shape (circle, square, triangle, ...), shown at every point
and in the legend beside the name and total, so the chart reads without colour vision. Every value
is drawn at its value. Where lines would hide each other (players level, as everyone at 0 is early
on), the stretch they share is drawn as interleaved dashes, one colour after another, and their
markers at a shared point are nested, the largest behind, so each shows. The y axis has ticks at
round figures, the x axis numbers the rounds.
"""

from __future__ import annotations

import math
from collections import defaultdict
from dataclasses import dataclass
from functools import partial

import pygame

from showdown.scoreboard import theme
from showdown.scoreboard.i18n import _
from showdown.scoreboard.screens.base import CONTENT_BOTTOM, Screen
from showdown.scoreboard.view import TableView
from showdown.scoreboard.vocabulary import player_name
from showdown.scoreboard.widgets import Canvas, Custom, Label, Widget

PLOT = pygame.Rect(60, 56, 440, 296)
"""The plot area (design pixels): y tick labels to its left, round numbers under it."""
LEGEND_X = 512
"""Where the legend starts: a marker, the name, the total, one row a player. A name of twelve
CJK characters fits its line at 16 px."""
TICK_TEXT = 18
"""Design size of the axes' figures (above the 16 px floor, read from the table)."""
LEGEND_TEXT = 20
MARKERS = ("circle", "square", "triangle", "diamond", "down", "plus", "cross", "ring", "box",
           "hourglass")
"""One marker shape a player, in seat order (ten players, ten shapes)."""
MAX_ROUND_LABELS = 12
"""At most this many round numbers under the x axis (every second, fifth... beyond)."""
MAX_MARKED_ROUNDS = 15
"""Beyond this many rounds only each line's last point carries its marker."""


@dataclass(frozen=True)
class Axis:
    """The y axis: the value at the bottom and top of the plot, and its tick values."""

    low: int
    high: int
    ticks: tuple[int, ...]

    def y(self, value: float, box: pygame.Rect) -> float:
        """The design y of ``value`` in ``box``."""
        return box.bottom - box.height * (value - self.low) / max(1, self.high - self.low)


def nice_step(span: int, most: int = 5) -> int:
    """A round tick step (1, 2 or 5 times a power of ten) giving at most ``most`` intervals."""
    raw = max(1.0, span / most)
    power = 10 ** math.floor(math.log10(raw))
    for factor in (1, 2, 5, 10):
        if factor * power >= raw:
            return int(factor * power)
    return int(10 * power)  # pragma: no cover - the loop always returns


def y_axis(view: TableView) -> Axis:
    """Ticks at round figures from the lowest score (or 0) up past the target and every score."""
    values = [v for series in view.cumulative() for v in series]
    low = min([0, *values])
    high = max([view.target, 1, *values])
    step = nice_step(high - low)
    low = math.floor(low / step) * step
    high = math.ceil(high / step) * step
    return Axis(low, high, tuple(range(low, high + 1, step)))


INSET = 10
"""Design pixels between the plot's sides and its first and last round (markers stay inside)."""


def round_x(rnd: int, rounds: int, box: pygame.Rect) -> float:
    """The design x of round ``rnd`` (0 is the start, everyone at 0) in ``box``."""
    return box.left + INSET + (box.width - 2 * INSET) * rnd / max(1, rounds)


def round_labels(rounds: int) -> list[int]:
    """The rounds numbered under the x axis: all of them, or every n-th when there are many."""
    stride = max(1, math.ceil(rounds / MAX_ROUND_LABELS))
    return [r for r in range(1, rounds + 1) if r % stride == 0 or r == rounds]


def shared(series: list[list[int]]) -> list[list[tuple[int, int]]]:
    """For each player and each stretch between two rounds: (rank, how many) of the players
    whose lines run along the very same stretch (level at both ends), in seat order; (0, 1)
    for a stretch of one's own."""
    found = [[(0, 1)] * max(0, len(values) - 1) for values in series]
    for rnd in range(max((len(values) for values in series), default=1) - 1):
        together: dict[tuple[int, int], list[int]] = defaultdict(list)
        for i, values in enumerate(series):
            if rnd + 1 < len(values):
                together[(values[rnd], values[rnd + 1])].append(i)
        for players in together.values():
            for rank, i in enumerate(players):
                found[i][rnd] = (rank, len(players))
    return found


def nested(series: list[list[int]]) -> list[list[tuple[int, int]]]:
    """For each player and each round: (rank, how many) of the players with the same value
    there, in seat order (their markers are nested, the first the largest)."""
    found = [[(0, 1)] * len(values) for values in series]
    for rnd in range(max((len(values) for values in series), default=0)):
        level: dict[int, list[int]] = defaultdict(list)
        for i, values in enumerate(series):
            if rnd < len(values):
                level[values[rnd]].append(i)
        for players in level.values():
            for rank, i in enumerate(players):
                found[i][rnd] = (rank, len(players))
    return found


def dashes(start: tuple[float, float], end: tuple[float, float], rank: int, count: int,
           length: float) -> list[tuple[tuple[float, float], tuple[float, float]]]:
    """The pieces of a stretch that player ``rank`` of ``count`` sharing it draws: dashes of
    ``length`` pixels, each player's after the one before's, so the colours take turns along
    the line (the whole stretch when it is one player's)."""
    if count <= 1:
        return [(start, end)]
    (x0, y0), (x1, y1) = start, end
    total = math.hypot(x1 - x0, y1 - y0)
    if total == 0:
        return []
    pieces = []
    at = rank * length
    while at < total:
        stop = min(total, at + length)
        pieces.append(((x0 + (x1 - x0) * at / total, y0 + (y1 - y0) * at / total),
                       (x0 + (x1 - x0) * stop / total, y0 + (y1 - y0) * stop / total)))
        at += count * length
    return pieces


def plot_point(rnd: int, value: float, *, rounds: int, axis: Axis, box: pygame.Rect,
               real: pygame.Rect, scale: float) -> tuple[float, float]:
    """Where round ``rnd``'s ``value`` is drawn, in window pixels: at its value, always."""
    x = real.left + (round_x(rnd, rounds, box) - box.left) * scale
    y = real.top + (axis.y(value, box) - box.top) * scale
    return x, y


def paint_marker(surface: pygame.Surface, shape: str, centre: tuple[float, float],
                 radius: int, colour: theme.Colour) -> None:
    """A player's marker: filled shapes, open ones, a plus and a cross, all ``radius`` across."""
    x, y = centre
    r = radius
    width = max(2, r // 2)
    polygons = {
        "triangle": [(x, y - r), (x + r, y + r), (x - r, y + r)],
        "down": [(x - r, y - r), (x + r, y - r), (x, y + r)],
        "diamond": [(x, y - r), (x + r, y), (x, y + r), (x - r, y)],
        "hourglass": [(x - r, y - r), (x + r, y - r), (x - r, y + r), (x + r, y + r)],
    }
    if shape == "circle":
        pygame.draw.circle(surface, colour, (x, y), r)
    elif shape == "ring":
        pygame.draw.circle(surface, colour, (x, y), r, width)
    elif shape == "square":
        pygame.draw.rect(surface, colour, pygame.Rect(x - r, y - r, 2 * r, 2 * r))
    elif shape == "box":
        pygame.draw.rect(surface, colour, pygame.Rect(x - r, y - r, 2 * r, 2 * r), width)
    elif shape == "plus":
        pygame.draw.line(surface, colour, (x - r, y), (x + r, y), width + 1)
        pygame.draw.line(surface, colour, (x, y - r), (x, y + r), width + 1)
    elif shape == "cross":
        pygame.draw.line(surface, colour, (x - r, y - r), (x + r, y + r), width + 1)
        pygame.draw.line(surface, colour, (x - r, y + r), (x + r, y - r), width + 1)
    else:
        pygame.draw.polygon(surface, colour, polygons[shape])


def player_style(i: int, view: TableView | None = None) -> tuple[theme.Colour, str]:
    """A player's colour (their own in this game, else their seat's) and marker shape (by
    seat)."""
    own = view.players[i].colour if view is not None and i < len(view.players) else None
    return own or theme.PLAYER_COLOURS[i % len(theme.PLAYER_COLOURS)], MARKERS[i % len(MARKERS)]


def paint_chart(canvas: Canvas, box: pygame.Rect, view: TableView) -> None:
    """Grid lines at the ticks, the target line, and one line per player with its markers."""
    surface = canvas.surface
    layout = canvas.layout
    real = canvas.rect(box)
    surface.fill(theme.PANEL, real)
    axis = y_axis(view)
    series = view.cumulative()
    rounds = len(view.rounds)

    def point(rnd: int, value: float) -> tuple[float, float]:
        return plot_point(rnd, value, rounds=rounds, axis=axis, box=box, real=real,
                          scale=layout.scale)

    for tick in axis.ticks:
        y = point(0, tick)[1]
        pygame.draw.line(surface, theme.PANEL_LIGHT, (real.left, y), (real.right, y), 1)
    if view.target:
        target_y = point(0, view.target)[1]
        dash = layout.px(12)
        for x in range(real.left, real.right, dash * 2):
            pygame.draw.line(surface, theme.ACCENT, (x, target_y),
                             (min(x + dash, real.right), target_y), layout.px(2))
        # In hero and mean scoring the line is where pigs are drawn, as the table says it.
        words = _("Pig at {target}") if view.uses_pigs else _("Target {target}")
        line = math.ceil(canvas.text.font(TICK_TEXT).get_height() / layout.scale)
        at = round(axis.y(view.target, box))
        band = pygame.Rect(box.x + 4, at - 2 - line, box.width - 8, line)
        if band.top < box.top:  # the target at the top of the axis: its words under it
            band.top = at + 4
        canvas.text.draw(surface, words.format(target=view.target), band, TICK_TEXT,
                         theme.ACCENT, align="right")
    line = layout.px(3)
    radius = layout.px(5)
    dash = layout.px(10)
    strands = shared(series)
    piles = nested(series)
    for i, values in enumerate(series):
        colour, _shape = player_style(i, view)
        points = [point(r, v) for r, v in enumerate(values)]
        for r in range(len(points) - 1):
            rank, count = strands[i][r]
            for a, b in dashes(points[r], points[r + 1], rank, count, dash):
                pygame.draw.line(surface, colour, a, b, line)
    # Markers over the lines, the largest of a pile first so the smaller ones show on top.
    marks = []
    for i, values in enumerate(series):
        rounds_marked = range(len(values)) if rounds <= MAX_MARKED_ROUNDS else [len(values) - 1]
        for r in rounds_marked:
            rank, count = piles[i][r]
            step = min(layout.px(3), layout.px(12) / max(1, count - 1))
            marks.append((-(count - 1 - rank), i, r, radius + round(step * (count - 1 - rank))))
    for _order, i, r, size in sorted(marks):
        colour, shape = player_style(i, view)
        paint_marker(surface, shape, point(r, series[i][r]), size, colour)


def paint_key(canvas: Canvas, box: pygame.Rect, *, style: tuple[theme.Colour, str]) -> None:
    """A player's colour and marker in the legend, on a short stretch of their line."""
    real = canvas.rect(box)
    canvas.surface.fill(theme.BACKGROUND, real)
    colour, shape = style
    pygame.draw.line(canvas.surface, colour, real.midleft, real.midright, canvas.layout.px(3))
    paint_marker(canvas.surface, shape, real.center, canvas.layout.px(7), colour)


class ChartScreen(Screen):
    """Cumulative score per player per round."""

    name = "chart"

    def widgets(self, view: TableView) -> list[Widget]:
        """See :meth:`Screen.widgets`."""
        series = view.cumulative()
        axis = y_axis(view)
        rounds = len(view.rounds)
        found: list[Widget] = [
            Label("title", pygame.Rect(8, 4, LEGEND_X - 12, 44), _("Score after each round"), 28,
                  theme.ACCENT, bold=True, align="left"),
            Custom("plot", PLOT, (tuple(tuple(s) for s in series), view.target,
                                  tuple(p.colour for p in view.players)),
                   lambda c, r: paint_chart(c, r, view)),
        ]
        for t, tick in enumerate(axis.ticks):
            y = round(axis.y(tick, PLOT))
            found.append(Label(f"ytick:{t}", pygame.Rect(0, y - 12, PLOT.left - 6, 24),
                               str(tick), TICK_TEXT, theme.TEXT_DIM, align="right"))
        for rnd in round_labels(rounds):
            x = round(round_x(rnd, rounds, PLOT))
            found.append(Label(f"xtick:{rnd}", pygame.Rect(x - 20, PLOT.bottom + 4, 40, 24),
                               str(rnd), TICK_TEXT, theme.TEXT_DIM))
        found.append(Label("xaxis", pygame.Rect(PLOT.left, PLOT.bottom + 30, PLOT.width,
                                                CONTENT_BOTTOM - PLOT.bottom - 32),
                           # TRANSLATORS: the chart's x axis, numbered 1, 2, 3... by round.
                           _("Round"), TICK_TEXT, theme.TEXT_DIM))
        count = max(1, len(view.players))
        row_h = min(48, (CONTENT_BOTTOM - 52) // count)
        for i, player in enumerate(view.players):
            top = 52 + i * row_h
            style = player_style(i, view)
            found.append(Custom(f"key{i}", pygame.Rect(LEGEND_X, top, 30, row_h - 4), style,
                                partial(paint_key, style=style)))
            found.append(Label(f"legend-name{i}", pygame.Rect(LEGEND_X + 36, top, 196, row_h - 4),
                               player_name(player.name), LEGEND_TEXT, theme.TEXT, align="left"))
            found.append(Label(f"legend-total{i}", pygame.Rect(LEGEND_X + 234, top, 46,
                                                               row_h - 4),
                               str(player.total), LEGEND_TEXT, theme.TEXT, bold=True,
                               align="right"))
        return found
