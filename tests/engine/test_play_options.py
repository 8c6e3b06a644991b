"""Every option-column switch of rules.md "Play" (issue 3 item 1), each naming its seed file."""

from __future__ import annotations

import random

import pytest

from engine.bots import HeuristicBot, play_round
from engine.commands import CallUno, CatchUno, Challenge, Draw, PlayCard, WrongCard
from engine.dealer import draw_first_dealer
from engine.deck import builtin_deck
from engine.errors import RuleError
from engine.events import CardReturned, CardsDrawn, ChallengeDecided
from engine.game import Game
from engine.round import Round, RoundSetup
from engine.rules import RuleSet, preset
from engine.state import Phase
from tests.engine.scenario import card, codes, deck_order, top_code

R, Y, G, B = 0, 1, 2, 3


def start_with(first: str, rules: RuleSet, players: int = 4, dealer: int = 0) -> Round:
    deck = builtin_deck(rules.deck)
    order = deck_order(deck, {7 * players: first, 7 * players + 1: "G5"})
    return Round.new(rules, RoundSetup(players=players, dealer=dealer, deck_order=order))


def test_option_first_wild_returned_and_flipped_again_seed_001_004() -> None:
    """001 / 004: a plain Wild turned up is returned and another card flipped."""
    rnd = start_with("W", RuleSet(first_wild="return"))
    assert any(isinstance(e, CardReturned) for e in rnd.events)
    assert top_code(rnd) != "W" and rnd.state.phase is Phase.PLAY


def test_option_first_reverse_player_right_of_dealer_plays_first_seed_001_004() -> None:
    """001 / 004: Reverse turned up: the player to the dealer's right plays first."""
    rnd = start_with("BR", RuleSet(first_reverse="right_of_dealer"), dealer=2)
    assert rnd.state.turn == 1 and rnd.state.direction == -1


def test_option_draw_until_playable_seed_004_002() -> None:
    """004 / 002 "Killer": draw until a playable card turns up; it may then be played."""
    rules = RuleSet(draw="until-playable")
    rnd = Round.from_position(
        rules, [["Y3", "B9"], ["G1"]], discard=["R7"], draw=["G2", "B4", "R4", "Y8"]
    )
    rnd.apply(Draw(player=0))
    assert codes(rnd, 0) == ["Y3", "B9", "G2", "B4", "R4"]
    assert rnd.state.phase is Phase.DRAWN
    rnd.apply(PlayCard(player=0, card=card(rnd, 0, "R4")))


def test_option_draw_until_playable_cap_seed_004() -> None:
    """004 mentions a cap of 10 cards; ``draw_until_max`` sets it."""
    rules = RuleSet(draw="until-playable", draw_until_max=2)
    rnd = Round.from_position(
        rules, [["Y3", "B9"], ["G1"]], discard=["R7"], draw=["G2", "B4", "R4"]
    )
    rnd.apply(Draw(player=0))
    assert len(rnd.state.hands[0]) == 4 and rnd.state.turn == 1


def test_option_draw_until_playable_without_a_cap_draws_past_any_streak_seed_004_002() -> None:
    """Without ``draw_until_max`` there is no cap: every card that does not match a red 7 (the
    blue, green and yellow ones but their 7s, 69 in the modern deck) comes off the pile before
    the red 1 under them, which may be played."""
    deck = builtin_deck("modern")
    misses = [c for c in deck.codes if c[0] in "BGY" and c[1:] != "7"]
    assert len(misses) == 69
    rnd = Round.from_position(
        RuleSet(draw="until-playable"), [["R2"], ["R3"]], discard=["R7"], draw=[*misses, "R1"]
    )
    rnd.apply(Draw(player=0))
    assert len(rnd.state.hands[0]) == 1 + 70
    assert rnd.state.phase is Phase.DRAWN and rnd.state.drawn_card == card(rnd, 0, "R1")


def test_option_strict_wild_draw_four_no_playable_card_seed_003() -> None:
    """003's stricter reading: illegal while holding any playable card (here a 7 of another
    colour), legal under the default reading."""
    hands = [["W+4", "G7", "B2"], ["R1"]]
    default = Round.from_position(RuleSet(), hands, discard=["R7"])
    assert default.wild_draw_four_is_legal(0, card(default, 0, "W+4"))
    strict = Round.from_position(RuleSet(wd4_legality="no-playable-card"), hands, discard=["R7"])
    assert not strict.wild_draw_four_is_legal(0, card(strict, 0, "W+4"))


