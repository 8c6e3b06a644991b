"""Cards, decks and point values (rules.md "Decks" and "Card values")."""

from __future__ import annotations

import contextlib
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.cards import Card, CardKind, Colour, parse_code, point_value
from engine.deck import BUILTIN_DECKS, Deck, DeckError, builtin_deck
from engine.rules import PRESETS, RuleSet, UnknownPresetError, preset


def _kinds(name: str) -> Counter[CardKind]:
    return Counter(card.kind for card in builtin_deck(name).cards)


def test_classic_deck_has_108_cards_seed_002() -> None:
    """002_2cf2187f47789488.txt: per colour one 0, two of 1-9, two each action; 4+4 wilds."""
    deck = builtin_deck("classic")
    assert len(deck) == 108
    kinds = _kinds("classic")
    assert kinds[CardKind.ZERO] == 4 and kinds[CardKind.SEVEN] == 8
    assert kinds[CardKind.SKIP] == kinds[CardKind.REVERSE] == kinds[CardKind.DRAW_TWO] == 8
    assert kinds[CardKind.WILD] == kinds[CardKind.WILD_DRAW_FOUR] == 4


def test_modern_deck_seed_000() -> None:
    """000_6d457ef12dd435d1.txt: 112 = classic + 1 Wild Shuffle Hands + 3 Wild Customizable."""
    kinds = _kinds("modern")
    assert sum(kinds.values()) == 112
    assert kinds[CardKind.WILD_SHUFFLE_HANDS] == 1 and kinds[CardKind.WILD_CUSTOMIZABLE] == 3


def test_swap_deck_seed_001() -> None:
    """001_394bbb128c8815aa.txt: 112 = classic + 1 Wild Swap Hands + 3 Blank."""
    kinds = _kinds("swap")
    assert sum(kinds.values()) == 112
    assert kinds[CardKind.WILD_SWAP_HANDS] == 1 and kinds[CardKind.BLANK] == 3


def test_showdown_deck_seed_004() -> None:
    """004_9e61cbb47be309c5.txt + seeds/README: 4 Wild Showdown, 20 icon cards (5 per colour)."""
    deck = builtin_deck("showdown")
    assert len(deck) == 112
    assert _kinds("showdown")[CardKind.WILD_SHOWDOWN] == 4
    icons = [card for card in deck.cards if card.icon]
    assert len(icons) == 20
    assert Counter(card.colour for card in icons) == {colour: 5 for colour in Colour}
    assert all(1 <= card.icon <= 3 and card.kind.is_number for card in icons)


def test_two_identical_faces_are_distinct_cards() -> None:
    """rules.md: card identity is unique even where two physical cards look the same."""
    deck = builtin_deck("classic")
    red_sevens = [i for i, card in enumerate(deck.cards) if card.code == "R7"]
    assert len(red_sevens) == 2 and red_sevens[0] != red_sevens[1]


def test_point_values_rules_md_card_values() -> None:
    """rules.md "Card values" (000 scoring table, 001 "?" for Blank)."""
    assert point_value(CardKind.SEVEN) == 7
    assert point_value(CardKind.DRAW_TWO) == point_value(CardKind.SKIP) == 20
    assert point_value(CardKind.WILD_DRAW_FOUR) == point_value(CardKind.WILD) == 50
    assert point_value(CardKind.WILD_SHUFFLE_HANDS) == 40
    assert point_value(CardKind.WILD_CUSTOMIZABLE) == 40
    assert point_value(CardKind.BLANK) == 40
    assert point_value(CardKind.WILD_SWAP_HANDS) == 40
    assert point_value(CardKind.WILD_SHOWDOWN) == 50
    agreed = RuleSet(blank_value=25, swap_hands_value=30, wild_showdown_value=45)
    assert point_value(CardKind.BLANK, agreed) == 25
    assert point_value(CardKind.WILD_SWAP_HANDS, agreed) == 30
    assert point_value(CardKind.WILD_SHOWDOWN, agreed) == 45


def test_icon_does_not_change_value() -> None:
    """rules.md: a Showdown icon does not change a number card's value."""
    assert point_value(parse_code("G5*3").kind) == 5


@pytest.mark.parametrize("name", BUILTIN_DECKS)
def test_deck_codes_round_trip(name: str) -> None:
    deck = builtin_deck(name)
    assert Deck.from_codes(name, deck.codes).cards == deck.cards


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("{", "not valid JSON"),
        ('{"name": "x", "cards": [{"code": "Q7", "count": 2}]}', "colour letter"),
        ('{"name": "x", "cards": [{"code": "R7*5", "count": 1}]}', "1, 2 or 3"),
        ('{"name": "x", "cards": [{"code": "W*1", "count": 1}]}', "only coloured"),
        ('{"name": "x", "cards": [{"code": "R7", "count": 0}]}', "cards.0.count"),
        ('{"name": "x", "cards": [{"code": "R7", "count": 2}]}', "too few"),
        (
            '{"name": "x", "cards": [{"code": "W", "count": 20}, {"code": "W+4", "count": 20},'
            ' {"code": "WX", "count": 20}]}',
            "coloured",
        ),
        ('{"name": "x", "cards": [], "extra": 1}', "cards"),
    ],
)
def test_bad_user_deck_file_gives_clear_error(text: str, fragment: str) -> None:
    with pytest.raises(DeckError, match=fragment.replace("*", r"\*").replace("+", r"\+")):
        Deck.from_json(text, source="my.json")


@given(st.text(max_size=60))
def test_deck_parser_never_crashes_on_junk(text: str) -> None:
    with contextlib.suppress(DeckError):
        Deck.from_json(text)


@given(st.text(max_size=8))
def test_card_code_parser_round_trips_or_refuses(code: str) -> None:
    try:
        card = parse_code(code)
    except ValueError:
        return
    assert parse_code(card.code) == card
    assert isinstance(card, Card)


def test_presets_by_name_issue_3_item_6() -> None:
    assert preset("official").deck == "modern"
    assert preset("edition-2018").uno_penalty == 4
    assert preset("edition-2018").first_wild == "return"
    assert preset("edition-2018").deck == "swap"
    assert preset("showdown").deck == "showdown"
    assert preset("party").stacking and preset("party").draw == "until-playable"
    assert set(PRESETS) >= {"official", "edition-2018", "showdown", "party"}
    with pytest.raises(UnknownPresetError, match="official"):
        preset("nope")
