"""One test (at least) per default-column row of rules.md "Play", each naming its seed file.

Seeds: 000_6d457ef12dd435d1.txt (official 2017), 001_394bbb128c8815aa.txt (2018 edition),
002_2cf2187f47789488.txt (basic rules), 003_ea5f156088150643.txt (Japanese official),
004_9e61cbb47be309c5.txt (UNO Showdown).
"""

from __future__ import annotations

import random

import pytest

from engine.cards import CardKind, Colour
from engine.commands import (
    CallUno,
    CatchUno,
    Challenge,
    ChooseOpening,
    Draw,
    Pass,
    Penalty,
    PlayCard,
    WrongCard,
)
from engine.dealer import draw_first_dealer
from engine.deck import builtin_deck
from engine.errors import RuleError
from engine.events import (
    CardPlayed,
    CardReturned,
    CardsDrawn,
    ChallengeDecided,
    DirectionChanged,
    HandsShuffled,
    Reshuffled,
    RoundEnded,
    RoundStarted,
    TurnSkipped,
    TurnStarted,
    UnoCalled,
)
from engine.round import Round, RoundSetup
from engine.rules import PenaltyReason, RuleSet
from engine.state import Phase
from tests.engine.scenario import card, codes, deck_order, kinds, top_code

R, Y, G, B = (int(c) for c in Colour)
DEFAULT = RuleSet()


def start_with(first: str, players: int = 4, dealer: int = 0, rules: RuleSet = DEFAULT) -> Round:
    """A round whose first turned-up card is ``first`` (hands are the lowest ids, in order)."""
    deck = builtin_deck(rules.deck)
    order = deck_order(deck, {7 * players: first})
    return Round.new(rules, RoundSetup(players=players, dealer=dealer, deck_order=order))


# ---------------------------------------------------------------- players, dealer


def test_players_2_to_10_seed_001() -> None:
    """001: UNO is for 2-10 players."""
    for players in (2, 10):
        assert Round.new(DEFAULT, RoundSetup(players=players, seed=1)).state.players == players
    for players in (1, 11):
        with pytest.raises(RuleError, match="2-10 players"):
            Round.new(DEFAULT, RoundSetup(players=players, seed=1))


def test_first_dealer_highest_number_symbols_zero_redraw_on_tie_seed_000_003() -> None:
    """000 / 003: each draws a card, highest number deals, symbols count 0, a tie redraws."""
    deck = builtin_deck("classic")
    ids = {
        code: [i for i, c in enumerate(deck.cards) if c.code == code]
        for code in ("R9", "G9", "BS", "W", "Y3", "B5")
    }
    # seats 0..3 draw R9, W, G9, BS: seats 0 and 2 tie on 9 and draw again: Y3, B5 -> seat 2
    order = [ids["R9"][0], ids["W"][0], ids["G9"][0], ids["BS"][0], ids["Y3"][0], ids["B5"][0]]
    rest = [i for i in range(len(deck)) if i not in order]
    result = draw_first_dealer(deck, 4, random.Random(0), order=order + rest)
    assert result.dealer == 2
    assert len(result.rounds) == 2
    assert [seat for seat, _ in result.rounds[1]] == [0, 2]


def test_deal_passes_left_each_round_seed_004() -> None:
    """004: pass the deal left each round."""
    from engine.bots import HeuristicBot, play_round
    from engine.game import Game

    game = Game(DEFAULT, 3, seed=5)
    first = game.dealer
    for expected in (first, (first + 1) % 3, (first + 2) % 3):
        rnd = game.new_round()
        assert rnd.state.dealer == expected
        play_round(rnd, [HeuristicBot(s) for s in range(3)], random.Random(1))
        game.finish_round(rnd)


# ---------------------------------------------------------------- first card


def test_first_card_wild_draw_four_returned_and_reflipped_all_seeds() -> None:
    """000, 001, 003, 004: a Wild Draw 4 turned up is returned, the deck reshuffled, flip again."""
    rnd = start_with("W+4")
    assert isinstance(rnd.events[0], CardReturned)
    assert rnd.deck.cards[rnd.events[0].card].code == "W+4"
    assert top_code(rnd) != "W+4"
    assert sorted(rnd.state.all_cards()) == list(range(len(rnd.deck)))


def test_first_card_plain_wild_first_player_chooses_colour_seed_000_003() -> None:
    """000 / 003: first card Wild: the player left of the dealer chooses the colour and plays."""
    rnd = start_with("W", dealer=1)
    assert rnd.state.phase is Phase.OPENING and rnd.state.turn == 2
    with pytest.raises(RuleError, match="first player must first choose"):
        rnd.apply(Draw(player=2))
    rnd.apply(ChooseOpening(player=2, colour=G))
    assert rnd.state.colour == G and rnd.state.phase is Phase.PLAY and rnd.state.turn == 2


