"""002's Killer UNO (seed ``002_2cf2187f47789488.txt``, "[Optional: Killer Uno ...]", the
``killer`` preset): draw until a playable number card, the jump-in, 0s pass hands, the red 0 as a
+10, and the table penalties for silence and slapping. Each test quotes the sentence it checks."""

from __future__ import annotations

import pytest

from engine.commands import CatchUno, Challenge, Draw, JumpIn, Pass, Penalty, PlayCard, WrongCard
from engine.events import CardPlayed, CardsDrawn, HandsPassed, JumpedIn, PenaltyGiven
from engine.round import Round
from engine.rules import PenaltyReason, RuleSet, preset
from engine.state import Phase
from tests.engine.scenario import card, codes, refused

R, Y, G, B = 0, 1, 2, 3
KILLER = preset("killer")


def test_draw_until_a_playable_number_card_seed_002() -> None:
    """002 Killer 1: "The player must keep playing the card until the card that can be released
    (non-functional card)": a matching Draw Two does not stop the drawing, a matching number
    does, and may then be played."""
    rnd = Round.from_position(
        KILLER, [["Y3", "B9"], ["G1", "G2"]], discard=["R7"], draw=["R+2", "G4", "R5"]
    )
    rnd.apply(Draw(player=0))
    assert codes(rnd, 0) == ["Y3", "B9", "R+2", "G4", "R5"]
    assert rnd.state.phase is Phase.DRAWN
    rnd.apply(PlayCard(player=0, card=card(rnd, 0, "R5")))
    assert rnd.state.turn == 1


def test_jump_in_with_an_identical_card_out_of_turn_seed_002() -> None:
    """002 Killer 2: "If the player has exactly the same hand as the current card (the same color
    or the same function card), but not the player currently plays, you can grab the card before
    the current card players out ... If successfully snatched out, the next home by the raider
    out of the card": seat 3 plays the other red 7 before seat 1, and seat 0 plays next."""
    hands = [["B1", "B2"], ["G1", "G2"], ["Y1", "Y2"], ["R7", "Y3"]]
    rnd = Round.from_position(KILLER, hands, discard=["R7"], turn=1)
    assert JumpIn(player=3, card=card(rnd, 3, "R7")) in rnd.legal_actions()
    events = rnd.apply(JumpIn(player=3, card=card(rnd, 3, "R7")))
    assert events[0] == JumpedIn(player=3, instead_of=1)
    assert isinstance(events[1], CardPlayed) and events[1].player == 3
    assert codes(rnd, 3) == ["Y3"] and rnd.state.turn == 0
    assert Round.from_json(rnd.to_json()).replayed().to_dict() == rnd.to_dict()


def test_jump_in_needs_the_same_colour_and_the_same_face_seed_002() -> None:
    """002 Killer 2: "exactly the same ... (the same color or the same function card)": a green 7
    on a red 7 is no jump-in; a Skip may jump in on a Skip of its colour."""
    hands = [["B1", "B2"], ["G1", "G2"], ["Y1", "Y2"], ["G7", "RS", "Y3"]]
    rnd = Round.from_position(KILLER, hands, discard=["R7"], turn=1)
    error = refused(rnd, JumpIn(player=3, card=card(rnd, 3, "G7")))
    assert (error.rule, error.seat) == ("jump-in-not-identical", 3)
    skip = Round.from_position(KILLER, hands, discard=["RS"], turn=1)
    skip.apply(JumpIn(player=3, card=card(skip, 3, "RS")))
    assert skip.state.turn == 1  # seat 0 is skipped


def test_jump_in_refusals_name_the_seat_seed_002() -> None:
    """The jump-in is Killer UNO's: refused under the official rules, on your own turn, and on a
    wild (it has no printed colour to be identical to)."""
    hands = [["B2", "B3"], ["G1", "G2"], ["R7", "Y3"]]
    official = Round.from_position(RuleSet(), hands, discard=["R7"], turn=1)
    error = refused(official, JumpIn(player=2, card=card(official, 2, "R7")))
    assert (error.rule, error.seat) == ("jump-in-off", 2)
    own = Round.from_position(KILLER, hands, discard=["R7"], turn=2)
    error = refused(own, JumpIn(player=2, card=card(own, 2, "R7")))
    assert (error.rule, error.seat) == ("jump-in-own-turn", 2)
    wild = Round.from_position(KILLER, [["W", "B2"], ["G1"], ["W", "Y3"]], discard=["W"],
                               colour=R, turn=1)
    error = refused(wild, JumpIn(player=2, card=card(wild, 2, "W")))
    assert (error.rule, error.seat) == ("jump-in-not-identical", 2)


