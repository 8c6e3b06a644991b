"""The event across tables: the standings, every table online or not, and the next seating.

The screen draws an :class:`~showdown.event.view.EventView` (the host's own, or the retained
messages a table received) from :attr:`EventScreen.source`; a table that is in no event has no
source, and the navigation bar shows no Event button. An offline table says so in words and
says since when and how many hands the event waits for from it ("Table 2 offline since 20:41,
3 rounds waiting"), never by colour alone.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import pygame

from showdown.event.messages import SeatingMessage, StandingLine, TableLine
from showdown.event.view import EventView
from showdown.scoreboard import theme
from showdown.scoreboard.i18n import N_, _
from showdown.scoreboard.screens.base import CONTENT_BOTTOM, Screen
from showdown.scoreboard.view import TableView
from showdown.scoreboard.widgets import Label, Widget

__all__ = ["EventScreen", "clock_time", "event_widgets"]

FORMATS = {"free": N_("Free play"), "partners-8": N_("Partners, two tables"),
           "swiss": N_("Swiss")}
"""The formats' names as the screen shows them."""

LEFT_W = 440
ROW_H = 30


def clock_time(when: float) -> str:
    """``20:41``: the time of day, on this machine's clock."""
    return time.strftime("%H:%M", time.localtime(when))


def table_name(line: TableLine) -> str:
    return line.name or _("Table {number}").format(number=line.table.removeprefix("t"))


def table_status(line: TableLine) -> str:
    """One table's line: online with its hands, or offline since when, and what it holds up."""
    name = table_name(line)
    if line.online:
        return _("{table} online, {hands} hands").format(table=name, hands=line.hands)
    if line.since is None:
        return _("{table} has not joined").format(table=name)
    if line.waiting:
        return _("{table} offline since {time}, {waiting} rounds waiting").format(
            table=name, time=clock_time(line.since), waiting=line.waiting)
    return _("{table} offline since {time}").format(table=name, time=clock_time(line.since))


def seating_lines(view: EventView) -> list[str]:
    """Who sits where in the round to play (this table first, when seen from a table)."""
    seating: SeatingMessage | None = view.seating
    if seating is None:
        return []
    if seating.over or seating.round is None:
        return [_("The event is over")]
    names = {line.table: table_name(line) for line in view.tables}
    order = sorted(seating.tables, key=lambda t: (t != view.me, t))
    found = []
    partners = view.info is not None and view.info.format == "partners-8"
    for table in order:
        players = seating.tables[table]
        if partners and len(players) == 4:
            who = _("{a} & {b} against {c} & {d}").format(
                a=players[0], b=players[2], c=players[1], d=players[3])
        else:
            who = ", ".join(players)
        found.append(f"{names.get(table, table)}: {who}")
    if seating.byes:
        found.append(_("Bye: {names}").format(names=", ".join(seating.byes)))
    return found


def _standing_row(top: int, line: StandingLine, swiss: bool, mine: bool) -> list[Widget]:
    colour = theme.ACCENT if mine else theme.TEXT
    figure = str(line.match_points) if swiss else str(line.points)
    return [
        Label(f"rank:{line.name}", pygame.Rect(8, top, 40, ROW_H), str(line.rank), 20,
              theme.TEXT_DIM, align="right"),
        Label(f"name:{line.name}", pygame.Rect(56, top, 200, ROW_H), line.name, 20, colour,
              align="left", bold=mine),
        Label(f"table:{line.name}", pygame.Rect(260, top, 80, ROW_H),
              (line.table or "—").removeprefix("t"), 20, theme.TEXT_DIM),
        Label(f"points:{line.name}", pygame.Rect(344, top, LEFT_W - 352, ROW_H), figure, 20,
              colour, align="right", bold=mine),
    ]


def event_widgets(view: EventView) -> list[Widget]:
    """Every widget of the event screen (design coordinates, above the navigation bar)."""
    info = view.info
    title = info.name if info is not None else _("Event")
    found: list[Widget] = [Label("title", pygame.Rect(8, 4, 470, 40), title, 26, theme.ACCENT,
                                 bold=True, align="left")]
    if info is not None:
        form = _(FORMATS.get(info.format, info.format))
        if view.seating is not None and view.seating.round is not None and info.format != "free":
            form += " · " + _("Round {round} of {rounds}").format(
                round=view.seating.round, rounds=view.seating.rounds)
        found.append(Label("format", pygame.Rect(484, 4, 308, 40), form, 20, theme.TEXT_DIM,
                           align="right"))
    swiss = info is not None and info.format == "swiss"
    found.append(Label("head:standings", pygame.Rect(8, 48, 250, 30), _("Standings"), 20,
                       theme.TEXT_DIM, bold=True, align="left"))
    found.append(Label("head:points", pygame.Rect(260, 48, LEFT_W - 268, 30),
                       _("Match points") if swiss else _("Points"), 18, theme.TEXT_DIM,
                       align="right"))
    mine = set(view.seating.tables.get(view.me, [])) if view.seating and view.me else set()
    rows = (CONTENT_BOTTOM - 84) // ROW_H
    for index, standing in enumerate(view.standings[:rows]):
        found += _standing_row(84 + index * ROW_H, standing, swiss, standing.name in mine)
    right = LEFT_W + 16
    width = 800 - right - 8
    found.append(Label("head:tables", pygame.Rect(right, 48, width, 30), _("Tables"), 20,
                       theme.TEXT_DIM, bold=True, align="left"))
    top = 80
    if view.join_code:
        code = view.join_code
        found.append(Label("join", pygame.Rect(right, top, width, 34),
                           _("Join code: {code}").format(code=f"{code[:4]}-{code[4:]}"), 22,
                           theme.TEXT, bold=True, align="left"))
        top += 38
    elif not view.host_online:
        found.append(Label("host", pygame.Rect(right, top, width, 30), _("The host is away"),
                           20, theme.DANGER, align="left"))
        top += 32
    shown = view.tables[:6]
    for line in shown:
        colour = theme.TEXT if line.online else theme.DANGER
        found.append(Label(f"status:{line.table}", pygame.Rect(right, top, width, 44),
                           table_status(line), 18, colour, wrap=True))
        top += 46
    top = max(top + 4, 250)
    found.append(Label("head:seating", pygame.Rect(right, top, width, 30), _("Next seating"),
                       20, theme.TEXT_DIM, bold=True, align="left"))
    top += 32
    for index, text in enumerate(seating_lines(view)[:3]):
        found.append(Label(f"seat:{index}", pygame.Rect(right, top, width, 44), text, 18,
                           theme.TEXT, wrap=True))
        top += 46
    return found


class EventScreen(Screen):
    """The event screen (see the module docstring)."""

    name = "event"
    source: Callable[[], EventView] | None = None
    """Where the event's view comes from; set when the table (or the host) is in an event."""

    def widgets(self, view: TableView) -> list[Widget]:
        """See :meth:`Screen.widgets` (the table's view is not used: the event's is)."""
        return event_widgets(self.source() if self.source is not None else EventView())