def test_option_strict_wild_draw_four_legal_with_no_playable_card_seed_003() -> None:
    """Under 003's stricter reading a hand whose other cards match nothing (a blue 2, and a
    second Wild Draw 4, which does not count) plays it honestly: a challenge costs the
    challenger 4 + 2 cards and the player none."""
    rules = RuleSet(wd4_legality="no-playable-card")
    rnd = Round.from_position(rules, [["W+4", "B2", "W+4"], ["G1", "Y5"], ["G3"]],
                              discard=["R7"])
    assert rnd.wild_draw_four_is_legal(0, card(rnd, 0, "W+4"))
    rnd.apply(PlayCard(player=0, card=card(rnd, 0, "W+4"), colour=B))
    rnd.apply(Challenge(player=1))
    assert [len(hand) for hand in rnd.state.hands] == [2, 8, 1]
def test_before_the_opening_colour_is_chosen_a_wild_draw_four_is_legal() -> None:
    """A Wild turned up first: until its colour is chosen there is no colour to follow, so a
    hand of coloured cards holds none of it and its Wild Draw 4 would be honest."""
    deck = builtin_deck(RuleSet().deck)
    rnd = Round.new(RuleSet(), RoundSetup(players=3, deck_order=deck_order(
        deck, {0: "W+4", 21: "W"})))
    assert rnd.state.phase is Phase.OPENING and codes(rnd, 1)[0] == "W+4"
    assert rnd.wild_draw_four_is_legal(1, card(rnd, 1, "W+4"))


def test_option_guilty_player_takes_back_the_wild_draw_four_seed_003() -> None:
    """003: a guilty Wild Draw 4 player draws 4 and takes the card back."""
    rules = RuleSet(wd4_guilty_takes_back=True)
    rnd = Round.from_position(rules, [["W+4", "R2", "G7"], ["B1", "Y5"], ["G1"]], discard=["R7"])
    rnd.apply(PlayCard(player=0, card=card(rnd, 0, "W+4"), colour=B))
    rnd.apply(Challenge(player=1))
    assert "W+4" in codes(rnd, 0) and len(rnd.state.hands[0]) == 7
    assert top_code(rnd) == "R7" and rnd.state.colour == B


def test_option_the_card_taken_back_is_announced_before_the_four_drawn_seed_003() -> None:
    rules = RuleSet(wd4_guilty_takes_back=True)
    rnd = Round.from_position(rules, [["W+4", "R2", "G7"], ["B1", "Y5"], ["G1"]], discard=["R7"])
    wild = card(rnd, 0, "W+4")
    rnd.apply(PlayCard(player=0, card=wild, colour=B))
    top = tuple(reversed(rnd.state.draw_pile))[:4]
    events = rnd.apply(Challenge(player=1))
    assert events == [ChallengeDecided(challenger=1, offender=0, guilty=True),
                      CardsDrawn(player=0, cards=(wild,), reason="take-back"),
                      CardsDrawn(player=0, cards=top, reason="challenge-guilty")]


def test_option_a_wild_draw_four_alone_in_the_discard_pile_stays_there_seed_003() -> None:
    """A false UNO with the Wild Draw 4 draws the last cards: the reshuffle leaves it alone on
    the discard pile. Found guilty, its player draws 4 but the card stays: the pile keeps a top."""
    rules = RuleSet(wd4_guilty_takes_back=True, false_call_penalty=2)
    rnd = Round.from_position(rules, [["W+4", "R2", "G7", "G8"], ["B1", "Y5"], ["G1"]],
                              discard=["R7"], rest="discard")
    wild = card(rnd, 0, "W+4")
    rnd.apply(PlayCard(player=0, card=wild, colour=B, uno=True))
    assert rnd.state.discard == [wild]
    events = rnd.apply(Challenge(player=1))
    assert [e.reason for e in events if isinstance(e, CardsDrawn)] == ["challenge-guilty"]
    assert rnd.state.discard == [wild] and rnd.state.colour == B
    assert len(rnd.state.hands[0]) == 3 + 2 + 4


@pytest.mark.parametrize(
    ("switch", "first", "second", "total"),
    [
        ("stack_draw_two", "R+2", "G+2", 4),
        ("stack_draw_four", "W+4", "W+4", 8),
        ("stack_draw_two_on_four", "W+4", "R+2", 6),
        ("stack_draw_four_on_two", "R+2", "W+4", 6),
    ],
)
def test_option_stacking_seed_002(switch: str, first: str, second: str, total: int) -> None:
    """002: stack +2 on +2, +4 on +4, +2 on +4 (rules.md), +4 on +2; the total passes on."""
    rules = RuleSet(**{switch: True})
    rnd = Round.from_position(rules, [[first, "Y1"], [second, "Y5", "B1"], ["G1"]], discard=["R7"])
    rnd.apply(PlayCard(player=0, card=card(rnd, 0, first), colour=R if first == "W+4" else None))
    rnd.apply(PlayCard(player=1, card=card(rnd, 1, second), colour=R if second == "W+4" else None))
    assert rnd.state.turn == 2 and rnd.state.pending_draw == total
    rnd.apply(Draw(player=2))
    assert len(rnd.state.hands[2]) == 1 + total and rnd.state.turn == 0
    off = Round.from_position(RuleSet(), [[first, "Y1"], [second, "Y5"], ["G1"]], discard=["R7"])
    off.apply(PlayCard(player=0, card=card(off, 0, first), colour=R if first == "W+4" else None))
    with pytest.raises(RuleError):
        off.apply(
            PlayCard(player=1, card=card(off, 1, second), colour=R if second == "W+4" else None)
        )


