"""The wrong-card penalty (003: a wrong card is taken back, its player draws 2 and the turn ends;
002 has it as an option): what the table sees when a wrong card is reported, on a plain turn,
after drawing, and on a pending Draw Two or Wild Draw 4, and the reports it refuses."""

from __future__ import annotations

from engine.commands import Challenge, Draw, PlayCard, WrongCard
from engine.events import CardsDrawn, TurnStarted, WrongCardPenalised
from engine.round import Round
from engine.rules import RuleSet
from engine.state import Phase
from tests.engine.scenario import card, codes, refused

R, Y, G, B = 0, 1, 2, 3
OFFICIAL = RuleSet()
STACKING = RuleSet(stack_draw_two=True)


def drawn_r9() -> Round:
    """Seat 0 drew the red 9 (it matches the red 7 on top): play it or pass."""
    rnd = Round.from_position(
        OFFICIAL, [["R1", "G2"], ["Y4", "Y5"], ["G6", "G7"]], discard=["R7"],
        draw=["R9", "B1", "B2"],
    )
    rnd.apply(Draw(player=0))
    assert (rnd.state.phase, rnd.state.drawn_card) == (Phase.DRAWN, card(rnd, 0, "R9"))
    return rnd


def test_a_wrong_card_is_taken_back_the_penalty_drawn_and_the_turn_passed() -> None:
    rnd = Round.from_position(
        OFFICIAL, [["Y3", "B9"], ["G1"], ["B2"]], discard=["R7"], draw=["G4", "B5", "Y8"]
    )
    wrong = card(rnd, 0, "Y3")
    top_of_pile = list(reversed(rnd.state.draw_pile))[:2]
    events = rnd.apply(WrongCard(player=0, card=wrong))
    assert events == [
        WrongCardPenalised(player=0, card=wrong),
        CardsDrawn(player=0, cards=tuple(top_of_pile), reason="wrong-card"),
        TurnStarted(player=1),
    ]
    assert codes(rnd, 0) == ["Y3", "B9", "G4", "B5"]
    assert (rnd.state.turn, rnd.state.phase, rnd.state.pending_draw) == (1, Phase.PLAY, 0)


def test_after_drawing_any_card_but_the_one_drawn_is_a_wrong_card() -> None:
    """After drawing, only the card just drawn may be played: another one is a wrong card even
    where it matches the top card."""
    rnd = drawn_r9()
    wrong = card(rnd, 0, "R1")
    events = rnd.apply(WrongCard(player=0, card=wrong))
    assert events[0] == WrongCardPenalised(player=0, card=wrong)
    assert codes(rnd, 0) == ["R1", "G2", "R9", "B1", "B2"]
    assert (rnd.state.turn, rnd.state.phase, rnd.state.drawn_card) == (1, Phase.PLAY, None)


def test_the_card_just_drawn_is_not_a_wrong_card() -> None:
    rnd = drawn_r9()
    error = refused(rnd, WrongCard(player=0, card=card(rnd, 0, "R9")))
    assert (error.rule, error.seat, str(error)) == (
        "not-a-wrong-card", None,
        "that card may be played: it is not a wrong card [rule: not-a-wrong-card]")


def stacked_draw_two() -> Round:
    """Seat 0 played a red Draw Two; seat 1 faces 2 cards and may stack its green Draw Two."""
    rnd = Round.from_position(
        STACKING, [["R+2", "B5"], ["G+2", "Y4", "Y6"], ["Y+2", "B3"]], discard=["R7"]
    )
    rnd.apply(PlayCard(player=0, card=card(rnd, 0, "R+2")))
    assert (rnd.state.turn, rnd.state.pending_draw) == (1, 2)
    return rnd


def test_a_wrong_card_on_a_pending_draw_adds_the_draw_to_the_penalty() -> None:
    """Seat 1 faces a Draw Two and reports a yellow 4 (it cannot answer the draw): seat 1 draws
    the penalty and the pending 2 in one go, and seat 2 plays on with no draw pending."""
    rnd = stacked_draw_two()
    wrong = card(rnd, 1, "Y4")
    top_of_pile = list(reversed(rnd.state.draw_pile))[:4]
    events = rnd.apply(WrongCard(player=1, card=wrong))
    assert events == [
        WrongCardPenalised(player=1, card=wrong),
        CardsDrawn(player=1, cards=tuple(top_of_pile), reason="wrong-card"),
        TurnStarted(player=2),
    ]
    assert (rnd.state.turn, rnd.state.pending_draw) == (2, 0)
    # The draw was spent: seat 2's Draw Two is a new one, 2 cards on seat 0 (not 2 more).
    rnd.apply(PlayCard(player=2, card=card(rnd, 2, "Y+2")))
    assert (rnd.state.turn, rnd.state.pending_draw) == (0, 2)


def test_a_stack_allowed_on_a_pending_draw_is_not_a_wrong_card() -> None:
    rnd = stacked_draw_two()
    error = refused(rnd, WrongCard(player=1, card=card(rnd, 1, "G+2")))
    assert (error.rule, error.seat) == ("not-a-wrong-card", None)


def test_a_wrong_card_on_a_wild_draw_4_ends_its_challenge() -> None:
    """Seat 1 faces a Wild Draw 4 and reports a yellow 4 (the colour chosen, but the draw must be
    answered first): 2 + 4 cards, and the Wild Draw 4 can no longer be challenged, by anyone."""
    rnd = Round.from_position(
        OFFICIAL, [["W+4", "B5"], ["Y4", "Y6"], ["G6", "G7"]], discard=["R7"]
    )
    rnd.apply(PlayCard(player=0, card=card(rnd, 0, "W+4"), colour=Y))
    assert (rnd.state.challenge_offender, rnd.state.pending_draw) == (0, 4)
    rnd.apply(WrongCard(player=1, card=card(rnd, 1, "Y4")))
    assert len(rnd.state.hands[1]) == 2 + 2 + 4
    assert (rnd.state.turn, rnd.state.pending_draw, rnd.state.challenge_offender) == (2, 0, None)
    assert not any(isinstance(action, Challenge) for action in rnd.legal_actions())
    error = refused(rnd, Challenge(player=2))
    assert (error.rule, error.seat) == ("challenge-only-next-player", None)
