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

from engine import actions, jump_in
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
from tests.engine.scenario import card, choose, deck_order

SHOWDOWN_RULES = RuleSet(deck="showdown")

COLOURS = (0, 1, 2, 3)
SWAP, SHOWDOWN = int(CardKind.WILD_SWAP_HANDS), int(CardKind.WILD_SHOWDOWN)


def candidates(rnd: Round) -> Iterator[Command]:
    """Every command of the kinds legal_actions offers, for every seat and card held, with the
    choices each card asks for (a target for Swap Hands but as a last card, which plays as a
    plain wild; an opponent and count for a Wild Showdown; a choice a card does not ask for is
    ignored, so it is not spelled out)."""
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
                        if kind == SWAP and len(hand) > 1:
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
    "a last Swap Hands (a plain wild)": lambda: Round.from_position(
        RuleSet(deck="swap"), [["WX"], ["B1", "B2"], ["Y1"]], discard=["R7"]),
    "a next-to-last Wild": lambda: Round.from_position(
        RuleSet(), [["W", "G1"], ["B1"], ["Y1"]], discard=["R7"]),
    "a last 9 under Killer UNO (no going out on an action card)": lambda: Round.from_position(
        PRESETS["killer"], [["R9"], ["B1", "B2"], ["Y1", "RS"]], discard=["R7"]),
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


def test_a_last_swap_hands_is_offered_as_a_plain_wild_of_each_colour() -> None:
    """As a last card Swap Hands swaps nothing (its player goes out): one play per colour, no
    targets, and playing it ends the round with the other hands where they were."""
    rnd = POSITIONS["a last Swap Hands (a plain wild)"]()
    swap = card(rnd, 0, "WX")
    assert rnd.legal_actions(0) == [
        *(PlayCard(player=0, card=swap, colour=colour) for colour in COLOURS), Draw(player=0)]
    rnd.apply(PlayCard(player=0, card=swap, colour=2))
    assert rnd.over and [len(h) for h in rnd.state.hands] == [0, 2, 1]


def test_the_generator_called_alone_offers_the_reactions_too() -> None:
    """engine.actions.legal_actions with its defaults is what Round.legal_actions offers: the
    exposed player's own call and every other seat's catch included."""
    rnd = exposed_seat_1()
    offered = actions.legal_actions(rnd.state, rnd.tables, rnd.rules)
    assert offered == rnd.legal_actions()
    assert CallUno(player=1) in offered
    assert {CatchUno(player=0, target=1), CatchUno(player=2, target=1)} <= set(offered)


def test_a_saved_round_drawn_without_its_drawn_card_offers_only_the_pass() -> None:
    """A save in the drawn phase that lost its drawn card (written by hand, or damaged) loads:
    nothing can be played (the round refuses every card), the player can only pass."""
    data = Round.from_position(RuleSet(), [["R1", "G2"], ["B1"]], discard=["R7"]).to_dict()
    data["state"].update(phase="drawn", drawn_card=None)
    rnd = Round.from_dict(data)
    assert rnd.legal_actions() == [Pass(player=0)]
    offers_exactly_what_is_accepted(rnd)


def who(command: Command) -> tuple[int, ...]:
    """The seats a command belongs to, as legal_actions(seat) files it."""
    if isinstance(command, ShowdownResult):
        return (command.winner, command.loser)
    return (command.player,)


# -- Killer UNO's jump-ins: what a seat is offered ----------------------------------------------

KILLER = PRESETS["killer"]


def offered_jumps(rnd: Round, seat: int) -> list[str]:
    return [rnd.deck.cards[c].code
            for c in jump_in.candidates(rnd.state, rnd.tables, rnd.rules, seat)]


def test_no_jump_in_is_offered_where_the_rules_have_none() -> None:
    for rules, offered in ((RuleSet(deck="classic"), []), (KILLER, ["R5"])):
        rnd = Round.from_position(rules, [["G1", "G2"], ["R5", "B5"], ["Y1"]], discard=["R5"])
        assert offered_jumps(rnd, 1) == offered
        assert offered_jumps(rnd, 0) == []  # the player on turn plays, not jumps


def test_no_jump_in_is_offered_while_a_showdown_waits_or_after_the_round() -> None:
    rules = KILLER.model_copy(update={"deck": "showdown"})
    rnd = Round.from_position(rules, [["R3*2", "G1"], ["B4", "B5"], ["R3", "Y1"]],
                              discard=["R7"])
    rnd.apply(PlayCard(player=0, card=card(rnd, 0, "R3*2")))
    assert offered_jumps(rnd, 2) == []
    over = Round.from_position(KILLER, [["R5"], ["R5", "B5"], ["Y1"]], discard=["R7"])
    over.apply(PlayCard(player=0, card=card(over, 0, "R5")))
    assert over.over and offered_jumps(over, 1) == []


def test_a_jump_in_on_a_pending_draw_is_offered_as_the_stacking_rules_allow() -> None:
    """002 stacks a Draw Two on a Draw Two: seat 2 may jump in with its red Draw Two."""
    rnd = Round.from_position(KILLER, [["R+2", "G1"], ["B5", "B6"], ["R+2", "Y1"]],
                              discard=["R7"])
    rnd.apply(PlayCard(player=0, card=card(rnd, 0, "R+2")))
    assert offered_jumps(rnd, 2) == ["R+2"]
    offers_exactly_what_is_accepted(rnd)


def test_only_a_last_card_must_be_one_to_go_out_with() -> None:
    """002: no going out on a function card. With a card to spare a Skip may jump in; as the
    last card it may not."""
    for held, offered in ((["RS", "B5"], ["RS"]), (["RS"], [])):
        rnd = Round.from_position(KILLER, [["G1", "G2"], held, ["Y1"]], discard=["RS"])
        assert offered_jumps(rnd, 1) == offered
        offers_exactly_what_is_accepted(rnd)
