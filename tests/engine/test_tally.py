"""Tabletop round entry: points totals or cards tapped by kind, checked against the deck."""

from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.cards import CardKind
from engine.deck import builtin_deck
from engine.rules import RuleSet
from engine.scoring import RoundResult, Scoresheet, ScoringSettings
from engine.tally import (
    DeckValues,
    HandTally,
    TallyError,
    reachable_totals,
    round_result,
    tally_for,
    tally_round,
)

CLASSIC = DeckValues.of(builtin_deck("classic"))
K = CardKind


def test_classic_deck_values_follow_rules_md() -> None:
    assert CLASSIC.copies[K.ZERO] == 4 and CLASSIC.copies[K.SEVEN] == 8
    assert CLASSIC.values[K.DRAW_TWO] == 20 and CLASSIC.values[K.WILD_DRAW_FOUR] == 50
    assert CLASSIC.total_points == 1240  # 360 in numbers + 24 x 20 + 8 x 50


def test_seed_000_cards_tapped_by_kind_give_the_points() -> None:
    hands = {
        0: HandTally(cards={K.SEVEN: 2, K.WILD: 1, K.DRAW_TWO: 1}),  # 14 + 50 + 20
        2: HandTally(points=31),
        3: HandTally(points=20, cards={K.SKIP: 1}),
    }
    result = tally_round(CLASSIC, 1, hands, players=4)
    assert result == RoundResult(went_out=1, hand_points=(84, 0, 31, 20))
    sheet = Scoresheet(ScoringSettings(), 4)
    assert sheet.record(result).totals == (0, 135, 0, 0)


def test_total_and_cards_that_disagree_are_refused() -> None:
    hands = {1: HandTally(points=60, cards={K.WILD: 1, K.NINE: 1})}
    with pytest.raises(TallyError, match=r"seat 2 \(Bo\): the cards tapped are worth 59"):
        tally_round(CLASSIC, 0, hands, players=2, names=["Ann", "Bo"])


def test_agreed_values_come_from_the_rule_set() -> None:
    swap = DeckValues.of(builtin_deck("swap"), RuleSet(blank_value=25, swap_hands_value=30))
    hands = {1: HandTally(cards={K.BLANK: 2, K.WILD_SWAP_HANDS: 1})}
    assert tally_round(swap, 0, hands, players=2).hand_points == (0, 80)


@pytest.mark.parametrize(
    ("hands", "message"),
    [
        ({1: HandTally(points=-3)}, "seat 2: points cannot be negative"),
        ({1: HandTally(cards={K.WILD: 5})}, "holds 5 wild cards, but the deck has only 4"),
        ({1: HandTally(cards={K.ONE: -1, K.TWO: 2})}, "cannot hold -1 1 cards"),
        ({1: HandTally(cards={K.WILD_SHOWDOWN: 1})}, "this deck has no wild showdown cards"),
        ({1: HandTally(cards={})}, "holds no cards, but did not go out"),
        ({1: HandTally()}, "enter a points total or the cards"),
        ({1: HandTally(points=1241)}, "more than the cards not yet counted are worth"),
        ({}, "seat 2: enter a points total"),
        ({0: HandTally(points=5), 1: HandTally(points=5)}, "seat 1 went out"),
        ({1: HandTally(points=5), 3: HandTally(points=5)}, "seat 4 did not play"),
    ],
)
def test_impossible_entries_name_the_player_and_the_problem(
    hands: dict[int, HandTally[CardKind]], message: str
) -> None:
    with pytest.raises(TallyError, match=message):
        tally_round(CLASSIC, 0, hands, players=2)


def test_more_of_a_kind_across_hands_than_the_deck_holds() -> None:
    hands = {
        0: HandTally(cards={K.WILD_DRAW_FOUR: 3}),
        1: HandTally(cards={K.WILD_DRAW_FOUR: 2, K.ONE: 1}),
    }
    with pytest.raises(TallyError, match="seat 1, seat 2 hold 5 wild draw four cards between"):
        tally_round(CLASSIC, 2, hands, players=3)


