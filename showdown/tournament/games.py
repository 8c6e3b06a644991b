"""From the entries the host stored to the games the standings are computed from.

One table's game is folded by the session's own fold (:func:`showdown.game.session.fold`), from
its set-up along the entries' ``prev`` links: an entry whose predecessor has not arrived waits,
so the record of a game only ever grows. The result is an :class:`engine.tournament.GameRecord`;
:func:`records` is a pure function of the set of entries, whatever their order or repetition.
"""

from __future__ import annotations

import logging
import re
from collections import defaultdict
from collections.abc import Iterable

from engine.tournament import GameRecord, PlayerLine
from showdown.game.journal import Entry
from showdown.game.session import SessionError, fold
from showdown.tournament.messages import EntryMessage

__all__ = ["belongs", "game_record", "records", "setup_key", "tournament_round"]

log = logging.getLogger(__name__)

ROUND_IN_KEY = re.compile(r":event:(?P<event>[a-z0-9]{6}):(?:r(?P<round>[0-9]+)|g[0-9]+)$")


def setup_key(seed: int, event: str, round_: int | None, game: int = 0) -> str:
    """The set-up key of an event game: it names the event and the round (or, in free play,
    the table's game number), so a table restarted mid-evening never sets up a game twice."""
    where = f"r{round_}" if round_ is not None else f"g{game}"
    return f"setup:{seed}:event:{event}:{where}"


def tournament_round(key: str | None, event: str) -> tuple[bool, int | None]:
    """(whether a set-up key is one of this event's games, its round)."""
    found = ROUND_IN_KEY.search(key or "")
    if found is None or found["event"] != event:
        return False, None
    return True, int(found["round"]) if found["round"] else None


def belongs(key: str | None, seq: int, event: str, joined_seq: int) -> bool:
    """Whether a game set up with ``key`` at journal ``seq`` is one of the event's: keyed for it
    (a seated round, a simulated table), or set up at the table after it joined (a game entered
    on the scoreboard), unless it was keyed for another event."""
    found = ROUND_IN_KEY.search(key or "")
    if found is not None:
        return found["event"] == event
    return seq > joined_seq


def chain(entries: Iterable[EntryMessage]) -> list[EntryMessage]:
    """One game's entries from its set-up along the ``prev`` links, as far as they reach."""
    by_prev: dict[int | None, EntryMessage] = {}
    for entry in sorted(entries, key=lambda e: e.seq):
        by_prev.setdefault(entry.prev, entry)
    current = by_prev.get(None)
    if current is None or current.kind != "set_up":
        return []
    found: list[EntryMessage] = []
    while current is not None:
        found.append(current)
        current = by_prev.get(current.seq)
    return found


def game_record(event: str, entries: Iterable[EntryMessage]) -> GameRecord | None:
    """The record of one table's game (all ``entries`` of one table, journal and game); None
    while its set-up has not arrived. The table sends only the event's games (:func:`belongs`);
    one keyed for another event is ignored."""
    linked = chain(entries)
    if not linked:
        return None
    first = linked[0]
    found = ROUND_IN_KEY.search(first.key or "")
    if found is not None and found["event"] != event:
        return None  # keyed for another event: the table would not have sent it
    round_ = tournament_round(first.key, event)[1]
    rows = [Entry(e.seq, e.game, e.key, e.kind, e.events, e.recorded_at) for e in linked]
    try:
        state = fold(first.game, rows)
    except (SessionError, ValueError, KeyError, IndexError) as error:
        log.warning("table %s game %d cannot be folded: %s", first.table, first.game, error)
        return None
    if state is None:
        return None
    stats = state.stats
    totals = state.totals
    players = tuple(
        PlayerLine(name, totals[name], stats[name].rounds_won, stats[name].showdowns_won,
                   stats[name].fastest_ms)
        for name in state.players)
    return GameRecord(first.table, f"{first.journal}:{first.game}", linked[-1].seq, round_,
                      players, hands=len(state.rounds), over=state.is_over,
                      winners=state.winners)


def records(event: str, entries: Iterable[EntryMessage]) -> tuple[GameRecord, ...]:
    """Every game's record from a set of entries (any order, repeats allowed)."""
    games: dict[tuple[str, str, int], dict[int, EntryMessage]] = defaultdict(dict)
    for entry in entries:
        games[(entry.table, entry.journal, entry.game)].setdefault(entry.seq, entry)
    found = []
    for key in sorted(games):
        record = game_record(event, games[key].values())
        if record is not None:
            found.append(record)
    return tuple(found)