def test_a_jump_in_follows_the_rules_of_a_play_seed_002() -> None:
    """A jump-in plays the card as on the jumper's own turn: with stacking, an identical Draw Two
    stacks and the total passes on from the jumper; 002's last-card rule still holds."""
    hands = [["R+2", "B2"], ["G1", "G2"], ["Y1", "Y2"], ["R+2", "Y3"]]
    rnd = Round.from_position(KILLER, hands, discard=["R7"])
    rnd.apply(PlayCard(player=0, card=card(rnd, 0, "R+2")))
    rnd.apply(JumpIn(player=3, card=card(rnd, 3, "R+2")))
    assert rnd.state.turn == 0 and rnd.state.pending_draw == 4
    last = Round.from_position(KILLER, [["B1", "B2"], ["G1"], ["RS"]], discard=["RS"], turn=1)
    assert [a for a in last.legal_actions(2) if isinstance(a, JumpIn)] == []
    error = refused(last, JumpIn(player=2, card=card(last, 2, "RS")))
    assert (error.rule, error.seat) == ("last-card-action", 2)


@pytest.mark.parametrize(("direction", "gets"), [(1, [3, 0, 1, 2]), (-1, [1, 2, 3, 0])])
def test_a_zero_passes_every_hand_on_seed_002(direction: int, gets: list[int]) -> None:
    """002 Killer 3: "If any player has a 0 card of any color, all players give their hand the
    card, that is, take the house card": every hand goes to the next player in the direction of
    play (``gets[seat]`` is whose hand ``seat`` holds after the green 0)."""
    hands = [["G0", "B1"], ["Y1", "Y2"], ["B3", "B4", "B5"], ["R6"]]
    rnd = Round.from_position(KILLER, hands, discard=["G5"], direction=direction)
    before = [codes(rnd, seat) for seat in range(4)]
    before[0] = ["B1"]
    events = rnd.apply(PlayCard(player=0, card=card(rnd, 0, "G0")))
    assert HandsPassed(player=0, direction=direction) in events
    assert [codes(rnd, seat) for seat in range(4)] == [before[g] for g in gets]


def test_a_zero_passed_to_one_card_cannot_be_caught_seed_002() -> None:
    """A player left with one card by the pass had nothing to say: nobody catches them."""
    hands = [["G0", "B1", "B2"], ["Y1"], ["B3", "B4", "B5"]]
    rnd = Round.from_position(KILLER, hands, discard=["G5"])
    rnd.apply(PlayCard(player=0, card=card(rnd, 0, "G0")))
    assert len(rnd.state.hands[2]) == 1
    error = refused(rnd, CatchUno(player=0, target=2))
    assert (error.rule, error.seat) == ("catch-window", 2)


def test_a_zero_as_the_last_card_passes_nothing_seed_002() -> None:
    """002 Killer 3: "Be careful not to hit 0 on the last card, otherwise you lose the advantage of
    taking home cards": going out on a 0 ends the round, and no hand moves."""
    rnd = Round.from_position(KILLER, [["G0"], ["Y1", "Y2"], ["B3"]], discard=["G5"])
    events = rnd.apply(PlayCard(player=0, card=card(rnd, 0, "G0")))
    assert not any(isinstance(e, HandsPassed) for e in events)
    assert rnd.state.went_out == 0 and codes(rnd, 1) == ["Y1", "Y2"]


