"""Sets of players as the bits of an integer, which the seating's search and its relaxation
share: a set is one ``int``, a meeting count one ``bit_count``."""

from __future__ import annotations

__all__ = ["players_in"]


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
