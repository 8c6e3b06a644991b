"""What the scoreboard is told a card did to the hands: the events name who played it, whom it
hit and how many cards each hand holds after it (the scoreboard draws the hands from them)."""

from __future__ import annotations

from engine.commands import ChooseOpening, PlayCard
from engine.deck import builtin_deck
from engine.events import HandsShuffled, HandsSwapped
from engine.round import Round, RoundSetup
from engine.rules import RuleSet
from tests.engine.scenario import card, codes, deck_order

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
