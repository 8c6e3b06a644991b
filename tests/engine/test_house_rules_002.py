"""002's basic rules as its sheet writes them (seed ``002_2cf2187f47789488.txt``, the ``house``
preset): its stacking, the Wild Draw 4 at any time, no going out on a function card, which drawn
card may be played, 2-8 players. Each test quotes the sentence it checks."""

from __future__ import annotations

import pytest

from engine.commands import Challenge, Draw, Pass, PlayCard
from engine.errors import RuleError
from engine.events import CardPlayed
from engine.round import Round, RoundSetup
from engine.rules import RuleSet, preset
from engine.state import Phase
from tests.engine.scenario import card, codes, refused

R, Y, G, B = 0, 1, 2, 3
HOUSE = preset("house")


def test_a_pending_wild_draw_four_is_answered_only_by_a_wild_draw_four_seed_002() -> None:
    """002: "Only +4 after +4 to avoid the +4, Penalty accumulated to the next home." A red Skip,
    a red Reverse or a red Draw Two does not pass a pending Wild Draw 4 on; a Wild Draw 4 does."""
    hands = [["W+4", "Y1"], ["RS", "RR", "R+2", "W+4", "Y5"], ["G1", "G2"]]
    rnd = Round.from_position(HOUSE, hands, discard=["R7"])
    rnd.apply(PlayCard(player=0, card=card(rnd, 0, "W+4"), colour=R))
    offered = {rnd.deck.cards[a.card].code for a in rnd.legal_actions(1) if isinstance(a, PlayCard)}
    assert offered == {"W+4"}
    for code in ("RS", "RR", "R+2"):
        error = refused(rnd, PlayCard(player=1, card=card(rnd, 1, code)))
        assert (error.rule, error.seat) == ("answer-the-draw", 1)
    rnd.apply(PlayCard(player=1, card=card(rnd, 1, "W+4"), colour=G))
    assert rnd.state.turn == 2 and rnd.state.pending_draw == 8


def test_the_deflect_switch_alone_never_passes_a_wild_draw_four_on_seed_002() -> None:
    """002: "After the same color +2 Skip, +2 jump to next home" deflects a +2, never a +4: with
    ``stack_deflect`` on and nothing else, a red Skip on a Wild Draw 4 that chose red is refused."""
    rnd = Round.from_position(
        RuleSet(stack_deflect=True), [["W+4", "Y1"], ["RS", "B1"], ["G1"]], discard=["R7"]
    )
    rnd.apply(PlayCard(player=0, card=card(rnd, 0, "W+4"), colour=R))
    error = refused(rnd, PlayCard(player=1, card=card(rnd, 1, "RS")))
    assert (error.rule, error.seat) == ("answer-the-draw", 1)


def test_two_draw_twos_make_the_next_player_draw_four_and_stop_seed_002() -> None:
    """002: "+2 after the +2, Penalty count to the next house, if there are two +2, then touch the
    house under the four cards and stop the round." """
    rnd = Round.from_position(
        HOUSE, [["R+2", "Y1"], ["G+2", "Y5"], ["B1", "B2"], ["Y7", "Y8"]], discard=["R7"]
    )
    rnd.apply(PlayCard(player=0, card=card(rnd, 0, "R+2")))
    rnd.apply(PlayCard(player=1, card=card(rnd, 1, "G+2")))
    rnd.apply(Draw(player=2))
    assert len(rnd.state.hands[2]) == 6 and rnd.state.turn == 3


def test_a_same_colour_skip_passes_a_draw_two_to_the_next_seed_002() -> None:
    """002: "After the same color +2 Skip, +2 jump to next home." """
    rnd = Round.from_position(
        HOUSE, [["R+2", "Y1"], ["RS", "B1"], ["G1", "G2"], ["Y7"]], discard=["R7"]
    )
    rnd.apply(PlayCard(player=0, card=card(rnd, 0, "R+2")))
    rnd.apply(PlayCard(player=1, card=card(rnd, 1, "RS")))
    assert rnd.state.turn == 2 and rnd.state.pending_draw == 2


def test_a_same_colour_reverse_sends_a_draw_two_back_seed_002() -> None:
    """002: "After +2 the same color of the Reverse, the +2 back to the house." """
    rnd = Round.from_position(
        HOUSE, [["R+2", "Y1"], ["RR", "B1"], ["G1", "G2"], ["Y7"]], discard=["R7"]
    )
    rnd.apply(PlayCard(player=0, card=card(rnd, 0, "R+2")))
    rnd.apply(PlayCard(player=1, card=card(rnd, 1, "RR")))
    assert rnd.state.turn == 0 and rnd.state.pending_draw == 2


