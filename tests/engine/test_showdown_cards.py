"""Showdown cards inside a round (rules.md "Showdown", seed 004_9e61cbb47be309c5.txt)."""

from __future__ import annotations

import json

import pytest

from engine.commands import Draw, PlayCard, ShowdownResult
from engine.deck import Deck, builtin_deck
from engine.errors import RuleError
from engine.events import RoundEnded, ShowdownSettled, ShowdownStarted
from engine.round import Round, RoundSetup
from engine.rules import RuleSet
from engine.state import Phase
from tests.engine.scenario import card, codes

R, Y, G, B = 0, 1, 2, 3
SHOWDOWN = RuleSet(deck="showdown")


def deck_with(replace: dict[str, str]) -> Deck:
    """The showdown deck with some faces swapped for others (a user's own deck file)."""
    source = builtin_deck("showdown")
    new = list(source.codes)
    for old, code in replace.items():
        new[new.index(old)] = code
    return Deck.from_codes("custom", new)


def test_icon_card_starts_showdown_with_next_player_loading_its_count_seed_004() -> None:
    """004: a Showdown icon card starts a showdown between its player and the next player;
    the icon's count of cards is drawn face down into the unit."""
    rnd = Round.from_position(
        SHOWDOWN, [["R3*2", "G1"], ["B1"], ["Y1"]], discard=["R7"], draw=["B5", "B6", "B7"]
    )
    events = rnd.apply(PlayCard(player=0, card=card(rnd, 0, "R3*2")))
    started = next(e for e in events if isinstance(e, ShowdownStarted))
    assert (started.challenger, started.opponent, started.source) == (0, 1, "icon")
    assert [rnd.deck.cards[c].code for c in started.loaded] == ["B5", "B6"]
    assert rnd.state.phase is Phase.SHOWDOWN and rnd.state.in_flight() == list(started.loaded)


def test_pending_showdown_accepts_only_its_result_seed_004() -> None:
    rnd = Round.from_position(SHOWDOWN, [["R3*2", "G1"], ["B1"], ["Y1"]], discard=["R7"])
    rnd.apply(PlayCard(player=0, card=card(rnd, 0, "R3*2")))
    before = rnd.to_dict()
    for command in (
        Draw(player=1),
        PlayCard(player=1, card=card(rnd, 1, "B1")),
        ShowdownResult(winner=2, loser=1),
    ):
        with pytest.raises(RuleError):
            rnd.apply(command)
    assert rnd.to_dict() == before


def test_loser_takes_the_loaded_cards_and_result_carries_reaction_times_seed_004() -> None:
    """004: the loser adds the loaded cards to their hand; a false start loses."""
    rnd = Round.from_position(SHOWDOWN, [["R3*2", "G1"], ["B1"], ["Y1"]], discard=["R7"])
    rnd.apply(PlayCard(player=0, card=card(rnd, 0, "R3*2")))
    loaded = rnd.state.in_flight()
    events = rnd.apply(
        ShowdownResult(winner=1, loser=0, reason="false-start", winner_ms=None, loser_ms=-40.0)
    )
    settled = events[0]
    assert isinstance(settled, ShowdownSettled) and settled.reason == "false-start"
    assert settled.loser_ms == -40.0 and settled.winner_ms is None
    assert all(c in rnd.state.hands[0] for c in loaded)
    assert rnd.state.phase is Phase.PLAY and rnd.state.turn == 1


def test_wild_showdown_chooses_colour_opponent_and_one_to_three_cards_seed_004() -> None:
    rnd = Round.from_position(SHOWDOWN, [["WSD", "G1"], ["B1"], ["Y1"], ["R1"]], discard=["R7"])
    wsd = card(rnd, 0, "WSD")
    for bad in (
        PlayCard(player=0, card=wsd, colour=G, opponent=2, count=4),
        PlayCard(player=0, card=wsd, colour=G, opponent=0, count=1),
        PlayCard(player=0, card=wsd, colour=G, count=1),
    ):
        with pytest.raises(RuleError):
            rnd.apply(bad)
    events = rnd.apply(PlayCard(player=0, card=wsd, colour=G, opponent=2, count=3))
    started = next(e for e in events if isinstance(e, ShowdownStarted))
    assert started.opponent == 2 and len(started.loaded) == 3 and rnd.state.colour == G
    rnd.apply(ShowdownResult(winner=0, loser=2))
    assert len(rnd.state.hands[2]) == 4 and rnd.state.turn == 1


