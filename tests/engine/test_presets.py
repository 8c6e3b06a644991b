"""Each preset plays by its own seed document where that differs from the defaults.

Seeds: 001_394bbb128c8815aa.txt (2018 edition: the ``edition-2018`` preset),
004_9e61cbb47be309c5.txt (UNO Showdown: the ``showdown`` preset).
"""

from __future__ import annotations

from engine.commands import Draw, Pass
from engine.deck import builtin_deck
from engine.events import CardReturned, RoundStarted
from engine.round import Round, RoundSetup
from engine.rules import RuleSet, preset
from engine.state import Phase
from tests.engine.scenario import deck_order, top_code


def start_with(first: str, rules: RuleSet, players: int = 4, dealer: int = 0) -> Round:
    """A round whose first turned-up card is ``first`` (a Green 5 next, unless ``first`` goes
    back into the deck and the deck is shuffled)."""
    deck = builtin_deck(rules.deck)
    order = deck_order(deck, {7 * players: first, 7 * players + 1: "G5"})
    return Round.new(rules, RoundSetup(players=players, dealer=dealer, deck_order=order))


def end_turn(rnd: Round) -> None:
    """The current player draws instead of playing (and keeps the card if it is playable)."""
    seat = rnd.state.turn
    rnd.apply(Draw(player=seat))
    if rnd.state.phase is Phase.DRAWN:
        rnd.apply(Pass(player=seat))


def test_preset_showdown_returns_a_turned_up_wild_seed_004() -> None:
    """004: "If the top card is a Wild or Wild Draw 4, return it to the deck and pick another
    card": nobody chooses a colour for it, the first player just plays."""
    rnd = start_with("W", preset("showdown"), dealer=1)
    assert any(isinstance(e, CardReturned) for e in rnd.events)
    assert top_code(rnd) == "G6"  # turned up from the reshuffled deck (seed 0)
    assert rnd.state.phase is Phase.PLAY and rnd.state.turn == 2  # left of the dealer


def test_preset_showdown_reverse_start_player_right_of_dealer_goes_right_seed_004() -> None:
    """004: Reverse turned up: "the player to the right now plays first, and play then goes to
    the right instead of left" (not the dealer, as 000 and 003 have it)."""
    rnd = start_with("BR", preset("showdown"), dealer=2)
    started = rnd.events[0]
    assert isinstance(started, RoundStarted) and started.first_player == 1
    assert rnd.state.turn == 1 and rnd.state.direction == -1
    end_turn(rnd)
    assert rnd.state.turn == 0


def test_preset_edition_2018_reverse_start_player_counted_last_plays_first_seed_001() -> None:
    """001: Reverse turned up: count from the dealer to the first player (one seat left), then
    as many from the dealer the other way; "the player who got counted last now plays first,
    and play then goes to the reversed direction": the dealer's right, going right."""
    rnd = start_with("YR", preset("edition-2018"), players=5, dealer=0)
    assert rnd.state.turn == 4 and rnd.state.direction == -1
    end_turn(rnd)
    assert rnd.state.turn == 3


def test_preset_showdown_highest_point_value_deals_first_seed_004() -> None:
    """004: "Each player draws a card. Player with the highest point value is the dealer." (as
    001 says; 000 and 003 count a symbol as zero): a Wild Showdown's 50 beats a 9."""
    import random

    from engine.dealer import draw_first_dealer

    deck = builtin_deck("showdown")
    order = [next(i for i, c in enumerate(deck.cards) if c.code == code)
             for code in ("B9", "WSD", "G3")]
    order += [i for i in range(len(deck)) if i not in order]
    draw = draw_first_dealer(deck, 3, random.Random(0), order=order, rules=preset("showdown"))
    assert draw.dealer == 1
    assert draw_first_dealer(deck, 3, random.Random(0), order=order, rules=preset("official")
                             ).dealer == 0
