"""An event's view for the event page's tests and screenshots: the engine's standings over real
game records, in the messages the host publishes, from a source that stands in for the host's
MQTT side only."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, fields

from engine.tournament import TournamentFormat, TournamentSettings
from engine.tournament.records import GameRecord, PlayerLine
from engine.tournament.standings import Standing, standings
from showdown.tournament.messages import SeatingMessage, StandingLine, TableLine, TournamentInfo
from showdown.tournament.view import TournamentView

JOIN_CODE = "K7Q2M9XW"
PLAYERS = ("Ana", "Budi", "Chen", "Dewi", "Eko", "<script>x</script>", "Gita", "Hiro")


@dataclass
class Host:
    """The host's view as its page reads it, and the listeners it tells of a change."""

    current: TournamentView
    listeners: list[Callable[[], None]] = field(default_factory=list)

    def view(self) -> TournamentView:
        return self.current

    def subscribe(self, listener: Callable[[], None]) -> None:
        self.listeners.append(listener)

    def publish(self, view: TournamentView) -> None:
        self.current = view
        for listener in self.listeners:
            listener()


def _lines(found: tuple[Standing, ...]) -> tuple[StandingLine, ...]:
    return tuple(StandingLine(**{f.name: getattr(s, f.name) for f in fields(Standing)})
                 for s in found)


def evening(t1: tuple[int, ...], t2: tuple[int, ...], players: tuple[str, ...] = PLAYERS,
            title: str = "Friday <UNO>") -> TournamentView:
    """A free-play evening at two tables, each in its first game with these totals."""
    settings = TournamentSettings(TournamentFormat.FREE, players, ("t1", "t2"), target=500)
    records = [
        GameRecord(table, "g1", 10, None, tuple(
            PlayerLine(name, points, 0, 0, None) for name, points in zip(names, totals,
                                                                         strict=True)),
            hands=2, over=False)
        for table, names, totals in (("t1", players[:4], t1), ("t2", players[4:], t2))]
    info = TournamentInfo(event="ab12cd", name=title, format="free", players=list(players),
                          tables=["t1", "t2"], rounds=1, target=500)
    return TournamentView(
        info=info, standings=_lines(standings(settings, records)),
        tables=(TableLine(table="t1", name="Window", online=True, since=1_700_000_000.0,
                          hands=2),
                TableLine(table="t2", online=False, since=1_700_000_000.0, hands=2)),
        seating=SeatingMessage(event="ab12cd", round=1, rounds=1,
                               tables={"t1": list(players[:4]), "t2": list(players[4:])}),
        host_online=True, join_code=JOIN_CODE, join_expires=1_700_000_900.0)


SWISS = ("Ada", "Ben", "Cleo", "Dev", "Eli", "Fay", "Gus", "Hana", "Max")
"""Nine players at two tables of four: one of them sits out each round (a bye)."""


def swiss_evening(played: bool) -> TournamentView:
    """A Swiss evening of three rounds, Max on a bye in round 1: before its games (``played``
    False) or after them, round 2 to play."""
    settings = TournamentSettings(TournamentFormat.SWISS, SWISS, ("t1", "t2"), rounds=3)
    records = [
        GameRecord(table, "g1", 10, 1, tuple(
            PlayerLine(name, points, 0, 0, None) for name, points in zip(names, totals,
                                                                         strict=True)),
            hands=5, over=True, winners=names[:1])
        for table, names, totals in (("t1", SWISS[:4], (310, 120, 80, 10)),
                                     ("t2", SWISS[4:8], (290, 150, 60, 40)))] if played else []
    info = TournamentInfo(event="ab12cd", name="Swiss night", format="swiss", players=list(SWISS),
                     tables=["t1", "t2"], rounds=3, target=500)
    seated = ({"t1": ["Ada", "Eli", "Ben", "Fay"], "t2": ["Cleo", "Gus", "Max", "Dev"]}
              if played else {"t1": list(SWISS[:4]), "t2": list(SWISS[4:8])})
    return TournamentView(
        info=info, standings=_lines(standings(settings, records, byes={"Max": 1})),
        tables=(TableLine(table="t1", online=True, since=1_700_000_000.0, hands=5),
                TableLine(table="t2", online=True, since=1_700_000_000.0, hands=5)),
        seating=SeatingMessage(event="ab12cd", round=2 if played else 1, rounds=3,
                               tables=seated, byes=["Hana"] if played else ["Max"]),
        host_online=True)