def test_last_card_showdown_won_ends_the_round_loaded_cards_count_seed_004() -> None:
    """004: a last card that starts a showdown is settled before the round can end."""
    rnd = Round.from_position(
        SHOWDOWN, [["R3*2"], ["B1"], ["Y1"]], discard=["R7"], draw=["B5", "B6"]
    )
    events = rnd.apply(PlayCard(player=0, card=card(rnd, 0, "R3*2")))
    assert not rnd.over and any(isinstance(e, ShowdownStarted) and e.last_card for e in events)
    events = rnd.apply(ShowdownResult(winner=0, loser=1))
    ended = events[-1]
    assert isinstance(ended, RoundEnded) and ended.went_out == 0
    assert ended.hand_points == (0, 1 + 5 + 6, 1)


def test_last_card_showdown_lost_takes_cards_and_play_continues_seed_004() -> None:
    rnd = Round.from_position(SHOWDOWN, [["R3*2"], ["B1"], ["Y1"]], discard=["R7"])
    rnd.apply(PlayCard(player=0, card=card(rnd, 0, "R3*2")))
    rnd.apply(ShowdownResult(winner=1, loser=0))
    assert not rnd.over and len(rnd.state.hands[0]) == 2 and rnd.state.turn == 1


def test_option_every_going_out_triggers_one_card_showdown_seed_004() -> None:
    """004 (published variant): every going-out triggers a one-card showdown."""
    rules = RuleSet(deck="showdown", showdown_every_go_out=True)
    rnd = Round.from_position(rules, [["R2"], ["B1"], ["Y1"]], discard=["R7"])
    events = rnd.apply(PlayCard(player=0, card=card(rnd, 0, "R2")))
    started = next(e for e in events if isinstance(e, ShowdownStarted))
    assert started.source == "going-out" and len(started.loaded) == 1
    rnd.apply(ShowdownResult(winner=1, loser=0))
    assert not rnd.over and len(rnd.state.hands[0]) == 1
    default = Round.from_position(SHOWDOWN, [["R2"], ["B1"], ["Y1"]], discard=["R7"])
    default.apply(PlayCard(player=0, card=card(default, 0, "R2")))
    assert default.over


def test_user_deck_file_with_own_icons_seed_004() -> None:
    """seeds/README: the icon cards are data; a user's deck file replaces the default."""
    text = json.dumps(
        {
            "name": "mine",
            "cards": [{"code": f"{c}{n}", "count": 2} for c in "RYGB" for n in range(10)]
            + [{"code": "B9*3", "count": 1}, {"code": "WSD", "count": 4}],
        }
    )
    deck = Deck.from_json(text)
    rnd = Round.from_position(SHOWDOWN, [["B9*3", "G1"], ["B1"]], discard=["B7"], deck=deck)
    rnd.apply(PlayCard(player=0, card=card(rnd, 0, "B9*3")))
    assert rnd.state.showdown is not None and len(rnd.state.showdown.loaded) == 3
    dealt = Round.new(SHOWDOWN, RoundSetup(players=3, seed=2), deck)
    assert len(dealt.deck) == 85


def test_showdown_deck_icons_match_codes() -> None:
    rnd = Round.from_position(SHOWDOWN, [["R5*3"], ["B1"]], discard=["R7"])
    assert codes(rnd, 0) == ["R5*3"] and rnd.tables.icon[card(rnd, 0, "R5*3")] == 3
    assert deck_with({"RR": "RR*1"}).cards[-1].code == "WSD"
