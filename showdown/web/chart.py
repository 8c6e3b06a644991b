"""The score after each round as an SVG drawing: the numbers here, the shapes in the template.

Each player's line carries their colour and their marker shape at every point (the scoreboard's
shapes, so colour is never the only key), and the legend beside it names them. Values are drawn
at their value; the target, when there is one, is a dashed line.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from showdown.game.table_view import TableView
from showdown.web.table import seats

__all__ = ["Chart", "ChartLine", "chart"]

WIDTH, HEIGHT = 360, 220
LEFT, RIGHT, TOP, BOTTOM = 40, 352, 10, 196
MAX_MARKED = 15
"""Beyond this many rounds only a line's last point carries its marker."""


@dataclass(frozen=True)
class ChartLine:
    """One player's line: ``points`` in drawing units, ``marks`` where the marker goes."""

    name: str
    colour: str
    marker: str
    points: str
    marks: tuple[tuple[float, float], ...]


@dataclass(frozen=True)
class Chart:
    """Everything the template draws."""

    width: int
    height: int
    lines: tuple[ChartLine, ...]
    y_ticks: tuple[tuple[float, int], ...]
    x_ticks: tuple[tuple[float, int], ...]
    target_y: float | None
    left: int = LEFT
    right: int = RIGHT
    top: int = TOP
    bottom: int = BOTTOM


def nice_step(span: int, most: int = 5) -> int:
    """A round tick step (1, 2 or 5 times a power of ten) giving at most ``most`` intervals."""
    raw = max(1.0, span / most)
    power = 10 ** math.floor(math.log10(raw))
    return int(next(step * power for step in (1, 2, 5, 10) if step * power >= raw))


def chart(table: TableView) -> Chart:
    """The chart of ``table``'s running totals (round 0: everyone at 0)."""
    marked = seats(table)
    series = [[0, *(line.totals[s.seat] for line in table.rounds)] for s in marked]
    values = [v for line in series for v in line]
    target = table.target if table.target and not table.lowest_wins else None
    low = min(0, *values) if values else 0
    high = max([1, *values, *([target] if target else [])])
    step = nice_step(high - low)
    low = step * math.floor(low / step)
    high = step * math.ceil(high / step)
    rounds = max(1, len(table.rounds))

    def x(index: int) -> float:
        return round(LEFT + (RIGHT - LEFT) * index / rounds, 1)

    def y(value: float) -> float:
        return round(BOTTOM - (BOTTOM - TOP) * (value - low) / max(1, high - low), 1)

    lines = []
    for seat, line in zip(marked, series, strict=True):
        points = [(x(i), y(v)) for i, v in enumerate(line)]
        marks = tuple(points[1:] if len(points) - 1 <= MAX_MARKED else points[-1:])
        lines.append(ChartLine(seat.name, seat.colour, seat.marker,
                               " ".join(f"{px},{py}" for px, py in points), marks))
    every = max(1, math.ceil(rounds / 12))
    return Chart(
        width=WIDTH, height=HEIGHT, lines=tuple(lines),
        y_ticks=tuple((y(v), v) for v in range(low, high + 1, step)),
        x_ticks=tuple((x(i), i) for i in range(0, rounds + 1, every)),
        target_y=None if target is None else y(target),
    )