@pytest.mark.parametrize("code", ["WSH", "WC"])
def test_first_card_shuffle_or_customizable_first_player_chooses_colour_seed_000(
    code: str,
) -> None:
    """000: Shuffle Hands / Customizable turned up: the first player chooses the colour only."""
    rnd = start_with(code)
    before = [list(h) for h in rnd.state.hands]
    rnd.apply(ChooseOpening(player=1, colour=B))
    assert rnd.state.colour == B and rnd.state.hands == before and rnd.state.turn == 1


def test_first_card_swap_hands_first_player_may_swap_seed_001() -> None:
    """001: Wild Swap Hands turned up: the first player chooses the colour and may swap."""
    rules = RuleSet(deck="swap")
    rnd = start_with("WX", rules=rules)
    hand1, hand3 = list(rnd.state.hands[1]), list(rnd.state.hands[3])
    rnd.apply(ChooseOpening(player=1, colour=Y, target=3))
    assert rnd.state.hands[1] == hand3 and rnd.state.hands[3] == hand1
    rnd2 = start_with("WX", rules=rules)
    rnd2.apply(ChooseOpening(player=1, colour=Y))
    assert rnd2.state.hands[1] == hand1


def test_first_card_wild_showdown_starts_a_showdown_with_first_player_seed_004() -> None:
    """004: Wild Showdown turned up: the first player chooses colour, opponent and cards."""
    rnd = start_with("WSD", rules=RuleSet(deck="showdown"))
    rnd.apply(ChooseOpening(player=1, colour=R, opponent=3, count=2))
    assert rnd.state.phase is Phase.SHOWDOWN
    assert rnd.state.showdown is not None and len(rnd.state.showdown.loaded) == 2


def test_first_card_draw_two_first_player_draws_two_and_is_skipped_seed_000_001_003() -> None:
    """000, 001, 003: Draw Two turned up: the first player draws 2 and is skipped."""
    rnd = start_with("R+2")
    assert len(rnd.state.hands[1]) == 9
    assert rnd.state.turn == 2
    assert any(isinstance(e, TurnSkipped) and e.player == 1 for e in rnd.events)
    drawn = [e for e in rnd.events if isinstance(e, CardsDrawn)]
    assert [(e.player, e.cards, e.reason) for e in drawn] == [
        (1, tuple(rnd.state.hands[1][7:]), "opening")]


def test_first_card_skip_first_player_skipped_seed_000_001_003() -> None:
    """000, 001, 003: Skip turned up: the player left of the dealer is skipped."""
    rnd = start_with("GS", dealer=2)
    assert rnd.state.turn == 0


def test_first_card_reverse_dealer_plays_first_going_right_seed_000_003() -> None:
    """000 / 003: Reverse turned up: the dealer plays first and play goes right."""
    rnd = start_with("BR", dealer=2)
    assert rnd.state.turn == 2 and rnd.state.direction == -1
    rnd.apply(Draw(player=2))
    if rnd.state.phase is Phase.DRAWN:
        rnd.apply(Pass(player=2))
    assert rnd.state.turn == 1


def test_first_card_number_first_player_left_of_dealer_seed_001() -> None:
    rnd = start_with("Y5", dealer=3)
    started = rnd.events[0]
    assert isinstance(started, RoundStarted) and started.first_player == 0 == rnd.state.turn


# ---------------------------------------------------------------- matching and drawing


def test_matching_colour_number_symbol_and_wilds_on_anything_all_seeds() -> None:
    """All seeds: match by colour, number or symbol; a wild goes on anything."""
    hands = [["R3", "B7", "GS", "Y2", "W", "B1"], ["R1"]]
    for code, ok in (("R3", True), ("B7", True), ("Y2", False), ("W", True)):
        rnd = Round.from_position(DEFAULT, hands, discard=["R7"])
        if ok:
            rnd.apply(
                PlayCard(player=0, card=card(rnd, 0, code), colour=G if code == "W" else None)
            )
        else:
            with pytest.raises(RuleError, match="must match"):
                rnd.apply(PlayCard(player=0, card=card(rnd, 0, code)))
    rnd = Round.from_position(DEFAULT, hands, discard=["RS"])
    rnd.apply(PlayCard(player=0, card=card(rnd, 0, "GS")))  # symbol matches symbol
    assert rnd.state.colour == G


