"""What each card is worth and does under a round's rules (engine.card_facts): the agreed values
reach the round's points, and the facts, cached per deck and rule set, are never another deck's
or rule set's, and the cache stays bounded however many rounds are loaded."""

from __future__ import annotations

from engine import card_facts
from engine.card_facts import CardFacts
from engine.commands import PlayCard
from engine.deck import Deck, builtin_deck
from engine.events import RoundEnded
from engine.round import Round
from engine.rules import RuleSet
from tests.engine.scenario import card


def test_the_agreed_values_of_a_swap_hands_and_a_blank_count_at_the_round_end() -> None:
    """The values a table agrees for the cards the sheets give none (rules.md "Card values")
    are the ones a round's points count, not the defaults (40 each)."""
    rules = RuleSet(deck="swap", swap_hands_value=30, blank_value=25)
    rnd = Round.from_position(rules, [["R1"], ["WX", "BL", "G3"]], discard=["R7"])
    events = rnd.apply(PlayCard(player=0, card=card(rnd, 0, "R1")))
    assert [e for e in events if isinstance(e, RoundEnded)] == [
        RoundEnded(went_out=0, points=58, hand_points=(0, 58))]


def test_facts_left_under_a_reused_key_are_never_served() -> None:
    """The cache is keyed by the objects' ids; an entry found under the key of a deck and rule
    set but made for another deck, or another rule set (as when an id is reused), is worked out
    again rather than served."""
    deck, rules = builtin_deck("swap"), RuleSet(deck="swap", swap_hands_value=30)
    fresh = card_facts.card_facts(deck, rules)
    stale = CardFacts(values=(0,) * len(deck), draws=(0,) * len(deck), plain=(True,) * len(deck))
    key = (id(deck), id(rules))
    another_deck = Deck.from_codes("swap", deck.codes)
    for made_for in ((another_deck, rules), (deck, RuleSet(deck="swap"))):
        card_facts._FACTS[key] = (*made_for, stale)
        assert card_facts.card_facts(deck, rules) == fresh


def test_the_cache_holds_at_most_64_entries_however_many_rounds_are_loaded() -> None:
    """Each loaded round brings its own deck and rule set: a long-running service loading saved
    rounds keeps at most 64 of their facts."""
    saved = Round.from_position(RuleSet(), [["R1", "G2"], ["B1"]], discard=["R7"]).to_json()
    loaded = []
    for _ in range(70):
        loaded.append(Round.from_json(saved))
        assert len(card_facts._FACTS) <= 64
    assert len({id(rnd.rules) for rnd in loaded}) == 70
