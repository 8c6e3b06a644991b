"""The legal actions are exactly the commands the round accepts: a bot or a front end offering
``legal_actions()`` offers every play a player may make (each colour, target, opponent and count
of a wild, the UNO call with the next-to-last card, catches, jump-ins) and nothing the round would
refuse. Checked against every candidate command tried on a copy of the round."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.cards import CardKind
from engine.commands import (
    CallUno,
    CatchUno,
    Challenge,
    ChooseOpening,
    Command,
    Draw,
    JumpIn,
    Pass,
    PlayCard,
    ShowdownResult,
)
from engine.deck import builtin_deck
from engine.errors import RuleError
from engine.round import Round, RoundSetup
from engine.rules import PRESETS, RuleSet
from tests.engine.scenario import card, deck_order
from tests.engine.test_invariants import choose

SHOWDOWN_RULES = RuleSet(deck="showdown")

COLOURS = (0, 1, 2, 3)
SWAP, SHOWDOWN = int(CardKind.WILD_SWAP_HANDS), int(CardKind.WILD_SHOWDOWN)


def candidates(rnd: Round) -> Iterator[Command]:
    """Every command of the kinds legal_actions offers, for every seat and card held, with the
    choices each card asks for (a target for Swap Hands, an opponent and count for a Wild
    Showdown; a choice a card does not ask for is ignored, so it is not spelled out)."""
    n, t = rnd.state.players, rnd.tables
    seats = range(n)
    for seat in seats:
        others = [s for s in seats if s != seat]
        hand = rnd.state.hands[seat]
        unos = (False, True) if len(hand) == 2 else (False,)
        for held in hand:
            yield from (JumpIn(player=seat, card=held, uno=uno) for uno in unos)
            if not t.is_wild[held]:
                yield from (PlayCard(player=seat, card=held, uno=uno) for uno in unos)
                continue
            kind = t.kind[held]
            for colour in COLOURS:
                for uno in unos:
                    if kind != SHOWDOWN:
                        yield PlayCard(player=seat, card=held, colour=colour, uno=uno)
                    for other in others:
                        if kind == SWAP:
                            yield PlayCard(player=seat, card=held, colour=colour, uno=uno,
                                           target=other)
                        for count in (1, 2, 3) if kind == SHOWDOWN else ():
                            yield PlayCard(player=seat, card=held, colour=colour, uno=uno,
                                           opponent=other, count=count)
        top = t.kind[rnd.state.discard[-1]]
        for colour in COLOURS:
            if top != SHOWDOWN:
                yield ChooseOpening(player=seat, colour=colour)
            for other in others:
                if top == SWAP:
                    yield ChooseOpening(player=seat, colour=colour, target=other)
                for count in (1, 2, 3) if top == SHOWDOWN else ():
                    yield ChooseOpening(player=seat, colour=colour, opponent=other, count=count)
        yield from (Draw(player=seat), Pass(player=seat), Challenge(player=seat))
        yield from (CatchUno(player=seat, target=other) for other in others)
        yield from (ShowdownResult(winner=seat, loser=other) for other in others)
        if rnd.state.exposed == seat:
            yield CallUno(player=seat)  # the self-catch; a call with two cards is no reaction


def accepts(rnd: Round, command: Command) -> bool:
    copy = Round(rnd.rules, rnd.deck, rnd.setup, rnd.state.copy())
    copy.rng.setstate(rnd.rng.getstate())
    try:
        copy.apply(command)
    except RuleError:
        return False
    return True


def offers_exactly_what_is_accepted(rnd: Round) -> None:
    offered = rnd.legal_actions()
    assert len(set(offered)) == len(offered), "a command is offered twice"
    accepted = {c for c in candidates(rnd) if accepts(rnd, c)}
    assert set(offered) == accepted
    for seat in range(rnd.state.players):
        assert set(rnd.legal_actions(seat)) == {c for c in accepted if seat in who(c)}


def exposed_seat_1() -> Round:
    rnd = Round.from_position(SHOWDOWN_RULES, [["G1", "G2"], ["R1", "B5"], ["Y1", "Y2"]],
                              discard=["R7"], turn=1)
    rnd.apply(PlayCard(player=1, card=card(rnd, 1, "R1")))
    return rnd


def opening(code: str) -> Round:
    deck = builtin_deck("showdown")
    return Round.new(SHOWDOWN_RULES, RoundSetup(players=3, deck_order=deck_order(deck, {21: code})))


POSITIONS = {
    "a Wild Showdown and a Swap Hands in hand": lambda: Round.from_position(
        SHOWDOWN_RULES, [["WSD", "G1", "G2"], ["B1"], ["Y1"]], discard=["R7"]),
    "a next-to-last Wild Showdown": lambda: Round.from_position(
        SHOWDOWN_RULES, [["WSD", "G1"], ["B1"], ["Y1"]], discard=["R7"]),
    "seat 1 exposed": exposed_seat_1,
    "a Wild Showdown turned up": lambda: opening("WSD"),
    "a Wild turned up": lambda: opening("W"),
    "a Swap Hands turned up": lambda: Round.new(RuleSet(deck="swap"), RoundSetup(
        players=3, deck_order=deck_order(builtin_deck("swap"), {21: "WX"}))),
    "a Swap Hands in hand": lambda: Round.from_position(
        RuleSet(deck="swap"), [["WX", "G1"], ["B1", "B2"], ["Y1"]], discard=["R7"]),
}


@pytest.mark.parametrize("name", POSITIONS)
def test_the_legal_actions_spell_out_every_choice(name: str) -> None:
    offers_exactly_what_is_accepted(POSITIONS[name]())


@settings(max_examples=5)
@given(name=st.sampled_from(sorted(PRESETS)), players=st.integers(2, 3),
       seed=st.integers(0, 2**32 - 1))
def test_the_legal_actions_are_exactly_the_commands_accepted(
    name: str, players: int, seed: int
) -> None:
    """At every step of a round's first 40 commands (a wild's choices, the next-to-last card's
    call, catches, challenges, showdowns, jump-ins come up on the way)."""
    rules = PRESETS[name]
    rnd = Round.new(rules, RoundSetup(players=min(players, rules.max_players), seed=seed))
    rng = random.Random(seed)
    for _ in range(40):
        offers_exactly_what_is_accepted(rnd)
        if rnd.over:
            break
        rnd.apply(choose(rnd, rng))


def who(command: Command) -> tuple[int, ...]:
    """The seats a command belongs to, as legal_actions(seat) files it."""
    if isinstance(command, ShowdownResult):
        return (command.winner, command.loser)
    return (command.player,)
