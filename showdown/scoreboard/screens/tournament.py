"""The event across tables: the standings, every table online or not, and the next seating.

The screen draws an :class:`~showdown.tournament.view.TournamentView` (the host's own, or the
retained messages a table received) of the event the table's read model says it is in
(:meth:`~showdown.scoreboard.port.TablePort.tournament`); a table that is in no event has none, and
the navigation bar shows no Event button. An offline table says so in words and says since when and
how many hands the event waits for from it ("Table 2 offline since 20:41, 3 rounds waiting"), never
by colour alone.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass

import pygame

from engine.scoring import ScoringSettings
from showdown.scoreboard import theme
from showdown.scoreboard.i18n import N_, _
from showdown.scoreboard.qr import qr_widget
from showdown.scoreboard.screens.base import CONTENT_BOTTOM, Screen, Ui
from showdown.scoreboard.view import TableView
from showdown.scoreboard.widgets import Button, Label, Widget
from showdown.tournament.games import setup_key
from showdown.tournament.host import settings_from_info
from showdown.tournament.messages import SeatingMessage, StandingLine, TableLine
from showdown.tournament.view import TournamentView

__all__ = [
    "SeatedRound",
    "TournamentScreen",
    "clock_time",
    "seated_round",
    "tournament_view",
    "tournament_widgets",
]

SEATED_FORMATS = ("partners-8", "swiss")
"""Formats whose host seats every round: Set-up takes the players from the seating."""


@dataclass(frozen=True)
class SeatedRound:
    """The round the host seated this table for: who plays, and how it is scored."""

    event: str
    round: int
    rounds: int
    players: tuple[str, ...]
    scoring: ScoringSettings

    @property
    def key(self) -> str:
        """The set-up key of this round's game at a scoreboard (the host reads the round from
        it; the same key twice is one game)."""
        return setup_key(0, self.event, self.round)


def seated_round(view: TournamentView) -> SeatedRound | None:
    """This table's seat in the round to play, in a format the host seats (None in free play,
    at a bye, between events, at the host)."""
    info, seating = view.info, view.seating
    if info is None or seating is None or view.me is None or info.format not in SEATED_FORMATS:
        return None
    players = seating.tables.get(view.me, [])
    if seating.over or seating.round is None or not players:
        return None
    try:
        scoring = settings_from_info(info).scoring()
    except ValueError:  # a description this version cannot read: Set-up stays the table's own
        return None
    return SeatedRound(info.event, seating.round, seating.rounds,
                       tuple(players), scoring)


def tournament_view(ui: Ui) -> TournamentView | None:
    """The event this scoreboard is in, if it is in one (the table's read model holds it)."""
    source = ui.port.tournament()
    return None if source is None else source.view()

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


def seating_lines(view: TournamentView) -> list[str]:
    """Who sits where in the round to play (this table first, when seen from a table), after
    the last correction to an earlier round, when there was one: the seating did not change."""
    seating: SeatingMessage | None = view.seating
    if seating is None:
        return []
    if seating.over or seating.round is None:
        return [_("The event is over")]
    names = {line.table: table_name(line) for line in view.tables}
    order = sorted(seating.tables, key=lambda t: (t != view.me, t))
    found = []
    fixed = seating.correction
    if fixed is not None:
        default = _("Table {number}").format(number=fixed.table.removeprefix("t"))
        found.append(_("Round {round}, {table} corrected: standings updated; round {seated} "
                       "stays as seated").format(round=fixed.round,
                                                 table=names.get(fixed.table, default),
                                                 seated=fixed.seated))
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


def tournament_widgets(view: TournamentView) -> list[Widget]:
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
    return found + _right_column(view)


QR_SIDE = 112
"""Design pixels of the join code's QR code: 37 modules of 3 pixels at the panel's 800x480."""

LINE_H = 36
"""A table's line in the right column."""

SEAT_H = 34
"""A line of the next seating (three fit under the host's join code and two tables)."""


def _join_block(view: TournamentView, right: int, width: int, top: int) -> list[Widget]:
    """The host's join code, its address and its QR code (``CODE@HOST[:PORT]``)."""
    code = view.join_code or ""
    shown = f"{code[:4]}-{code[4:]}"
    text = view.join_text
    if text is None:  # no address known: the code alone, as before a LAN address is found
        return [Label("join", pygame.Rect(right, top, width, 34),
                      _("Join code: {code}").format(code=shown), 22, theme.TEXT, bold=True,
                      align="left")]
    left = right + QR_SIDE + 12
    rest = width - QR_SIDE - 12
    return [
        qr_widget("join:qr", pygame.Rect(right, top, QR_SIDE, QR_SIDE), text),
        Label("join:caption", pygame.Rect(left, top + 4, rest, 26), _("Join code"), 18,
              theme.TEXT_DIM, align="left"),
        Label("join", pygame.Rect(left, top + 30, rest, 40), shown, 30, theme.TEXT, bold=True,
              align="left"),
        # TRANSLATORS: under the join code: the host's address, which a table types.
        Label("join:address", pygame.Rect(left, top + 72, rest, 30),
              _("at {address}").format(address=view.join_address), 18, theme.TEXT,
              align="left"),
    ]


def _status_lines(tables: Sequence[TableLine], room: int) -> tuple[list[TableLine], int]:
    """(the tables whose status fits in ``room`` lines, how many online ones the last line
    counts instead): the offline ones first, since those are the ones to act on, and never
    one of them counted as online; no count when the offline ones fill the room."""
    if len(tables) <= room:
        return list(tables), 0
    offline = [line for line in tables if not line.online]
    if len(offline) >= room:
        return offline[:room], 0
    online = [line for line in tables if line.online]
    shown = online[:room - 1 - len(offline)]
    return offline + shown, len(online) - len(shown)


def _right_column(view: TournamentView) -> list[Widget]:
    """The tables, online or not, under the join code at the host, then the next seating. When
    not every table fits, the offline ones are shown first: those are the ones to act on."""
    right = LEFT_W + 16
    width = 800 - right - 8
    found: list[Widget] = [Label("head:tables", pygame.Rect(right, 48, width, 30), _("Tables"),
                                 20, theme.TEXT_DIM, bold=True, align="left")]
    top = 80
    if view.join_code:
        block = _join_block(view, right, width, top)
        found += block
        top = max(w.rect.bottom for w in block) + 6
    elif not view.host_online:
        found.append(Label("host", pygame.Rect(right, top, width, 30), _("The host is away"),
                           20, theme.DANGER, align="left"))
        top += 32
    corrected = view.seating is not None and view.seating.correction is not None
    seats = seating_lines(view)[:3 + corrected]
    # room for the correction (two lines) and two of the seating's lines, whatever the tables
    kept = 2 * corrected + min(2, len(seats) - corrected)
    room = max(0, (CONTENT_BOTTOM - top - 32 - kept * SEAT_H) // LINE_H)
    lines, hidden = _status_lines(view.tables, room)
    for line in sorted(lines, key=lambda line: line.table):
        colour = theme.TEXT if line.online else theme.DANGER
        found.append(Label(f"status:{line.table}", pygame.Rect(right, top, width, LINE_H - 2),
                           table_status(line), 18, colour, wrap=True, align="left"))
        top += LINE_H
    if hidden:
        found.append(Label("status:more", pygame.Rect(right, top, width, LINE_H - 2),
                           _("{count} more tables online").format(count=hidden), 18,
                           theme.TEXT_DIM, align="left"))
        top += LINE_H
    top += 4
    found.append(Label("head:seating", pygame.Rect(right, top, width, 28), _("Next seating"),
                       20, theme.TEXT_DIM, bold=True, align="left"))
    top += 32
    for index, text in enumerate(seats):
        high = SEAT_H * (2 if corrected and index == 0 else 1)  # the correction: two lines
        if top + high - 2 > CONTENT_BOTTOM:
            break
        found.append(Label(f"seat:{index}", pygame.Rect(right, top, width, high - 2), text, 18,
                           theme.ACCENT if corrected and index == 0 else theme.TEXT, wrap=True,
                           align="left"))
        top += high
    return found


class TournamentScreen(Screen):
    """The event screen (see the module docstring)."""

    name = "event"

    setup_back = True
    """Before a game (no navigation bar yet), a button back to Set-up; not in the host's
    window, which shows the event alone."""

    def widgets(self, view: TableView) -> list[Widget]:
        """See :meth:`Screen.widgets` (the table's view only says whether a game is on)."""
        found = tournament_widgets(tournament_view(self.ui) or TournamentView())
        if not view.started and self.setup_back:
            found.append(Button("setup", pygame.Rect(8, CONTENT_BOTTOM + 4, 240, 60),
                                _("Set-up"), lambda: self.ui.go("setup"),
                                colour=theme.PANEL_LIGHT, size=24))
        return found
