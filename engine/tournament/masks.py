"""Sets of players as the bits of an integer, which the seating's search and its relaxation
share: a set is one ``int``, a meeting count one ``bit_count``."""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["players_in", "table_repeats"]


def players_in(mask: int) -> list[int]:
    """The players (bit numbers) in ``mask``, best (lowest) first.

    >>> players_in(0b10110)
    [1, 2, 4]
    """
    found = []
    while mask:
        low = mask & -mask
        mask ^= low
        found.append(low.bit_length() - 1)
    return found


def table_repeats(rows: Sequence[int], table: int) -> int:
    """The repeats at ``table`` (a mask): its pairs who met before, by ``rows`` (each player's
    past tablemates as a mask).

    >>> table_repeats([0b0110, 0b0001, 0b0001, 0], 0b1111)
    2
    """
    return sum((rows[n] & table).bit_count() for n in players_in(table)) // 2
