"""A round saved and loaded plays on as if it had never stopped: the deal comes from the set-up
(its seed, or the deck order the table laid out) and the deck it was dealt from, so a replayed
round deals the same cards; a save loaded with no history starts from the state it holds, which
a state's copy keeps whole and apart from the round played on."""

from __future__ import annotations

import json
import random

from engine.commands import PlayCard, ShowdownResult
from engine.deck import Deck, builtin_deck
from engine.round import Round, RoundSetup
from engine.rules import RuleSet
from engine.state import PendingShowdown, Phase, RoundState
from tests.engine.scenario import card, choose

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
