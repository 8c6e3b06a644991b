"""Random draws for the hot path: the exact draws of :class:`random.Random`, minus call overhead.

``random.Random.shuffle`` and ``randrange`` spend most of their time in two Python-level method
calls per number (``randrange`` -> ``_randbelow`` -> ``getrandbits``). These functions make the
same draws from the same Mersenne Twister words in the same order (rejection sampling, as
CPython does), so a seed still deals, reshuffles and chooses exactly as before, and leaves the
generator in the same state.
"""

from __future__ import annotations

import random
from _random import Random as _CRandom
from typing import Any, Final

__all__ = ["below", "chance", "generator", "shuffle"]

_getrandbits: Final = random.Random.getrandbits
"""The generator's own ``getrandbits`` (C), called unbound: no method lookup per draw. The
generators here are plain :class:`random.Random` objects made by the engine."""

_random: Final = random.Random.random
"""The generator's own ``random`` (C), called unbound, as :data:`_getrandbits`."""

_seed: Final = _CRandom.seed
"""The C seeding of ``_random.Random``, under the Python-level ``random.Random.seed``."""

_new: Final = random.Random.__new__

_BITS: Final = tuple(n.bit_length() for n in range(257))
"""``n.bit_length()`` for the sizes the engine draws from (piles, hands), looked up instead of
computed by a method call per draw."""

_BATCH: Final = 128
"""The most 32-bit words :func:`shuffle` asks the generator for at once."""

_FEW: Final = 8
"""Below this many swaps left, :func:`shuffle` draws word by word (a batch costs more)."""


def generator(seed: int) -> random.Random:
    """``random.Random(seed)`` for an int ``seed``: the same state, without running the
    Python-level ``__init__`` and ``seed`` (which, for an int, only call the C seeding and
    clear ``gauss_next``)."""
    rng = _new(random.Random)
    _seed(rng, seed)
    rng.gauss_next = None  # type: ignore[attr-defined]  # typeshed leaves it out
    return rng


def below(rng: random.Random, n: int) -> int:
    """``rng.randrange(n)`` for ``n >= 1``: a uniform integer in ``0 .. n-1``."""
    k = _BITS[n] if n <= 256 else n.bit_length()
    r = _getrandbits(rng, k)
    while r >= n:
        r = _getrandbits(rng, k)
    return r


def chance(rng: random.Random) -> float:
    """``rng.random()``: a float in [0, 1)."""
    return _random(rng)


def shuffle(rng: random.Random, cards: list[int]) -> None:
    """``rng.shuffle(cards)``: Fisher-Yates from the end, each swap index drawn as
    :func:`below` draws it, from the same generator words in the same order.

    ``getrandbits(k)`` for ``k <= 32`` is the generator's next 32-bit word shifted right by
    ``32 - k``, and ``getrandbits(32 * m)`` is its next ``m`` words, the first the least
    significant. Every swap left takes at least one word (more when a draw is rejected), so
    while many are left their words are fetched at once, never more than the swaps left, and
    read from the bytes (the top byte alone holds the ``k <= 8`` bits a pile of up to 255 cards
    draws); the last few swaps draw one word each with :func:`below`."""
    deck: list[Any] = cards  # moved as objects: no unboxing and boxing per swap
    i = len(cards) - 1
    while i >= _FEW:
        count = i if i < _BATCH else _BATCH
        data = _getrandbits(rng, 32 * count).to_bytes(4 * count, "little")
        for top in range(3, 4 * count, 4):  # the top byte of each word
            n = i + 1
            k = _BITS[n] if n <= 256 else n.bit_length()
            if k <= 8:
                r = data[top] >> (8 - k)
            else:
                word = data[top - 3] | data[top - 2] << 8 | data[top - 1] << 16 | data[top] << 24
                r = word >> (32 - k)
            if r < n:  # else rejected, as below() would: the next word draws again
                deck[i], deck[r] = deck[r], deck[i]
                i -= 1
    while i > 0:
        r = below(rng, i + 1)
        deck[i], deck[r] = deck[r], deck[i]
        i -= 1
