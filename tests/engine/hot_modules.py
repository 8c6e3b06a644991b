"""Which engine modules a round calls per command: ``python -m tests.engine.hot_modules`` prints
a JSON object {preset: {module: Python calls per command}}.

Run on the sources (``SHOWDOWN_ENGINE=python``): compiled functions are invisible to
:func:`sys.setprofile`. Every preset is played, with random and heuristic bots, after a few rounds
that fill the per-deck caches, so a module counts for what it does per command, not once per deck.
"""

from __future__ import annotations

import json
import random
import sys
from collections import Counter
from types import FrameType
from typing import Any

from engine.bots import Bot, HeuristicBot, RandomBot, play_round
from engine.round import Round, RoundSetup
from engine.rules import PRESETS, preset

WARM_UP = 5
ROUNDS = 30


def calls_per_command(name: str) -> dict[str, float]:
    """Calls into each ``engine.*`` module per command over ``ROUNDS`` rounds of preset ``name``."""
    rules = preset(name)
    calls: Counter[str] = Counter()

    def count(frame: FrameType, event: str, _arg: Any) -> None:
        if event == "call":
            calls[str(frame.f_globals.get("__name__", ""))] += 1

    commands = 0
    for game in range(WARM_UP + ROUNDS):
        bots: list[Bot] = [HeuristicBot(seed=game), RandomBot(game), HeuristicBot(seed=game + 1),
                           RandomBot(game + 1)]
        rng = random.Random(game)
        profiled = game >= WARM_UP
        if profiled:
            sys.setprofile(count)
        try:
            rnd = Round.new(rules, RoundSetup(players=4, dealer=game % 4, seed=game))
            played = play_round(rnd, bots, rng)
        finally:
            sys.setprofile(None)
        commands += played if profiled else 0
    return {
        module.removeprefix("engine."): round(n / commands, 4)
        for module, n in sorted(calls.items())
        if module.startswith("engine.")
    }


if __name__ == "__main__":
    print(json.dumps({name: calls_per_command(name) for name in PRESETS}))
