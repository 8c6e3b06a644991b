"""The seating's linear relaxation: a lower bound on the repeats of any seating of a set of players
at tables of four, which the search's counting bounds miss when the cheap tables overlap.

The problem as a linear programme: a variable ``x_T`` for every table ``T`` of four, its cost
``c_T`` the repeats at it; minimise ``sum c_T x_T`` with every player's tables summing to 1 and
``x_T >= 0``. A seating is a solution in 0 and 1, so the programme's least cost is a lower bound.
For *any* prices ``y`` (one per player), every seating of ``k`` tables costs at least
``sum y + k * min_T (c_T - y(T))`` (each table costs its players' prices and its *reduced cost*,
at least the least one): the bound is valid whatever ``y`` is, so rounding in floating point can
only weaken it, never make it wrong, and it is rounded up to the next whole repeat only past a
margin. The best prices are the programme's dual, found by *column generation*: a simplex over the
tables found so far (starting from a known seating), then the tables of negative reduced cost
among all of them (a search from the dearest players down, cut where even the dearest players left
cannot make the cost negative) are added, until there are none. At 64 players that is a few
hundred tables of the 635,376, a few hundred pivots of a 64-row simplex.

When the programme's answer is a whole seating (every table at 0 or 1), it is a seating with the
fewest repeats, and :func:`relaxed` returns it as well.
"""

from __future__ import annotations

import heapq
import itertools
import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Final

from engine.tournament.formats import TABLE_SIZE
from engine.tournament.masks import players_in, table_repeats

__all__ = ["TINY", "Master", "Relaxed", "Rule", "priced", "priced_bound", "relaxed", "sides",
           "whole"]

MARGIN: Final = 1e-6
"""How far past a whole number of repeats the floating-point bound must be before it counts as
the next one (its rounding errors are some 1e-12 here)."""

TINY: Final = 1e-9
"""Below this a reduced cost, a ratio's divisor or a variable's value is taken as zero."""

_ARTIFICIAL: Final = 1_000.0
"""The cost of seating a player at no table: the simplex's start, never the answer (a real table
is always cheaper)."""


@dataclass(frozen=True, slots=True)
class Relaxed:
    """What the relaxation proved about seating a set of players: ``least``, a whole number of
    repeats no seating of them goes below; ``seating``, a seating that makes exactly ``least``
    when the programme's answer was one (else None)."""

    least: int
    seating: list[tuple[int, ...]] | None
    prices: dict[int, float]
    """The last prices, each player's: a guess to start a like question from."""


@dataclass(frozen=True, slots=True)
class Rule:
    """Which tables a question allows: for each player (a list over player numbers), the
    players who must sit at his table (``together``) and those who must not (``apart``), as
    masks."""

    together: tuple[int, ...]
    apart: tuple[int, ...]
    group: int
    among: int
    """The table of ``group`` (a mask) must hold one of ``among`` (unless ``among`` is 0)."""
    bound: int
    """The players the rule binds at all, as a mask: a table of none of them keeps it."""

    @classmethod
    def of(cls, together: Sequence[int], apart: Sequence[int], group: int = 0, among: int = 0
           ) -> Rule:
        """The rule of ``together`` and ``apart`` (each over player numbers), ``group`` and
        ``among``."""
        bound = group if among else 0
        for number, (joined, shunned) in enumerate(zip(together, apart, strict=True)):
            if joined or shunned:
                bound |= 1 << number
        return cls(tuple(together), tuple(apart), group, among, bound)

    @classmethod
    def question(cls, size: int, together: int, away: int, among: int) -> Rule:
        """The rule of a question among ``size`` players: the players of ``together`` (a mask)
        at one table that none of ``away`` sits at and, unless ``among`` is 0, one of
        ``among`` does (:func:`sides`)."""
        return cls.of(*sides(size, together, away), together, among)

    def allows(self, table: int) -> bool:
        """Whether the table ``table`` (a mask) keeps the rule."""
        if not table & self.bound:
            return True
        if self.among and table & self.group and not table & self.among:
            return False
        return all(not self.apart[n] & table and not self.together[n] & ~table
                   for n in players_in(table & self.bound))


def sides(size: int, together: int, away: int) -> tuple[list[int], list[int]]:
    """For each of ``size`` players, who must sit at his table and who must not, when the
    players of ``together`` (a mask) share a table that none of ``away`` sits at."""
    joined = [0] * size
    apart = [0] * size
    for number in players_in(together):
        joined[number] = together & ~(1 << number)
        apart[number] = away
    for number in players_in(away):
        apart[number] |= together
    return joined, apart


