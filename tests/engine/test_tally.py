"""Tabletop round entry: points totals or cards tapped by kind, checked against the deck."""

import re
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


# -- the words of each refusal, as the scoreboard shows them -------------------------------

NAMES = ("Ada", "Bo", "Cy", "Di", "Ed")
EVERY_CARD_BUT_NINES: dict[CardKind, int] = {
    kind: CLASSIC.copies[kind] for kind in CLASSIC.copies if kind != K.NINE
}


def refusal(
    went_out: int,
    hands: dict[int, HandTally[CardKind]],
    *,
    players: int = 3,
    seats: tuple[int, ...] | None = None,
) -> str:
    """The words of the refusal ``tally_round`` gives (seats named as in :data:`NAMES`)."""
    with pytest.raises(TallyError) as caught:
        tally_round(CLASSIC, went_out, hands, players=players, seats=seats,
                    names=NAMES[:players])
    return str(caught.value)


@pytest.mark.parametrize(
    ("hands", "words"),
    [
        ({0: HandTally(points=-3), 2: HandTally(points=5)},
         "seat 1 (Ada): points cannot be negative (-3)"),
        ({0: HandTally(), 2: HandTally(points=5)},
         "seat 1 (Ada): enter a points total or the cards they hold"),
        ({2: HandTally(points=5)}, "seat 1 (Ada): enter a points total or the cards they hold"),
        ({0: HandTally(cards={K.WILD: 5}), 2: HandTally(points=5)},
         "seat 1 (Ada): holds 5 wild cards, but the deck has only 4"),
        ({0: HandTally(cards={K.ONE: -1, K.TWO: 2}), 2: HandTally(points=5)},
         "seat 1 (Ada): cannot hold -1 1 cards"),
        ({0: HandTally(cards={K.WILD_SHOWDOWN: 1}), 2: HandTally(points=5)},
         "seat 1 (Ada): this deck has no wild showdown cards"),
        ({0: HandTally(cards={}), 2: HandTally(points=5)},
         "seat 1 (Ada): holds no cards, but did not go out"),
        ({0: HandTally(cards={K.ONE: 0}), 2: HandTally(points=5)},  # tapped, then untapped
         "seat 1 (Ada): holds no cards, but did not go out"),
        ({0: HandTally(points=60, cards={K.WILD: 1, K.NINE: 1}), 2: HandTally(points=5)},
         "seat 1 (Ada): the cards tapped are worth 59, but the total says 60"),
        ({0: HandTally(points=1241), 2: HandTally(points=0)},
         "seat 1 (Ada): 1241 points is more than the cards not yet counted are worth (1240)"),
        ({0: HandTally(points=5), 1: HandTally(points=0), 2: HandTally(points=5)},
         "seat 2 (Bo) went out and holds no cards: enter nothing for them"),
        ({0: HandTally(cards=EVERY_CARD_BUT_NINES), 2: HandTally(points=71)},
         "seat 3 (Cy): no hand of the cards not yet counted adds up to 71"),
    ],
)
def test_each_refusal_names_the_seat_as_players_count_it_and_says_what_is_wrong(
    hands: dict[int, HandTally[CardKind]], words: str
) -> None:
    assert refusal(1, hands) == words


def test_a_total_too_large_is_measured_against_the_cards_not_yet_tapped() -> None:
    hands = {0: HandTally(cards={K.WILD_DRAW_FOUR: 4}), 2: HandTally(points=1041)}
    assert refusal(1, hands) == (
        "seat 3 (Cy): 1041 points is more than the cards not yet counted are worth (1040)")
    hands[2] = HandTally(points=1040)  # every card left, all in one hand
    assert tally_round(CLASSIC, 1, hands, players=3).hand_points == (200, 0, 1040)


def test_totals_must_be_makeable_from_the_cards_nobody_tapped() -> None:
    hands: dict[int, HandTally[CardKind]] = {
        0: HandTally(cards=EVERY_CARD_BUT_NINES), 2: HandTally(points=72)}  # only 9s remain
    tapped = CLASSIC.total_points - 72
    assert tally_round(CLASSIC, 1, hands, players=3).hand_points == (tapped, 0, 72)
    hands = {0: HandTally(cards=EVERY_CARD_BUT_NINES), 2: HandTally(points=36),
             3: HandTally(points=45)}  # four 9s and five 9s: only eight are left
    assert refusal(1, hands, players=4) == (
        "seat 3 (Cy), seat 4 (Di): no cards left uncounted add up to 81 points together")
    hands[3] = HandTally(points=36)
    assert tally_round(CLASSIC, 1, hands, players=4).hand_points == (tapped, 0, 36, 36)


def test_too_many_of_a_kind_between_hands_names_only_the_hands_holding_it() -> None:
    hands = {
        0: HandTally(cards={K.WILD_DRAW_FOUR: 3}),
        2: HandTally(cards={K.ONE: 1}),  # cards tapped, none of them a Wild Draw 4
        3: HandTally(points=10),  # a total only
        4: HandTally(cards={K.WILD_DRAW_FOUR: 2, K.ONE: 1}),
    }
    assert refusal(1, hands, players=5) == (
        "seat 1 (Ada), seat 5 (Ed) hold 5 wild draw four cards between them, "
        "but the deck has only 4")


def test_a_seat_in_the_hand_but_not_at_the_table_is_refused_by_name() -> None:
    hands: dict[int, HandTally[CardKind]] = {0: HandTally(points=5), 2: HandTally(points=5)}
    assert refusal(1, hands, seats=(1, 2)) == "seat 1 (Ada) did not play this hand"


