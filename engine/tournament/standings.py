"""The event's standings: a pure function of the tables' game records.

Tie-breaks, in order (docs/event.md, "Standings"):

- free play and ``partners-8``: points, then games won, hands won (rounds gone out first),
  showdowns won, the best reaction (fastest first; none measured counts last), and the name;
- ``swiss``: match points (a game's placements: 3, 2, 1, 0 at a table of four, a tie sharing the
  better place; a bye counts as second place), then the opponents' match points (Buchholz: the
  stronger field first), points, showdowns won, the best reaction, the name.

Players tied on everything but the name share a rank (:func:`engine.places.places`, the rule a
game's own final standings follow too).
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from engine.places import places
from engine.tournament.formats import TournamentFormat, TournamentSettings
from engine.tournament.records import GameRecord, latest_records

__all__ = ["BYE_POINTS", "Standing", "match_points", "met", "standings"]

BYE_POINTS = 2
"""A bye scores as a second place at a table of four: better than an average round (1.5), so a
player never loses ground for sitting out, and short of a win."""


@dataclass(frozen=True, slots=True)
class Standing:
    """One line of the leaderboard."""

    rank: int
    name: str
    table: str | None
    """Where the player last played (None before their first game)."""
    points: int
    games_played: int
    games_won: int
    rounds_won: int
    showdowns_won: int
    best_ms: float | None
    match_points: int = 0
    opponents_points: int = 0
    byes: int = 0


@dataclass
class _Tally:
    name: str
    points: int = 0
    games_played: int = 0
    games_won: int = 0
    rounds_won: int = 0
    showdowns_won: int = 0
    best_ms: float | None = None
    match_points: int = 0
    byes: int = 0
    opponents: list[str] = field(default_factory=list)
    where: tuple[int, int, str] | None = None


def match_points(record: GameRecord) -> dict[str, int]:
    """Each player's placement points in a finished game: a table of n gives n-1 to the first,
    down to 0 for the last; players with equal totals share the better place."""
    size = len(record.players)
    placed = places([-line.points for line in record.players])
    return {line.name: size - place for line, place in zip(record.players, placed, strict=True)}


def met(records: Iterable[GameRecord]) -> dict[str, frozenset[str]]:
    """Who has sat at a game with whom (each player's set of opponents and partners)."""
    seen: dict[str, set[str]] = defaultdict(set)
    for record in records:
        names = {line.name for line in record.players}
        for name in names:
            seen[name] |= names - {name}
    return {name: frozenset(others) for name, others in seen.items()}


def standings(
    settings: TournamentSettings,
    records: Iterable[GameRecord],
    *,
    byes: Mapping[str, int] | None = None,
) -> tuple[Standing, ...]:
    """The leaderboard from the records (any order, repeats allowed), best first.

    ``byes`` counts the byes each player had (Swiss;
    :class:`~engine.tournament.seating.TournamentPlan` knows them). Every player of the event is
    listed, those yet to play with zeros; a name a table entered that the event does not know is
    listed too.
    """
    games = latest_records(records)
    tallies: dict[str, _Tally] = {name: _Tally(name) for name in settings.players}
    for record in games:
        placed = match_points(record) if record.over and record.round is not None else {}
        for line in record.players:
            tally = tallies.setdefault(line.name, _Tally(line.name))
            tally.points += line.points
            tally.games_played += 1
            tally.games_won += line.name in record.winners
            tally.rounds_won += line.rounds_won
            tally.showdowns_won += line.showdowns_won
            if line.fastest_ms is not None:
                tally.best_ms = min(line.fastest_ms, tally.best_ms or math.inf)
            tally.match_points += placed.get(line.name, 0)
            if placed:
                tally.opponents += [o.name for o in record.players if o.name != line.name]
            where = (record.round or 0, record.hands, record.table)
            if tally.where is None or where > tally.where:
                tally.where = where
    for name, count in (byes or {}).items():
        tally = tallies.setdefault(name, _Tally(name))
        tally.byes = count
        tally.match_points += BYE_POINTS * count
    swiss = settings.format is TournamentFormat.SWISS

    def buchholz(tally: _Tally) -> int:
        return sum(tallies[o].match_points for o in tally.opponents if o in tallies)

    def order(tally: _Tally) -> tuple[float | int, ...]:
        best = tally.best_ms if tally.best_ms is not None else math.inf
        if swiss:
            return (-tally.match_points, -buchholz(tally), -tally.points,
                    -tally.showdowns_won, best)
        return (-tally.points, -tally.games_won, -tally.rounds_won, -tally.showdowns_won, best)

    ranked = sorted(tallies.values(), key=lambda t: (order(t), t.name.casefold(), t.name))
    ranks = places([order(tally) for tally in ranked])
    lines: list[Standing] = []
    for tally, rank in zip(ranked, ranks, strict=True):
        lines.append(Standing(
            rank=rank,
            name=tally.name,
            table=None if tally.where is None else tally.where[2],
            points=tally.points,
            games_played=tally.games_played,
            games_won=tally.games_won,
            rounds_won=tally.rounds_won,
            showdowns_won=tally.showdowns_won,
            best_ms=tally.best_ms,
            match_points=tally.match_points,
            opponents_points=buchholz(tally) if swiss else 0,
            byes=tally.byes,
        ))
    return tuple(lines)
