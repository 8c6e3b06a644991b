"""The invariant soak over random combinations of switches: whole bot games, each under a preset
with random switches changed (``tests/engine/switches.py``) and scored in a random mode.

At every decision a bot is asked for, the round is checked: every card of the deck is in exactly
one place (hands, piles, the unit), every hand holds a card, and the player whose turn it is has
something to do (no stuck turn); the bot's choice is one of the legal commands. Every round ends
within the step limit, with one empty hand and the score of the others' hands. After every round
the sheet rebuilt from its results alone equals the sheet as played (scores consistent), pigs
never go down, and the game ends with winners.

``make test`` plays a short slice of the schedule; ``make soak`` plays all of it.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest

from engine.bots import Bot, HeuristicBot, RandomBot
from engine.commands import Command
from engine.events import RoundEnded
from engine.game import Game
from engine.round import Round
from engine.rules import RuleSet
from engine.scoring import RoundScore, Scoresheet, ScoringSettings
from engine.state import Phase
from tests.engine.switches import SWITCHES, random_rules

SLICE = 40
"""Combinations ``make test`` plays: the schedule's first."""
SOAK_BLOCKS = 20
SOAK_BLOCK = 50
"""``make soak``: 20 blocks of 50 combinations."""


class Checked:
    """A bot that checks the round before every choice it makes, and its choice after."""

    def __init__(self, inner: Bot) -> None:
        self.inner = inner
        self.decisions = 0

    def choose(self, rnd: Round, seat: int, actions: Sequence[Command]) -> Command | None:
        check_round(rnd)
        assert actions, f"seat {seat} was asked to act with nothing to do"
        choice = self.inner.choose(rnd, seat, actions)
        assert choice is None or choice in actions, (choice, actions)
        self.decisions += 1
        return choice


def check_round(rnd: Round) -> None:
    st = rnd.state
    assert sorted(st.all_cards()) == list(range(len(rnd.deck))), "a card was lost or doubled"
    assert st.phase is not Phase.OVER
    assert all(st.hands), "a hand is empty but the round goes on"
    if st.phase is not Phase.SHOWDOWN:
        assert rnd.legal_actions(st.turn, reactions=False), f"seat {st.turn} is stuck"


def random_scoring(rng: random.Random, players: int) -> ScoringSettings:
    """A scoring mode with a small target, so a game is a few rounds."""
    modes = ["standard", "running-tally", "plus-minus", "challenge", "hero", "mean"]
    if players == 4:
        modes.append("partners")
    mode = rng.choice(modes)
    target = rng.randrange(60, 250)
    if mode in ("hero", "mean"):
        return ScoringSettings(mode=mode, target=target, pigs=rng.randint(1, 2), rounds=6)
    if mode == "plus-minus":
        return ScoringSettings(mode=mode, target=None, rounds=rng.randint(1, 3))
    if mode == "challenge":
        return ScoringSettings(mode=mode, target=target)
    return ScoringSettings(mode=mode, target=target)  # type: ignore[arg-type]


def check_scores(game: Game, scoring: ScoringSettings, players: int, score: RoundScore) -> None:
    sheet = game.sheet
    again = Scoresheet(scoring, players, results=sheet.results)
    assert again.history == sheet.history and again.totals == sheet.totals
    assert sheet.history[-1] == score
    if scoring.uses_pigs:
        previous = sheet.history[-2].pigs if len(sheet.history) > 1 else (0,) * players
        assert all(now >= before for now, before in zip(score.pigs, previous, strict=True))
        assert scoring.target is not None and max(score.totals) < scoring.target


def soak_combination(index: int) -> tuple[RuleSet, int]:
    """Combination ``index`` of the schedule: plays one whole game; returns the rules and the
    number of bot decisions checked."""
    rng = random.Random(index)
    rules = random_rules(rng)
    players = 2 + rng.randrange(rules.max_players - 1)
    scoring = random_scoring(rng, players)
    game = Game(rules, players, seed=index, scoring=scoring)
    bots = [
        Checked(HeuristicBot(index + seat) if rng.random() < 0.5 else RandomBot(index + seat))
        for seat in range(players)
    ]

    def finished(rnd: Round, score: RoundScore) -> None:
        st = rnd.state
        assert [seat for seat, hand in enumerate(st.hands) if not hand] == [st.went_out]
        assert sorted(st.all_cards()) == list(range(len(rnd.deck)))
        ended = rnd.events[-1]
        assert isinstance(ended, RoundEnded) and ended.points == sum(rnd.hand_points())
        check_scores(game, scoring, players, score)

    winners = game.play(list(bots), on_round=finished, max_rounds=300)
    assert winners and game.sheet.is_over
    return rules, sum(bot.decisions for bot in bots)


def test_the_soak_tries_every_switch() -> None:
    """A switch of the rule set missing from the soak's list fails here: add its values to
    tests/engine/switches.py."""
    assert set(SWITCHES) == set(RuleSet.model_fields)
    defaults = RuleSet()
    for name, values in SWITCHES.items():
        assert getattr(defaults, name) in values, name


def test_switch_soak_slice() -> None:
    decisions = 0
    for index in range(SLICE):
        decisions += soak_combination(index)[1]
    assert decisions > SLICE * 50  # the checks ran: every game asked the bots many times


@pytest.mark.soak
@pytest.mark.parametrize("block", range(SOAK_BLOCKS))
def test_switch_soak(block: int) -> None:
    for index in range(block * SOAK_BLOCK, (block + 1) * SOAK_BLOCK):
        soak_combination(index)
