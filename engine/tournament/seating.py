"""Which round the event plays next, and who sits where: :class:`TournamentPlan`.

A round is complete when every table seated for it has a finished game of that round. The next
round's seating depends only on the rounds before it, so the host, each table and anyone
holding the journals compute the same seating. Once a round is seated it is a fact: the host
records it (:meth:`TournamentPlan.keep`), and a correction to an earlier round's game changes the
standings and the rounds not yet seated, never a seated one:

- free play: one round, lasting the evening; the players are dealt to the tables in order;
- ``partners-8``: round r (0-based) is hands 4r to 4r+3 of 001's rotation
  (:func:`engine.scoring.two_table_seating`), partners opposite;
- ``swiss``: round 1 in the order the players were entered, each later round from the
  standings of the rounds before it (:func:`engine.tournament.swiss.swiss_tables`).
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Final

from engine.scoring import HANDS_PER_PARTNERSHIP, two_table_seating
from engine.tournament.formats import TournamentFormat, TournamentSettings
from engine.tournament.records import GameRecord, latest_records
from engine.tournament.standings import Standing, met, standings
from engine.tournament.swiss import swiss_tables

__all__ = ["Seating", "SeatingJob", "TournamentPlan"]


@dataclass(frozen=True, slots=True)
class Seating:
    """Who sits where in one round (numbered from 1): each table's players in seat order
    (partners opposite in ``partners-8``), and who has a bye."""

    round: int
    tables: tuple[tuple[str, tuple[str, ...]], ...]
    byes: tuple[str, ...] = ()

    def at(self, table: str) -> tuple[str, ...]:
        """The players seated at ``table`` (empty when it sits this round out)."""
        return dict(self.tables).get(table, ())


@dataclass(frozen=True, slots=True)
class SeatingJob:
    """The search that seats round ``number``: the games of the rounds before it and their
    seatings are all it depends on (and its key in a plan's memory)."""

    number: int
    before: tuple[GameRecord, ...]
    earlier: tuple[Seating, ...]

    @property
    def key(self) -> tuple[object, ...]:
        """What the seating depends on."""
        return (self.number, self.before, tuple(seating.byes for seating in self.earlier))


SEATINGS_KEPT: Final = 64
"""Rounds' seatings a :class:`TournamentPlan` remembers (the oldest forgotten first): every round
of the longest event, with room for the seatings a correction to an earlier round makes anew."""


class TournamentPlan:
    """The event's seatings and standings, recomputed from game records.

    A round's seating is a function of the games of the rounds before it, so the plan keeps
    each one it made with those games as its key: a new entry of the round being played, which
    the host receives many times a minute, costs the standings and no seating search; only a
    change to an earlier round's game (a finished round, a correction) seats a round again.
    """

    def __init__(self, settings: TournamentSettings, kept: Iterable[Seating] = ()) -> None:
        self.settings = settings
        self._seated: OrderedDict[tuple[object, ...], Seating] = OrderedDict()
        self.kept: dict[int, Seating] = {}
        """The rounds seated so far, by number: played as they were seated, whatever a
        correction to an earlier round changes (:meth:`keep`)."""
        for seating in kept:
            self.keep(seating)

    def keep(self, seating: Seating) -> None:
        """Hold ``seating`` as its round's seating from now on (the tables were told it)."""
        self.kept[seating.round] = seating

    def complete(self, seating: Seating, records: Iterable[GameRecord]) -> bool:
        """Whether every table seated in ``seating`` finished its game of that round."""
        done = {r.table for r in records if r.round == seating.round and r.over}
        return all(table in done for table, _players in seating.tables)

    def seatings(self, records: Iterable[GameRecord], *, search: bool = True
                 ) -> tuple[Seating, ...]:
        """Every round seated so far: those kept (:meth:`keep`), then, once every one of them is
        complete, the next, and so on; the last is the one being played (absent once the last
        round is complete). A round kept stays as it is while an earlier one is corrected.

        ``search`` False: a round after the first whose seating is not known yet ends the list
        (:meth:`pending` names its search, to run elsewhere)."""
        return tuple(self._walk(latest_records(records), search)[0])

    def pending(self, records: Iterable[GameRecord]) -> SeatingJob | None:
        """The search :meth:`seatings` left out with ``search`` False (None: nothing to seat)."""
        return self._walk(latest_records(records), search=False)[1]

    def search(self, job: SeatingJob) -> Seating:
        """The seating ``job`` asks for: the slow part, a pure call that may run on another
        thread than the plan's other calls; :meth:`remember` it then."""
        return self._seat(job.number, job.before, list(job.earlier))

    def remember(self, job: SeatingJob, seating: Seating) -> None:
        """Hold the answer to ``job``: :meth:`seatings` takes it while its inputs hold."""
        self._seated[job.key] = seating
        while len(self._seated) > SEATINGS_KEPT:
            self._seated.popitem(last=False)

    def _walk(self, games: tuple[GameRecord, ...], search: bool
              ) -> tuple[list[Seating], SeatingJob | None]:
        found: list[Seating] = []
        for number in range(1, self.settings.rounds + 1):
            kept = self.kept.get(number)
            if kept is not None:
                found.append(kept)
                continue
            if not all(self.complete(seating, games) for seating in found):
                break
            before = tuple(g for g in games if g.round is not None and g.round < number)
            job = SeatingJob(number, before, tuple(found))
            seating = self._seated.get(job.key)
            if seating is None:
                if not search and number > 1:
                    return found, job
                seating = self.search(job)
                self.remember(job, seating)
            else:
                self._seated.move_to_end(job.key)
            found.append(seating)
        return found, None

    def current(self, records: Iterable[GameRecord], *, search: bool = True) -> Seating | None:
        """The round to play now: the last one seated, until every round of the event is
        complete (then None). An earlier round reopened by a correction does not bring it back:
        the tables play on while it is recorded again. With ``search`` False, the last round
        seated stays the round to play while the next one's search is pending."""
        games = latest_records(records)
        seated = self.seatings(games, search=search)
        if len(seated) == self.settings.rounds and all(self.complete(s, games) for s in seated):
            return None
        return seated[-1]

    def standings(self, records: Iterable[GameRecord], *, search: bool = True
                  ) -> tuple[Standing, ...]:
        """The leaderboard (Swiss byes counted from the seatings)."""
        games = latest_records(records)
        byes: dict[str, int] = {}
        if self.settings.format is TournamentFormat.SWISS:
            for seating in self.seatings(games, search=search):
                for name in seating.byes:
                    byes[name] = byes.get(name, 0) + 1
        return standings(self.settings, games, byes=byes)

    def _seat(self, number: int, before: tuple[GameRecord, ...], earlier: list[Seating]
              ) -> Seating:
        settings = self.settings
        if settings.format is TournamentFormat.PARTNERS_8:
            pair = two_table_seating((number - 1) * HANDS_PER_PARTNERSHIP)
            return Seating(number, tuple(
                (settings.tables[t.index], tuple(settings.players[s] for s in t.seats))
                for t in pair))
        if settings.format is TournamentFormat.FREE:
            share, extra = divmod(len(settings.players), len(settings.tables))
            tables, start = [], 0
            for index, table in enumerate(settings.tables):
                count = share + (index < extra)
                tables.append((table, settings.players[start:start + count]))
                start += count
            return Seating(number, tuple(tables))
        byes_had: dict[str, int] = {}
        for seating in earlier:
            for name in seating.byes:
                byes_had[name] = byes_had.get(name, 0) + 1
        if number == 1:
            ranking = list(settings.players)
        else:
            lines = standings(settings, before, byes=byes_had)
            ranking = [line.name for line in lines if line.name in settings.players]
        groups, byes = swiss_tables(ranking, met(before), byes_had, len(settings.tables))
        return Seating(number, tuple(zip(settings.tables, groups, strict=False)), byes)
