"""What the scoreboard is told: the events name who played a card, whom it hit and how many cards
each hand holds after it (the scoreboard draws the hands from them), who said UNO, who was
penalised for what."""

from __future__ import annotations

import pytest

from engine.commands import CallUno, ChooseOpening, Penalty, PlayCard
from engine.deck import builtin_deck
from engine.events import CardsDrawn, HandsShuffled, HandsSwapped, PenaltyGiven, UnoCalled
from engine.round import Round, RoundSetup
from engine.rules import PenaltyReason, RuleSet, preset
from tests.engine.scenario import card, codes, deck_order, refused

R, Y, G, B = 0, 1, 2, 3
SWAP = RuleSet(deck="swap")


def test_a_swap_hands_played_names_both_players() -> None:
    rnd = Round.from_position(SWAP, [["WX", "G1"], ["B1", "B2", "B3"], ["Y1"]], discard=["R7"])
    events = rnd.apply(PlayCard(player=0, card=card(rnd, 0, "WX"), colour=B, target=2))
    assert [e for e in events if isinstance(e, HandsSwapped)] == [HandsSwapped(player=0, target=2)]
    assert (codes(rnd, 0), codes(rnd, 2)) == (["Y1"], ["G1"])


def test_a_swap_hands_turned_up_names_both_players() -> None:
    rnd = Round.new(SWAP, RoundSetup(players=3, deck_order=deck_order(builtin_deck("swap"),
                                                                       {21: "WX"})))
    before = [list(h) for h in rnd.state.hands]
    events = rnd.apply(ChooseOpening(player=1, colour=G, target=0))
    assert [e for e in events if isinstance(e, HandsSwapped)] == [HandsSwapped(player=1, target=0)]
    assert (rnd.state.hands[1], rnd.state.hands[0]) == (before[0], before[1])


def test_a_shuffle_hands_names_its_player_and_the_sizes_dealt() -> None:
    """Five cards (the two held by the player after playing, three and one) dealt one at a time
    from the left of the player: seat 1 gets 2, seat 2 gets 2, seat 0 gets 1."""
    rnd = Round.from_position(RuleSet(), [["WSH", "G1", "G2"], ["B1", "B2"], ["Y1"]],
                              discard=["R7"])
    events = rnd.apply(PlayCard(player=0, card=card(rnd, 0, "WSH"), colour=Y))
    assert [e for e in events if isinstance(e, HandsShuffled)] == [
        HandsShuffled(player=0, sizes=(1, 2, 2))]
    assert [len(h) for h in rnd.state.hands] == [1, 2, 2]


def test_uno_said_with_the_next_to_last_card_is_announced_once() -> None:
    rnd = Round.from_position(RuleSet(), [["R1", "G2"], ["B1", "B2"], ["Y1"]], discard=["R7"])
    events = rnd.apply(PlayCard(player=0, card=card(rnd, 0, "R1"), uno=True))
    assert [e for e in events if isinstance(e, UnoCalled)] == [UnoCalled(player=0)]
    assert rnd.state.exposed is None
    said_before = Round.from_position(RuleSet(), [["R1", "G2"], ["B1", "B2"], ["Y1"]],
                                      discard=["R7"])
    assert said_before.apply(CallUno(player=0)) == [UnoCalled(player=0)]
    events = said_before.apply(PlayCard(player=0, card=card(said_before, 0, "R1"), uno=True))
    assert not any(isinstance(e, UnoCalled) for e in events) and said_before.state.exposed is None


def test_a_table_penalty_is_announced_with_its_reason_and_cards() -> None:
    rnd = Round.from_position(preset("killer"), [["R1", "G2"], ["B1", "B2"], ["Y1"]],
                              discard=["R7"])
    events = rnd.apply(Penalty(player=2, reason=PenaltyReason.SLAP, cards=20))
    assert events[0] == PenaltyGiven(player=2, reason="slap", cards=20)
    assert isinstance(events[1], CardsDrawn)
    assert (events[1].player, len(events[1].cards), events[1].reason) == (2, 20, "table-penalty")


@pytest.mark.parametrize(("agreed", "words"), [
    ((PenaltyReason.ADVICE, PenaltyReason.SILENCE), "advice, silence"), ((), "none")])
def test_a_penalty_not_agreed_lists_the_ones_that_are(
    agreed: tuple[PenaltyReason, ...], words: str
) -> None:
    rnd = Round.from_position(RuleSet(table_penalties=agreed), [["R1"], ["B1"]], discard=["R7"])
    error = refused(rnd, Penalty(player=1, reason=PenaltyReason.SLAP))
    assert str(error) == (
        f"slap is not a table rule of this game (agreed: {words}) [rule: penalty-not-agreed]")


def test_an_early_uno_call_lapses_and_a_later_silence_can_be_caught() -> None:
    """Saying UNO with three cards (no false-call penalty here) protects nothing: after the next
    play the call has lapsed, and the next-to-last card played in silence can be caught."""
    rnd = Round.from_position(RuleSet(), [["R1", "R2", "R3"], ["R4", "R5"], ["R6", "R8"]],
                              discard=["R7"])
    rnd.apply(PlayCard(player=0, card=card(rnd, 0, "R1"), uno=True))
    assert rnd.state.uno_called == [False, False, False]
    rnd.apply(PlayCard(player=1, card=card(rnd, 1, "R4"), uno=True))
    rnd.apply(PlayCard(player=2, card=card(rnd, 2, "R6"), uno=True))
    assert rnd.state.uno_called == [False, True, True]
    rnd.apply(PlayCard(player=0, card=card(rnd, 0, "R2")))
    assert rnd.state.exposed == 0


@pytest.mark.parametrize(("said", "drawn"), [(False, 0), (True, 2)])
def test_the_false_call_penalty_is_for_saying_uno_too_early_only(said: bool, drawn: int) -> None:
    rnd = Round.from_position(RuleSet(false_call_penalty=2), [["R1", "R2", "R3"], ["B1"]],
                              discard=["R7"])
    events = rnd.apply(PlayCard(player=0, card=card(rnd, 0, "R1"), uno=said))
    assert sum(len(e.cards) for e in events if isinstance(e, CardsDrawn)) == drawn
    assert len(rnd.state.hands[0]) == 2 + drawn


@pytest.mark.parametrize("said", [False, True])
def test_going_out_costs_no_false_call_penalty(said: bool) -> None:
    rnd = Round.from_position(RuleSet(false_call_penalty=2), [["R1"], ["B1", "B2"]],
                              discard=["R7"])
    events = rnd.apply(PlayCard(player=0, card=card(rnd, 0, "R1"), uno=said))
    assert not any(isinstance(e, CardsDrawn) for e in events)
    assert rnd.over and rnd.state.hands[0] == []