class Master:
    """The programme over the tables found so far: a revised simplex (the basis's inverse kept
    dense: at most 64 rows), each row a player. Columns ``0`` to ``size - 1`` are the players'
    artificials (a player at no table, column ``i`` row ``i``), the tables come after."""

    def __init__(self, rows: Sequence[int], players: int, start: Sequence[Sequence[int]],
                 spend: Callable[[int], None]) -> None:
        self.rows = rows
        self.spend = spend
        self.row_of = {number: i for i, number in enumerate(players_in(players))}
        size = len(self.row_of)
        self.columns: list[int] = [0] * size
        """Each column's table as a mask (0 for an artificial)."""
        self.covers: list[tuple[int, ...]] = [(row,) for row in range(size)]
        """Each column's rows."""
        self.costs: list[float] = [_ARTIFICIAL] * size
        """Each column's cost in the programme: a table's repeats, or :data:`_ARTIFICIAL` for an
        artificial and for a table the :attr:`rule` leaves out (so it leaves the basis)."""
        self.repeats: list[int] = [0] * size
        """Each column's repeats (0 for an artificial)."""
        self.rule: Rule | None = None
        """Which tables the programme may use (None: all of them)."""
        self.known: set[int] = set()
        self.candidates: list[int] = []
        """The columns of negative reduced cost at the last look at all of them
        (:meth:`_entering`)."""
        self.basis = list(range(size))
        self.values = [1.0] * size
        self.inverse = [[1.0 if i == j else 0.0 for j in range(size)] for i in range(size)]
        # The start's seating: each table's column on its first row (the other rows keep their
        # artificials, at 0); the inverse then subtracts the table's other rows from its first.
        for table in start:
            column = self.add(sum(1 << n for n in table))
            first, *others = self.covers[column]
            self.basis[first] = column
            for other in others:
                self.inverse[other][first] = -1.0
                self.values[other] = 0.0

    def add(self, table: int) -> int:
        """The new column of ``table``."""
        self.known.add(table)
        numbers = players_in(table)
        self.columns.append(table)
        self.covers.append(tuple(self.row_of[n] for n in numbers))
        self.repeats.append(table_repeats(self.rows, table))
        column = len(self.columns) - 1
        self.costs.append(self._cost(column))
        return column

    def _cost(self, column: int) -> float:
        """The cost of the table ``column`` under :attr:`rule`."""
        rule = self.rule
        return (float(self.repeats[column])
                if rule is None or rule.allows(self.columns[column]) else _ARTIFICIAL)

    def restrict(self, rule: Rule | None) -> None:
        """Let the programme use only the tables ``rule`` allows (all with None): the others
        cost as much as an artificial, so the basis the programme has stays a start for it."""
        self.rule = rule
        size = len(self.basis)
        for column in range(size, len(self.columns)):
            self.costs[column] = self._cost(column)
        self.spend((len(self.columns) - size) // 13 + 1)

    def offer(self, tables: Iterable[int]) -> list[int]:
        """Add those of ``tables`` not yet columns; those."""
        fresh = [table for table in tables if table not in self.known]
        for table in fresh:
            self.add(table)
        return fresh

    def prices(self) -> list[float]:
        """The dual: each row's price, the basis's costs times its inverse."""
        size = len(self.basis)
        found = [0.0] * size
        for position, column in enumerate(self.basis):
            cost = self.costs[column]
            if cost:
                found = [price + cost * weight
                         for price, weight in zip(found, self.inverse[position], strict=True)]
        return found

    def _entering(self, prices: list[float], first: bool) -> tuple[int, float]:
        """(the column of most negative reduced cost, or with ``first`` the first negative
        one (Bland's rule); its reduced cost), or (-1, 0) when none is negative. A column in the
        basis costs exactly its rows' prices, so it is never chosen. The columns found
        negative at the last full scan are looked at first, all of them again only when none
        of those still is (*partial pricing*: most pivots then look at a few dozen columns,
        not at the hundreds the questions before found)."""
        entering, lowest = -1, -TINY
        for row, price in enumerate(prices):
            if _ARTIFICIAL - price < lowest:
                entering, lowest = row, _ARTIFICIAL - price
                if first:
                    return entering, lowest
        costs = self.costs
        covers = self.covers
        size = len(prices)
        if first:
            for column in range(size, len(costs)):
                a, b, c, d = covers[column]
                reduced = costs[column] - prices[a] - prices[b] - prices[c] - prices[d]
                if reduced < lowest:
                    entering, lowest = column, reduced
                    break
            self.spend((len(costs) - size) // 13 + 1)
            return entering, lowest
        if self.candidates:  # those negative at the last full scan first (partial pricing)
            kept: list[int] = []
            for column in self.candidates:
                a, b, c, d = covers[column]
                reduced = costs[column] - prices[a] - prices[b] - prices[c] - prices[d]
                if reduced < -TINY:
                    kept.append(column)
                    if reduced < lowest:
                        entering, lowest = column, reduced
            self.spend(len(self.candidates) // 13 + 1)
            self.candidates = kept
            if entering >= size:
                return entering, lowest
        # every column's reduced cost at once, the least of them
        reduced_costs = [cost - prices[a] - prices[b] - prices[c] - prices[d]
                         for cost, (a, b, c, d) in zip(itertools.islice(costs, size, None),
                                                       itertools.islice(covers, size, None),
                                                       strict=True)]
        self.candidates = [size + i for i, reduced in enumerate(reduced_costs) if reduced < -TINY]
        for column in self.candidates:
            if reduced_costs[column - size] < lowest:
                entering, lowest = column, reduced_costs[column - size]
        self.spend((len(costs) - size) // 13 + 1)
        return entering, lowest

    def solve(self) -> list[float]:
        """Pivot until no column found so far has a negative reduced cost; the prices."""
        size = len(self.basis)
        prices = self.prices()
        stalled = 0  # pivots in a row that moved nothing (the programme is very degenerate)
        while True:
            # Bland's rule once it stalls: a degenerate programme then cannot cycle
            entering, lowest = self._entering(prices, first=stalled > size)
            if entering < 0:
                return prices
            inverse = self.inverse
            direction = [sum(line[row] for row in self.covers[entering]) for line in inverse]
            leaving, ratio = -1, math.inf
            for position, step in enumerate(direction):
                if step > TINY:
                    here = self.values[position] / step
                    if here < ratio - TINY or (
                            here < ratio + TINY
                            and (self.basis[position] < self.basis[leaving] if stalled > size
                                 else step > direction[leaving])):
                        leaving, ratio = position, here
            if leaving < 0:  # pragma: no cover - the rows are bounded by the artificials
                raise AssertionError("the seating's programme is never unbounded")
            step = direction[leaving]
            pivot = [value / step for value in inverse[leaving]]
            inverse[leaving] = pivot
            moved = 0
            for position, factor in enumerate(direction):
                if position != leaving and factor:
                    inverse[position] = [a - factor * b
                                         for a, b in zip(inverse[position], pivot, strict=True)]
                    self.values[position] -= factor * ratio
                    moved += 1
            self.values[leaving] = ratio
            self.basis[leaving] = entering
            # counted once the basis is whole again: a budget that ends the programme here
            # leaves a basis the next question can start from
            self.spend(moved * size // 66 + 1)
            # the entering column's reduced cost becomes 0: the prices move along the pivot row
            prices = [price + lowest * weight
                      for price, weight in zip(prices, pivot, strict=True)]
            stalled = stalled + 1 if ratio < TINY else 0

    def answer(self) -> list[tuple[int, float]]:
        """The programme's answer: each table above 0 (a mask; 0 for an artificial or a table
        the rule leaves out) with its value."""
        return [(self.columns[column] if self.costs[column] < _ARTIFICIAL else 0,
                 self.values[position])
                for position, column in enumerate(self.basis) if self.values[position] > TINY]

    def seating(self) -> list[tuple[int, ...]] | None:
        """The answer's tables when it is a whole seating (each at 0 or 1, no artificial or
        table left out above 0), else None."""
        answer = self.answer()
        if any(value < 1 - TINY or not table for table, value in answer):
            return None
        return sorted(tuple(players_in(table)) for table, _value in answer)


def whole(bound: float) -> int:
    """The whole repeats a floating-point ``bound`` proves (past :data:`MARGIN`)."""
    return max(0, math.ceil(bound - MARGIN)) if bound > -math.inf else 0


def priced(rows: Sequence[int], players: int, prices: dict[int, float], keep: int,
            spend: Callable[[int], None], *, rule: Rule | None = None
            ) -> tuple[float, list[int]]:
    """(the least reduced cost of a table among ``players`` that ``rule`` allows, or 0 when none
    is negative; up to ``keep`` tables of negative reduced cost, the most negative first). The
    players are taken dearest first, so the dearest still free bound what a partial table can
    reach."""
    order = sorted(players_in(players), key=lambda n: -prices[n])
    dear = [prices[n] for n in order]
    kept: list[tuple[float, int]] = []  # (minus the reduced cost, the table): a max-heap
    cut = [0.0]  # a table must cost less than this to be kept
    visited = [0]

    def keep_table(reduced: float, table: int) -> None:
        if len(kept) < keep:
            heapq.heappush(kept, (-reduced, table))
        else:
            heapq.heapreplace(kept, (-reduced, table))
        if len(kept) == keep:
            cut[0] = -kept[0][0]

    def fill(start: int, table: int, seats: int, cost: int, price: float) -> None:
        visited[0] += 1
        last = len(order) - seats + 1
        if seats == 1:  # the last seat: each player left completes a table
            for i in range(start, last):
                reduced = cost - price - dear[i]
                if reduced >= cut[0] - TINY:
                    break  # the dearest left cannot make it: nor can any later ones
                number = order[i]
                visited[0] += 1
                reduced += (rows[number] & table).bit_count()
                if reduced < cut[0] - TINY:
                    whole_table = table | 1 << number
                    if rule is None or rule.allows(whole_table):
                        keep_table(reduced, whole_table)
            return
        for i in range(start, last):
            if cost - price - sum(dear[i:i + seats]) >= cut[0] - TINY:
                break  # the dearest left cannot make it: nor can any later ones
            number = order[i]
            if rule is not None and (rule.apart[number] & table
                                     or (rule.together[number] | table).bit_count()
                                     >= TABLE_SIZE):
                continue  # he may not sit here, or those who must sit with him do not fit
            fill(i + 1, table | 1 << number, seats - 1,
                 cost + (rows[number] & table).bit_count(), price + dear[i])

    fill(0, 0, TABLE_SIZE, 0, 0.0)
    spend(visited[0] // 4 + 1)
    found = sorted((-minus, table) for minus, table in kept)
    return (found[0][0] if found else 0.0), [table for _reduced, table in found]


def priced_bound(rows: Sequence[int], players: int, prices: Mapping[int, float],
                 spend: Callable[[int], None] = lambda _work: None, *,
                 rule: Rule | None = None) -> int:
    """The bound ``prices`` alone give on the repeats of seating ``players`` (0 for a player
    they lack) at the tables ``rule`` allows: one search for the least reduced cost, no
    simplex."""
    tables = players.bit_count() // TABLE_SIZE
    if not tables:
        return 0
    own = {number: prices.get(number, 0.0) for number in players_in(players)}
    lowest, _found = priced(rows, players, own, 1, spend, rule=rule)
    return whole(sum(own.values()) + tables * lowest)


class _SpentError(Exception):
    """The relaxation reached its own budget of work."""


def relaxed(rows: Sequence[int], players: int, start: Sequence[Sequence[int]], *,
            enough: int | None = None, pool: set[int] | None = None,
            budget: int | None = None, guess: Mapping[int, float] | None = None,
            spend: Callable[[int], None] = lambda _work: None) -> Relaxed:
    """The relaxation's bound on the repeats of seating ``players`` (a mask; ``rows`` each
    player's past tablemates as a mask), starting from the seating ``start`` of them; it stops
    once the bound reaches ``enough``, or with the best bound so far once its work passes
    ``budget`` (a programme with many tables of no repeat can take long to show that its
    bound is 0). ``pool`` holds tables (masks) earlier questions found useful: those among
    ``players`` start as columns, and the tables found here join it. ``guess`` holds prices from
    a like question (0 for a player it lacks: any prices give a bound): when their bound is
    already ``enough`` the programme is not solved at all. ``spend`` is told the work done as
    it goes (and may raise to stop it)."""
    tables = players.bit_count() // TABLE_SIZE
    if not tables:
        return Relaxed(0, [], {})
    numbers = players_in(players)
    done = [0]

    def counted(work: int) -> None:
        spend(work)
        done[0] += work
        if budget is not None and done[0] > budget:
            raise _SpentError

    best = -math.inf
    prices: dict[int, float] = {}
    try:
        found: list[int] = []
        if guess is not None and enough is not None:
            prices = {number: guess.get(number, 0.0) for number in numbers}
            lowest, found = priced(rows, players, prices, 2 * len(numbers), counted)
            best = sum(prices.values()) + tables * lowest
            if whole(best) >= enough:
                return Relaxed(whole(best), None, prices)
        master = Master(rows, players, start, counted)
        master.offer(found)
        if pool:
            master.offer(table for table in pool if not table & ~players)
            counted(len(pool) // 20 + 1)
        while True:
            local = master.solve()
            prices = {number: local[master.row_of[number]] for number in numbers}
            lowest, found = priced(rows, players, prices, 2 * len(numbers), counted)
            best = max(best, sum(local) + tables * lowest)
            fresh = master.offer(found)
            if not fresh or (enough is not None and whole(best) >= enough):
                return Relaxed(whole(best), master.seating() if not fresh else None, prices)
            if pool is not None:
                pool.update(fresh)
    except _SpentError:
        return Relaxed(whole(best), None, prices)
