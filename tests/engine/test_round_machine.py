"""The round as a state machine (hypothesis): any sequence of legal and illegal commands, with the
round saved and loaded at any point, under every preset.

After each command the round is either changed by exactly that one command (its history grows by
it, and the same command applied to the round as it was gives the same events and the same
round) or untouched (a RuleError naming a rule, and the round exactly as before). A twin round
that is never saved takes the same commands and must answer and end the same: a round saved and
loaded at any point plays on identically.
"""

from __future__ import annotations

import re
from typing import Any

from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from engine.commands import (
    CallUno,
    CatchUno,
    Challenge,
    ChooseOpening,
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
from engine.events import Event, TurnStarted
from engine.round import Round, RoundSetup
from engine.rules import PRESETS, PenaltyReason
from engine.state import RoundState

RULE_ID = re.compile(r"[a-z]+(-[a-z]+)*")
"""A refusal's rule id: the scoreboard translates refusals by it."""

seats = st.integers(-1, 6)
card_ids = st.integers(0, 120)
colours = st.one_of(st.none(), st.integers(-1, 4))
counts = st.one_of(st.none(), st.integers(0, 4))

any_command = st.one_of(
    st.builds(PlayCard, player=seats, card=card_ids, colour=colours, uno=st.booleans(),
              target=st.one_of(st.none(), seats), opponent=st.one_of(st.none(), seats),
              count=counts),
    st.builds(Draw, player=seats),
    st.builds(Pass, player=seats),
    st.builds(Challenge, player=seats),
    st.builds(CallUno, player=seats),
    st.builds(CatchUno, player=seats, target=st.integers(0, 5)),
    st.builds(ChooseOpening, player=seats, colour=st.integers(-1, 4),
              target=st.one_of(st.none(), seats), opponent=st.one_of(st.none(), seats),
              count=counts),
    st.builds(WrongCard, player=seats, card=card_ids),
    st.builds(ShowdownResult, winner=seats, loser=seats),
    st.builds(JumpIn, player=seats, card=card_ids, uno=st.booleans()),
    st.builds(Penalty, player=seats, reason=st.sampled_from(list(PenaltyReason)),
              cards=st.one_of(st.none(), st.integers(0, 21))),
)
"""Any command at all, mostly illegal: seats and cards out of range, wrong phases, bad choices."""


def where(rnd: Round) -> tuple[RoundState, Any, list[Command]]:
    """What a command may change: the state, the shuffle and the history (a copy of each)."""
    return rnd.state.copy(), rnd.rng.getstate(), list(rnd.history)


class RoundMachine(RuleBasedStateMachine):
    """Drives ``live`` (saved and loaded at random points) and ``twin`` (never saved) alike."""

    live: Round
    twin: Round

    @initialize(
        name=st.sampled_from(sorted(PRESETS)),
        players=st.integers(2, 5),
        dealer=st.integers(0, 4),
        seed=st.integers(0, 2**32 - 1),
    )
    def deal(self, name: str, players: int, dealer: int, seed: int) -> None:
        rules = PRESETS[name]
        players = min(players, rules.max_players)
        setup = RoundSetup(players=players, dealer=dealer % players, seed=seed)
        self.live, self.twin = Round.new(rules, setup), Round.new(rules, setup)

    def send(self, command: Command) -> None:
        before = where(self.live)
        try:
            events = self.live.apply(command)
        except RuleError as error:
            assert RULE_ID.fullmatch(error.rule), error.rule
            assert where(self.live) == before, f"{error.rule} changed the round"
            twin_error = self._twin_refuses(command)
            assert (twin_error.rule, twin_error.seat, str(twin_error)) == (
                error.rule, error.seat, str(error))
            return
        # Changed by exactly this one command: the history grows by it, and the same command on
        # the round as it was makes the same events and the same round.
        assert self.live.history == [*before[2], command]
        redo = Round(self.live.rules, self.live.deck, self.live.setup, before[0])
        redo.rng.setstate(before[1])
        assert redo.apply(command) == events
        assert where(redo)[:2] == where(self.live)[:2]
        assert self.twin.apply(command) == events

    def _twin_refuses(self, command: Command) -> RuleError:
        try:
            events: list[Event] = self.twin.apply(command)
        except RuleError as error:
            return error
        raise AssertionError(f"the twin accepted {command!r}: {events}")

    @precondition(lambda self: not self.live.over)
    @rule(pick=st.integers(0, 10**6))
    def legal_command(self, pick: int) -> None:
        actions = self.live.legal_actions()
        assert actions, "a round in play always offers some command"
        self.send(actions[pick % len(actions)])

    @rule(command=any_command)
    def some_command(self, command: Command) -> None:
        self.send(command)

    @rule()
    def save_and_load(self) -> None:
        self.live = Round.from_json(self.live.to_json())

    @invariant()
    def plays_as_if_never_saved(self) -> None:
        assert where(self.live) == where(self.twin)
        assert self.live.legal_actions() == self.twin.legal_actions()

    @invariant()
    def counts_each_turn_begun_after_the_first(self) -> None:
        """``state.turns``: one for each turn begun after the first, whatever began it (a play,
        a draw, a settled showdown, a penalty); none before the first turn begins."""
        begun = sum(isinstance(event, TurnStarted) for event in self.twin.events)
        if begun:
            assert self.twin.state.turns == begun - 1
        else:
            assert self.twin.state.turns <= 0


RoundMachine.TestCase.settings = settings(max_examples=20, stateful_step_count=30)
test_any_commands_change_a_round_by_one_legal_action_or_not_at_all = RoundMachine.TestCase