def test_draw_one_then_only_that_card_may_be_played_seed_001_003() -> None:
    """001 / 003: a player who cannot (or will not) play draws one; only that card may go."""
    rnd = Round.from_position(DEFAULT, [["R3", "B9"], ["G1"]], discard=["R7"], draw=["R5"])
    rnd.apply(Draw(player=0))
    assert rnd.state.phase is Phase.DRAWN
    with pytest.raises(RuleError, match="only the card just drawn"):
        rnd.apply(PlayCard(player=0, card=card(rnd, 0, "R3")))
    rnd.apply(PlayCard(player=0, card=card(rnd, 0, "R5")))
    assert top_code(rnd) == "R5" and rnd.state.turn == 1


def test_drawn_card_that_cannot_be_played_ends_the_turn_seed_001() -> None:
    rnd = Round.from_position(DEFAULT, [["R3", "B9"], ["G1"]], discard=["R7"], draw=["G4"])
    rnd.apply(Draw(player=0))
    assert rnd.state.turn == 1 and codes(rnd, 0)[-1] == "G4"


def test_drawn_playable_card_may_be_kept_seed_003() -> None:
    rnd = Round.from_position(DEFAULT, [["R3", "B9"], ["G1"]], discard=["R7"], draw=["R4"])
    rnd.apply(Draw(player=0))
    rnd.apply(Pass(player=0))
    assert rnd.state.turn == 1 and len(rnd.state.hands[0]) == 3


def test_a_reverse_announces_the_new_direction_whatever_the_position_set() -> None:
    """A position may set play going two seats at a time (``direction=2``): a Reverse turns it
    to -2, announced as such, and play goes on two seats the other way."""
    rnd = Round.from_position(DEFAULT, [["RR", "R1"], ["G1"], ["Y1"], ["B1"], ["B2"]],
                              discard=["R7"], direction=2)
    events = rnd.apply(PlayCard(player=0, card=card(rnd, 0, "RR")))
    assert events[1:] == [DirectionChanged(direction=-2), TurnStarted(player=3)]


def test_a_card_played_naming_its_own_colour_is_accepted() -> None:
    rnd = Round.from_position(DEFAULT, [["R1", "G2", "G3"], ["Y4"], ["B1"]], discard=["R7"])
    one = card(rnd, 0, "R1")
    events = rnd.apply(PlayCard(player=0, card=one, colour=R))
    assert events == [CardPlayed(player=0, card=one, legal=True), TurnStarted(player=1)]
    assert top_code(rnd) == "R1" and rnd.state.turn == 1


def test_uno_said_with_an_action_card_is_heard() -> None:
    rnd = Round.from_position(DEFAULT, [["RS", "G2"], ["Y4"], ["B1"]], discard=["R7"])
    events = rnd.apply(PlayCard(player=0, card=card(rnd, 0, "RS"), uno=True))
    assert UnoCalled(player=0) in events
    assert rnd.state.uno_called[0] and rnd.state.exposed is None


def test_going_out_on_a_draw_two_makes_seat_0_draw_for_the_score() -> None:
    """The last seat goes out on a Draw Two: seat 0, next, draws the 2 at once."""
    rnd = Round.from_position(DEFAULT, [["G1"], ["Y4"], ["R+2"]], discard=["R7"], turn=2)
    rnd.apply(PlayCard(player=2, card=card(rnd, 2, "R+2")))
    assert rnd.over and len(rnd.state.hands[0]) == 3


def test_a_drawn_nine_is_a_number_card_that_may_be_played_seed_002() -> None:
    rnd = Round.from_position(RuleSet(play_drawn="number"), [["B3", "B2"], ["G1"]],
                              discard=["R7"], draw=["R9"])
    rnd.apply(Draw(player=0))
    assert (rnd.state.phase, codes(rnd, 0)[-1]) == (Phase.DRAWN, "R9")
    rnd.apply(PlayCard(player=0, card=card(rnd, 0, "R9")))
    assert rnd.state.drawn_card is None and rnd.to_dict()["state"]["drawn_card"] is None


def test_a_card_drawn_that_matches_by_number_may_be_played_seed_001() -> None:
    rnd = Round.from_position(DEFAULT, [["B3", "B9"], ["G1"]], discard=["R7"], draw=["G7"])
    rnd.apply(Draw(player=0))
    assert (rnd.state.phase, rnd.state.turn, codes(rnd, 0)[-1]) == (Phase.DRAWN, 0, "G7")


