"""The known traps between rules (issue 3 item 5), against the order of effects documented in
:mod:`engine.round`. Seeds: 000/001/003 (Wild Draw 4, UNO), 001 (Swap Hands), 000 (Shuffle
Hands), 002 (stacking), 004 (Showdown)."""

from __future__ import annotations

import pytest

from engine.commands import CatchUno, Challenge, Draw, PlayCard, ShowdownResult
from engine.deck import Deck, builtin_deck
from engine.errors import RuleError
from engine.events import Reshuffled, ShowdownStarted
from engine.round import Round
from engine.rules import RuleSet
from engine.state import Phase
from tests.engine.scenario import card

R, Y, G, B = 0, 1, 2, 3


def showdown_deck_with(replace: dict[str, str]) -> Deck:
    codes = list(builtin_deck("showdown").codes)
    for old, new in replace.items():
        codes[codes.index(old)] = new
    return Deck.from_codes("custom", codes)


# ---------------------------------------------------------------- stacking and Wild Draw 4


def test_stacking_a_wild_draw_four_forfeits_the_challenge_seed_002_001() -> None:
    """Stacking +4 on +4 begins the turn, so its player can no longer challenge the first."""
    rules = RuleSet(stack_draw_four=True)
    rnd = Round.from_position(rules, [["W+4", "R1"], ["W+4", "Y5", "B1"], ["G1"]], discard=["R7"])
    rnd.apply(PlayCard(player=0, card=card(rnd, 0, "W+4"), colour=B))
    rnd.apply(PlayCard(player=1, card=card(rnd, 1, "W+4"), colour=G))
    assert rnd.state.challenge_offender == 1 and rnd.state.pending_draw == 8


def test_challenging_a_guilty_stacked_wild_draw_four_removes_only_its_four_seed_002_003() -> None:
    """Guilty: the offender draws 4; the rest of the stack still faces the challenger."""
    rules = RuleSet(stack_draw_four=True)
    rnd = Round.from_position(
        rules, [["W+4", "R1"], ["W+4", "B5", "B1"], ["G1", "Y2"]], discard=["R7"]
    )
    rnd.apply(PlayCard(player=0, card=card(rnd, 0, "W+4"), colour=B))
    rnd.apply(PlayCard(player=1, card=card(rnd, 1, "W+4"), colour=G))  # held blue: guilty
    rnd.apply(Challenge(player=2))
    assert len(rnd.state.hands[1]) == 6
    assert rnd.state.turn == 2 and rnd.state.pending_draw == 4
    rnd.apply(Draw(player=2))
    assert len(rnd.state.hands[2]) == 6


def test_challenging_an_innocent_stacked_wild_draw_four_costs_the_stack_plus_two() -> None:
    rules = RuleSet(stack_draw_four=True)
    rnd = Round.from_position(
        rules, [["W+4", "R1"], ["W+4", "Y5", "R1"], ["G1", "Y2"]], discard=["R7"]
    )
    rnd.apply(PlayCard(player=0, card=card(rnd, 0, "W+4"), colour=B))
    rnd.apply(PlayCard(player=1, card=card(rnd, 1, "W+4"), colour=G))  # no blue: innocent
    rnd.apply(Challenge(player=2))
    assert len(rnd.state.hands[2]) == 2 + 10 and rnd.state.turn == 0


def test_a_stacked_draw_two_on_a_wild_draw_four_ends_its_challenge() -> None:
    rules = RuleSet(stack_draw_two_on_four=True)
    rnd = Round.from_position(rules, [["W+4", "R1"], ["B+2", "Y5"], ["G1", "Y2"]], discard=["R7"])
    rnd.apply(PlayCard(player=0, card=card(rnd, 0, "W+4"), colour=B))
    rnd.apply(PlayCard(player=1, card=card(rnd, 1, "B+2")))
    with pytest.raises(RuleError, match="only the next player may challenge"):
        rnd.apply(Challenge(player=2))


def test_uno_catch_window_closes_when_a_lost_challenge_begins_the_turn_seed_001() -> None:
    """001: the window closes when the next player begins their turn, and "beginning a turn
    is defined as either drawing a card from the DRAW pile or [playing one]". A Wild Draw 4
    played as the next-to-last card without UNO: taking the 4 closes it; so does losing the
    challenge, which draws 6 and ends that turn."""
    position = [["W+4", "B2"], ["B1", "Y5"], ["G1", "Y2"], ["G3", "Y4"]]  # no red: innocent
    for answer in (Draw(player=1), Challenge(player=1)):
        rnd = Round.from_position(RuleSet(), position, discard=["R7"])
        rnd.apply(PlayCard(player=0, card=card(rnd, 0, "W+4"), colour=Y))
        assert rnd.state.exposed == 0  # catchable until player 1 begins their turn
        rnd.apply(answer)
        assert len(rnd.state.hands[1]) == (6 if answer.type == "draw" else 8)
        assert rnd.state.turn == 2
        with pytest.raises(RuleError, match="before the next player begins"):
            rnd.apply(CatchUno(player=2, target=0))
        assert len(rnd.state.hands[0]) == 1


# ---------------------------------------------------------------- hands changing and UNO


def test_swap_hands_leaves_receiver_of_one_card_uncatchable_seed_001() -> None:
    """A player left with one card by a Swap Hands did not play a next-to-last card: no catch."""
    rules = RuleSet(deck="swap")
    rnd = Round.from_position(rules, [["WX", "R1", "R2"], ["G1"], ["Y1"]], discard=["R7"])
    rnd.apply(PlayCard(player=0, card=card(rnd, 0, "WX"), colour=Y, target=2))
    assert rnd.state.hands[0] == [card(rnd, 0, "Y1")] and rnd.state.exposed is None
    with pytest.raises(RuleError):
        rnd.apply(CatchUno(player=1, target=0))


