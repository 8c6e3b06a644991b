"""Whether a set of players can be seated within an allowance of repeats, answered exactly where
the relaxation's bound alone leaves it open: *branch and price*.

The relaxation (:mod:`engine.tournament.relaxation`) proves no seating exists when its bound is
above the allowance, and gives one when its answer is a whole seating. Between the two its answer
is fractional: some pair of players shares tables for a fraction of a seat. The question then
splits in two on such a pair (the most nearly half shared): seatings where the two sit together,
and seatings where they sit apart (Ryan and Foster's rule). Every seating is in exactly one of
the two, so the answer is complete; each half is the same programme over the tables its rule
allows, its tables found by the same search for a negative reduced cost, kept to those tables.
A half whose bound is above the allowance is closed; the halves where the pair sits together are
tried first, since a seating is most often found there.

One programme serves every question about one set of players: a question's rule only prices
the tables it leaves out as dearly as an artificial, so the basis of the last question is the
start of the next (a few pivots, where a fresh start costs a pivot per player). The walk in
ranking order (:mod:`engine.tournament.swiss`) asks in turn whether the best players can sit
together at all; each such question is one of these.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from typing import Final

from engine.tournament.formats import TABLE_SIZE
from engine.tournament.masks import players_in
from engine.tournament.relaxation import TINY, Master, Rule, priced, priced_bound, sides, whole

__all__ = ["Branching", "SpentError"]

_HALF: Final = 0.5
"""The share of a seat the pair to split on comes nearest."""


class SpentError(Exception):
    """The question reached its budget of work before it was answered."""


class Branching:
    """Questions about seating one set of players (``players``, a mask; ``rows`` each player's
    past tablemates, as masks) within an allowance, sharing one programme. ``start`` is a
    seating of them (any: it starts the programme), ``pool`` the tables earlier questions found
    useful (among any players; those found here join it), ``spend`` is told the work done."""

    def __init__(self, rows: Sequence[int], players: int, start: Sequence[Sequence[int]],
                 pool: set[int], spend: Callable[[int], None]) -> None:
        self.rows = rows
        self.players = players
        self.pool = pool
        self.numbers = players_in(players)
        self.tables = players.bit_count() // TABLE_SIZE
        self.prices: dict[int, float] = {}
        """The last prices found, each player's: a guess to start a like question from."""
        self._spend = spend
        self._budget: int | None = None
        self._done = 0
        self._among = (0, 0)
        """The question's (``together``, ``among``): see :meth:`seating`."""
        self._split_allowed = True
        self.master = Master(rows, players, start, self._counted)
        self.master.offer(table for table in pool if not table & ~players)
        spend(len(pool) // 20 + 1)

    def _counted(self, work: int) -> None:
        """Count ``work`` (raising :class:`SpentError` past the question's budget)."""
        self._spend(work)
        self._done += work
        if self._budget is not None and self._done > self._budget:
            raise SpentError

    def seating(self, allowance: int, *, together: int = 0, away: int = 0, among: int = 0,
                budget: int | None = None, guess: Mapping[int, float] | None = None,
                branch: bool = True) -> list[tuple[int, ...]] | None:
        """A seating of the players within ``allowance`` repeats in which the players of
        ``together`` (a mask) share one table that none of ``away`` sits at and, unless
        ``among`` is 0, one of ``among`` does; None when there is none. Past ``budget`` work
        it raises :class:`SpentError` (the question is open). ``guess`` holds prices from a
        like question: when their bound already closes the question no programme is solved
        at all. Without ``branch`` only the programme itself is solved: a fractional answer
        leaves the question open (:class:`SpentError`), which costs far less than to split it
        where seatings are many."""
        joined, apart = sides(len(self.rows), together, away)
        self._budget, self._done = budget, 0
        self._among = (together, among)
        self._split_allowed = branch
        if guess is not None and priced_bound(self.rows, self.players, guess, self._counted,
                                              rule=Rule.of(joined, apart, *self._among)
                                              ) > allowance:
            return None
        return self._branch(allowance, joined, apart)

    def _branch(self, allowance: int, joined: list[int], apart: list[int]
                ) -> list[tuple[int, ...]] | None:
        """A seating within ``allowance`` that keeps the rule of ``joined`` and ``apart`` (see
        :class:`~engine.tournament.relaxation.Rule`), or None when none does."""
        rule = (Rule.of(joined, apart, *self._among)
                if any(joined) or any(apart) or self._among[1] else None)
        master = self.master
        master.restrict(rule)
        best = -math.inf
        while True:
            local = master.solve()
            prices = {number: local[master.row_of[number]] for number in self.numbers}
            self.prices = prices
            lowest, found = priced(self.rows, self.players, prices, 2 * len(self.numbers),
                                   self._counted, rule=rule)
            best = max(best, sum(local) + self.tables * lowest)
            if whole(best) > allowance:
                return None
            fresh = master.offer(found)
            if not fresh:
                break
            self.pool.update(fresh)
        seating = master.seating()
        if seating is not None:
            return seating
        split = self._split() if self._split_allowed else None
        if split is None:  # a fractional answer always has such a pair
            raise SpentError
        a, b = split
        # together: the two and all who must sit with either form one group, apart from all
        # that either must be apart from
        group = joined[a] | joined[b] | 1 << a | 1 << b
        shunned = 0
        for number in players_in(group):
            shunned |= apart[number]
        if group.bit_count() <= TABLE_SIZE and not group & shunned:
            closer, further = joined.copy(), apart.copy()
            for number in players_in(group):
                closer[number] = group & ~(1 << number)
                further[number] = shunned
            for number in players_in(shunned):
                further[number] |= group
            found_together = self._branch(allowance, closer, further)
            if found_together is not None:
                return found_together
        # apart: no one of either's group at a table with one of the other's
        group_a, group_b = joined[a] | 1 << a, joined[b] | 1 << b
        further = apart.copy()
        for number in players_in(group_a):
            further[number] |= group_b
        for number in players_in(group_b):
            further[number] |= group_a
        return self._branch(allowance, joined, further)

    def _split(self) -> tuple[int, int] | None:
        """The pair whose share of a table in the programme's answer is the nearest half (None
        when no pair has a share strictly between none and one)."""
        shares: dict[tuple[int, int], float] = {}
        for table, value in self.master.answer():
            seated = players_in(table)
            for i, a in enumerate(seated):
                for b in seated[i + 1:]:
                    shares[a, b] = shares.get((a, b), 0.0) + value
        split = [pair for pair, share in shares.items() if TINY < share < 1 - TINY]
        return min(split, key=lambda pair: (abs(shares[pair] - _HALF), pair)) if split else None