def test_a_spent_draw_two_lets_a_drawn_draw_two_of_another_colour_pass_seed_002() -> None:
    """002: a Draw Two whose penalty was taken matches by colour only, for a card drawn too."""
    rules = RuleSet(spent_draw_colour_only=True)
    rnd = Round.from_position(rules, [["R+2", "G1"], ["Y4", "Y5"], ["B3", "B9"]],
                              discard=["R7"], draw=["Y8", "Y9", "G+2"])
    rnd.apply(PlayCard(player=0, card=card(rnd, 0, "R+2")))
    rnd.apply(Draw(player=1))  # takes Y8 and Y9
    events = rnd.apply(Draw(player=2))  # the G+2: not red, so not playable
    assert codes(rnd, 2)[-1] == "G+2" and events[-1] == TurnStarted(player=0)


def test_a_draw_with_no_card_left_anywhere_passes_the_turn() -> None:
    rest = list(builtin_deck(DEFAULT.deck).codes)
    for code in ("R3", "B9", "G1", "R7"):
        rest.remove(code)
    rnd = Round.from_position(DEFAULT, [["R3", "B9"], ["G1"], rest], discard=["R7"])
    assert rnd.state.draw_pile == []
    events = rnd.apply(Draw(player=0))
    assert events == [TurnStarted(player=1)] and codes(rnd, 0) == ["R3", "B9"]


def test_a_number_or_a_skip_turned_up_starts_the_first_turn_seed_000_001_003() -> None:
    number = start_with("R5", players=3)
    assert kinds(number.events) == ["round-started", "turn-started"]
    assert number.events[-1] == TurnStarted(player=1)
    skip = start_with("GS", players=3)
    assert skip.events[1:] == [TurnSkipped(player=1), TurnStarted(player=2)]


def test_a_drawn_card_kept_passes_the_turn_on_in_the_direction_of_play_seed_003() -> None:
    """Passing after drawing hands the turn to the next seat: left, or right after a Reverse."""
    for direction, following in ((1, 1), (-1, 2)):
        rnd = Round.from_position(DEFAULT, [["R3", "B9"], ["G1"], ["Y1"]], discard=["R7"],
                                  draw=["R4"], direction=direction)
        rnd.apply(Draw(player=0))
        assert rnd.apply(Pass(player=0)) == [TurnStarted(player=following)]
        assert (rnd.state.turn, rnd.state.phase) == (following, Phase.PLAY)
        assert rnd.state.drawn_card is None and rnd.to_dict()["state"]["drawn_card"] is None


def test_drawing_cancels_an_uno_call_and_ends_being_exposed_seed_001_003() -> None:
    """A player who said UNO and then draws has two cards: the call lapses (False, as saved).
    Under 003's window a player left exposed who draws can no longer be caught."""
    said = Round.from_position(DEFAULT, [["R3", "B9"], ["G1", "G2"]], discard=["R7"],
                               draw=["Y4", "Y5"])
    said.apply(CallUno(player=0))  # before playing the next-to-last card
    assert said.state.uno_called == [True, False]
    said.apply(Draw(player=0))
    assert said.state.uno_called == [False, False]
    assert said.to_dict()["state"]["uno_called"] == [False, False]
    rules = RuleSet(uno_catch_window="next-discard")
    rnd = Round.from_position(rules, [["R1", "G2"], ["Y4", "Y5"]], discard=["R7"],
                              draw=["B9", "B8"])
    rnd.apply(PlayCard(player=0, card=card(rnd, 0, "R1")))
    rnd.apply(Draw(player=1))  # B9 does not match: seat 0 again, still exposed under 003
    assert (rnd.state.exposed, rnd.state.turn) == (0, 0)
    rnd.apply(Draw(player=0))  # B8: two cards now
    assert rnd.state.exposed is None and rnd.to_dict()["state"]["exposed"] is None
    with pytest.raises(RuleError) as caught:
        rnd.apply(CatchUno(player=1, target=0))
    assert (caught.value.rule, caught.value.seat) == ("catch-window", 0)


def test_a_penalty_longer_than_the_draw_pile_reshuffles_and_draws_on_all_seeds() -> None:
    """A Draw Two with one card left to draw: the victim takes it, the discard pile (but its
    top) is reshuffled, and the second card comes from there, all in one announced draw."""
    rnd = Round.from_position(DEFAULT, [["R+2", "G1"], ["Y4", "Y5"], ["B1"]], discard=["R7"],
                              draw=["G9"], rest="discard")
    under = len(rnd.state.discard)  # the R7 and every card not in a hand or the pile
    rnd.apply(PlayCard(player=0, card=card(rnd, 0, "R+2")))
    events = rnd.apply(Draw(player=1))
    drawn = [e for e in events if isinstance(e, CardsDrawn)]
    assert Reshuffled(cards=under) in events and len(drawn) == 1
    assert drawn[0].reason == "penalty" and len(drawn[0].cards) == 2
    assert codes(rnd, 1)[2] == "G9" and rnd.state.hands[1][2:] == list(drawn[0].cards)
    assert rnd.state.uno_called == [False, False, False]


