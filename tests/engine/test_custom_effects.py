"""Wild Customizable / Blank effects (issue 3 item 2): each preset of rules.md, and "no effect".

Seeds: 000_6d457ef12dd435d1.txt and 003_ea5f156088150643.txt (Wild Customizable, the list of
suggested house rules), 001_394bbb128c8815aa.txt (Blank cards, "wacky suggestions").
"""

from __future__ import annotations

import pytest

from engine.commands import PlayCard
from engine.events import CardsDiscarded, CardsDrawn, CustomEffectApplied
from engine.round import Round
from engine.rules import CustomEffect, RuleSet
from engine.state import Phase
from tests.engine.scenario import card, codes, top_code

R, Y, G, B = 0, 1, 2, 3


def play_custom(effect: CustomEffect, hands: list[list[str]], **position: object) -> Round:
    rules = RuleSet(custom_effect=effect)
    rnd = Round.from_position(rules, hands, discard=["R7"], **position)  # type: ignore[arg-type]
    rnd.apply(PlayCard(player=0, card=card(rnd, 0, "WC"), colour=G))
    return rnd


def test_next_player_draws_until_a_card_of_the_colour_seed_000() -> None:
    """000: "the next player must draw until they draw a card of a certain color"."""
    rnd = play_custom(
        CustomEffect.NEXT_DRAWS_UNTIL_COLOUR,
        [["WC", "R1"], ["B1"], ["Y1"]],
        draw=["Y3", "B4", "G6", "R8"],
    )
    assert codes(rnd, 1) == ["B1", "Y3", "B4", "G6"] and rnd.state.turn == 1


def test_everyone_else_discards_their_wilds_seed_000_001() -> None:
    """000 / 001: everyone but the player discards their wild cards (never their last card)."""
    rnd = play_custom(
        CustomEffect.OTHERS_DISCARD_WILDS,
        [["WC", "W", "R1"], ["W", "W+4", "B1"], ["WC"]],
    )
    assert codes(rnd, 0) == ["W", "R1"]
    assert codes(rnd, 1) == ["B1"] and codes(rnd, 2) == ["WC"]
    assert top_code(rnd) == "WC"
    assert sum(isinstance(e, CardsDiscarded) for e in rnd.events) == 1  # seat 1 only


def test_take_an_extra_turn_seed_000_001() -> None:
    """000 / 001: "take an extra turn"."""
    rnd = play_custom(CustomEffect.EXTRA_TURN, [["WC", "G1", "R1"], ["B1"], ["Y1"]])
    assert rnd.state.turn == 0 and rnd.state.phase is Phase.PLAY


@pytest.mark.parametrize(("size", "after"), [(3, 7), (9, 7)])
def test_next_player_draws_or_discards_to_exactly_seven_seed_000(size: int, after: int) -> None:
    """000: "the next player must draw or discard until they have exactly 7 cards"."""
    rnd = play_custom(
        CustomEffect.NEXT_TO_SEVEN,
        [["WC", "R1"], ["B1", *(f"Y{n}" for n in range(2, size + 1))], ["G1"]],
    )
    assert len(rnd.state.hands[1]) == after
    assert sorted(rnd.state.all_cards()) == list(range(len(rnd.deck)))


def test_everyone_to_exactly_three_seed_000() -> None:
    """000: "everyone must discard (or draw) until they have exactly 3 cards"."""
    rnd = play_custom(
        CustomEffect.EVERYONE_TO_THREE,
        [["WC", "R1"], ["B1", "B2", "B3", "B4", "B5"], ["Y1", "Y2", "Y3"]],
    )
    assert [len(h) for h in rnd.state.hands] == [3, 3, 3]
    assert codes(rnd, 1) == ["B1", "B2", "B3"]


def test_hands_face_up_until_the_players_next_turn_seed_000() -> None:
    """000: "everyone must play with their hand face up until your next turn"."""
    rnd = play_custom(CustomEffect.HANDS_FACE_UP, [["WC", "R1", "G5"], ["G1", "G2"], ["G3", "G4"]])
    assert rnd.state.face_up_until == 0
    rnd.apply(PlayCard(player=1, card=card(rnd, 1, "G1")))
    rnd.apply(PlayCard(player=2, card=card(rnd, 2, "G3")))
    assert rnd.state.turn == 0 and rnd.state.face_up_until is None