def test_the_red_zero_is_a_plus_ten_seed_002() -> None:
    """002 Killer 4: "This rule uses the red 0 card as a +10 and touches 10 at home. The remaining
    three 0 card or in accordance with the rules above": the next player draws 10 and loses the
    turn (nothing answers a +10, not even a Wild Draw 4), and no hand moves."""
    hands = [["R0", "B1"], ["W+4", "R+2", "Y2"], ["B3", "B4"]]
    rnd = Round.from_position(KILLER, hands, discard=["R5"])
    events = rnd.apply(PlayCard(player=0, card=card(rnd, 0, "R0")))
    assert not any(isinstance(e, HandsPassed) for e in events)
    assert rnd.state.pending_draw == 10 and codes(rnd, 0) == ["B1"]
    assert [type(a).__name__ for a in rnd.legal_actions(1, reactions=False)] == ["Draw"]
    error = refused(rnd, PlayCard(player=1, card=card(rnd, 1, "W+4"), colour=B))
    assert (error.rule, error.seat) == ("answer-the-draw", 1)
    rnd.apply(Draw(player=1))
    assert len(rnd.state.hands[1]) == 13 and rnd.state.turn == 2


def test_a_red_zero_as_the_last_card_still_deals_its_ten_seed_002() -> None:
    """As with a Draw Two going out (000, 001, 003), the next player still draws the red 0's 10;
    the red 0 is a number card, so 002's last-card rule lets it go out."""
    rnd = Round.from_position(KILLER, [["R0"], ["Y1", "Y2"], ["B3"]], discard=["R5"])
    rnd.apply(PlayCard(player=0, card=card(rnd, 0, "R0")))
    assert rnd.state.went_out == 0 and len(rnd.state.hands[1]) == 12


def test_a_silence_penalty_costs_two_cards_out_of_turn_seed_002() -> None:
    """002 Killer 5: "If any player has a 2 card out of any color, everyone can not make a sound
    ... Vocal people have to fine touch 2 cards": the table's Penalty; the turn does not move."""
    rnd = Round.from_position(KILLER, [["R2", "B1"], ["Y1", "Y2"], ["B3", "B4"]], discard=["R5"])
    rnd.apply(PlayCard(player=0, card=card(rnd, 0, "R2")))
    events = rnd.apply(Penalty(player=2, reason=PenaltyReason.SILENCE))
    assert events[0] == PenaltyGiven(player=2, reason="silence", cards=2)
    assert isinstance(events[1], CardsDrawn) and events[1].reason == "table-penalty"
    assert len(rnd.state.hands[2]) == 4 and rnd.state.turn == 1


def test_a_slap_penalty_costs_two_cards_seed_002() -> None:
    """002 Killer 6: "If any player has 9 colors out of any color, everyone will immediately be
    placed on the poker hand, and the last one to let go is fined 2." """
    rnd = Round.from_position(KILLER, [["R9", "B1"], ["Y1", "Y2"], ["B3", "B4"]], discard=["R5"])
    rnd.apply(PlayCard(player=0, card=card(rnd, 0, "R9")))
    rnd.apply(Penalty(player=0, reason=PenaltyReason.SLAP))
    assert len(rnd.state.hands[0]) == 3


def test_advice_costs_two_cards_seed_002_003() -> None:
    """002: "[Optional: If there are players who give advice to other players, the player is fine
    with 2 shots. ]"; 003: 「口出ししたら、罰としてカードを2枚引きます。」 Advice is a table
    rule of every preset; silence and slap are Killer UNO's alone."""
    rnd = Round.from_position(RuleSet(), [["R9", "B1"], ["Y1", "Y2"]], discard=["R5"])
    rnd.apply(Penalty(player=1, reason=PenaltyReason.ADVICE))
    assert len(rnd.state.hands[1]) == 4
    error = refused(rnd, Penalty(player=1, reason=PenaltyReason.SILENCE))
    assert (error.rule, error.seat) == ("penalty-not-agreed", 1)


def test_a_wrong_card_is_reported_with_wrong_card_not_a_penalty_seed_002_003() -> None:
    """002: "[Optional: If there is a player wrong card, then the player fine touch 2. ]": in a
    round a wrong card is reported with WrongCard (003's rule: the card goes back too)."""
    rnd = Round.from_position(KILLER, [["Y3", "B1"], ["Y1", "Y2"]], discard=["R5"])
    error = refused(rnd, Penalty(player=0, reason=PenaltyReason.WRONG_CARD))
    assert (error.rule, error.seat) == ("wrong-card-is-reported", 0)
    rnd.apply(WrongCard(player=0, card=card(rnd, 0, "Y3")))
    assert len(rnd.state.hands[0]) == 4


