"""Places in a ranking where players level share one: the one rule a game's final standings and
the event's standings both number ties by, so a table and the event never disagree on a place.

Standard competition ranking ("1224"): players level on everything that ranks them share the
better place, and the next one's place counts everyone above them. Two tied for first are both
1st and the next is 3rd; nine players with the same pigs behind a winner are all 2nd.

>>> places([(-120,), (-80,), (-120,), (-40,)])
(1, 3, 1, 4)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, TypeVar

if TYPE_CHECKING:
    from _typeshed import SupportsRichComparison

__all__ = ["places"]

Key = TypeVar("Key", bound="SupportsRichComparison")


def places(keys: Sequence[Key]) -> tuple[int, ...]:
    """Each entry's place (1 for the best), from its ranking key, the smallest best: entries
    with equal keys share the better place. The entries may come in any order."""
    order = sorted(range(len(keys)), key=keys.__getitem__)
    found = [0] * len(keys)
    for index, entry in enumerate(order):
        above = order[index - 1]
        level = index > 0 and keys[above] == keys[entry]
        found[entry] = found[above] if level else index + 1
    return tuple(found)
