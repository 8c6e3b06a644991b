"""Whether a set of players can be seated within an allowance of repeats, answered by an exact
cover of the tables within it: the question where such tables are few.

Late in an evening most pairs have met, and the tables within a small allowance are a few in a
hundred of all the tables of four. A seating of them is then a needle: the search by repeats
(:mod:`engine.tournament.swiss`) tries each player's tables cheapest first and may spend its whole
work limit among tables that leave some other player none. This search seats first the player with
the fewest tables left, and tries each of his tables only if it leaves every other player a table
and the bound by tables (each player's cheapest table shared among four) within what is left of
the allowance (*forward checking*); the cheapest first, and of those the one that leaves the
scarcest player the most. It is complete: a seating is found when one exists, and None proves
there is none.

A question of the walk in ranking order (can these players sit together?) is the same question
over fewer tables: those that seat one of them seat them all (:func:`allowed`).
"""

from __future__ import annotations

import bisect
from collections.abc import Callable
from typing import Final

from engine.tournament.branching import SpentError
from engine.tournament.formats import TABLE_SIZE
from engine.tournament.masks import players_in, table_repeats
from engine.tournament.relaxation import Rule

__all__ = ["SHARE", "Cover", "allowed", "with_repeats"]

SHARE: Final = 5
"""The tables the search looks at for one unit of the seating's work (counting a table's players
costs less than the other units: measured on the bench's histories)."""

Tables = list[tuple[int, int]]
"""Tables as (their players as a mask, their repeats), the cheapest first."""


def with_repeats(rows: list[int], tables: list[int]) -> Tables:
    """``tables`` (masks) with their repeats by ``rows`` (each player's past tablemates as a
    mask), the cheapest first."""
    costed = [(table, table_repeats(rows, table)) for table in tables]
    costed.sort(key=_repeats_of)
    return costed


def allowed(tables: Tables, together: int, away: int, among: int) -> Tables:
    """The ``tables`` of seatings with the players of ``together`` at one table, none of
    ``away`` there and one of ``among`` (unless it is 0): branch and price's rule of the same
    question (:meth:`~engine.tournament.relaxation.Rule.question`)."""
    rule = Rule.question((together | away).bit_length(), together, away, among)
    return [(table, cost) for table, cost in tables if rule.allows(table)]


class Cover:
    """The exact cover's questions about one field's players, the answers remembered in the
    search's own records: ``failed`` (for a set of players, the largest allowance known to seat
    none) and ``seated`` (the smallest known to seat them, and that seating); ``spend`` counts
    the work against the search's limit."""

    def __init__(self, spend: Callable[[int], None], failed: dict[int, int],
                 seated: dict[int, tuple[int, list[tuple[int, ...]]]]) -> None:
        self.spend = spend
        self.failed = failed
        self.seated = seated
        self.spent = 0
        """The work of the question under way."""
        self.budget: int | None = None
        """The work the question under way may take."""

    def seating(self, players: int, tables: Tables, allowance: int, *, restricted: int = 0,
                budget: int | None = None) -> list[tuple[int, ...]] | None:
        """A seating of ``players`` within ``allowance`` made of ``tables`` (each within the
        allowance, the cheapest first), or None when there is none. ``restricted`` players'
        tables were chosen for the question (:func:`allowed`): answers for sets of players
        among whom they stand are not remembered. Past ``budget`` units of work, raises
        :class:`~engine.tournament.branching.SpentError`."""
        self.spent, self.budget = 0, budget
        return self._seating(players, tables, allowance, restricted, _tally(tables)[0])

    def _seating(self, players: int, tables: Tables, allowance: int, restricted: int,
                 counts: dict[int, int]) -> list[tuple[int, ...]] | None:
        """:meth:`seating` within the question under way (its budget is not reset), for
        ``players`` and their ``tables`` (``counts``: how many of them each player sits at);
        each option's rest of the tables is kept while the search tries it, so what one
        question holds is bounded by its budget (when it has one)."""
        if not players:
            return []
        remember = not players & restricted
        if remember:
            if self.failed.get(players, -1) >= allowance:
                return None
            known = self.seated.get(players)
            if known is not None and known[0] <= allowance:
                return known[1]
        self._look(len(tables))
        pivot = min(players_in(players), key=lambda n: (counts.get(n, 0), n))
        options: list[tuple[int, int, int, Tables, dict[int, int]]] = []
        for table, cost in tables:
            if table >> pivot & 1:
                left = allowance - cost
                within = bisect.bisect_right(tables, left, key=_repeats_of)
                self._look(within)
                rest = [(other, price) for other, price in tables[:within] if not other & table]
                rest_counts, cheapest = _tally(rest)
                scarcest, bound = _scarcity(rest_counts, cheapest, players & ~table)
                if scarcest and -(-bound // TABLE_SIZE) <= left:
                    options.append((cost, -scarcest, table, rest, rest_counts))
        options.sort(key=lambda option: option[:3])
        for cost, _scarcest, table, rest, rest_counts in options:
            found = self._seating(players & ~table, rest, allowance - cost, restricted,
                                  rest_counts)
            if found is not None:
                seating = sorted([tuple(players_in(table)), *found])
                if remember:
                    self.seated[players] = (allowance, seating)
                return seating
        if remember:
            self.failed[players] = max(self.failed.get(players, -1), allowance)
        return None

    def _look(self, tables: int) -> None:
        """Count the work of looking at ``tables`` tables."""
        work = tables // SHARE + 1
        self.spend(work)
        self.spent += work
        if self.budget is not None and self.spent > self.budget:
            raise SpentError


def _repeats_of(table: tuple[int, int]) -> int:
    """The repeats of a table given as (its players as a mask, its repeats)."""
    return table[1]


def _tally(tables: Tables) -> tuple[dict[int, int], dict[int, int]]:
    """For each player at one of ``tables`` (the cheapest first): how many he sits at, and the
    repeats of the cheapest of them."""
    counts: dict[int, int] = {}
    cheapest: dict[int, int] = {}
    for table, cost in tables:
        for number in players_in(table):
            counts[number] = counts.get(number, 0) + 1
            cheapest.setdefault(number, cost)
    return counts, cheapest


def _scarcity(counts: dict[int, int], cheapest: dict[int, int], players: int
              ) -> tuple[int, int]:
    """(the fewest tables any of ``players`` sits at, and the sum of their cheapest tables'
    repeats), by :func:`_tally`'s answer; 0 tables when one of them sits at none, 1 when
    ``players`` is empty."""
    numbers = players_in(players)
    if any(number not in counts for number in numbers):
        return 0, 0
    return min((counts[n] for n in numbers), default=1), sum(cheapest[n] for n in numbers)