def test_the_killer_preset_bundles_the_sheets_rules_seed_002() -> None:
    """002: "[Optional: Killer Uno / Based on the standard Uno, there are the following rules":
    the ``killer`` preset is the ``house`` preset (002's standard rules) and every Killer rule."""
    house = preset("house").model_dump()
    killer = KILLER.model_dump()
    assert {k: v for k, v in killer.items() if house[k] != v} == {
        "draw": "until-playable",
        "jump_in": True,
        "zero_passes_hands": True,
        "red_zero_draw": 10,
        "table_penalties": (PenaltyReason.ADVICE, PenaltyReason.SILENCE, PenaltyReason.SLAP),
    }


def test_penalty_refused_while_a_showdown_waits_and_after_the_round() -> None:
    """A pending showdown accepts only its result; a round that is over accepts nothing."""
    rules = preset("showdown").model_copy(update={"table_penalties": (PenaltyReason.ADVICE,)})
    rnd = Round.from_position(rules, [["R3*2", "G1"], ["B1"], ["Y1"]], discard=["R7"])
    rnd.apply(PlayCard(player=0, card=card(rnd, 0, "R3*2")))
    assert refused(rnd, Penalty(player=1, reason=PenaltyReason.ADVICE)).rule == "showdown-pending"
    assert (
        refused(Round.from_position(rules, [["R3"], ["B1"]], discard=["R7"]),
                Penalty(player=5, reason=PenaltyReason.ADVICE)).seat
        == 5
    )


def test_penalty_draws_and_a_pass_keep_the_turn_where_it_was() -> None:
    """A penalty given while the current player decides about a drawn card leaves that choice."""
    rnd = Round.from_position(KILLER, [["Y3", "B1"], ["G1", "G2"]], discard=["R7"], draw=["R4"])
    rnd.apply(Draw(player=0))
    rnd.apply(Penalty(player=0, reason=PenaltyReason.SLAP, cards=1))
    assert rnd.state.phase is Phase.DRAWN and len(rnd.state.hands[0]) == 4
    rnd.apply(Pass(player=0))


def test_no_jump_in_offered_that_the_round_would_refuse_seed_002() -> None:
    """Identical is not always playable: a guilty Wild Draw 4 taken back (003) leaves its colour
    on a red Draw Two whose penalty is then drawn (spent, 002: colour only), so the other red
    Draw Two may not jump in, and is not offered (the switch soak found this)."""
    rules = KILLER.model_copy(
        update={"wd4_legality": "no-current-colour", "wd4_guilty_takes_back": True}
    )
    hands = [["R+2", "R+2", "B1"], ["W+4", "R5", "Y1"], ["G1", "G2"], ["B7", "B8"]]
    rnd = Round.from_position(rules, hands, discard=["R7"])
    rnd.apply(PlayCard(player=0, card=card(rnd, 0, "R+2")))
    rnd.apply(PlayCard(player=1, card=card(rnd, 1, "W+4"), colour=G))
    rnd.apply(Challenge(player=2))  # guilty: seat 1 held red
    rnd.apply(Draw(player=2))  # the Draw Two's 2 that are left
    assert rnd.state.spent and rnd.state.colour == G and rnd.state.turn == 3
    assert not [a for a in rnd.legal_actions() if isinstance(a, JumpIn)]
    error = refused(rnd, JumpIn(player=0, card=card(rnd, 0, "R+2")))
    assert (error.rule, error.seat) == ("card-does-not-match", 0)


def test_each_zero_rule_works_without_the_other() -> None:
    """The 0s pass hands and the red 0 draws 10 are separate switches: each alone still works."""
    passing = Round.from_position(RuleSet(zero_passes_hands=True), [["G0", "B1"], ["Y1", "Y2"]],
                                  discard=["G5"])
    events = passing.apply(PlayCard(player=0, card=card(passing, 0, "G0")))
    assert HandsPassed(player=0, direction=1) in events and codes(passing, 0) == ["Y1", "Y2"]
    drawing = Round.from_position(RuleSet(red_zero_draw=10), [["R0", "B1"], ["Y1", "Y2"]],
                                  discard=["R5"])
    drawing.apply(PlayCard(player=0, card=card(drawing, 0, "R0")))
    drawing.apply(Draw(player=1))
    assert len(drawing.state.hands[1]) == 12 and codes(drawing, 0) == ["B1"]
