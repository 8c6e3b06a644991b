"""Hypothesis invariants over random rule switches and presets (issue 2 item 4, issue 3 item 7).

At every step: the deck's cards are conserved across hands, piles and the Showdown unit (cards
in flight); the player whose turn it is has a legal action (no stuck turn); a legal action never
raises; a rule-breaking command raises RuleError and changes nothing. At the end: exactly one
player went out, the score is the sum of the others' card values, replaying the commands reaches
the same state, and serialise-then-load gives an equal state. Every event survives JSON and back.
"""

from __future__ import annotations

import random

from hypothesis import given, reject, settings
from hypothesis import strategies as st

from engine.commands import (
    CallUno,
    CatchUno,
    Challenge,
    Command,
    Draw,
    JumpIn,
    Pass,
    Penalty,
    PlayCard,
    ShowdownResult,
    WrongCard,
)
from engine.errors import RuleError
from engine.events import EVENT_ADAPTER, RoundEnded
from engine.round import Round, RoundSetup
from engine.rules import PRESETS, PenaltyReason, RuleSet
from engine.state import Phase
from tests.engine.scenario import choose
from tests.engine.switches import SWITCHES


@st.composite
def rule_sets(draw: st.DrawFn) -> RuleSet:
    """A preset with a random subset of switches changed."""
    base = PRESETS[draw(st.sampled_from(sorted(PRESETS)))]
    names = draw(st.sets(st.sampled_from(sorted(SWITCHES))))
    changed = {name: draw(st.sampled_from(SWITCHES[name])) for name in sorted(names)}
    return RuleSet.model_validate({**base.model_dump(), **changed})


def conserved(rnd: Round) -> bool:
    return sorted(rnd.state.all_cards()) == list(range(len(rnd.deck)))


def a_wrong_command(rnd: Round, rng: random.Random) -> Command:
    """Any command at all: often illegal (wrong seat, card not held, ...)."""
    n = rnd.state.players
    seat = rng.randrange(n)
    some_card = rng.randrange(len(rnd.deck))
    return rng.choice(
        [
            PlayCard(player=seat, card=some_card, colour=rng.randrange(4)),
            Draw(player=seat),
            Pass(player=seat),
            Challenge(player=seat),
            CallUno(player=seat),
            CatchUno(player=seat, target=rng.randrange(n)),
            WrongCard(player=seat, card=some_card),
            ShowdownResult(winner=seat, loser=rng.randrange(n)),
            JumpIn(player=seat, card=some_card),
            Penalty(player=seat, reason=rng.choice(list(PenaltyReason))),
        ]
    )


RANDOM_PLAY_MOVES = 5_000
"""Moves of random play a round is given to end. Most end within a few hundred; under some
switches (two players, Showdown cards moving cards back, hands passed on a zero, no going out on
an action card) random play, which no player would choose, can keep every card in hand for
hundreds of thousands of moves: no turn is stuck (checked at every move), the round is only
endless in practice, so such an example is set aside, not failed."""


def play_checked(rnd: Round, rng: random.Random, max_steps: int = RANDOM_PLAY_MOVES) -> None:
    steps = 0
    while not rnd.over:
        if steps >= max_steps:
            reject()  # random play that does not end (see RANDOM_PLAY_MOVES)
        if rnd.state.phase is not Phase.SHOWDOWN:  # no stuck turn: the player on turn can act
            assert rnd.legal_actions(rnd.state.turn, reactions=False)
        if rng.random() < 0.03:
            before = rnd.to_dict()
            try:
                rnd.apply(a_wrong_command(rnd, rng))
            except RuleError:
                assert rnd.to_dict() == before
            else:
                assert conserved(rnd)
        else:
            rnd.apply(choose(rnd, rng))
        assert conserved(rnd)
        steps += 1


def check_end(rnd: Round) -> None:
    st_ = rnd.state
    assert st_.went_out is not None
    empty = [seat for seat, hand in enumerate(st_.hands) if not hand]
    assert empty == [st_.went_out]
    ended = rnd.events[-1]
    assert isinstance(ended, RoundEnded) and ended.went_out == st_.went_out
    values = rnd.values
    others = sum(values[c] for seat, hand in enumerate(st_.hands) for c in hand)
    assert ended.points == others == sum(ended.hand_points)


@settings(max_examples=40)
@given(rules=rule_sets(), players=st.integers(2, 10), seed=st.integers(0, 2**32 - 1))
def test_invariants_hold_for_every_switch_combination(
    rules: RuleSet, players: int, seed: int
) -> None:
    rng = random.Random(seed)
    players = min(players, rules.max_players)
    rnd = Round.new(rules, RoundSetup(players=players, dealer=seed % players, seed=seed))
    assert conserved(rnd)
    play_checked(rnd, rng)
    check_end(rnd)
    # replaying the commands reaches the same state
    assert rnd.replayed().to_dict() == rnd.to_dict()
    assert Round.replay(rules, rnd.setup, list(rnd.history)).to_dict() == rnd.to_dict()
    # serialise then load gives an equal state
    assert Round.from_json(rnd.to_json()).to_dict() == rnd.to_dict()
    # every event to JSON and back
    for event in rnd.events:
        assert EVENT_ADAPTER.validate_json(EVENT_ADAPTER.dump_json(event)) == event


@settings(max_examples=30)
@given(rules=rule_sets(), players=st.integers(2, 6), seed=st.integers(0, 2**32 - 1))
def test_a_round_saved_midway_continues_identically(
    rules: RuleSet, players: int, seed: int
) -> None:
    """Save at a random point, load, and drive both copies with the same choices."""
    rng = random.Random(seed)
    players = min(players, rules.max_players)
    rnd = Round.new(rules, RoundSetup(players=players, seed=seed))
    for _ in range(rng.randrange(60)):
        if rnd.over:
            break
        rnd.apply(choose(rnd, rng))
    copy = Round.from_json(rnd.to_json())
    assert copy.to_dict() == rnd.to_dict()
    rng_a, rng_b = random.Random(seed + 1), random.Random(seed + 1)
    for _ in range(RANDOM_PLAY_MOVES):  # to the end, or as far as random play goes
        if rnd.over:
            break
        assert rnd.apply(choose(rnd, rng_a)) == copy.apply(choose(copy, rng_b))
    assert copy.over == rnd.over and copy.to_dict() == rnd.to_dict()
