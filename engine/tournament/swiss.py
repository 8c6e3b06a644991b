"""Seating a Swiss round of four-player tables from the standings, with no avoidable rematch.

The players are taken best first. Byes go first, to the lowest-ranked of those who have had
the fewest byes, when the count does not fill the tables. The rest are seated so that as few
pairs as possible sit together again (a *repeat*: two players at one table who met before): the
fewest any seating of them allows, proved by a complete search. Among the seatings with that
fewest, the tables are filled one at a time from the best player still standing, each with the
best players it can take: the first table's second player is the best that any such seating
gives it, then its third and fourth, then the second table the same way (the first seating in
ranking order, compared player by player).

The search (:class:`_Search`) first makes a quick seating (greedy, then every swap between two
tables that saves a repeat, then a seeded local search toward the lower bound): its repeats cap the
allowance, and when they meet the lower bound they are proved the fewest at once. It then tries
allowances from a lower bound up, asking only whether the players can be seated within each (from
the hardest player to seat, his cheapest tables first), and at the first that can, walks the
seatings in ranking order, each table the first that leaves the rest a seating within what is left.
What makes it fast:

- the players are bits of an integer, each player's past opponents a mask, so a repeat count
  is one ``bit_count``;
- three lower bounds on the repeats the players still standing must make, checked before every
  table: each player's cheapest table among them, its repeats shared out among its four
  players; each player short of three new faces makes a repeat per face missing; and a group
  of players who all met each other, larger than the tables, must put two of them at a table
  somewhere (late in a Swiss evening the players at the foot of the standings have often all
  met);
- a fourth bound for the whole field, before any allowance is tried: when the tables with no
  repeat (then with one, ...) are few, a few players meet all of them, and a seating has at
  most that many such tables;
- the linear relaxation (:mod:`engine.tournament.relaxation`), for the whole field when the
  quick seating is above the other bounds, and for the walk's questions below; it sees what
  the counting bounds miss where the cheap tables overlap; once it has run, its last prices
  bound every set of at least :data:`PRICED_PLAYERS` players the search looks at;
- branch and price (:mod:`engine.tournament.branching`): where the relaxation's answer is
  fractional, the question is split on a pair of players (together, or apart) until each
  half is refuted or answered by a whole seating; each allowance for the whole field is
  asked of it before the complete search;
- the exact cover (:mod:`engine.tournament.cover`): where the tables within the allowance
  are few among all the tables (late in an evening, with few repeats to place), the complete
  search seats first the player with the fewest such tables left and tries a table only if
  it leaves every other player one; a seating there is a needle the search by repeats can
  miss within the work limit;
- the walk in ranking order asks first whether the seating it knows can be mended around a
  new table: only the players of the tables that share a player with it are seated anew, a
  small search; then, where a wider mend (a few more tables, up to :data:`REPAIR_PLAYERS`
  players) would be nearly the whole search again or repeats remain to be placed, the
  relaxation (split by branch and price when repeats remain to be placed), whose answer is
  most often a refutation there; then the wider mend, the relaxation elsewhere, and only
  then the whole field again;
- once the walk has refuted :data:`JOIN_AFTER` tables in a row with repeats to place, it asks
  which players can sit at the first table at all (the exact cover one at a time where its
  tables are few, else branch and price a block of them at a time), before it lists the
  tables they would fill (:meth:`_Search._joins`): a run of players who cannot is refuted
  in a few questions, not table by table;
- every set of players still standing is remembered with the largest allowance known to fail
  and the smallest known to succeed, so no set is searched twice for the same question;
- *twins* (two players who met the same others, apart from each other) are interchangeable: a
  table takes a twin only after the better one, which cuts the search without changing the
  answer (swapping twins keeps the repeats and makes the seating come earlier).

The problem is hard in general (a partition into tables of four), so the search is bounded by
:data:`WORK_LIMIT`, which keeps a round's seating to seconds on a Pi. Past it the seating is the
tables the walk has proved first so far, the rest as the best seating known seats them, and
:func:`search` says so (``proved``; ``repeats == least`` when the fewest repeats are proved all
the same). docs/event.md gives the measured figures.
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Final

from engine.tournament.branching import Branching, SpentError
from engine.tournament.cover import SHARE as COVER_SHARE
from engine.tournament.cover import Cover, Tables, allowed, with_repeats
from engine.tournament.formats import TABLE_SIZE
from engine.tournament.masks import players_in, table_repeats
from engine.tournament.relaxation import Relaxed, priced_bound, relaxed

__all__ = ["WORK_LIMIT", "SwissSearch", "fewest_repeats", "repeats", "search", "swiss_tables"]

WORK_LIMIT: Final = 1_200_000
"""The work the search may do before it settles for the best seating it knows, counted in
players whose cheapest table is worked out, sets of players looked at and tables listed: a
few seconds of one core at most here (docs/event.md gives the measured figures). Within it
the seating is proved the fewest repeats and the first in ranking order. Half of it leaves
some late rounds at 40 to 60 players unproved, where branch and price needs 620,000 to
1,150,000 units (docs/event.md has the figures)."""

POLISH_STEPS: Final = 5_000
"""The moves the local search of the quick seating may make (all of them took a third of a second
of one core here, at 36 and 40 players); it stops sooner when it meets the lower bound."""

REPAIR_PLAYERS: Final = 32
"""The most players a repair of the known seating seats anew (:meth:`_Search._repaired`)
before the walk asks the full search."""

PRICED_PLAYERS: Final = 16
"""From this many players standing, a set of them is also bounded by the relaxation's last
prices (one search for the least reduced cost, :func:`~engine.tournament.relaxation.priced_bound`)
once the relaxation has run; below, the counting bounds are cheaper and enough."""

RELAXATION_SHARE: Final = 5
"""One question to the relaxation or to branch and price may take at most this fraction of
:data:`WORK_LIMIT` (one with many tables of no repeat can take long to show that its bound is
0): past it, the relaxation answers with the best bound found so far, and branch and price
leaves the question to the rest of the search."""

JOINED_PLAYERS: Final = 20
"""From this many players standing, once :data:`JOIN_AFTER` of the tables it lists have been
refuted and repeats remain to be placed, the walk asks first whether its first table's best
players can sit together at all (:meth:`_Search._joins`) before it lists the tables they could
fill; below, the complete search answers as fast."""

JOIN_AFTER: Final = 2
"""The tables the walk refutes one by one before it asks which players can sit together (most
often the first table it lists is the answer, and a question costs more than a mend). With no
repeat to place the walk never asks: seatings are then many, and branch and price is slow to
find one where the complete search is quick."""

COVER_PLAYERS: Final = 16
"""From this many players standing, where the tables within the allowance are few
(:data:`COVER_TABLES`, :data:`COVER_SPARSITY`), the complete search asks the exact cover of
those tables (:mod:`engine.tournament.cover`) in place of its search by repeats; below, both
are quick."""

COVER_TABLES: Final = 15_000
"""The most tables within the allowance the exact cover takes."""

COVER_SPARSITY: Final = 5
"""The exact cover takes the tables within the allowance only where they are at most one in
this many of all the tables among the players: where they are more, its forward checking
costs more than it saves, and seatings are many."""

COVER_FIRST: Final = 20
"""Where the tables within the allowance are at most one in this many of all the tables among
the players, a question of :meth:`_Search._joins` is asked of the exact cover before branch and
price, and one player at a time (it refutes one player quickly, a block slowly); where they are
more, of branch and price alone, in blocks, whose bound refutes sooner there."""

COVER_SHARE_OF_LIMIT: Final = 0.75
"""The share of :data:`WORK_LIMIT` one question of the complete search may take of the exact
cover before the search by repeats takes it over: its needles can cost two thirds of the limit
(48 players and 5,869 tables without a repeat, 792,000 units), and where it misses, the search
by repeats is mostly quick."""

TIER_TABLES: Final = 2_000
"""The most cheap tables :meth:`_Search._tiers` lists for one bound."""

_WORST: Final = TABLE_SIZE * (TABLE_SIZE - 1) // 2
"""The repeats of a table where everyone met everyone."""


def _met(a: str, b: str, met: Mapping[str, frozenset[str]]) -> bool:
    """Whether ``a`` and ``b`` met before (either one's record of it is enough)."""
    return b in met.get(a, ()) or a in met.get(b, ())


def repeats(table: Sequence[str], met: Mapping[str, frozenset[str]]) -> int:
    """How many pairs at ``table`` have met before."""
    return sum(1 for i, a in enumerate(table) for b in table[i + 1:] if _met(a, b, met))


def swiss_tables(
    ranking: Sequence[str],
    met: Mapping[str, frozenset[str]],
    byes_had: Mapping[str, int],
    tables: int,
) -> tuple[tuple[tuple[str, ...], ...], tuple[str, ...]]:
    """(the tables in order, each best player first; the players with a bye).

    ``ranking`` is every player best first; at most ``tables`` tables of four are filled.

    >>> swiss_tables(list("ABCDEFGHI"), {"A": frozenset("B"), "B": frozenset("A")}, {}, 2)
    ((('A', 'C', 'D', 'E'), ('B', 'F', 'G', 'H')), ('I',))
    """
    seated = min(tables, len(ranking) // TABLE_SIZE) * TABLE_SIZE
    order = {name: index for index, name in enumerate(ranking)}
    by_need = sorted(ranking, key=lambda name: (byes_had.get(name, 0), -order[name]))
    byes = tuple(sorted(by_need[: len(ranking) - seated], key=order.__getitem__))
    playing = [name for name in ranking if name not in byes]
    return fewest_repeats(playing, met), byes


def fewest_repeats(
    players: Sequence[str], met: Mapping[str, frozenset[str]]
) -> tuple[tuple[str, ...], ...]:
    """``players`` (best first, a multiple of four) at tables of four with the fewest
    repeats; of those seatings, the first in ranking order (see the module docstring).

    >>> fewest_repeats(list("ABCDEFGH"), {"A": frozenset("BC"), "B": frozenset("A")})
    (('A', 'D', 'E', 'F'), ('B', 'C', 'G', 'H'))
    """
    return search(players, met).tables


def search(players: Sequence[str], met: Mapping[str, frozenset[str]], *,
           work_limit: int = WORK_LIMIT) -> SwissSearch:
    """:func:`fewest_repeats` with what was proved about its answer, the search bounded by
    ``work_limit`` (see :data:`WORK_LIMIT`)."""
    if len(players) % TABLE_SIZE:
        raise ValueError(f"{len(players)} players do not fill tables of {TABLE_SIZE}")
    if len(set(players)) != len(players):
        raise ValueError("a player is listed twice")
    if not players:
        return SwissSearch((), 0, 0, True)
    index = {name: i for i, name in enumerate(players)}
    rows = [0] * len(players)
    for i, name in enumerate(players):
        for other in met.get(name, ()):
            j = index.get(other)
            if j is not None and j != i:
                rows[i] |= 1 << j
                rows[j] |= 1 << i
    tables, made, least, proved = _Search(rows, work_limit).run()
    return SwissSearch(tuple(tuple(players[i] for i in table) for table in tables), made, least,
                       proved)


class _OutOfWorkError(Exception):
    """The search reached :data:`WORK_LIMIT`."""


@dataclass(frozen=True, slots=True)
class SwissSearch:
    """What the search found: the ``tables``, their ``repeats``, the fewest repeats proved
    unavoidable (``least``: ``repeats == least`` proves the repeats the fewest), and whether
    the tables are proved to be the first seating in ranking order with the fewest repeats
    (``proved``)."""

    tables: tuple[tuple[str, ...], ...]
    repeats: int
    least: int
    proved: bool


def _cost(tables: list[tuple[int, ...]], rows: list[int]) -> int:
    """The repeats of ``tables``."""
    return sum(table_repeats(rows, sum(1 << n for n in table)) for table in tables)


class _Standing:
    """Players still to seat (``players``, a mask) and what bounds their repeats: each one's
    cheapest table among them (``cheapest``, the repeats; ``witness``, its players as a mask)
    and the sum of those cheapest repeats (``total``)."""

    __slots__ = ("cheapest", "players", "total", "witness")

    def __init__(self, players: int, cheapest: list[int], witness: list[int]) -> None:
        self.players = players
        self.cheapest = cheapest
        self.witness = witness
        self.total = sum(cheapest[i] for i in players_in(players))


class _Search:
    """The complete search of :func:`fewest_repeats` over player numbers (0 the best)."""

    def __init__(self, rows: list[int], work_limit: int) -> None:
        self.rows = rows
        self.work_limit = work_limit
        """Each player's past tablemates among those seated now, as a mask."""
        self.failed: dict[int, int] = {}
        """For a set of players still standing: the largest allowance known to seat none."""
        self.work = 0
        """The work done so far (see :data:`WORK_LIMIT`)."""
        self.seated: dict[int, tuple[int, list[tuple[int, ...]]]] = {}
        """For a set of players still standing: the smallest allowance known to seat them, and
        that seating."""
        self.walked: list[tuple[int, ...]] = []
        """The tables :meth:`_first` has proved first in ranking order so far."""
        self.rest: list[tuple[int, ...]] = []
        """A seating of the players :meth:`_first` has still to seat, within its allowance."""
        self.prices: dict[int, float] = {}
        """Each player's last price in the relaxation: the next question's guess."""
        self.pool: set[int] = set()
        """The tables the relaxation's questions found (:mod:`engine.tournament.relaxation`)."""
        self.branching: Branching | None = None
        """The last programme of :meth:`_branched` (its players', kept for their next
        question)."""
        self.away: dict[tuple[int, int, int], tuple[int, int]] = {}
        """For (players standing, allowance, players at the first table so far): the players
        proved unable to join them there, and how many to ask about next (:meth:`_joins`)."""
        self.joinable: dict[tuple[int, int, int], bool] = {}
        """For (players standing, allowance, players at one table): what :meth:`_joins` said."""
        self.sparse: dict[tuple[int, int], Tables | None] = {}
        """For (players standing, allowance): :meth:`_sparse`'s answer."""
        self.cover = Cover(self._spend, self.failed, self.seated)
        """The exact cover's questions (:mod:`engine.tournament.cover`)."""
        self.twins_before = [0] * len(rows)
        """Each player's better twins, as a mask (twins met the same others)."""
        for b, row in enumerate(rows):
            for a in range(b):
                if rows[a] & ~(1 << b) == row & ~(1 << a):
                    self.twins_before[b] |= 1 << a

    def run(self) -> tuple[list[tuple[int, ...]], int, int, bool]:
        """The smallest allowance that seats everyone and its first seating, or, past
        :data:`WORK_LIMIT`, the best seating known and what was proved."""
        everyone = (1 << len(self.rows)) - 1
        fallback = self._improved(self._greedy(everyone))
        known = _cost(fallback, self.rows)
        allowance = 0
        try:
            whole = self._refine(everyone, everyone, [0] * len(self.rows), [-1] * len(self.rows))
            allowance = max(self._lower_bound(whole), self._tiers(everyone))
            if known > allowance:
                relaxation = self._relaxation(everyone, fallback, enough=known)
                allowance = max(allowance, relaxation.least)
                if relaxation.seating is not None:
                    fallback = min(fallback, relaxation.seating,
                                   key=lambda tables: _cost(tables, self.rows))
                    known = _cost(fallback, self.rows)
            if known > allowance:
                fallback = self._polished(fallback, allowance)
                known = _cost(fallback, self.rows)
            while allowance < known:
                found = self._relaxed(whole, allowance, branch=True)
                if found is None:
                    found = self._seats(whole, allowance)
                if found is not None:
                    fallback, known = found, allowance
                    break
                allowance += 1
            self.rest = fallback
            return self._first(whole, known), known, known, True
        except _OutOfWorkError:
            if self.walked or self.rest:
                fallback = self.walked + sorted(self.rest)
            return fallback, _cost(fallback, self.rows), allowance, False

    def _spend(self, work: int) -> None:
        """Count ``work`` against the limit (raising :class:`_OutOfWorkError` past it)."""
        self.work += work
        if self.work > self.work_limit:
            raise _OutOfWorkError

    def _greedy(self, players: int) -> list[tuple[int, ...]]:
        """A quick seating to fall back on: each table in turn takes the best standing player
        and, seat by seat, the best of those who add the fewest repeats."""
        tables = []
        while players:
            at_table = players & -players
            for _seat in range(TABLE_SIZE - 1):
                others = players_in(players & ~at_table)
                best = min(others, key=lambda n: ((self.rows[n] & at_table).bit_count(), n))
                at_table |= 1 << best
            tables.append(tuple(players_in(at_table)))
            players &= ~at_table
        return tables

    def _improved(self, tables: list[tuple[int, ...]]) -> list[tuple[int, ...]]:
        """``tables`` after every swap of two players between tables that saves a repeat, until
        none does; in ranking order."""
        masks = [sum(1 << n for n in table) for table in tables]
        better = True
        while better:
            better = False
            for i, j in itertools.combinations(range(len(masks)), 2):
                for a in players_in(masks[i]):
                    for b in players_in(masks[j]):
                        stay_a, stay_b = masks[i] ^ (1 << a), masks[j] ^ (1 << b)
                        if self._saved(a, stay_a, b, stay_b) > 0:
                            masks[i], masks[j] = stay_a | 1 << b, stay_b | 1 << a
                            better = True
                            break
                    if better:
                        break
        return sorted(tuple(players_in(mask)) for mask in masks)

    def _saved(self, a: int, stay_a: int, b: int, stay_b: int) -> int:
        """The repeats saved when ``a`` (beside the players ``stay_a``) and ``b`` (beside
        ``stay_b``) change tables; negative when the swap costs repeats."""
        rows = self.rows
        return ((rows[a] & stay_a).bit_count() + (rows[b] & stay_b).bit_count()
                - (rows[b] & stay_a).bit_count() - (rows[a] & stay_b).bit_count())

    def _polished(self, tables: list[tuple[int, ...]], floor: int) -> list[tuple[int, ...]]:
        """``tables`` after a seeded local search for fewer repeats: a player at a table with
        a repeat changes places with whoever elsewhere saves the most (or, half the time when
        none saves any, costs the least), for at most :data:`POLISH_STEPS` moves or until
        ``floor`` (the lower bound) is met; the best seating seen, after every swap that
        saves a repeat (:meth:`_improved`)."""
        rows = self.rows
        masks = [sum(1 << n for n in table) for table in tables]
        cost = best_cost = _cost(tables, rows)
        best = masks.copy()
        rng = random.Random(0)
        for _step in range(POLISH_STEPS):
            if best_cost <= floor:
                break
            dear = [i for i, mask in enumerate(masks)
                    if any(rows[n] & mask for n in players_in(mask))]
            if not dear:  # no repeat left (below any floor)
                break
            i = rng.choice(dear)
            a = rng.choice([n for n in players_in(masks[i]) if rows[n] & masks[i]])
            stay_a = masks[i] ^ (1 << a)
            moves: list[tuple[int, int]] = []
            gain_best = -_WORST
            for j, mask in enumerate(masks):
                if j == i:
                    continue
                for b in players_in(mask):
                    gain = self._saved(a, stay_a, b, mask ^ (1 << b))
                    if gain > gain_best:
                        moves, gain_best = [(j, b)], gain
                    elif gain == gain_best:
                        moves.append((j, b))
            if gain_best < 0 and rng.random() < 0.5:
                continue
            j, b = rng.choice(moves)
            masks[i] = stay_a | 1 << b
            masks[j] = masks[j] ^ (1 << b) | 1 << a
            cost -= gain_best
            if cost < best_cost:
                best, best_cost = masks.copy(), cost
        return self._improved([tuple(players_in(mask)) for mask in best])

    def _lower_bound(self, standing: _Standing) -> int:
        """Repeats the players standing cannot avoid, the largest of three bounds.

        By tablemates: a player who has not met three of the others makes a repeat for each
        one short, and a repeat has two players. By tables: a table's repeats shared out evenly
        among its four players, each bears at least a quarter of the cheapest table he could
        sit at. By groups who all met (:meth:`_crowded`).
        """
        short = 0
        players = standing.players
        for number in players_in(players):
            fresh = (players & ~self.rows[number]).bit_count() - 1
            if fresh < TABLE_SIZE - 1:
                short += TABLE_SIZE - 1 - fresh
        return max((short + 1) // 2, -(-standing.total // TABLE_SIZE), self._crowded(players))

    def _tiers(self, players: int) -> int:
        """Repeats forced by how few tables are cheap: a seating has at most as many tables
        with ``k`` repeats or fewer as the players who meet every such table (a set of them,
        chosen greedily), so at least the rest of its tables make more than ``k``; summed
        over ``k`` from 0 while such tables are few enough to list (:data:`TIER_TABLES`)."""
        tables = players.bit_count() // TABLE_SIZE
        total = 0
        for most in range(_WORST):
            cheap = self._cheap_tables(players, most)
            if cheap is None:
                break
            hitting = 0
            while cheap:
                counts: dict[int, int] = {}
                for table in cheap:
                    for number in players_in(table):
                        counts[number] = counts.get(number, 0) + 1
                busiest = max(counts, key=lambda n: (counts[n], -n))
                hitting += 1
                cheap = [table for table in cheap if not table >> busiest & 1]
            if hitting >= tables:
                break
            total += tables - hitting
        return total

    def _cheap_tables(self, players: int, most: int, limit: int = TIER_TABLES
                      ) -> list[int] | None:
        """Every table among ``players`` with at most ``most`` repeats, as masks; None when
        there are more than ``limit``."""
        rows = self.rows
        found: list[int] = []
        for a in players_in(players):
            after_a = players & ~((2 << a) - 1)
            row_a = rows[a]
            visited = 0
            for b in players_in(after_a):
                ab = row_a >> b & 1
                if ab > most:
                    continue
                after_b = after_a & ~((2 << b) - 1)
                row_b = rows[b]
                for c in players_in(after_b):
                    row_c = rows[c]
                    abc = ab + (row_c >> a & 1) + (row_c >> b & 1)
                    visited += 1
                    if abc > most:
                        continue
                    # the fourth players by how many of the three each met, a bit per player
                    # (a sum bit by bit: ``odd`` met one or three of them, ``two`` two or three)
                    odd = row_a ^ row_b ^ row_c
                    two = row_a & row_b | row_a & row_c | row_b & row_c
                    fits = ~(row_a | row_b | row_c)  # met none of them
                    left = most - abc
                    if left >= 1:
                        fits |= odd & ~two
                    if left >= 2:
                        fits |= two & ~odd
                    if left >= 3:
                        fits = -1
                    trio = 1 << a | 1 << b | 1 << c
                    fourth = after_b & ~((2 << c) - 1) & fits
                    while fourth:
                        d = fourth & -fourth
                        fourth ^= d
                        found.append(trio | d)
                    if len(found) > limit:
                        self._spend(visited // 8 + len(found) // 8)
                        return None
            self._spend(after_a.bit_count() + visited // 8 + 1)
        self._spend(len(found) // 8)
        return found

    def _crowded(self, players: int) -> int:
        """Repeats that groups of players who all met each other force: a group of ``q`` among
        ``t`` tables puts at least ``q // t + 1`` of its players at ``q % t`` of them and
        ``q // t`` at the rest, and every pair of a group at one table is a repeat. The
        groups are disjoint, so their repeats add up; they are formed greedily, each player
        joining the first group whose players he all met (taken best first, then worst
        first, the larger bound kept)."""
        rows = self.rows
        tables = players.bit_count() // TABLE_SIZE
        best = 0
        numbers = players_in(players)
        for order in (numbers, numbers[::-1]):
            groups: list[int] = []
            for number in order:
                row = rows[number]
                for i, group in enumerate(groups):
                    if group & ~row == 0:
                        groups[i] = group | 1 << number
                        break
                else:
                    groups.append(1 << number)
            total = 0
            for group in groups:
                size = group.bit_count()
                if size > tables:
                    share, extra = divmod(size, tables)
                    total += (extra * (share + 1) * share
                              + (tables - extra) * share * (share - 1)) // 2
            best = max(best, total)
        return best

    def _refine(self, players: int, removed: int, cheapest: list[int], witness: list[int]
                ) -> _Standing:
        """The bounds for ``players`` from those for ``players | removed``: a player's cheapest
        table is kept while its players all still stand, and sought again otherwise (it costs
        no less among fewer players)."""
        self._spend(players.bit_count())
        cheapest, witness = cheapest.copy(), witness.copy()
        for number in players_in(players):
            if witness[number] & removed:
                cheapest[number], witness[number] = self._cheapest(number, players,
                                                                   cheapest[number])
        return _Standing(players, cheapest, witness)

    def _cheapest(self, player: int, players: int, floor: int) -> tuple[int, int]:
        """(the fewest repeats of a table of four for ``player`` among ``players``, that table
        as a mask); the first table found at ``floor`` (known to be the least) ends the look.

        The tablemates are tried fewest repeats first; a mask gives the players who would add
        no, one or two repeats to those already chosen.
        """
        rows = self.rows
        mine = rows[player]
        left = players & ~(1 << player)
        best, witness = _WORST + 1, 0
        for first in (0, 1):
            if first >= best:
                break
            pool = left & (mine if first else ~mine)
            while pool:
                a = pool & -pool
                pool ^= a
                left ^= a  # combinations with ``a`` are all tried below
                row_a = rows[a.bit_length() - 1]
                once, twice = mine | row_a, mine & row_a
                rest = left
                for second, among in ((0, ~once), (1, once & ~twice), (2, twice)):
                    spent = first + second
                    if spent >= best:
                        break
                    pool_b = rest & among
                    while pool_b:
                        b = pool_b & -pool_b
                        pool_b ^= b
                        rest ^= b
                        row_b = rows[b.bit_length() - 1]
                        for third, blocked in ((0, once | row_b), (1, twice | once & row_b),
                                               (2, twice & row_b), (3, 0)):
                            if spent + third >= best:
                                break
                            pool_c = rest & ~blocked
                            if pool_c:
                                best = spent + third
                                witness = (1 << player) | a | b | (pool_c & -pool_c)
                                if best <= floor:
                                    return best, witness
                                break
        return best, witness

    def _first(self, standing: _Standing, allowance: int) -> list[tuple[int, ...]]:
        """The first seating in ranking order of the players standing, which :attr:`rest`
        seats within ``allowance`` repeats: each table in turn is the first that leaves the
        rest a seating within what is left of the allowance (the table :attr:`rest` gives the
        best player standing needs no question). The tables found so far are :attr:`walked`,
        and :attr:`rest` seats the others, so that out of work the seating is the first as
        far as the walk went."""
        while standing.players:
            players = standing.players
            first = (players & -players).bit_length() - 1
            refuted = [0]  # the tables refuted beyond the bounds so far

            def joins(together: int, players: int = players, allowance: int = allowance,
                      refuted: list[int] = refuted) -> bool:
                return (refuted[0] < JOIN_AFTER or players.bit_count() < JOINED_PLAYERS
                        or not allowance or self._joins(players, together, allowance))
            for table, at_table, cost in self._tables(
                    (first,), 1 << first, 0, players ^ (1 << first), players=players,
                    allowance=allowance, joins=joins):
                rest = self._after(standing, at_table, cost, allowance)
                if rest is None:
                    continue
                left = allowance - cost
                found: list[tuple[int, ...]] | None
                known = next(t for t in self.rest if t[0] == first)
                if at_table == sum(1 << n for n in known):
                    found = [t for t in self.rest if t is not known]
                else:
                    # A wide mend of a field a table larger than it may seat anew is nearly the
                    # whole search again, and one with repeats to place a hard one: the
                    # relaxation is asked before it there; with no repeat left to place in a
                    # large field, after (the mend most often says yes, the relaxation no).
                    relaxation_first = (left > 0 or rest.players.bit_count()
                                        <= REPAIR_PLAYERS + TABLE_SIZE)
                    found = self._repaired(rest, at_table, left, widen=not relaxation_first)
                    if found is None:
                        found = self._relaxed(rest, left, branch=left > 0)
                    if (found is None and relaxation_first
                            and self.failed.get(rest.players, -1) < left):
                        found = self._repaired(rest, at_table, left, widen=True)
                    if found is None:
                        found = self._seats(rest, left)
                if found is None:
                    refuted[0] += 1
                else:
                    self.walked.append(table)
                    seating = found
                    break
            else:  # pragma: no cover
                raise AssertionError("no seating where one was found")
            self.rest = seating
            standing, allowance = rest, allowance - cost
        return self.walked

    def _repaired(self, standing: _Standing, at_table: int, allowance: int, *, widen: bool
                  ) -> list[tuple[int, ...]] | None:
        """A seating of the players standing within ``allowance`` made from :attr:`rest` once the
        table ``at_table`` is taken out of it: the players of its tables that shared a player
        with it are seated anew, beside a few more of its tables (those whose players have met
        the fewest of them) when they cannot be and ``widen`` allows; the other tables stay.
        Players seated anew are asked of the relaxation first from :data:`JOINED_PLAYERS` of
        them, then of the complete search. None when that does not fit within
        :data:`REPAIR_PLAYERS` (a full search may still)."""
        rows = self.rows
        kept = [(sum(1 << n for n in t), t) for t in self.rest]
        kept = [(mask, t) for mask, t in kept if not at_table & mask]
        orphans = standing.players & ~sum(mask for mask, _t in kept)
        left = allowance - _cost([t for _mask, t in kept], rows)
        while True:
            if left >= 0:
                sub = self._refine(orphans, standing.players & ~orphans, standing.cheapest,
                                   standing.witness)
                if self._lower_bound(sub) <= left:
                    found = None
                    if sub.players.bit_count() >= JOINED_PLAYERS:
                        # the relaxation first: a refutation the complete search of a mend
                        # this wide can spend the whole work limit on costs it a few
                        # thousand units
                        found = self._relaxed(sub, left, branch=False)
                    if found is None:
                        found = self._seats(sub, left)
                    if found is not None:
                        return sorted([t for _mask, t in kept] + found)
            if not widen or not kept or orphans.bit_count() + TABLE_SIZE > REPAIR_PLAYERS:
                break
            widest = max(range(len(kept)), key=lambda i: sum(
                (orphans & ~rows[n]).bit_count() for n in kept[i][1]))
            mask, table = kept.pop(widest)
            orphans |= mask
            left += _cost([table], rows)
        return None

    def _relaxation(self, players: int, start: list[tuple[int, ...]], enough: int) -> Relaxed:
        """The relaxation's answer for ``players`` (from the seating ``start``, stopping at the
        bound ``enough``), with the tables and prices of the questions before; its prices are
        kept for the next."""
        relaxation = relaxed(self.rows, players, start, enough=enough, pool=self.pool,
                             budget=self.work_limit // RELAXATION_SHARE,
                             guess=self.prices or None, spend=self._spend)
        self.prices.update(relaxation.prices)
        return relaxation

    def _relaxed(self, standing: _Standing, allowance: int, *, branch: bool
                 ) -> list[tuple[int, ...]] | None:
        """Before a search of the whole field for a seating within ``allowance``: the answer of
        the relaxation, split by branch and price when ``branch`` allows
        (:mod:`engine.tournament.branching`), within a share of the work limit; None when it
        finds none, and the set of players remembered as failing when it proves there is none
        (the search then has nothing to look for)."""
        players = standing.players
        if self.failed.get(players, -1) >= allowance:
            return None
        answered, seating = self._branched(players, allowance, 0, 0, branch=branch)
        if answered and seating is None:
            self.failed[players] = allowance
        return seating

    def _joins(self, players: int, together: int, allowance: int) -> bool:
        """Whether a seating of ``players`` within ``allowance`` may seat ``together`` at one
        table (False only when branch and price proves that none does); a seating found is
        the walk's new :attr:`rest`.

        The players who can join the others of ``together`` (``table``) are asked about in
        blocks: after one who cannot, whether one of the next two can, then four, and so on
        (the walk meets long runs of players who cannot), the block's players all remembered
        as kept from ``table`` when none can (a seating with one of them there would have
        him with the others). When one can, the seating found names one (``witness``), and
        the block shrinks to those before him."""
        last = 1 << together.bit_length() - 1
        table = together ^ last
        if table.bit_count() > 1 and not self._joins(players, table, allowance):
            return False  # the table's players so far cannot sit together: nor with him
        context = (players, allowance, table)
        known = self.joinable.get((players, allowance, together))
        if known is not None:
            return known
        away, stride = self.away.get(context, (0, 1))
        if away & last:
            return False
        later = players & ~table & ~away & ~(last - 1)  # him and the players after him
        block = 0
        for _member in range(stride):
            block |= later & -later
            later &= later - 1
        while True:
            answered, seating = self._joined(players, allowance, table, away, block)
            if not answered:  # not to ask again; the next question about one player only
                self.joinable[players, allowance, together] = True
                self.away[context] = (away, 1)
                return True
            if seating is None:
                # the exact cover answers for one player at a time far sooner than for a block
                covered = self._sparse(players, allowance) is not None
                self.away[context] = (away | block, 1 if covered else stride * 2)
                return False
            self.rest = seating
            joined = next(mask for mask in (sum(1 << n for n in t) for t in seating)
                          if mask & table)
            witness = joined & block & -(joined & block)
            self.joinable[players, allowance, table | witness] = True
            stride = 1
            self.away[context] = (away, stride)
            if witness == last:
                return True
            block &= witness - 1  # those before him (him among them)

    def _joined(self, players: int, allowance: int, together: int, away: int, among: int
                ) -> tuple[bool, list[tuple[int, ...]] | None]:
        """:meth:`_branched`'s answer to a question of :meth:`_joins`, asked first of the exact
        cover within a share of the work limit where the tables within ``allowance`` are few
        enough (:meth:`_sparse`)."""
        tables = self._sparse(players, allowance)
        if tables is not None:
            self._spend(len(tables) // COVER_SHARE + 1)
            try:
                return True, self.cover.seating(
                    players, allowed(tables, together, away, among), allowance,
                    restricted=together, budget=self.work_limit // RELAXATION_SHARE)
            except SpentError:
                pass
        return self._branched(players, allowance, together, away, among)

    def _branched(self, players: int, allowance: int, together: int, away: int, among: int = 0,
                  *, branch: bool = True) -> tuple[bool, list[tuple[int, ...]] | None]:
        """(whether branch and price answered within its share of the work limit, a seating of
        ``players`` within ``allowance`` with ``together`` at a table none of ``away`` sits
        at and one of ``among`` does (unless it is 0), or None; split only if ``branch``); its
        programme is kept for the next question about the same players."""
        if self.branching is None or self.branching.players != players:
            self.branching = Branching(self.rows, players, self._greedy(players), self.pool,
                                       self._spend)
        branching = self.branching
        try:
            seating = branching.seating(allowance, together=together, away=away, among=among,
                                        budget=self.work_limit // RELAXATION_SHARE,
                                        guess=self.prices or None, branch=branch)
        except SpentError:
            return False, None
        finally:
            self.prices.update(branching.prices)
        return True, seating

    def _seats(self, standing: _Standing, allowance: int, *, covering: bool = True
               ) -> list[tuple[int, ...]] | None:
        """A seating of the players standing with at most ``allowance`` repeats, or None when
        there is none.

        The question does not depend on the order, so the search starts from the player with
        the fewest new faces left (the hardest to seat, whose few tables fail soonest) and
        tries his tables cheapest first; the answer is remembered for the set of players.
        Where the tables within the allowance are few, the exact cover of them answers
        instead (:data:`COVER_PLAYERS`), if ``covering`` (not beneath a question it gave up).
        """
        players = standing.players
        if not players:
            return []
        if self.failed.get(players, -1) >= allowance:
            return None
        known = self.seated.get(players)
        if known is not None and known[0] <= allowance:
            return known[1]
        if covering and players.bit_count() >= COVER_PLAYERS:
            tables = self._cover_tables(players, allowance)
            if tables:
                try:
                    return self.cover.seating(players, tables, allowance,
                                              budget=int(self.work_limit * COVER_SHARE_OF_LIMIT))
                except SpentError:
                    # what it proved is remembered; the search by repeats goes on, without
                    # asking the cover of fewer of these players
                    covering = False
        return self._by_repeats(standing, allowance, covering=covering)

    def _by_repeats(self, standing: _Standing, allowance: int, *, covering: bool
                    ) -> list[tuple[int, ...]] | None:
        """:meth:`_seats` by repeats: the hardest player's tables, cheapest first (the players
        left asked of the exact cover only if ``covering``)."""
        players = standing.players
        pivot = self._hardest(standing)
        options = sorted((cost, at_table) for _table, at_table, cost in self._tables(
            (pivot,), 1 << pivot, 0, players ^ (1 << pivot), players=players,
            allowance=allowance))
        self._spend(len(options))
        for cost, at_table in options:
            rest = self._after(standing, at_table, cost, allowance)
            if rest is None:
                continue
            found = self._seats(rest, allowance - cost, covering=covering)
            if found is not None:
                seating = sorted([tuple(players_in(at_table)), *found])
                self.seated[players] = (allowance, seating)
                return seating
        self.failed[players] = allowance
        return None

    def _sparse(self, players: int, allowance: int) -> Tables | None:
        """:meth:`_cover_tables` where they are at most one in :data:`COVER_FIRST` of all the
        tables among ``players`` (from :data:`COVER_PLAYERS` of them), else None; remembered
        in :attr:`sparse`, for the walk asks it of the same players again and again."""
        count = players.bit_count()
        if count < COVER_PLAYERS:
            return None
        key = (players, allowance)
        if key not in self.sparse:
            tables = self._cover_tables(players, allowance)
            few = tables is not None and len(tables) * COVER_FIRST <= math.comb(count, TABLE_SIZE)
            self.sparse[key] = tables if few else None
        return self.sparse[key]

    def _cover_tables(self, players: int, allowance: int) -> Tables | None:
        """The tables among ``players`` within ``allowance`` with their repeats, for the exact
        cover; None when there are more than :data:`COVER_TABLES` or than one in
        :data:`COVER_SPARSITY` of all the tables among them."""
        tables = self._cheap_tables(players, allowance, min(
            COVER_TABLES, math.comb(players.bit_count(), TABLE_SIZE) // COVER_SPARSITY))
        return None if tables is None else with_repeats(self.rows, tables)

    def _hardest(self, standing: _Standing) -> int:
        """The standing player who has met the most of the others (the dearest cheapest table
        first among those)."""
        players = standing.players
        return min(players_in(players), key=lambda number: (
            (players & ~self.rows[number]).bit_count(), -standing.cheapest[number], number))

    def _tables(self, table: tuple[int, ...], at_table: int, spent: int, candidates: int, *,
                players: int, allowance: int, joins: Callable[[int], bool] | None = None
                ) -> Iterator[tuple[tuple[int, ...], int, int]]:
        """Every way to fill ``table`` (``at_table`` as a mask, ``spent`` its repeats) from
        ``candidates`` within ``allowance``, in ranking order: (its players, as a mask, its
        repeats). A player whose better twin stands free beside the table is left out: the
        same table with the twin comes first and seats the rest as well; so is one that
        ``joins`` (asked of the table's players so far with him, before a last seat) says
        cannot join them."""
        if len(table) == TABLE_SIZE:
            yield table, at_table, spent
            return
        while candidates:
            low = candidates & -candidates
            candidates ^= low
            player = low.bit_length() - 1
            if self.twins_before[player] & players & ~at_table:
                continue
            cost = spent + (self.rows[player] & at_table).bit_count()
            if cost <= allowance and (joins is None or len(table) + 1 == TABLE_SIZE
                                      or joins(at_table | low)):
                yield from self._tables((*table, player), at_table | low, cost, candidates,
                                        players=players, allowance=allowance, joins=joins)

    def _after(self, standing: _Standing, at_table: int, cost: int, allowance: int
               ) -> _Standing | None:
        """The players left once the table ``at_table`` (``cost`` repeats) is seated, with their
        bounds; None when a bound shows they cannot be seated within what is left of
        ``allowance``."""
        self._spend(1)
        left = allowance - cost
        players = standing.players & ~at_table
        known = self.failed.get(players, -1)
        if known >= left:
            return None
        inherited = -(-(standing.total - sum(standing.cheapest[i] for i in players_in(at_table)))
                      // TABLE_SIZE)
        if inherited > left:  # the cheapest tables among more players already cost too much
            self.failed[players] = max(known, inherited - 1)
            return None
        rest = self._refine(players, at_table, standing.cheapest, standing.witness)
        bound = self._lower_bound(rest)
        if bound <= left and self.prices and players.bit_count() >= PRICED_PLAYERS:
            bound = max(bound, priced_bound(self.rows, players, self.prices, self._spend))
        if bound > left:
            self.failed[players] = max(known, bound - 1)
            return None
        return rest
