"""Every switch of ``engine.rules.RuleSet`` with the values the invariant tests and the soak try.

One list for the hypothesis invariants (``test_invariants.py``) and the switch-combination soak
(``test_switch_soak.py``); ``test_switch_soak.py`` fails when a switch is missing here, so a new
switch cannot be left out of both.
"""

from __future__ import annotations

import random
from typing import Any

from engine.rules import PRESETS, CustomEffect, PenaltyReason, RuleSet

SWITCHES: dict[str, tuple[Any, ...]] = {
    "deck": ("classic", "modern", "swap", "showdown"),
    "target_score": (500,),
    "max_players": (2, 4, 8, 10),
    "first_dealer_by": ("number", "points"),
    "next_dealer": ("left", "winner"),
    "first_wild": ("choose", "return"),
    "first_reverse": ("dealer", "right_of_dealer"),
    "draw": ("one", "until-playable"),
    "draw_until_max": (None, 1, 3, 10),
    "play_drawn": ("any", "number"),
    "wd4_legality": ("no-current-colour", "no-playable-card", "any-time"),
    "wd4_guilty_takes_back": (False, True),
    "stack_draw_two": (False, True),
    "stack_draw_four": (False, True),
    "stack_draw_two_on_four": (False, True),
    "stack_draw_four_on_two": (False, True),
    "stack_deflect": (False, True),
    "spent_draw_colour_only": (False, True),
    "go_out_on_action": (False, True),
    "uno_penalty": (2, 4),
    "uno_catch_window": ("next-turn", "next-discard"),
    "false_call_penalty": (0, 2),
    "wrong_card_penalty": (0, 2),
    "custom_effect": tuple(CustomEffect),
    "customizable_value": (40, 0),
    "blank_value": (40, 100),
    "swap_hands_value": (40,),
    "wild_showdown_value": (50,),
    "showdown_every_go_out": (False, True),
    "jump_in": (False, True),
    "zero_passes_hands": (False, True),
    "red_zero_draw": (0, 10),
    "table_penalties": (
        (),
        (PenaltyReason.ADVICE,),
        (PenaltyReason.ADVICE, PenaltyReason.SILENCE, PenaltyReason.SLAP),
        (PenaltyReason.SILENCE, PenaltyReason.SLAP),
    ),
    "table_penalty_cards": (1, 2, 4),
}
"""Each switch and the values tried (the default among them)."""


def random_rules(rng: random.Random, change: float = 0.35) -> RuleSet:
    """A preset with each switch changed to a random value with probability ``change``."""
    base = PRESETS[rng.choice(sorted(PRESETS))]
    changed = {
        name: values[rng.randrange(len(values))]
        for name, values in SWITCHES.items()
        if rng.random() < change
    }
    return RuleSet.model_validate({**base.model_dump(), **changed})