def test_totals_must_be_makeable_from_the_cards_nobody_tapped() -> None:
    everything = {kind: CLASSIC.copies[kind] for kind in CLASSIC.copies if kind != K.NINE}
    hands = {0: HandTally(cards=everything), 1: HandTally(points=71)}  # only 9s remain
    with pytest.raises(
        TallyError, match="seat 2: no hand of the cards not yet counted adds up to 71"
    ):
        tally_round(CLASSIC, 2, hands, players=3)
    hands[1] = HandTally(points=72)
    assert tally_round(CLASSIC, 2, hands, players=3).hand_points[1] == 72
    hands = {0: HandTally(cards=everything), 1: HandTally(points=36), 3: HandTally(points=45)}
    with pytest.raises(TallyError, match="seat 2, seat 4: no cards left uncounted add up to 81"):
        tally_round(CLASSIC, 2, hands, players=4)


def test_zero_points_needs_a_zero_card() -> None:
    wilds_only = DeckValues(copies={"wild": 4, "skip": 8}, values={"wild": 50, "skip": 20})
    with pytest.raises(TallyError, match="adds up to 0"):
        tally_round(wilds_only, 0, {1: HandTally(points=0)}, players=2)
    with pytest.raises(TallyError, match="adds up to 30"):
        tally_round(wilds_only, 0, {1: HandTally(points=30)}, players=2)
    assert tally_round(CLASSIC, 0, {1: HandTally(points=0)}, players=2).hand_points == (0, 0)


def test_tally_for_a_challenge_sheet_skips_eliminated_seats() -> None:
    sheet = Scoresheet(ScoringSettings(mode="challenge", target=50), 3, names=["A", "B", "C"])
    sheet.record(RoundResult(went_out=0, hand_points=(0, 50, 10)))
    result = tally_for(sheet, CLASSIC, 2, {0: HandTally(points=12)})
    assert result.hand_points == (12, 0, 0)
    with pytest.raises(TallyError, match=r"seat 2 \(B\) did not play"):
        tally_for(sheet, CLASSIC, 2, {0: HandTally(points=12), 1: HandTally(points=3)})
    with pytest.raises(TallyError, match=r"seat 2 \(B\) is eliminated"):
        tally_for(sheet, CLASSIC, 1, {0: HandTally(points=12), 2: HandTally(points=3)})


# -- hypothesis: by kind and by total agree --------------------------------------------------

MODERN = DeckValues.of(builtin_deck("modern"))
POOL = [kind for kind, count in MODERN.copies.items() for _ in range(count)]


@st.composite
def dealt_hands(draw: st.DrawFn) -> list[dict[CardKind, int]]:
    """Up to five disjoint non-empty hands drawn from the modern deck."""
    cards = draw(st.permutations(POOL))
    sizes = draw(st.lists(st.integers(1, 20), min_size=1, max_size=5))
    hands, start = [], 0
    for size in sizes:
        hands.append(dict(Counter(cards[start : start + size])))
        start += size
    return hands


@given(dealt_hands(), st.data())
def test_tally_by_kind_and_by_total_agree(
    hands: list[dict[CardKind, int]], data: st.DataObject
) -> None:
    players = len(hands) + 1
    by_kind = {seat + 1: HandTally(cards=cards) for seat, cards in enumerate(hands)}
    totals = {seat: MODERN.points(entry.cards or {}) for seat, entry in by_kind.items()}
    by_total = {seat: HandTally[CardKind](points=total) for seat, total in totals.items()}
    both = {seat: HandTally(points=totals[seat], cards=hands[seat - 1]) for seat in totals}
    mixed = {
        seat: data.draw(st.sampled_from([by_kind[seat], by_total[seat], both[seat]]))
        for seat in totals
    }
    results = {
        tally_round(MODERN, 0, entries, players=players)
        for entries in (by_kind, by_total, both, mixed)
    }
    assert results == {RoundResult(went_out=0, hand_points=(0, *totals.values()))}


