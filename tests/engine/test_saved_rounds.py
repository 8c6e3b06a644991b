"""A round saved and loaded plays on as if it had never stopped: the deal comes from the set-up
(its seed, or the deck order the table laid out) and the deck it was dealt from, so a replayed
round deals the same cards; a save loaded with no history starts from the state it holds, which
a state's copy keeps whole and apart from the round played on."""

from __future__ import annotations

import json
import random
from collections.abc import Callable

import pytest

from engine.commands import Penalty, PlayCard, ShowdownResult
from engine.deck import Deck, builtin_deck
from engine.errors import RuleError
from engine.events import CardReturned
from engine.rng import generator, shuffle
from engine.round import Round, RoundSetup
from engine.rules import PenaltyReason, RuleSet
from engine.state import PendingShowdown, Phase, RoundState
from tests.engine.scenario import card, choose, refused

OFFICIAL = RuleSet()


def played(rnd: Round, commands: int, seed: int) -> Round:
    rng = random.Random(seed)
    for _ in range(commands):
        if rnd.over:
            break
        rnd.apply(choose(rnd, rng))
    return rnd


def test_the_seed_decides_the_deal() -> None:
    hands = {seed: Round.new(OFFICIAL, RoundSetup(players=4, seed=seed)).state.hands
             for seed in (1, 2, 3)}
    assert hands[1] != hands[2] != hands[3] != hands[1]
    assert Round.new(OFFICIAL, RoundSetup(players=4, seed=2)).state.hands == hands[2]


def test_a_saved_round_dealt_by_its_seed_deals_the_same_cards_when_replayed() -> None:
    setup = RoundSetup(players=3, dealer=1, seed=12345)
    dealt = Round.new(OFFICIAL, setup).state.to_dict()
    rnd = played(Round.new(OFFICIAL, setup), 25, seed=3)
    loaded = Round.from_json(rnd.to_json())
    assert loaded.setup == setup
    assert loaded.initial["state"] == dealt
    again = loaded.replayed()
    assert again.to_dict() == rnd.to_dict()
    assert Round.replay(OFFICIAL, loaded.setup, list(loaded.history)).state == rnd.state


def test_a_saved_round_dealt_from_a_deck_order_deals_that_order_when_replayed() -> None:
    """The table laid the deck out (deck_order, top card first): seat 1, left of dealer 0, gets
    the top card; after a save and a load the replayed round deals exactly the same."""
    order = tuple(reversed(range(len(builtin_deck("modern")))))
    setup = RoundSetup(players=2, dealer=0, seed=99, deck_order=order)
    assert RoundSetup.from_dict(setup.to_dict()) == setup
    rnd = Round.new(OFFICIAL, setup)
    assert rnd.state.hands[1][:2] == [order[0], order[2]]
    dealt = rnd.state.to_dict()
    played(rnd, 20, seed=4)
    loaded = Round.from_json(rnd.to_json())
    assert loaded.setup.deck_order == order
    assert loaded.initial["state"] == dealt
    assert loaded.replayed().to_dict() == rnd.to_dict()


def test_a_loaded_round_without_its_start_recorded_starts_where_it_was_loaded() -> None:
    """A round saved before its first command with no ``start`` (a hand-written position) starts
    from the position loaded."""
    rnd = Round.from_position(OFFICIAL, [["R1", "G2"], ["Y4", "Y5"]], discard=["R7"])
    data = rnd.to_dict()
    del data["start"]
    loaded = Round.from_dict(data)
    assert RoundState.from_dict(loaded.initial["state"]) == rnd.state
    assert loaded.replayed().to_dict() == loaded.to_dict()


def test_a_saved_round_is_compact_json_of_its_data() -> None:
    rnd = played(Round.new(OFFICIAL, RoundSetup(players=3, seed=8)), 10, seed=2)
    text = rnd.to_json()
    assert json.loads(text) == rnd.to_dict()
    assert text == json.dumps(json.loads(text), separators=(",", ":"))  # no padding spaces


def test_a_round_dealt_from_a_deck_of_its_own_replays_from_that_deck() -> None:
    """A table's own deck (here the modern deck's cards in the opposite order): replaying the
    commands deals from that deck, not from the one the rules name."""
    deck = Deck.from_codes("reversed", list(reversed(builtin_deck("modern").codes)))
    setup = RoundSetup(players=3, dealer=2, seed=21)
    rnd = played(Round.new(OFFICIAL, setup, deck), 20, seed=5)
    again = Round.replay(OFFICIAL, setup, list(rnd.history), deck)
    assert again.deck == deck
    assert again.to_dict() == rnd.to_dict()


