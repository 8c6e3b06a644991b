"""Random draws for the hot path: the exact draws of :class:`random.Random`, minus call overhead.

``random.Random.shuffle`` and ``randrange`` spend most of their time in two Python-level method
calls per number (``randrange`` -> ``_randbelow`` -> ``getrandbits``). These functions make the
same ``getrandbits`` calls in the same order (rejection sampling, as CPython does), so a seed
still deals, reshuffles and chooses exactly as before.
"""

from __future__ import annotations

import random
from typing import Final

__all__ = ["below", "shuffle"]

_getrandbits: Final = random.Random.getrandbits
"""The generator's own ``getrandbits`` (C), called unbound: no method lookup per draw. The
generators here are plain :class:`random.Random` objects made by the engine."""

_BITS: Final = tuple(n.bit_length() for n in range(257))
"""``n.bit_length()`` for the sizes the engine draws from (piles, hands), looked up instead of
computed by a method call per draw."""


def below(rng: random.Random, n: int) -> int:
    """``rng.randrange(n)`` for ``n >= 1``: a uniform integer in ``0 .. n-1``."""
    k = _BITS[n] if n <= 256 else n.bit_length()
    r = _getrandbits(rng, k)
    while r >= n:
        r = _getrandbits(rng, k)
    return r


def shuffle(rng: random.Random, cards: list[int]) -> None:
    """``rng.shuffle(cards)``: Fisher-Yates from the end, each swap index drawn by :func:`below`
    (a 112-card deal makes 111 draws)."""
    for i in range(len(cards) - 1, 0, -1):
        j = below(rng, i + 1)
        cards[i], cards[j] = cards[j], cards[i]
