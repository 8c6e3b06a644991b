"""The event as its page shows it: standings, each table online or not, the next seating.

:class:`TournamentWatch` listens to an event source (the host itself, or a table's link to it:
:class:`~showdown.tournament.view.TournamentSource`) and tells the :class:`~showdown.web.hub.Hub`
when the event changed; the picture is built later, on the server's thread. A table's page shows the
event its read model holds (:class:`Membership`). The host's view holds the join code for its own
screen: the picture leaves it out, so no phone ever sees it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from showdown.game.table_model import TableModel
from showdown.tournament.view import TournamentSource, TournamentView

__all__ = [
    "TOURNAMENT_PARTS",
    "Membership",
    "Standing",
    "TableState",
    "TournamentPicture",
    "TournamentSide",
    "TournamentWatch",
    "picture",
]

TOURNAMENT_PARTS = ("event",)
"""The event's page is one live part: any entry at any table can move every line of it."""


@dataclass(frozen=True)
class Standing:
    """One line of the event's leaderboard."""

    rank: int
    name: str
    table: str | None
    """The table the player last played at (its id, ``t2``), None before a first game."""
    points: int
    """Points (free play, partners) or match points (Swiss): what the ranking counts first."""
    games: int
    opponents: int = 0
    """Swiss: the opponents' match points, the first tie-break (0 in the other formats)."""
    score: int = 0
    """Swiss: the points scored in the games, the next tie-break (0 in the other formats)."""


@dataclass(frozen=True)
class TableState:
    """One table of the event."""

    table: str
    name: str
    online: bool
    since: float | None
    """When it went on or off line (None: it never joined)."""
    hands: int
    waiting: int


@dataclass(frozen=True)
class TournamentPicture:
    """Everything the event's page draws, at one moment."""

    known: bool = False
    """False until the event is known (a table whose host has not answered yet)."""
    name: str = ""
    format: str = "free"
    round: int | None = None
    rounds: int = 1
    over: bool = False
    standings: tuple[Standing, ...] = ()
    tables: tuple[TableState, ...] = ()
    seating: tuple[tuple[str, tuple[str, ...]], ...] = ()
    """The round to play: (table id, its players in seat order), table by table."""
    byes: tuple[str, ...] = ()
    correction: tuple[int, str, int] | None = None
    """The last correction to an earlier round: (its round, its table, the round seated, which
    stays as it is)."""
    host_online: bool = True
    """False while nothing the host publishes can reach here: what is shown is old news."""

    @property
    def played(self) -> bool:
        """Whether any game was played yet: before, nobody leads (a bye's points would)."""
        return any(line.games for line in self.standings)

    def table_name(self, table: str | None) -> str:
        """The name a table was given, or '' (the page then says 'Table N')."""
        return next((t.name for t in self.tables if t.table == table), "")


def picture(view: TournamentView) -> TournamentPicture:
    """The page's picture of ``view`` (its join code left out)."""
    info = view.info
    if info is None:
        return TournamentPicture(host_online=view.host_online)
    swiss = info.format == "swiss"
    seating = view.seating
    return TournamentPicture(
        known=True, name=info.name, format=info.format,
        round=None if seating is None else seating.round,
        rounds=info.rounds if seating is None else seating.rounds,
        over=seating is not None and seating.over,
        standings=tuple(
            Standing(line.rank, line.name, line.table,
                     line.match_points if swiss else line.points, line.games_played,
                     line.opponents_points if swiss else 0, line.points if swiss else 0)
            for line in view.standings),
        tables=tuple(TableState(t.table, t.name, t.online, t.since, t.hands, t.waiting)
                     for t in view.tables),
        seating=() if seating is None or seating.over else tuple(
            (table, tuple(players)) for table, players in sorted(seating.tables.items())),
        byes=() if seating is None else tuple(seating.byes),
        correction=None if seating is None or seating.correction is None else (
            seating.correction.round, seating.correction.table, seating.correction.seated),
        host_online=view.host_online,
    )


class TournamentSide(Protocol):
    """What the event's page asks of the event: :class:`TournamentWatch` beside its source, or its
    mirror in the page's own process (:mod:`showdown.web.process`)."""

    def picture(self) -> TournamentPicture | None:
        """The event now (None: the table is in none yet)."""


class TournamentWatch:
    """An event source as the page's source (see the module docstring)."""

    def __init__(self, source: TournamentSource, changed: Callable[..., None]) -> None:
        self.source = source
        source.subscribe(lambda: changed("event"))

    def picture(self) -> TournamentPicture:
        """The event now."""
        return picture(self.source.view())


class Membership:
    """The event the table's read model says the table is in, as the table's page shows it below
    the game (the model tells the page when it joins one, or the event moves on)."""

    def __init__(self, table: TableModel[TournamentSource]) -> None:
        self.table = table

    def picture(self) -> TournamentPicture | None:
        """The event now (None while the table is in none)."""
        source = self.table.tournament
        return None if source is None else picture(source.view())