def test_a_finished_round_leaves_nobody_to_catch() -> None:
    rnd = Round.from_position(OFFICIAL, [["R1"], ["Y4", "Y5"]], discard=["R7"])
    rnd.apply(PlayCard(player=0, card=card(rnd, 0, "R1")))
    assert rnd.over and rnd.state.went_out == 0
    assert rnd.state.exposed is None and rnd.to_dict()["state"]["exposed"] is None


def test_a_round_loaded_in_the_middle_of_a_showdown_replays_from_there() -> None:
    """A save with no history and no recorded start (a hand-written one) starts where it was
    loaded, here in a last-card showdown: the replay settles the same showdown the same way."""
    rnd = Round.from_position(RuleSet(deck="showdown"), [["G5*3"], ["B1", "B2"], ["Y1"]],
                              discard=["G7"])
    rnd.apply(PlayCard(player=0, card=card(rnd, 0, "G5*3")))
    assert rnd.state.showdown is not None and rnd.state.showdown.last_card
    data = rnd.to_dict()
    del data["start"]
    data["history"] = []
    loaded = Round.from_dict(data)
    loaded.apply(ShowdownResult(winner=0, loser=1))
    assert loaded.over
    assert loaded.initial["state"] == data["state"]
    assert loaded.replayed().to_dict() == loaded.to_dict()


def test_a_copied_state_equals_its_original_and_shares_nothing_with_it() -> None:
    state = RoundState(
        players=3, dealer=1, hands=[[1, 2], [3], [4, 5]], draw_pile=[6, 7], discard=[8, 9],
        colour=2, turn=2, direction=-1, phase=Phase.SHOWDOWN, drawn_card=5, pending_draw=4,
        challenge_offender=0, challenge_guilty=True, uno_called=[False, True, False], exposed=1,
        showdown=PendingShowdown(2, 0, [10, 11], "icon", 9, last_card=True), face_up_until=0,
        went_out=2, turns=17, spent=True,
    )
    saved = state.to_dict()
    copy = state.copy()
    assert copy == state and copy.to_dict() == saved
    copy.hands[0].append(12)
    copy.draw_pile.pop()
    copy.discard.append(13)
    copy.uno_called[0] = True
    assert copy.showdown is not None
    copy.showdown.loaded.append(14)
    assert state.to_dict() == saved
def test_a_set_up_saved_with_only_its_players_deals_from_dealer_0_and_seed_0() -> None:
    """A set-up written by hand may leave the dealer, the seed and the deck order out: they are
    the defaults of a new set-up, so the round deals the same cards as one set up by code."""
    loaded = RoundSetup.from_dict({"players": 3})
    assert loaded == RoundSetup(players=3) == RoundSetup(players=3, dealer=0, seed=0)
    assert RoundSetup.from_dict({"players": 3, "deck_order": None}) == loaded
    assert (Round.new(OFFICIAL, loaded).state.hands
            == Round.new(OFFICIAL, RoundSetup(players=3, dealer=0, seed=0)).state.hands)


def test_a_saved_round_without_its_history_loads_as_one_before_its_first_command() -> None:
    rnd = Round.new(OFFICIAL, RoundSetup(players=3, seed=8))
    data = rnd.to_dict()
    del data["history"]
    loaded = Round.from_dict(data)
    assert loaded.history == []
    assert loaded.to_dict() == rnd.to_dict()
    assert loaded.replayed().to_dict() == rnd.to_dict()


def json_types_only(value: object) -> bool:
    """Only JSON's own types (what ``json.loads`` gives back): no tuple, no enum member."""
    if isinstance(value, dict):
        return all(type(k) is str and json_types_only(v) for k, v in value.items())
    if type(value) is list:
        return all(json_types_only(v) for v in value)
    return type(value) in (str, int, float, bool, type(None))


