"""engine.rng makes the very draws of random.Random, so a seed deals and chooses as before."""

from __future__ import annotations

import random

from hypothesis import given
from hypothesis import strategies as st

from engine.rng import below, shuffle


@given(st.integers(0, 2**32), st.lists(st.integers(1, 200), min_size=1, max_size=20))
def test_below_draws_what_randrange_draws(seed: int, bounds: list[int]) -> None:
    ours, theirs = random.Random(seed), random.Random(seed)
    assert [below(ours, n) for n in bounds] == [theirs.randrange(n) for n in bounds]
    assert ours.getstate() == theirs.getstate()


@given(st.integers(0, 2**32), st.integers(0, 130))
def test_shuffle_deals_what_random_shuffle_deals(seed: int, size: int) -> None:
    ours, theirs = list(range(size)), list(range(size))
    a, b = random.Random(seed), random.Random(seed)
    shuffle(a, ours)
    b.shuffle(theirs)
    assert ours == theirs and a.getstate() == b.getstate()