def test_option_deflect_with_skip_passes_the_draw_on_seed_002() -> None:
    """002: after a +2, a Skip of the same colour passes it to the next player."""
    rules = RuleSet(stack_deflect=True)
    rnd = Round.from_position(
        rules, [["R+2", "Y1"], ["RS", "B1"], ["G1", "G2"], ["Y7"]], discard=["R7"]
    )
    rnd.apply(PlayCard(player=0, card=card(rnd, 0, "R+2")))
    rnd.apply(PlayCard(player=1, card=card(rnd, 1, "RS")))
    assert rnd.state.turn == 2 and rnd.state.pending_draw == 2


def test_option_deflect_with_reverse_sends_the_draw_back_seed_002() -> None:
    """002: after a +2, a Reverse of the same colour sends it back to its player."""
    rules = RuleSet(stack_deflect=True)
    rnd = Round.from_position(
        rules, [["R+2", "Y1"], ["RR", "B1"], ["G1", "G2"], ["Y7"]], discard=["R7"]
    )
    rnd.apply(PlayCard(player=0, card=card(rnd, 0, "R+2")))
    rnd.apply(PlayCard(player=1, card=card(rnd, 1, "RR")))
    assert rnd.state.turn == 0 and rnd.state.pending_draw == 2 and rnd.state.direction == -1
    rnd.apply(Draw(player=0))
    assert len(rnd.state.hands[0]) == 3 and rnd.state.turn == 3


def test_option_uno_penalty_four_seed_001() -> None:
    """001: caught without UNO: draw FOUR."""
    rules = RuleSet(uno_penalty=4)
    rnd = Round.from_position(rules, [["R3", "B9"], ["G1", "R1"], ["Y1"]], discard=["R7"])
    rnd.apply(PlayCard(player=0, card=card(rnd, 0, "R3")))
    rnd.apply(CatchUno(player=1, target=0))
    assert len(rnd.state.hands[0]) == 5


def test_option_false_uno_call_penalty_seed_001() -> None:
    """001 (option): calling UNO falsely costs the penalty; off by default (a refused call)."""
    rules = RuleSet(false_call_penalty=2)
    hands = [["R3", "B9", "B8"], ["G1", "R1", "B2"], ["Y1", "Y2"]]
    rnd = Round.from_position(rules, hands, discard=["R7"])
    events = rnd.apply(PlayCard(player=0, card=card(rnd, 0, "R3"), uno=True))
    assert any(isinstance(e, CardsDrawn) and e.reason == "false-uno" for e in events)
    assert len(rnd.state.hands[0]) == 4
    rnd.apply(CallUno(player=1))  # three cards
    assert len(rnd.state.hands[1]) == 5
    rnd.apply(CallUno(player=2))  # two cards, but not their turn
    assert len(rnd.state.hands[2]) == 4
    off = Round.from_position(RuleSet(), hands, discard=["R7"])
    with pytest.raises(RuleError, match="one card left"):
        off.apply(CallUno(player=1))


def test_option_wrong_card_penalty_off_seed_003() -> None:
    """003's wrong-card penalty can be switched off: the report is then refused."""
    rnd = Round.from_position(RuleSet(wrong_card_penalty=0), [["Y3", "B9"], ["G1"]], discard=["R7"])
    with pytest.raises(RuleError, match="switched off"):
        rnd.apply(WrongCard(player=0, card=card(rnd, 0, "Y3")))


def test_option_winner_deals_next_seed_003() -> None:
    """003: the winner of a round deals the next."""
    game = Game(RuleSet(next_dealer="winner"), 4, seed=11)
    for _ in range(3):
        rnd = game.new_round()
        play_round(rnd, [HeuristicBot(s) for s in range(4)], random.Random(2))
        game.finish_round(rnd)
        assert game.dealer == rnd.state.went_out


