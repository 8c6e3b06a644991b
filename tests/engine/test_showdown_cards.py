"""Showdown cards inside a round (rules.md "Showdown", seed 004_9e61cbb47be309c5.txt)."""

from __future__ import annotations

import json

import pytest

from engine.commands import Draw, PlayCard, ShowdownResult
from engine.deck import Deck, builtin_deck
from engine.errors import RuleError
from engine.events import (
    Reshuffled,
    RoundEnded,
    ShowdownSettled,
    ShowdownStarted,
    TurnStarted,
)
from engine.round import Round, RoundSetup
from engine.rules import RuleSet
from engine.state import PendingShowdown, Phase
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


def with_every_card_placed(
    rules: RuleSet, hands: list[list[str]], discard: list[str], draw: list[str]
) -> Round:
    """A position where the piles hold only the cards named: every other card of the deck is in
    the last seat's hand, so a showdown can run out of cards to load."""
    rest = list(builtin_deck(rules.deck).codes)
    for code in [c for hand in hands for c in hand] + discard + draw:
        rest.remove(code)
    return Round.from_position(rules, [*hands, rest], discard, draw)


def test_a_showdown_loads_what_is_left_when_the_cards_run_out_seed_004() -> None:
    """Three cards chosen, two left to draw (one after the discard pile is reshuffled): the
    showdown loads those two and no card is lost."""
    rnd = with_every_card_placed(SHOWDOWN, [["WSD", "G1"], ["B1"]], ["R7"], ["G9"])
    events = rnd.apply(PlayCard(player=0, card=card(rnd, 0, "WSD"), colour=G, opponent=1, count=3))
    started = next(e for e in events if isinstance(e, ShowdownStarted))
    assert [rnd.deck.cards[c].code for c in started.loaded] == ["G9", "R7"]
    assert Reshuffled(cards=1) in events
    assert (rnd.state.phase, rnd.state.draw_pile, codes_of(rnd, rnd.state.discard)) == (
        Phase.SHOWDOWN, [], ["WSD"])
    assert sorted(rnd.state.all_cards()) == list(range(len(rnd.deck)))


def test_going_out_with_no_card_left_to_load_ends_the_round_without_a_showdown_seed_004() -> None:
    """Under showdown_every_go_out, a last Draw Two makes the next player draw the last two
    cards: nothing is left to load, so no showdown starts and the round ends."""
    rules = RuleSet(deck="showdown", showdown_every_go_out=True)
    rnd = with_every_card_placed(rules, [["R+2"], ["B1"]], ["R7"], ["G9"])
    events = rnd.apply(PlayCard(player=0, card=card(rnd, 0, "R+2")))
    assert not any(isinstance(e, ShowdownStarted) for e in events)
    assert codes(rnd, 1) == ["B1", "G9", "R7"]
    assert rnd.over and rnd.state.showdown is None and rnd.state.went_out == 0
    assert isinstance(events[-1], RoundEnded) and events[-1].went_out == 0


def test_a_showdown_is_recorded_and_settled_with_everything_the_unit_reports_seed_004() -> None:
    """What the scoreboard and a saved round see: the pending showdown (who, which cards, from
    which card), the result with both reaction times, and the next player's turn (counted)."""
    rnd = Round.from_position(SHOWDOWN, [["R3*2", "G1"], ["B1"], ["Y1"]], discard=["R7"],
                              draw=["B5", "B6"])
    icon = card(rnd, 0, "R3*2")
    loaded = tuple(reversed(rnd.state.draw_pile[-2:]))  # B5 and B6, top first
    assert codes_of(rnd, list(loaded)) == ["B5", "B6"]
    events = rnd.apply(PlayCard(player=0, card=icon))
    assert events[-1] == ShowdownStarted(challenger=0, opponent=1, loaded=loaded, source="icon",
                                         card=icon, last_card=False)
    assert rnd.state.showdown == PendingShowdown(0, 1, list(loaded), "icon", icon, False)
    assert rnd.state.to_dict()["showdown"] == {
        "challenger": 0, "opponent": 1, "loaded": list(loaded), "source": "icon", "card": icon,
        "last_card": False}
    assert rnd.state.turns == 0
    events = rnd.apply(ShowdownResult(winner=1, loser=0, winner_ms=180.5, loser_ms=240.0))
    assert events == [
        ShowdownSettled(winner=1, loser=0, reason="paddle", cards=loaded, winner_ms=180.5,
                        loser_ms=240.0),
        TurnStarted(player=1),
    ]
    assert rnd.state.hands[0] == [card(rnd, 0, "G1"), *loaded]
    assert (rnd.state.phase, rnd.state.turn, rnd.state.turns) == (Phase.PLAY, 1, 1)


def codes_of(rnd: Round, ids: list[int]) -> list[str]:
    return [rnd.deck.cards[c].code for c in ids]


def test_a_played_wild_showdown_and_a_going_out_showdown_are_announced_in_full_seed_004() -> None:
    """Source, card and whether the round ends on the challenger's win, for the scoreboard."""
    rnd = Round.from_position(SHOWDOWN, [["WSD", "G1"], ["B1"], ["Y1"]], discard=["R7"])
    wild = card(rnd, 0, "WSD")
    loaded = tuple(reversed(rnd.state.draw_pile))[:2]
    events = rnd.apply(PlayCard(player=0, card=wild, colour=G, opponent=2, count=2))
    assert events[-1] == ShowdownStarted(challenger=0, opponent=2, loaded=loaded, source="wild",
                                         card=wild, last_card=False)
    rules = RuleSet(deck="showdown", showdown_every_go_out=True)
    out = Round.from_position(rules, [["R2"], ["B1"], ["Y1"]], discard=["R7"])
    last = card(out, 0, "R2")
    loaded = tuple(reversed(out.state.draw_pile))[:1]
    events = out.apply(PlayCard(player=0, card=last))
    assert events[-1] == ShowdownStarted(challenger=0, opponent=1, loaded=loaded,
                                         source="going-out", card=last, last_card=True)
    events = out.apply(ShowdownResult(winner=0, loser=1))
    assert out.over and isinstance(events[-1], RoundEnded) and events[-1].went_out == 0


def test_a_drawn_icon_card_played_leaves_no_drawn_card_while_its_showdown_waits_seed_004() -> None:
    rnd = Round.from_position(SHOWDOWN, [["B2", "B4"], ["G1"], ["Y1"]], discard=["R7"],
                              draw=["R3*2"])
    rnd.apply(Draw(player=0))
    assert rnd.state.phase is Phase.DRAWN
    rnd.apply(PlayCard(player=0, card=card(rnd, 0, "R3*2")))
    assert rnd.state.phase is Phase.SHOWDOWN
    assert rnd.state.drawn_card is None and rnd.to_dict()["state"]["drawn_card"] is None
