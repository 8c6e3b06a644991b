"""The bots play every rule of 002's house rules and Killer UNO, and 003's catch window: over
seeded rounds each rule shows in the events, and no bot ever sends a command a rule refuses
(``play_round`` would raise). Seeds: ``002_2cf2187f47789488.txt``, ``003_ea5f156088150643.txt``."""

from __future__ import annotations

import random
from collections import Counter

from engine.bots import HeuristicBot, RandomBot, play_round
from engine.commands import JumpIn
from engine.events import (
    CardPlayed,
    CardsDrawn,
    ChallengeDecided,
    Event,
    HandsPassed,
    JumpedIn,
    PenaltyGiven,
    RoundEnded,
    UnoCalled,
    UnoCaught,
)
from engine.round import Round, RoundSetup
from engine.rules import RuleSet, preset
from tests.engine.scenario import card


def rounds(
    rules: RuleSet, count: int, players: int = 4, *, heuristic: bool = True
) -> list[tuple[Round, list[Event]]]:
    """``count`` seeded bot rounds: random and (with ``heuristic``) heuristic bots alternate."""
    played = []
    for seed in range(count):
        rnd = Round.new(rules, RoundSetup(players=players, dealer=seed % players, seed=seed))
        bots = [
            HeuristicBot(seed + s) if heuristic and s % 2 else RandomBot(seed + s)
            for s in range(players)
        ]
        play_round(rnd, bots, random.Random(seed))
        assert rnd.over and sorted(rnd.state.all_cards()) == list(range(len(rnd.deck)))
        played.append((rnd, rnd.events))
    return played


def test_bots_play_killer_uno_seed_002() -> None:
    """Jump-ins, hands passed on a 0, the red 0's ten cards, and the table's silence and slap
    penalties all happen in bot rounds under the ``killer`` preset."""
    events = [e for _rnd, evs in rounds(preset("killer"), 12) for e in evs]
    kinds = Counter(type(e).__name__ for e in events)
    assert kinds[JumpedIn.__name__] > 0 and kinds[HandsPassed.__name__] > 0
    reasons = Counter(e.reason for e in events if isinstance(e, PenaltyGiven))
    assert reasons["silence"] > 0 and reasons["slap"] > 0
    assert any(isinstance(e, CardsDrawn) and e.reason == "penalty" and len(e.cards) >= 10
               for e in events)


def test_bots_play_the_house_rules_seed_002() -> None:
    """Under 002's basic rules the bots stack draws (more than 4 cards pending at once), never
    challenge (a Wild Draw 4 may be played at any time), and never go out on a function card."""
    played = rounds(preset("house"), 12)
    for rnd, events in played:
        assert not any(isinstance(e, ChallengeDecided) for e in events)
        last = next(e for e in reversed(events) if isinstance(e, CardPlayed))
        assert isinstance(events[-1], RoundEnded) and last.player == events[-1].went_out
        assert rnd.deck.cards[last.card].kind.is_number
    stacked = [e for _rnd, evs in played for e in evs
               if isinstance(e, CardsDrawn) and e.reason == "penalty" and len(e.cards) > 4]
    assert stacked


def test_bots_use_the_catch_window_after_the_next_player_drew_seed_003() -> None:
    """003's window stays open while the next player draws: the bots react in it (a catch, or
    the exposed player's own UNO, the self-catch); under 001's window nobody can, once the next
    player drew. (Random bots: a heuristic bot reacts at once, before anyone draws.)"""

    def reactions_after_a_draw(rules: RuleSet) -> int:
        found = 0
        for _rnd, events in rounds(rules, 150, players=3, heuristic=False):
            since_play: list[Event] = []
            for event in events:
                if isinstance(event, CardPlayed):
                    since_play = []
                elif isinstance(event, UnoCaught | UnoCalled):
                    who = event.target if isinstance(event, UnoCaught) else event.player
                    drew = [e for e in since_play if isinstance(e, CardsDrawn) and e.player != who]
                    found += bool(drew)
                since_play.append(event)
        return found

    assert reactions_after_a_draw(RuleSet(uno_catch_window="next-discard")) > 0
    assert reactions_after_a_draw(RuleSet()) == 0


def test_the_heuristic_bot_jumps_in_saying_uno_seed_002() -> None:
    """HeuristicBot takes every jump-in offered, with the UNO call when it leaves one card."""
    rnd = Round.from_position(
        preset("killer"), [["B1", "B2"], ["G1", "G2"], ["R7", "Y3"]], discard=["R7"]
    )
    options = [a for a in rnd.legal_actions(2) if isinstance(a, JumpIn)]
    choice = HeuristicBot(0).choose(rnd, 2, options)
    assert choice == JumpIn(player=2, card=card(rnd, 2, "R7"), uno=True)
