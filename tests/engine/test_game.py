"""A game of rounds (:class:`engine.game.Game`): dealt from its seed and its deck, the first dealer
drawn under its rules, each finished round recorded once on its sheet, the deal passed left
around the players still in."""

from __future__ import annotations

import random

import pytest

from engine.bots import HeuristicBot, play_round
from engine.dealer import draw_first_dealer
from engine.deck import builtin_deck
from engine.game import Game
from engine.round import Round, RoundSetup
from engine.rules import RuleSet, preset
from engine.scoring import RoundScore, ScoringSettings

NEVER = ScoringSettings(target=10**9)
"""A target no short game reaches."""


def bots(players: int) -> list[HeuristicBot]:
    return [HeuristicBot(seat) for seat in range(players)]


def finished(game: Game, seed: int = 1) -> Round:
    """The game's next round, dealt and played to its end (not yet recorded)."""
    rnd = game.new_round()
    play_round(rnd, bots(rnd.state.players), random.Random(seed))
    return rnd


def test_a_game_deals_from_the_deck_it_was_given() -> None:
    """A table playing the classic deck under rules that name the modern one: the first dealer
    is drawn from it and every round is dealt from it (108 cards, no Wild Customizable)."""
    classic = builtin_deck("classic")
    game = Game(RuleSet(), 4, seed=2, deck=classic)
    assert game.deck is classic
    assert game.dealer_draw == draw_first_dealer(classic, 4, random.Random(2), rules=RuleSet())
    rnd = game.new_round()
    assert len(rnd.deck) == 108 and "WC" not in {c.code for c in rnd.deck.cards}
    assert sorted(rnd.state.all_cards()) == list(range(108))


def test_the_first_dealer_is_drawn_under_the_game_rules() -> None:
    """001 counts a card's points for the first dealer (a Wild beats a 9): with seed 9 that
    makes seat 2 the dealer, where counting numbers only makes it seat 0."""
    rules = RuleSet(first_dealer_by="points")
    game = Game(rules, 4, seed=9)
    deck = builtin_deck(rules.deck)
    assert game.dealer_draw == draw_first_dealer(deck, 4, random.Random(9), rules=rules)
    assert game.dealer == 2
    assert draw_first_dealer(deck, 4, random.Random(9)).dealer == 0  # by number


def test_a_game_without_a_seed_is_the_game_of_seed_0() -> None:
    """The documented default (``seed=0``): a game made without one deals like seed 0."""
    unseeded, seeded = Game(RuleSet(), 4), Game(RuleSet(), 4, seed=0)
    assert unseeded.dealer_draw == seeded.dealer_draw and unseeded.dealer == 3
    assert unseeded.new_round().setup == seeded.new_round().setup


def test_each_round_is_dealt_from_the_game_seed() -> None:
    """The game's seed decides every round's shuffle: a game replayed from its seed deals the
    same rounds (pinned: a saved game replays across versions), and each round another one."""
    game = Game(RuleSet(), 4, seed=7)
    first = finished(game)
    game.finish_round(first)
    second = game.new_round()
    assert first.setup == RoundSetup(players=4, dealer=0, seed=3_530_140_069)
    assert second.setup == RoundSetup(players=4, dealer=1, seed=2_871_841_566)
    again = Game(RuleSet(), 4, seed=7).new_round()
    assert again.setup == first.setup and again.state.hands == Round.new(
        RuleSet(), first.setup).state.hands


def test_play_reports_each_round_with_its_line_and_keeps_the_rounds() -> None:
    game = Game(RuleSet(target_score=200), 3, seed=4)
    seen: list[tuple[Round, RoundScore]] = []
    winners = game.play(bots(3), on_round=lambda rnd, line: seen.append((rnd, line)))
    assert game.is_over and winners == game.sheet.winners
    assert [line for _, line in seen] == list(game.sheet.history)
    assert game.rounds == [rnd for rnd, _ in seen]
    assert all(rnd.state.went_out is not None for rnd in game.rounds)


def test_a_game_of_showdown_cards_plays_the_same_from_the_same_seed() -> None:
    """The game's random source settles the showdowns its bots play: the same seed, the same
    game, showdown for showdown."""
    def play(seed: int) -> tuple[tuple[int, ...], list[list[str]]]:
        game = Game(preset("showdown"), 3, seed=seed)
        winners = game.play(bots(3))
        return winners, [[e.type for e in rnd.events] for rnd in game.rounds]

    winners, events = play(2)
    assert any("showdown-settled" in kinds for kinds in events)
    assert play(2) == (winners, events)


def test_a_game_with_no_winner_in_the_agreed_rounds_says_so() -> None:
    game = Game(RuleSet(), 2, seed=1, scoring=NEVER)
    with pytest.raises(RuntimeError) as caught:
        game.play(bots(2), max_rounds=3)
    assert str(caught.value) == "no winner after 3 rounds"
    assert len(game.rounds) == 3 and len(game.sheet.history) == 3


def test_a_round_is_recorded_only_when_over_and_only_once() -> None:
    """Finishing a round still being played, a round twice, or a round another game dealt is
    refused, and neither the sheet nor the deal moves: a round's points count once."""
    game = Game(RuleSet(), 3, seed=5)
    dealer = game.dealer
    rnd = game.new_round()
    with pytest.raises(ValueError) as caught:
        game.finish_round(rnd)
    assert str(caught.value) == "the round is not over"
    assert game.sheet.history == () and game.dealer == dealer
    play_round(rnd, bots(3), random.Random(1))
    line = game.finish_round(rnd)
    assert game.dealer == (dealer + 1) % 3
    with pytest.raises(ValueError) as caught:
        game.finish_round(rnd)
    assert str(caught.value) == "not the round in play: finish the round new_round dealt, once"
    assert game.sheet.history == (line,) and game.dealer == (dealer + 1) % 3
    other = Game(RuleSet(), 3, seed=5)
    with pytest.raises(ValueError, match="not the round in play"):
        other.finish_round(rnd)  # before it dealt any round
    other.new_round()
    with pytest.raises(ValueError, match="not the round in play"):
        other.finish_round(rnd)  # another game's round
    assert other.sheet.history == ()


@pytest.mark.parametrize("seed", range(5))
def test_the_deal_passes_left_past_the_eliminated(seed: int) -> None:
    """Challenge UNO: the deal passes left each round; a player who would deal but is out passes
    it on to the next player still in, to the left."""
    game = Game(RuleSet(), 5, seed=seed, scoring=ScoringSettings(mode="challenge", target=100))
    passed_on = 0
    while not game.is_over:
        seats = game.sheet.active_seats
        due = game.dealer
        expected = next(s % 5 for s in range(due, due + 5) if s % 5 in seats)
        passed_on += expected != due
        rnd = finished(game, seed)
        assert seats[rnd.state.dealer] == expected
        assert game.finish_round(rnd).result.went_out in seats
    assert passed_on > 0  # the case this test is about happened