@given(st.integers(-5, 1500))
def test_a_single_total_is_accepted_exactly_when_some_hand_makes_it(total: int) -> None:
    reach = reachable_totals(CLASSIC.copies, CLASSIC.values)
    try:
        tally_round(CLASSIC, 0, {1: HandTally(points=total)}, players=2)
    except TallyError:
        assert total not in reach
    else:
        assert total in reach


def test_round_result_values_the_hands_the_engine_dealt() -> None:
    from engine.cards import parse_code

    hands = [
        [parse_code(code) for code in ("R7", "B+2", "W+4")],
        [],
        [parse_code(code) for code in ("BL", "G5*2")],  # the icon does not change the value
    ]
    result = round_result(1, hands, RuleSet(blank_value=10))
    assert result == RoundResult(went_out=1, hand_points=(77, 0, 15))


KINDS = sorted(CLASSIC.copies)
CLASSIC_POOL = [kind for kind, count in CLASSIC.copies.items() for _ in range(count)]
SLIPS = ["negative", "missing", "extra", "went-out", "no-such-seat", "disagree", "empty"]


@st.composite
def typed_rounds(draw: st.DrawFn) -> tuple[int, int, dict[int, HandTally[CardKind]], bool]:
    """A round as a scorekeeper types it: real hands entered one of three ways, sometimes with a
    slip. Returns players, who went out, the entries, and whether the entry is honest."""
    cards = draw(st.permutations(CLASSIC_POOL))  # hands dealt from one real deck
    players = draw(st.integers(2, 5))
    went_out = draw(st.integers(0, players - 1))
    entries: dict[int, HandTally[CardKind]] = {}
    for seat in range(players):
        if seat == went_out:
            continue
        size = draw(st.integers(1, 12))
        hand = dict(Counter(cards[:size]))
        cards = cards[size:]
        total = CLASSIC.points(hand)
        entries[seat] = draw(
            st.sampled_from(
                [
                    HandTally(cards=hand),
                    HandTally(points=total),
                    HandTally(points=total, cards=hand),
                ]
            )
        )
    slip = draw(st.none() | st.sampled_from(SLIPS))
    if slip is None:
        return players, went_out, entries, True
    seat = draw(st.sampled_from(sorted(entries)))
    if slip == "negative":
        entries[seat] = HandTally(points=draw(st.integers(-50, -1)))
    elif slip == "missing":
        del entries[seat]
    elif slip == "extra":
        entries[went_out] = HandTally(points=draw(st.integers(0, 50)))
    elif slip == "went-out":
        went_out = draw(st.sampled_from([-1, players]))
    elif slip == "no-such-seat":
        entries[draw(st.sampled_from([-1, players]))] = HandTally(points=5)
    elif slip == "disagree":
        wrong = draw(st.integers(0, 100).filter(lambda p: p != 7))
        entries[seat] = HandTally(points=wrong, cards={K.SEVEN: 1})
    else:
        entries[seat] = HandTally(cards={K.ONE: 0})
    return players, went_out, entries, False


@given(typed_rounds())
def test_honest_entries_are_accepted_and_slips_refused_with_a_message(
    typed: tuple[int, int, dict[int, HandTally[CardKind]], bool],
) -> None:
    players, went_out, entries, honest = typed
    try:
        result = tally_round(CLASSIC, went_out, entries, players=players)
    except TallyError as error:
        assert not honest and str(error)
        return
    assert honest
    assert result.went_out == went_out and result.hand_points[went_out] == 0
    for seat, entry in entries.items():
        if entry.cards is not None:
            assert result.hand_points[seat] == CLASSIC.points(entry.cards)
        if entry.points is not None:
            assert result.hand_points[seat] == entry.points
