"""Seating a Swiss round of four-player tables from the standings.

The players are taken best first. Byes go first, to the lowest-ranked of those who have had
the fewest byes, when the count does not fill the tables. The rest are seated table by table:
each table starts with the best player still standing and takes the next best who have not met
anyone already at it. Where no such seating exists, the search allows one repeated meeting, then
two, and so on: players who met are kept apart while that is possible, and as little as possible
after. The search is bounded (:data:`SEARCH_LIMIT` steps per allowance), so a large field is
seated in a blink; past the bound it tries the next allowance.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Final

__all__ = ["SEARCH_LIMIT", "repeats", "swiss_tables"]

SEARCH_LIMIT: Final = 20_000
"""Steps the search may take for one allowance of repeated meetings."""


def repeats(table: Sequence[str], met: Mapping[str, frozenset[str]]) -> int:
    """How many pairs at ``table`` have met before."""
    return sum(1 for i, a in enumerate(table) for b in table[i + 1:] if b in met.get(a, ()))


def swiss_tables(
    ranking: Sequence[str],
    met: Mapping[str, frozenset[str]],
    byes_had: Mapping[str, int],
    tables: int,
    size: int = 4,
) -> tuple[tuple[tuple[str, ...], ...], tuple[str, ...]]:
    """(the tables in order, each best player first; the players with a bye).

    ``ranking`` is every player best first; at most ``tables`` tables of ``size`` are filled.

    >>> swiss_tables(list("ABCDEFGHI"), {"A": frozenset("B"), "B": frozenset("A")}, {}, 2)
    ((('A', 'C', 'D', 'E'), ('B', 'F', 'G', 'H')), ('I',))
    """
    seated = min(tables, len(ranking) // size) * size
    order = {name: index for index, name in enumerate(ranking)}
    by_need = sorted(ranking, key=lambda name: (byes_had.get(name, 0), -order[name]))
    byes = tuple(sorted(by_need[: len(ranking) - seated], key=order.__getitem__))
    playing = [name for name in ranking if name not in byes]
    allowance = 0
    while True:
        found = _search(playing, met, size, allowance)
        if found is not None:
            return tuple(found), byes
        allowance += 1


def _search(
    players: list[str], met: Mapping[str, frozenset[str]], size: int, allowance: int
) -> list[tuple[str, ...]] | None:
    """Tables with at most ``allowance`` repeated meetings in all, the first found in ranking
    order; None when there is none (or the search ran out of steps)."""
    steps = 0
    worst = (len(players) // size) * size * (size - 1) // 2  # every pair at every table

    def fill(left: list[str], budget: int) -> list[tuple[str, ...]] | None:
        nonlocal steps
        if not left:
            return []
        first, rest = left[0], left[1:]

        def extend(table: list[str], start: int, spent: int) -> list[tuple[str, ...]] | None:
            nonlocal steps
            steps += 1
            if steps > SEARCH_LIMIT:
                return None
            if len(table) == size:
                remaining = [name for name in rest if name not in table]
                later = fill(remaining, budget - spent)
                return None if later is None else [tuple(table), *later]
            for index in range(start, len(rest)):
                name = rest[index]
                cost = sum(1 for other in table if name in met.get(other, ()))
                if spent + cost > budget:
                    continue
                found = extend([*table, name], index + 1, spent + cost)
                if found is not None:
                    return found
                if steps > SEARCH_LIMIT:
                    return None
            return None

        return extend([first], 0, 0)

    found = fill(players, allowance)
    if found is None and allowance >= worst:  # the bound was hit every time: seat in order
        return [tuple(players[i:i + size]) for i in range(0, len(players), size)]
    return found