def test_option_agreed_target_score_seed_001() -> None:
    """001: play to any agreed score."""
    game = Game(RuleSet(target_score=50), 3, seed=4)
    winners = game.play([HeuristicBot(s) for s in range(3)])
    assert game.sheet.totals[winners[0]] >= 50
    assert all(t < 50 for i, t in enumerate(game.sheet.totals) if i not in winners)


def test_option_uno_catch_window_open_until_the_next_discard_seed_003() -> None:
    """003: 「「ウノ」と叫ぶのを忘れた人が最後から2枚目のカードを捨てた瞬間から、次の人がカードを
    捨てる瞬間までの間に指摘されたら、罰になります。」 (caught from the moment the next-to-last card
    is discarded until the moment the next player discards): the next player drawing does not
    close the window, as it does under 001's "beginning a turn"; the next discard does."""
    hands = [["R3", "B9"], ["G1", "G2"], ["Y1", "R1"]]
    rules = RuleSet(uno_catch_window="next-discard")
    rnd = Round.from_position(rules, hands, discard=["R7"], draw=["B5", "Y6"])
    rnd.apply(PlayCard(player=0, card=card(rnd, 0, "R3")))
    rnd.apply(Draw(player=1))
    assert rnd.state.turn == 2 and rnd.state.exposed == 0
    assert CatchUno(player=2, target=0) in rnd.legal_actions(2)
    rnd.apply(CatchUno(player=2, target=0))
    assert len(rnd.state.hands[0]) == 3
    closed = Round.from_position(rules, hands, discard=["R7"], draw=["B5", "Y6"])
    closed.apply(PlayCard(player=0, card=card(closed, 0, "R3")))
    closed.apply(Draw(player=1))
    closed.apply(PlayCard(player=2, card=card(closed, 2, "R1")))
    with pytest.raises(RuleError) as caught:
        closed.apply(CatchUno(player=1, target=0))
    assert (caught.value.rule, caught.value.seat) == ("catch-window", 0)
    assert "until the next card is discarded" in str(caught.value)
    default = Round.from_position(RuleSet(), hands, discard=["R7"], draw=["B5", "Y6"])
    default.apply(PlayCard(player=0, card=card(default, 0, "R3")))
    default.apply(Draw(player=1))
    with pytest.raises(RuleError) as caught:
        default.apply(CatchUno(player=2, target=0))
    assert (caught.value.rule, caught.value.seat) == ("catch-window", 0)


def test_option_catch_window_outlives_a_wild_draw_four_penalty_seed_003() -> None:
    """003's window: taking a Wild Draw 4's four cards discards nothing, so the player who went
    down to one card without UNO can still be caught."""
    rules = RuleSet(uno_catch_window="next-discard")
    rnd = Round.from_position(rules, [["W+4", "B9"], ["G1", "G2"], ["Y1", "R1"]], discard=["R7"])
    rnd.apply(PlayCard(player=0, card=card(rnd, 0, "W+4"), colour=Y))
    rnd.apply(Draw(player=1))
    rnd.apply(CatchUno(player=2, target=0))
    assert len(rnd.state.hands[0]) == 3


def test_option_first_dealer_by_point_value_seed_001() -> None:
    """001: "Each player draws a card. Player with the highest point value is the dealer": a Wild
    (50 points) beats a 9, where 000 and 003 count it 0 ("count any card with a symbol as
    zero")."""
    deck = builtin_deck("classic")
    order = [next(i for i, c in enumerate(deck.cards) if c.code == code)
             for code in ("R9", "W", "G3", "B5")]
    order += [i for i in range(len(deck)) if i not in order]
    by_number = draw_first_dealer(deck, 4, random.Random(0), order=order, rules=RuleSet())
    by_points = draw_first_dealer(
        deck, 4, random.Random(0), order=order, rules=RuleSet(first_dealer_by="points")
    )
    assert (by_number.dealer, by_points.dealer) == (0, 1)
    assert preset("edition-2018").first_dealer_by == "points"


def test_first_dealer_is_drawn_through_the_public_api_seed_000_003() -> None:
    """000: "Each player draws a card; the player that draws the highest number deals (count any
    card with a symbol as zero)"; 003: 「数字の一番大きなカードを引いた人が親になります。記号カード
    はゼロと同じです。」 The draw is part of ``engine``'s public names, and a bad player count is a
    clear error."""
    import engine

    deck = engine.builtin_deck("modern")
    draw = engine.draw_first_dealer(deck, 4, random.Random(9), rules=engine.preset("official"))
    assert isinstance(draw, engine.DealerDraw) and draw.dealer == 0 and len(draw.rounds) == 2
    assert Game(RuleSet(), 4, seed=9).dealer_draw == draw
    with pytest.raises(ValueError, match="2 to 112 players, not 1"):
        engine.draw_first_dealer(deck, 1, random.Random(0))