def test_two_draw_twos_and_a_wild_draw_four_make_eight_seed_002() -> None:
    """002: "After +2 +4, Penalty accumulated to the next house, if there are two +2 and a +4,
    then the next fine touch 8 cards and stop the round." """
    hands = [["R+2", "Y1"], ["G+2", "Y5"], ["W+4", "B2"], ["Y7", "Y8"], ["B7", "B8"]]
    rnd = Round.from_position(HOUSE, hands, discard=["R7"])
    rnd.apply(PlayCard(player=0, card=card(rnd, 0, "R+2")))
    rnd.apply(PlayCard(player=1, card=card(rnd, 1, "G+2")))
    rnd.apply(PlayCard(player=2, card=card(rnd, 2, "W+4"), colour=B))
    rnd.apply(Draw(player=3))
    assert len(rnd.state.hands[3]) == 10 and rnd.state.turn == 4


def test_a_spent_draw_two_matches_by_colour_only_seed_002() -> None:
    """002: "The power of +2 vanishes when a player fines and the next house of Penalty continues
    with the same card with the same +2 color as the last. Can not be other colors +2 or Skip /
    Reverse": once the penalty is drawn, a green Draw Two may not follow the red one, a red card
    may; the official rules let any Draw Two follow."""
    hands = [["R+2", "Y1"], ["B1", "B2"], ["G+2", "R3", "Y4"]]
    rnd = Round.from_position(HOUSE, hands, discard=["R7"])
    rnd.apply(PlayCard(player=0, card=card(rnd, 0, "R+2")))
    rnd.apply(Draw(player=1))
    error = refused(rnd, PlayCard(player=2, card=card(rnd, 2, "G+2")))
    assert (error.rule, error.seat) == ("card-does-not-match", 2)
    assert Round.from_json(rnd.to_json()).state.spent  # saved and loaded with the round
    rnd.apply(PlayCard(player=2, card=card(rnd, 2, "R3")))
    official = Round.from_position(RuleSet(), hands, discard=["R7"])
    official.apply(PlayCard(player=0, card=card(official, 0, "R+2")))
    official.apply(Draw(player=1))
    official.apply(PlayCard(player=2, card=card(official, 2, "G+2")))


def test_a_spent_deflecting_skip_matches_by_colour_only_seed_002() -> None:
    """002: "Can not be other colors +2 or Skip / Reverse (+2 in the process may be someone out
    of the Skip / Reverse)": a red Skip that deflected a Draw Two, once it is drawn, takes no
    green Skip."""
    hands = [["R+2", "Y1"], ["RS", "B1"], ["B2", "B3"], ["GS", "R4", "Y4"]]
    rnd = Round.from_position(HOUSE, hands, discard=["R7"])
    rnd.apply(PlayCard(player=0, card=card(rnd, 0, "R+2")))
    rnd.apply(PlayCard(player=1, card=card(rnd, 1, "RS")))
    rnd.apply(Draw(player=2))
    error = refused(rnd, PlayCard(player=3, card=card(rnd, 3, "GS")))
    assert (error.rule, error.seat) == ("card-does-not-match", 3)


def test_wild_draw_four_can_be_played_at_any_time_with_no_challenge_seed_002() -> None:
    """002: "+4: Can exit at any time, the dealer's home must be fine touch 4 cards": no
    restriction (it is played holding red on red, and is legal) and so nothing to challenge."""
    rnd = Round.from_position(HOUSE, [["W+4", "R2", "G7"], ["B1", "Y5"], ["G1"]], discard=["R7"])
    events = rnd.apply(PlayCard(player=0, card=card(rnd, 0, "W+4"), colour=B))
    assert CardPlayed(player=0, card=card_id(rnd, "W+4"), legal=True) in events
    assert not any(isinstance(a, Challenge) for a in rnd.legal_actions())
    error = refused(rnd, Challenge(player=1))
    assert (error.rule, error.seat) == ("no-challenge", 1)
    rnd.apply(Draw(player=1))
    assert len(rnd.state.hands[1]) == 6 and rnd.state.turn == 2


def card_id(rnd: Round, code: str) -> int:
    return next(c for c, face in enumerate(rnd.deck.cards) if face.code == code)