def test_a_catch_under_a_penalty_of_0_cards_draws_nothing() -> None:
    rnd = Round.from_position(RuleSet(uno_penalty=0), [["R3", "B9"], ["G1", "R1"], ["Y1"]],
                              discard=["R7"])
    rnd.apply(PlayCard(player=0, card=card(rnd, 0, "R3")))
    pile = list(rnd.state.draw_pile)
    events = rnd.apply(CatchUno(player=2, target=0))
    assert not any(isinstance(e, CardsDrawn) for e in events)
    assert codes(rnd, 0) == ["B9"] and rnd.state.draw_pile == pile


def test_a_table_penalty_on_a_player_left_exposed_ends_being_exposed() -> None:
    """Drawing any penalty leaves two cards or more: nobody can catch that player any more."""
    rnd = Round.from_position(DEFAULT, [["R3", "B9"], ["G1", "R1"], ["Y1"]], discard=["R7"])
    rnd.apply(PlayCard(player=0, card=card(rnd, 0, "R3")))
    assert rnd.state.exposed == 0
    rnd.apply(Penalty(player=0, reason=PenaltyReason.ADVICE))
    assert rnd.state.exposed is None and rnd.to_dict()["state"]["exposed"] is None
    assert rnd.state.uno_called == [False, False, False]
    with pytest.raises(RuleError) as caught:
        rnd.apply(CatchUno(player=2, target=0))
    assert (caught.value.rule, caught.value.seat) == ("catch-window", 0)


def test_draw_pile_empty_reshuffles_discard_except_top_all_seeds() -> None:
    """All seeds: an empty draw pile is rebuilt from the discard pile, except its top card."""
    rnd = Round.from_position(DEFAULT, [["R3", "B9"], ["G1"]], discard=["G7", "R7"], rest="discard")
    assert rnd.state.draw_pile == []
    under = len(rnd.state.discard) - 1
    events = rnd.apply(Draw(player=0))
    reshuffled = [e for e in events if isinstance(e, Reshuffled)]
    assert reshuffled and reshuffled[0].cards == under
    assert top_code(rnd) == "R7" and len(rnd.state.discard) == 1


# ---------------------------------------------------------------- Wild Draw 4


def test_wild_draw_four_legality_recorded_bluff_allowed_seed_000_001() -> None:
    """000 / 001: Wild Draw 4 only with no card of the current colour; a bluff is allowed and
    recorded (numbers and actions of other colours do not count)."""
    legal = Round.from_position(DEFAULT, [["W+4", "B7", "G7", "YS"], ["R1"]], discard=["R7"])
    assert legal.apply(PlayCard(player=0, card=card(legal, 0, "W+4"), colour=B))[0].legal  # type: ignore[union-attr]
    bluff = Round.from_position(DEFAULT, [["W+4", "R2", "G7"], ["R1"]], discard=["R7"])
    played = bluff.apply(PlayCard(player=0, card=card(bluff, 0, "W+4"), colour=B))[0]
    assert played.legal is False  # type: ignore[union-attr]
    assert bluff.state.challenge_guilty


def test_wild_draw_four_challenge_guilty_offender_draws_four_seed_000_001_003() -> None:
    """000, 001, 003: guilty: the offender draws 4, the challenger then plays normally; the
    chosen colour stands."""
    rnd = Round.from_position(DEFAULT, [["W+4", "R2", "G7"], ["B1", "Y5"], ["G1"]], discard=["R7"])
    rnd.apply(PlayCard(player=0, card=card(rnd, 0, "W+4"), colour=B))
    rnd.apply(Challenge(player=1))
    assert len(rnd.state.hands[0]) == 6 and len(rnd.state.hands[1]) == 2
    assert rnd.state.turn == 1 and rnd.state.colour == B and rnd.state.pending_draw == 0
    rnd.apply(PlayCard(player=1, card=card(rnd, 1, "B1")))


def test_wild_draw_four_challenge_innocent_challenger_draws_six_seed_000_001_003() -> None:
    """000, 001, 003: innocent: the challenger draws 6 and loses the turn; colour stands."""
    rnd = Round.from_position(DEFAULT, [["W+4", "B2", "G7"], ["B1", "Y5"], ["G1"]], discard=["R7"])
    rnd.apply(PlayCard(player=0, card=card(rnd, 0, "W+4"), colour=Y))
    rnd.apply(Challenge(player=1))
    assert len(rnd.state.hands[1]) == 8 and rnd.state.turn == 2 and rnd.state.colour == Y