def test_swap_hands_as_next_to_last_card_without_uno_then_swapped_away_seed_001() -> None:
    """Played as the next-to-last card without UNO, then swapped for a bigger hand: nothing to
    catch any more (the catch needs one card)."""
    rules = RuleSet(deck="swap")
    rnd = Round.from_position(rules, [["WX", "R1"], ["G1"], ["Y1", "Y2", "Y3"]], discard=["R7"])
    rnd.apply(PlayCard(player=0, card=card(rnd, 0, "WX"), colour=Y, target=2))
    assert len(rnd.state.hands[0]) == 3 and rnd.state.exposed is None
    assert len(rnd.state.hands[2]) == 1 and not rnd.state.uno_called[2]


def test_shuffle_hands_resets_uno_state_seed_000() -> None:
    rnd = Round.from_position(
        RuleSet(), [["WSH", "R1"], ["G1", "G2", "G3", "G4"], ["Y1"]], discard=["R7"]
    )
    rnd.apply(PlayCard(player=0, card=card(rnd, 0, "WSH"), colour=R))
    assert rnd.state.exposed is None and rnd.state.uno_called == [False, False, False]


# ---------------------------------------------------------------- showdowns


def test_showdown_on_a_draw_two_duels_the_victim_who_still_draws_seed_004() -> None:
    """Draw Two with an icon: the draw is pending on the next player, the showdown is with them
    and comes first; afterwards they still take the two cards and lose their turn."""
    rules = RuleSet(deck="showdown")
    deck = showdown_deck_with({"R+2": "R+2*1"})
    rnd = Round.from_position(rules, [["R+2*1", "G1"], ["B1"], ["Y1"]], discard=["R7"], deck=deck)
    events = rnd.apply(PlayCard(player=0, card=card(rnd, 0, "R+2*1")))
    started = next(e for e in events if isinstance(e, ShowdownStarted))
    assert started.opponent == 1 and rnd.state.pending_draw == 2
    rnd.apply(ShowdownResult(winner=0, loser=1))
    assert rnd.state.turn == 1 and len(rnd.state.hands[1]) == 2
    rnd.apply(Draw(player=1))
    assert len(rnd.state.hands[1]) == 4 and rnd.state.turn == 2


def test_showdown_on_a_reverse_duels_the_new_next_player_seed_004() -> None:
    """rules.md: the showdown is with the next player after the card's effect on direction."""
    rules = RuleSet(deck="showdown")
    deck = showdown_deck_with({"RR": "RR*2"})
    rnd = Round.from_position(
        rules, [["RR*2", "G1"], ["B1"], ["Y1"], ["G2"]], discard=["R7"], deck=deck
    )
    events = rnd.apply(PlayCard(player=0, card=card(rnd, 0, "RR*2")))
    started = next(e for e in events if isinstance(e, ShowdownStarted))
    assert started.opponent == 3
    rnd.apply(ShowdownResult(winner=3, loser=0))
    assert rnd.state.turn == 3 and rnd.state.direction == -1


def test_two_players_skip_with_showdown_then_player_plays_again_seed_004_001() -> None:
    rules = RuleSet(deck="showdown")
    deck = showdown_deck_with({"RS": "RS*1"})
    rnd = Round.from_position(rules, [["RS*1", "G1", "R2"], ["B1"]], discard=["R7"], deck=deck)
    rnd.apply(PlayCard(player=0, card=card(rnd, 0, "RS*1")))
    assert rnd.state.phase is Phase.SHOWDOWN and rnd.state.showdown is not None
    assert rnd.state.showdown.opponent == 1
    rnd.apply(ShowdownResult(winner=0, loser=1))
    assert rnd.state.turn == 0 and len(rnd.state.hands[1]) == 2


def test_reshuffle_while_loading_the_unit_seed_004() -> None:
    """The draw pile runs out while loading: the discard pile (except its top) is reshuffled and
    loading goes on; loaded cards count as in flight."""
    rules = RuleSet(deck="showdown")
    rnd = Round.from_position(
        rules, [["R5*3", "G1"], ["B1"], ["Y1"]], discard=["R7"], draw=["B2"], rest="discard"
    )
    assert len(rnd.state.draw_pile) == 1
    events = rnd.apply(PlayCard(player=0, card=card(rnd, 0, "R5*3")))
    assert any(isinstance(e, Reshuffled) for e in events)
    assert rnd.state.showdown is not None and len(rnd.state.showdown.loaded) == 3
    assert rnd.deck.cards[rnd.top].code == "R5*3"
    assert sorted(rnd.state.all_cards()) == list(range(len(rnd.deck)))


def test_uno_catch_waits_for_the_showdown_and_stays_open_after_it_seed_004_001() -> None:
    """A pending showdown accepts only its result; it does not begin the next player's turn,
    so the UNO catch window is still open once it is settled."""
    rules = RuleSet(deck="showdown")
    rnd = Round.from_position(rules, [["R3*2", "G1"], ["B1"], ["Y1"]], discard=["R7"])
    rnd.apply(PlayCard(player=0, card=card(rnd, 0, "R3*2")))
    with pytest.raises(RuleError, match="showdown is pending"):
        rnd.apply(CatchUno(player=2, target=0))
    rnd.apply(ShowdownResult(winner=0, loser=1))
    rnd.apply(CatchUno(player=2, target=0))
    assert len(rnd.state.hands[0]) == 3 and rnd.state.phase is Phase.PLAY