def test_wild_draw_four_restricted_is_the_sheets_option_seed_002() -> None:
    """002: "[Optional: +4 cards must be out of your hand when other cards are out of the game
    ... but you can challenge the next card with a +4 card": the option is the official
    restriction and challenge (``wd4_legality="no-current-colour"``)."""
    rules = HOUSE.model_copy(update={"wd4_legality": "no-current-colour"})
    rnd = Round.from_position(rules, [["W+4", "R2", "G7"], ["B1", "Y5"], ["G1"]], discard=["R7"])
    rnd.apply(PlayCard(player=0, card=card(rnd, 0, "W+4"), colour=B))
    rnd.apply(Challenge(player=1))
    assert len(rnd.state.hands[0]) == 6


@pytest.mark.parametrize("code", ["RS", "RR", "R+2", "W", "W+4"])
def test_the_last_card_cannot_be_a_function_card_seed_002(code: str) -> None:
    """002: "the last card can not be a functional card, if the player's hand in the last one for
    the function card, even if the original round can be out of the card must also be in the
    wheel": with one action or wild card left, playing it is refused and drawing is offered."""
    rnd = Round.from_position(HOUSE, [[code], ["B1", "Y5"]], discard=["R7"], draw=["G2"])
    assert [type(a).__name__ for a in rnd.legal_actions(0)] == ["Draw"]
    error = refused(rnd, PlayCard(player=0, card=card(rnd, 0, code), colour=R))
    assert (error.rule, error.seat) == ("last-card-action", 0)
    rnd.apply(Draw(player=0))
    assert codes(rnd, 0) == [code, "G2"] and rnd.state.turn == 1


def test_a_last_number_card_goes_out_as_usual_seed_002() -> None:
    """002: "The first winner of the card in the hands of the winner": a number card is no
    function card, so it goes out."""
    rnd = Round.from_position(HOUSE, [["R3"], ["B1", "Y5"]], discard=["R7"])
    rnd.apply(PlayCard(player=0, card=card(rnd, 0, "R3")))
    assert rnd.state.phase is Phase.OVER and rnd.state.went_out == 0


def test_a_last_draw_two_cannot_stack_to_go_out_seed_002() -> None:
    """002's last-card rule holds when a draw is pending: the player draws it instead."""
    rnd = Round.from_position(HOUSE, [["R+2", "Y1"], ["G+2"], ["B1", "B2"]], discard=["R7"])
    rnd.apply(PlayCard(player=0, card=card(rnd, 0, "R+2")))
    error = refused(rnd, PlayCard(player=1, card=card(rnd, 1, "G+2")))
    assert (error.rule, error.seat) == ("last-card-action", 1)


def test_only_a_drawn_number_card_may_be_played_at_once_seed_002() -> None:
    """002: "If the player can not play cards this round touch a card, if the card into the card
    can not be a card and not a functional card, you can pre-emptive cards before the next
    card": a drawn Draw Two that matches is kept and the turn passes; a drawn number that
    matches may be played."""
    rnd = Round.from_position(HOUSE, [["Y3", "B9"], ["G1", "G2"]], discard=["R7"], draw=["R+2"])
    rnd.apply(Draw(player=0))
    assert codes(rnd, 0) == ["Y3", "B9", "R+2"] and rnd.state.turn == 1
    rnd = Round.from_position(HOUSE, [["Y3", "B9"], ["G1", "G2"]], discard=["R7"], draw=["R4"])
    rnd.apply(Draw(player=0))
    assert rnd.state.phase is Phase.DRAWN
    rnd.apply(Pass(player=0))
    assert rnd.state.turn == 1


def test_two_to_eight_players_seed_002() -> None:
    """002: "Uno can be played by 2-8 players": a ninth seat is refused; 001's 2-10 stays the
    default."""
    with pytest.raises(RuleError) as caught:
        Round.new(HOUSE, RoundSetup(players=9))
    assert caught.value.rule == "players" and "2-8" in str(caught.value)
    assert Round.new(RuleSet(), RoundSetup(players=10)).state.players == 10


def test_a_wild_does_not_answer_a_pending_draw_seed_002() -> None:
    """002: "Wild: You can play any card other than +2 or +4": read as a Wild played on anything
    but a pending Draw Two or Wild Draw 4, which it does not answer."""
    rnd = Round.from_position(HOUSE, [["R+2", "Y1"], ["W", "B1"], ["G1", "G2"]], discard=["R7"])
    rnd.apply(PlayCard(player=0, card=card(rnd, 0, "R+2")))
    error = refused(rnd, PlayCard(player=1, card=card(rnd, 1, "W"), colour=G))
    assert (error.rule, error.seat) == ("answer-the-draw", 1)
    calm = Round.from_position(HOUSE, [["W", "B1"], ["G1", "G2"]], discard=["R+2"])
    calm.apply(PlayCard(player=0, card=card(calm, 0, "W"), colour=G))  # on anything else