def test_a_challenge_is_announced_with_who_draws_and_why_seed_000_001_003() -> None:
    """Guilty: the offender draws 4 ("challenge-guilty") and the challenger plays on; innocent:
    the challenger draws 6 ("challenge-innocent"), loses the turn and nothing is left pending."""
    for guilty, hand, drawer, count in ((True, "R2", 0, 4), (False, "B2", 1, 6)):
        rnd = Round.from_position(DEFAULT, [["W+4", hand, "G7"], ["B1", "Y5"], ["G1"]],
                                  discard=["R7"])
        rnd.apply(PlayCard(player=0, card=card(rnd, 0, "W+4"), colour=Y))
        top = tuple(reversed(rnd.state.draw_pile))[:count]
        events = rnd.apply(Challenge(player=1))
        reason = "challenge-guilty" if guilty else "challenge-innocent"
        expected: list[object] = [ChallengeDecided(challenger=1, offender=0, guilty=guilty),
                                  CardsDrawn(player=drawer, cards=top, reason=reason)]
        if not guilty:
            expected += [TurnSkipped(player=1), TurnStarted(player=2)]
        assert events == expected
        assert rnd.state.pending_draw == 0 and rnd.state.turn == (1 if guilty else 2)


def test_only_the_next_player_may_challenge_before_their_turn_seed_001() -> None:
    """001: only the next player may challenge, and only before they begin their turn."""
    rnd = Round.from_position(DEFAULT, [["W+4", "R2", "G7"], ["B1"], ["G1"]], discard=["R7"])
    rnd.apply(PlayCard(player=0, card=card(rnd, 0, "W+4"), colour=Y))
    for who in (0, 2):
        with pytest.raises(RuleError, match="only the next player may challenge"):
            rnd.apply(Challenge(player=who))
    rnd.apply(Draw(player=1))  # accepting the 4 cards begins (and ends) the turn
    with pytest.raises(RuleError, match="only the next player"):
        rnd.apply(Challenge(player=1))


def test_no_stacking_by_default_seed_001() -> None:
    """001 forbids stacking: a Draw Two cannot be answered with a Draw Two."""
    rnd = Round.from_position(DEFAULT, [["R+2", "R1"], ["G+2", "Y5"], ["G1"]], discard=["R7"])
    rnd.apply(PlayCard(player=0, card=card(rnd, 0, "R+2")))
    with pytest.raises(RuleError, match="stacking is off"):
        rnd.apply(PlayCard(player=1, card=card(rnd, 1, "G+2")))
    rnd.apply(Draw(player=1))
    assert len(rnd.state.hands[1]) == 4 and rnd.state.turn == 2


# ---------------------------------------------------------------- UNO


def test_uno_not_said_caught_before_next_player_begins_draws_two_seed_000_003_004() -> None:
    """000, 003, 004: UNO not said with the next-to-last card, caught in time: draw 2."""
    rnd = Round.from_position(DEFAULT, [["R3", "B9"], ["G1", "R1"], ["Y1"]], discard=["R7"])
    rnd.apply(PlayCard(player=0, card=card(rnd, 0, "R3")))
    assert rnd.state.exposed == 0
    rnd.apply(CatchUno(player=2, target=0))
    assert len(rnd.state.hands[0]) == 3


def test_uno_catch_window_closes_when_next_player_begins_seed_001() -> None:
    """001: no catching once the next player draws or plays."""
    rnd = Round.from_position(DEFAULT, [["R3", "B9"], ["G1", "R1"], ["Y1"]], discard=["R7"])
    rnd.apply(PlayCard(player=0, card=card(rnd, 0, "R3")))
    rnd.apply(PlayCard(player=1, card=card(rnd, 1, "R1")))
    with pytest.raises(RuleError, match="before the next player begins"):
        rnd.apply(CatchUno(player=2, target=0))


def test_uno_said_with_the_card_is_safe_seed_000() -> None:
    rnd = Round.from_position(DEFAULT, [["R3", "B9"], ["G1", "R1"], ["Y1"]], discard=["R7"])
    rnd.apply(PlayCard(player=0, card=card(rnd, 0, "R3"), uno=True))
    assert rnd.state.exposed is None
    with pytest.raises(RuleError, match="caught only"):
        rnd.apply(CatchUno(player=2, target=0))


def test_uno_self_catch_before_anyone_is_safe_seed_001() -> None:
    """001: saying UNO before anyone catches you is safe."""
    rnd = Round.from_position(DEFAULT, [["R3", "B9"], ["G1", "R1"], ["Y1"]], discard=["R7"])
    rnd.apply(PlayCard(player=0, card=card(rnd, 0, "R3")))
    rnd.apply(CallUno(player=0))
    with pytest.raises(RuleError):
        rnd.apply(CatchUno(player=1, target=0))
    assert len(rnd.state.hands[0]) == 1


