"""Each engine test starts with the per-rule-set card facts worked out afresh: a fact cached by an
earlier test (or at collection) would otherwise hide a mistake in working them out."""

from collections.abc import Iterator

import pytest

from engine import card_facts


@pytest.fixture(autouse=True)
def fresh_card_facts() -> Iterator[None]:
    card_facts._FACTS.clear()
    yield
