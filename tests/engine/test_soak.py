"""Seeded soak: bot games across every preset and 2-10 players, with no exception
(issue 2 item 4: 10,000 games with ``make soak``; issue 3 item 7: every preset).

The default test run plays a small slice of the same schedule; ``make soak`` plays all of it.
"""

from __future__ import annotations

import random

import pytest

from engine.bots import Bot, HeuristicBot, RandomBot, play_round
from engine.round import Round, RoundSetup
from engine.rules import PRESETS, CustomEffect

PRESET_NAMES = sorted(PRESETS)
EFFECTS = list(CustomEffect)


def soak_game(index: int) -> None:
    """Game number ``index`` of the schedule: preset, players, custom effect and bots vary."""
    rules = PRESETS[PRESET_NAMES[index % len(PRESET_NAMES)]]
    if index % 3 == 0:
        rules = rules.model_copy(
            update={
                "custom_effect": EFFECTS[index % len(EFFECTS)],
                "showdown_every_go_out": index % 2 == 0,
            }
        )
    players = 2 + index % (rules.max_players - 1)
    rnd = Round.new(rules, RoundSetup(players=players, dealer=index % players, seed=index))
    bots: list[Bot] = [
        HeuristicBot(index + seat) if (index + seat) % 2 else RandomBot(index + seat)
        for seat in range(players)
    ]
    play_round(rnd, bots, random.Random(index), max_steps=500_000)
    assert rnd.over
    assert sorted(rnd.state.all_cards()) == list(range(len(rnd.deck)))
    assert [seat for seat, hand in enumerate(rnd.state.hands) if not hand] == [rnd.state.went_out]


def test_soak_slice_every_preset_2_to_10_players() -> None:
    for index in range(150):
        soak_game(index)


@pytest.mark.soak
@pytest.mark.parametrize("block", range(20))
def test_soak_10000_games(block: int) -> None:
    for index in range(block * 500, (block + 1) * 500):
        soak_game(index)
