"""engine.rng makes the very draws of random.Random, so a seed deals and chooses as before."""

from __future__ import annotations

import random

from hypothesis import given
from hypothesis import strategies as st

from engine.rng import below, chance, generator, shuffle


@given(st.integers(0, 2**32), st.lists(st.integers(1, 200), min_size=1, max_size=20))
def test_below_draws_what_randrange_draws(seed: int, bounds: list[int]) -> None:
    ours, theirs = random.Random(seed), random.Random(seed)
    assert [below(ours, n) for n in bounds] == [theirs.randrange(n) for n in bounds]
    assert ours.getstate() == theirs.getstate()


@given(st.integers(0, 2**32), st.integers(0, 300))
def test_shuffle_deals_what_random_shuffle_deals(seed: int, size: int) -> None:
    # Up to 300 cards: the batches of 128 words and the piles over 255 cards (k > 8 bits).
    ours, theirs = list(range(size)), list(range(size))
    a, b = random.Random(seed), random.Random(seed)
    shuffle(a, ours)
    b.shuffle(theirs)
    assert ours == theirs and a.getstate() == b.getstate()


@given(st.integers(-(2**70), 2**70))
def test_generator_is_random_random_seeded(seed: int) -> None:
    ours, theirs = generator(seed), random.Random(seed)
    assert type(ours) is random.Random
    assert ours.getstate() == theirs.getstate()
    assert [chance(ours) for _ in range(3)] == [theirs.random() for _ in range(3)]
    assert ours.gauss(0, 1) == theirs.gauss(0, 1)