# ---------------------------------------------------------------- wrong card


def test_wrong_card_taken_back_draw_two_turn_ends_seed_003() -> None:
    """003: a wrong card is taken back, the player draws 2 and the turn ends."""
    rnd = Round.from_position(DEFAULT, [["Y3", "B9"], ["G1"]], discard=["R7"])
    wrong = card(rnd, 0, "Y3")
    rnd.apply(WrongCard(player=0, card=wrong))
    assert wrong in rnd.state.hands[0] and len(rnd.state.hands[0]) == 4 and rnd.state.turn == 1


def test_wrong_card_report_refused_for_a_matching_card_seed_003() -> None:
    rnd = Round.from_position(DEFAULT, [["R3", "B9"], ["G1"]], discard=["R7"])
    with pytest.raises(RuleError, match="not a wrong card"):
        rnd.apply(WrongCard(player=0, card=card(rnd, 0, "R3")))


# ---------------------------------------------------------------- two players


def test_two_players_reverse_acts_as_skip_seed_001_003() -> None:
    """001 / 003: with two players a Reverse works like a Skip: the player plays again."""
    rnd = Round.from_position(DEFAULT, [["RR", "B9"], ["G1"]], discard=["R7"])
    rnd.apply(PlayCard(player=0, card=card(rnd, 0, "RR")))
    assert rnd.state.turn == 0


def test_two_players_skip_player_plays_again_seed_001_003() -> None:
    rnd = Round.from_position(DEFAULT, [["RS", "B9"], ["G1"]], discard=["R7"])
    rnd.apply(PlayCard(player=0, card=card(rnd, 0, "RS")))
    assert rnd.state.turn == 0


def test_two_players_draw_two_opponent_draws_play_returns_seed_001_003() -> None:
    """001 / 003: Draw Two / Wild Draw 4 with two players: the opponent draws, play returns."""
    rnd = Round.from_position(DEFAULT, [["R+2", "W+4", "B9"], ["G1"]], discard=["R7"])
    rnd.apply(PlayCard(player=0, card=card(rnd, 0, "R+2")))
    rnd.apply(Draw(player=1))
    assert rnd.state.turn == 0 and len(rnd.state.hands[1]) == 3
    rnd.apply(PlayCard(player=0, card=card(rnd, 0, "W+4"), colour=B))
    rnd.apply(Draw(player=1))
    assert rnd.state.turn == 0 and len(rnd.state.hands[1]) == 7


# ---------------------------------------------------------------- special wilds


def test_wild_shuffle_hands_deals_from_the_left_of_the_player_seed_000_003() -> None:
    """000 / 003: collect all hands, shuffle, deal one at a time from the player's left;
    direction unchanged; the player chooses the colour."""
    rnd = Round.from_position(
        DEFAULT,
        [["WSH", "R1", "R2"], ["G1", "G2"], ["Y1", "Y2", "Y3", "Y4"]],
        discard=["R7"],
        turn=0,
    )
    events = rnd.apply(PlayCard(player=0, card=card(rnd, 0, "WSH"), colour=G))
    shuffled = next(e for e in events if isinstance(e, HandsShuffled))
    # 8 cards dealt from seat 1: seats 1 and 2 get 3, seat 0 gets 2
    assert shuffled.sizes == (2, 3, 3)
    assert rnd.state.direction == 1 and rnd.state.colour == G and rnd.state.turn == 1
    assert sorted(rnd.state.all_cards()) == list(range(len(rnd.deck)))


def test_wild_swap_hands_swaps_with_chosen_player_seed_001() -> None:
    """001: swap hands with any chosen player; choose the colour."""
    rules = RuleSet(deck="swap")
    rnd = Round.from_position(rules, [["WX", "R1", "R2"], ["G1"], ["Y1", "Y2"]], discard=["R7"])
    rnd.apply(PlayCard(player=0, card=card(rnd, 0, "WX"), colour=Y, target=2))
    assert codes(rnd, 0) == ["Y1", "Y2"] and codes(rnd, 2) == ["R1", "R2"]
    assert rnd.state.colour == Y and rnd.state.turn == 1


def test_wild_swap_hands_as_last_card_is_a_plain_wild_ending_the_round_seed_001() -> None:
    """001: a last Wild Swap Hands is a plain Wild and ends the round."""
    rules = RuleSet(deck="swap")
    rnd = Round.from_position(rules, [["WX"], ["G1"], ["Y1", "Y2"]], discard=["R7"])
    events = rnd.apply(PlayCard(player=0, card=card(rnd, 0, "WX"), colour=Y))
    assert rnd.over and isinstance(events[-1], RoundEnded) and events[-1].went_out == 0


