"""Game night across tables: the event's records, standings and seating, as pure functions.

An event is a set of tables, each keeping its own journal, and a set of players, in one of three
formats (:class:`~engine.tournament.formats.TournamentFormat`): free play, 001's eight players at
two tables (``partners-8``) and a Swiss tournament of four-player tables. What a table recorded
reaches the event as :class:`~engine.tournament.records.GameRecord` values, one per game at a table;
everything else here is computed from those alone, so the host and anyone holding the tables'
journals get the same standings whatever order the records arrived in, and however often:

- :mod:`engine.tournament.records` - :class:`GameRecord`, :func:`latest_records` (one record per
  game, the latest version wins);
- :mod:`engine.tournament.standings` - :func:`standings` and the documented tie-breaks;
- :mod:`engine.tournament.swiss` - :func:`swiss_tables`: players who met kept apart while possible,
  byes when the count does not divide;
- :mod:`engine.tournament.seating` - :class:`TournamentPlan`: which round is next and who sits
  where.

No I/O, no threads, no clock: the transport (``showdown.tournament``) feeds these functions.
"""

from engine.tournament.formats import TournamentFormat, TournamentSettings
from engine.tournament.records import GameRecord, PlayerLine, latest_records
from engine.tournament.seating import Seating, TournamentPlan
from engine.tournament.standings import Standing, standings
from engine.tournament.swiss import swiss_tables

__all__ = [
    "GameRecord",
    "PlayerLine",
    "Seating",
    "Standing",
    "TournamentFormat",
    "TournamentPlan",
    "TournamentSettings",
    "latest_records",
    "standings",
    "swiss_tables",
]