def test_seats_beyond_the_table_are_refused_not_scored() -> None:
    """A caller's seats naming a seat the game lacks: refused in words, never an IndexError or a
    result with a seat that does not exist."""
    with pytest.raises(TallyError) as caught:
        tally_round(CLASSIC, 2, {0: HandTally(points=5), 1: HandTally(points=5)}, players=2,
                    seats=(0, 1, 2))
    assert str(caught.value) == "seat 3 did not play this hand, so cannot have gone out"
    with pytest.raises(TallyError) as caught:
        tally_round(CLASSIC, 0, {1: HandTally(points=5), 2: HandTally(points=5)}, players=2,
                    seats=(0, 1, 2))
    assert str(caught.value) == "seat 3 did not play this hand"


def test_kinds_counted_zero_times_are_no_cards() -> None:
    """A kind tapped and untapped again stays in the entry with a count of 0."""
    hands = {1: HandTally(cards={K.SEVEN: 0, K.ONE: 1}), 2: HandTally(cards={K.WILD: 0, K.TWO: 2})}
    assert tally_round(CLASSIC, 0, hands, players=3).hand_points == (0, 1, 4)


# -- the deck's description ----------------------------------------------------------------


def test_a_deck_description_needs_copies_and_a_value_for_every_kind() -> None:
    with pytest.raises(ValueError) as caught:
        DeckValues(copies={"wild": 4}, values={"wild": 50, "skip": 20})
    assert str(caught.value) == "every kind needs both a number of copies and a value"


@pytest.mark.parametrize(
    ("copies", "values", "words"),
    [
        ({"wild": -1}, {"wild": 50}, "wild: copies and value cannot be negative"),
        ({"wild": 4}, {"wild": -50}, "wild: copies and value cannot be negative"),
        ({K.DRAW_TWO: -8}, {K.DRAW_TWO: 20}, "draw two: copies and value cannot be negative"),
    ],
)
def test_a_deck_description_with_a_negative_count_or_value_is_refused(
    copies: dict[object, int], values: dict[object, int], words: str
) -> None:
    with pytest.raises(ValueError) as caught:
        DeckValues(copies=copies, values=values)
    assert str(caught.value) == words


def test_a_kind_the_deck_holds_no_copy_of_counts_nothing_and_cannot_be_held() -> None:
    no_wilds = DeckValues(copies={"wild": 0, "skip": 8}, values={"wild": 50, "skip": 20})
    assert no_wilds.total_points == 160
    assert tally_round(no_wilds, 0, {1: HandTally(cards={"skip": 2})}, players=2).hand_points == (
        0, 40)
    with pytest.raises(TallyError) as caught:
        tally_round(no_wilds, 0, {1: HandTally(cards={"wild": 1})}, players=2, names=NAMES[:2])
    assert str(caught.value) == "seat 2 (Bo): holds 1 wild cards, but the deck has only 0"


def test_kinds_named_by_the_scoreboard_read_as_they_were_tapped() -> None:
    """The game session taps kinds by name ("draw-two"): messages say the name."""
    tapped = DeckValues(copies={"draw-two": 8, "7": 8}, values={"draw-two": 20, "7": 7})
    with pytest.raises(TallyError) as caught:
        tally_round(tapped, 0, {1: HandTally(cards={"joker": 1})}, players=2)
    assert str(caught.value) == "seat 2: this deck has no joker cards"
    with pytest.raises(TallyError) as caught:
        tally_round(tapped, 0, {1: HandTally(cards={"draw-two": 5}), 2: HandTally(
            cards={"draw-two": 4})}, players=3)
    assert str(caught.value) == (
        "seat 2, seat 3 hold 9 draw-two cards between them, but the deck has only 8")


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
def typed_rounds(
    draw: st.DrawFn,
) -> tuple[int, int, dict[int, HandTally[CardKind]], int | None]:
    """A round as a scorekeeper types it: real hands entered one of three ways, sometimes with a
    slip. Returns players, who went out, the entries, and the seat at fault (None: honest)."""
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
        return players, went_out, entries, None
    seat = draw(st.sampled_from(sorted(entries)))
    if slip == "negative":
        entries[seat] = HandTally(points=draw(st.integers(-50, -1)))
    elif slip == "missing":
        del entries[seat]
    elif slip == "extra":
        seat = went_out
        entries[seat] = HandTally(points=draw(st.integers(0, 50)))
    elif slip == "went-out":
        went_out = seat = draw(st.sampled_from([-1, players]))
    elif slip == "no-such-seat":
        seat = draw(st.sampled_from([-1, players]))
        entries[seat] = HandTally(points=5)
    elif slip == "disagree":
        wrong = draw(st.integers(0, 100).filter(lambda p: p != 7))
        entries[seat] = HandTally(points=wrong, cards={K.SEVEN: 1})
    else:
        entries[seat] = HandTally(cards={K.ONE: 0})
    return players, went_out, entries, seat


@given(typed_rounds())
def test_honest_entries_are_accepted_and_slips_refused_naming_the_seat_at_fault(
    typed: tuple[int, int, dict[int, HandTally[CardKind]], int | None],
) -> None:
    players, went_out, entries, at_fault = typed
    names = NAMES[:players]
    try:
        result = tally_round(CLASSIC, went_out, entries, players=players, names=names)
    except TallyError as error:
        assert at_fault is not None
        # counted from 1 as at the table, with the player's name where the seat has one
        who = f"seat {at_fault + 1}" + (f" ({names[at_fault]})" if at_fault in range(players)
                                        else "")
        assert re.match(re.escape(who) + "[: ]", str(error)), (who, str(error))
        return
    assert at_fault is None
    assert result.went_out == went_out and result.hand_points[went_out] == 0
    for seat, entry in entries.items():
        if entry.cards is not None:
            assert result.hand_points[seat] == CLASSIC.points(entry.cards)
        if entry.points is not None:
            assert result.hand_points[seat] == entry.points