def test_no_effect_and_blank_cards_seed_001() -> None:
    """001: the Blank is the 2018 deck's customizable card; "no effect" makes it a plain Wild."""
    rules = RuleSet(deck="swap", custom_effect=CustomEffect.EXTRA_TURN)
    rnd = Round.from_position(rules, [["BL", "R1"], ["B1"], ["Y1"]], discard=["R7"])
    events = rnd.apply(PlayCard(player=0, card=card(rnd, 0, "BL"), colour=B))
    assert any(isinstance(e, CustomEffectApplied) for e in events) and rnd.state.turn == 0
    plain = Round.from_position(RuleSet(deck="swap"), [["BL", "R1"], ["B1"]], discard=["R7"])
    events = plain.apply(PlayCard(player=0, card=card(plain, 0, "BL"), colour=B))
    assert not any(isinstance(e, CustomEffectApplied) for e in events) and plain.state.turn == 1


def test_custom_effect_not_applied_when_it_is_the_last_card() -> None:
    rnd = play_custom(CustomEffect.EVERYONE_TO_THREE, [["WC"], ["B1"], ["Y1"]])
    assert rnd.over and rnd.state.went_out == 0


def test_discarded_wilds_go_under_the_card_on_top_and_are_announced_by_seat() -> None:
    """The wilds discarded slide under the Customizable on top (the colour to follow stays the
    one chosen), and the scoreboard is told whose cards they were."""
    rnd = play_custom(
        CustomEffect.OTHERS_DISCARD_WILDS,
        [["WC", "W", "R1"], ["B1", "W", "W+4"], ["G1"], ["Y1", "W"]],
    )
    below = [rnd.deck.cards[c].code for c in rnd.state.discard[-5:]]
    assert below == ["R7", "W", "W+4", "W", "WC"]
    assert (top_code(rnd), rnd.state.colour) == ("WC", G)
    discarded = [e for e in rnd.events if isinstance(e, CardsDiscarded)]
    assert [(e.player, [rnd.deck.cards[c].code for c in e.cards]) for e in discarded] == [
        (1, ["W", "W+4"]), (3, ["W"])]


@pytest.mark.parametrize(("effect", "seat", "size"), [
    (CustomEffect.NEXT_TO_SEVEN, 1, 7), (CustomEffect.EVERYONE_TO_THREE, 2, 3)])
def test_a_hand_already_at_the_size_neither_draws_nor_discards(
    effect: CustomEffect, seat: int, size: int
) -> None:
    hands = [["WC", "R1"], [f"B{n}" for n in range(1, 8)], ["Y1", "Y2", "Y3"]]
    if effect is CustomEffect.EVERYONE_TO_THREE:
        hands[1] = ["B1", "B2", "B3"]
    rnd = play_custom(effect, hands)
    assert len(rnd.state.hands[seat]) == size
    assert not any(isinstance(e, (CardsDrawn, CardsDiscarded)) and e.player == seat
                   for e in rnd.events)


def test_cards_drawn_to_the_size_say_the_custom_effect_made_them() -> None:
    rnd = play_custom(CustomEffect.NEXT_TO_SEVEN, [["WC", "R1"], ["B1", "B2"], ["G1"]],
                      draw=["Y3", "B4", "G6", "R8", "R9"])
    drawn = [e for e in rnd.events if isinstance(e, CardsDrawn)]
    assert [(e.player, len(e.cards), e.reason) for e in drawn] == [(1, 5, "custom")]


@pytest.mark.parametrize("effect", [e for e in CustomEffect if e is not CustomEffect.NONE])
def test_the_scoreboard_is_told_who_played_which_effect(effect: CustomEffect) -> None:
    rnd = play_custom(effect, [["WC", "R1", "R2"], ["B1"], ["Y1"]],
                      draw=["G3", "G4", "G5", "G6", "G7", "G8", "G9"])
    applied = [e for e in rnd.events if isinstance(e, CustomEffectApplied)]
    assert applied == [CustomEffectApplied(player=0, effect=str(effect))]


def test_cards_drawn_until_the_colour_say_the_custom_effect_made_them() -> None:
    rnd = play_custom(CustomEffect.NEXT_DRAWS_UNTIL_COLOUR, [["WC", "R1"], ["B1"], ["Y1"]],
                      draw=["Y3", "G6", "R8"])
    drawn = [e for e in rnd.events if isinstance(e, CardsDrawn)]
    assert [(e.player, len(e.cards), e.reason) for e in drawn] == [(1, 1, "custom")] * 2


def test_a_hand_of_wilds_only_discards_all_but_its_last_card() -> None:
    rnd = play_custom(CustomEffect.OTHERS_DISCARD_WILDS, [["WC", "R1"], ["W", "W+4", "W"], ["G1"]])
    assert codes(rnd, 1) == ["W"] and len(rnd.state.discard) == 4 and not rnd.over