def test_customizable_card_with_no_effect_is_a_plain_wild_seed_000() -> None:
    rnd = Round.from_position(DEFAULT, [["WC", "R1"], ["G1"], ["Y1"]], discard=["R7"])
    rnd.apply(PlayCard(player=0, card=card(rnd, 0, "WC"), colour=Y))
    assert rnd.state.turn == 1 and rnd.state.colour == Y


# ---------------------------------------------------------------- going out and scoring


def test_going_out_on_draw_two_next_player_still_draws_and_cards_count_seed_000_001_003() -> None:
    """000, 001, 003: a final Draw Two still makes the next player draw; those cards score."""
    rnd = Round.from_position(DEFAULT, [["R+2"], ["G1"], ["Y9"]], discard=["R7"], draw=["B5", "B6"])
    events = rnd.apply(PlayCard(player=0, card=card(rnd, 0, "R+2")))
    drawn = next(e for e in events if isinstance(e, CardsDrawn))
    assert drawn.player == 1 and len(drawn.cards) == 2
    ended = events[-1]
    assert isinstance(ended, RoundEnded) and ended.went_out == 0
    assert ended.hand_points == (0, 1 + 5 + 6, 9) and ended.points == 21


def test_going_out_on_wild_draw_four_next_player_draws_four_seed_001() -> None:
    rnd = Round.from_position(DEFAULT, [["W+4"], ["G1"]], discard=["R7"], draw=["B1"] * 1)
    events = rnd.apply(PlayCard(player=0, card=card(rnd, 0, "W+4"), colour=R))
    assert rnd.over and len(rnd.state.hands[1]) == 5
    assert isinstance(events[-1], RoundEnded) and events[-1].points == rnd.hand_points()[1]


def test_round_score_is_the_sum_of_other_hands_seed_000() -> None:
    """000: the player who goes out scores the others' cards: numbers face, actions 20,
    wilds 50, Shuffle Hands and Customizable 40."""
    rnd = Round.from_position(
        DEFAULT,
        [["R1"], ["G7", "BS", "W"], ["W+4", "WSH", "WC", "Y+2"]],
        discard=["R7"],
    )
    events = rnd.apply(PlayCard(player=0, card=card(rnd, 0, "R1")))
    ended = events[-1]
    assert isinstance(ended, RoundEnded)
    assert ended.hand_points == (0, 7 + 20 + 50, 50 + 40 + 40 + 20)


def test_turn_order_goes_left_and_reverse_turns_it_right_seed_000() -> None:
    rnd = Round.from_position(DEFAULT, [["R1", "R2"], ["RR", "G2"], ["Y1"], ["B1"]], discard=["R7"])
    rnd.apply(PlayCard(player=0, card=card(rnd, 0, "R1")))
    assert rnd.state.turn == 1
    rnd.apply(PlayCard(player=1, card=card(rnd, 1, "RR")))
    assert rnd.state.turn == 0 and rnd.state.direction == -1


def test_kinds_helper_lists_event_types() -> None:
    rnd = Round.from_position(DEFAULT, [["R1", "R2"], ["G2"]], discard=["R7"])
    assert kinds(rnd.apply(PlayCard(player=0, card=card(rnd, 0, "R1")))) == [
        "card-played",
        "turn-started",
    ]
    assert CardKind.SEVEN == 7


def test_uno_said_just_before_playing_the_next_to_last_card_seed_001() -> None:
    """001: "before playing your next-to-last card, you must say UNO"."""
    rnd = Round.from_position(DEFAULT, [["R3", "B9"], ["G1", "R1"], ["Y1"]], discard=["R7"])
    rnd.apply(CallUno(player=0))
    with pytest.raises(RuleError, match="already said"):
        rnd.apply(CallUno(player=0))
    rnd.apply(PlayCard(player=0, card=card(rnd, 0, "R3")))
    assert rnd.state.exposed is None and rnd.state.uno_called[0]
    with pytest.raises(RuleError, match="caught only"):
        rnd.apply(CatchUno(player=2, target=0))


def test_uno_said_early_lapses_when_the_player_draws_instead_seed_001() -> None:
    """001: UNO has to be said again each time a player comes down to one card."""
    rnd = Round.from_position(
        DEFAULT, [["Y3", "B9"], ["G1", "R1"], ["Y1"]], discard=["R7"], draw=["G4"]
    )
    rnd.apply(CallUno(player=0))
    rnd.apply(Draw(player=0))
    assert not rnd.state.uno_called[0] and len(rnd.state.hands[0]) == 3