def test_a_saved_round_is_plain_json_data() -> None:
    """``to_dict`` (and ``initial``) is what a JSON round trip gives back, type for type: the
    rules' tuples as lists, a penalty's reason as its word, so any JSON or YAML writer takes it
    and a saved copy compares equal to the round."""
    rnd = Round.new(OFFICIAL, RoundSetup(players=3, seed=5))
    rnd.apply(Penalty(player=1, reason=PenaltyReason.ADVICE))
    played(rnd, 10, seed=2)
    data = rnd.to_dict()
    assert data == json.loads(rnd.to_json())
    assert json_types_only(data) and json_types_only(rnd.initial)
    assert data["rules"]["table_penalties"] == ["advice"]
    assert data["history"][0] == {"player": 1, "reason": "advice", "cards": None,
                                  "type": "penalty"}


def test_a_saved_round_dealt_from_a_deck_of_its_own_replays_that_deck() -> None:
    """The table's own deck (here 85 cards), not the rules' built-in one, deals the start again."""
    codes = [f"{colour}{number}" for colour in "RYGB" for number in range(10)] * 2
    deck = Deck.from_codes("mine", [*codes, "B9", "W", "W", "W", "W"])
    setup = RoundSetup(players=3, seed=21)
    rnd = Round.new(OFFICIAL, setup, deck)
    dealt = rnd.state.to_dict()
    assert Round.new(OFFICIAL, setup).state.to_dict() != dealt
    played(rnd, 15, seed=6)
    assert rnd.initial["state"] == dealt
    loaded = Round.from_json(rnd.to_json())
    assert loaded.initial["state"] == dealt
    assert loaded.replayed().to_dict() == rnd.to_dict()


def test_a_saved_round_edited_out_of_its_showdown_settles_none() -> None:
    """A saved round whose phase was edited from "showdown" to "play" (its pending showdown left
    in) is out of the showdown: a result is refused, and the round is unchanged."""
    rnd = Round.from_position(RuleSet(deck="showdown"), [["R3*2", "G1"], ["B1", "B2"], ["Y1"]],
                              discard=["R7"])
    rnd.apply(PlayCard(player=0, card=rnd.state.hands[0][0]))
    assert rnd.state.showdown is not None
    data = rnd.to_dict()
    data["state"]["phase"] = "play"
    edited = Round.from_dict(data)
    error = refused(edited, ShowdownResult(winner=1, loser=0))
    assert (error.rule, error.seat) == ("no-showdown", None)


def test_a_deck_order_is_dealt_one_card_at_a_time_from_the_left_of_the_dealer() -> None:
    """Four players, dealer 1: seat 2 gets the top card, then seats 3, 0 and the dealer; the
    card after the 28 dealt is turned up."""
    deck = builtin_deck("modern")
    order = tuple(reversed(range(len(deck))))
    rnd = Round.new(OFFICIAL, RoundSetup(players=4, dealer=1, deck_order=order))
    for seat, first in ((2, 0), (3, 1), (0, 2), (1, 3)):
        assert rnd.state.hands[seat] == [order[first + 4 * k] for k in range(7)]


@pytest.mark.parametrize("order", [
    lambda size: tuple(range(size - 1)),             # a card left out
    lambda size: (0, *range(size - 1)),              # a card twice
    lambda size: tuple(range(1, size + 1)),          # a card the deck does not have
])
def test_a_deck_order_that_is_not_the_whole_deck_once_is_refused(
    order: Callable[[int], tuple[int, ...]],
) -> None:
    size = len(builtin_deck("modern"))
    with pytest.raises(RuleError) as caught:
        Round.new(OFFICIAL, RoundSetup(players=3, deck_order=order(size)))
    error = caught.value
    assert (error.rule, error.seat, str(error)) == (
        "deck-order", None, "deck_order must list every card id exactly once [rule: deck-order]")


def test_a_dealt_round_carries_its_seed_s_shuffle_on_from_the_deal() -> None:
    """The seed drives one shuffle for the whole round: after dealing (the deck shuffled once,
    a number turned up) the round's generator is where that shuffle left it, so the reshuffles
    to come are not the deal's again; nobody has said UNO yet."""
    setup = RoundSetup(players=3, seed=4)
    rnd = Round.new(OFFICIAL, setup)
    assert not any(isinstance(e, CardReturned) for e in rnd.events)
    rng = generator(setup.seed)
    shuffle(rng, list(range(len(rnd.deck))))
    assert rnd.rng.getstate() == rng.getstate()
    assert rnd.state.uno_called == [False, False, False]
    assert rnd.to_dict()["state"]["uno_called"] == [False, False, False]
