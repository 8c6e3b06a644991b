"""What a refused command tells the table: its rule id (the scoreboard translates refusals by it),
the seat it is about (the one a front end points at), its words, and a round left exactly as it
was. Plus the refusals a player relies on where no rule scenario looked: a Wild Showdown turned up
first, UNO said during a showdown or after the round, a catch by a seat not at the table."""

from __future__ import annotations

from collections.abc import Callable

import pytest

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
from engine.deck import Deck, builtin_deck
from engine.errors import RuleError
from engine.events import (
    CardsDrawn,
    ColourChosen,
    ShowdownStarted,
    TurnStarted,
    UnoCalled,
    UnoCaught,
)
from engine.round import Round, RoundSetup
from engine.rules import PenaltyReason, RuleSet, preset
from engine.state import Phase
from tests.engine.scenario import card, deck_order, refused, top_code

R, Y, G, B = 0, 1, 2, 3
OFFICIAL = RuleSet()
SHOWDOWN = RuleSet(deck="showdown")


def table(rules: RuleSet = OFFICIAL, turn: int = 0) -> Round:
    """Three players, a red 7 on top; seat 0 holds a bit of everything."""
    return Round.from_position(
        rules,
        [["R1", "G2", "R+2", "W", "W+4"], ["Y4", "Y5"], ["G6", "G7"]],
        discard=["R7"],
        draw=["R9", "B1"],
        turn=turn,
    )


def after(rnd: Round, *commands: Callable[[Round], Command]) -> Round:
    for command in commands:
        rnd.apply(command(rnd))
    return rnd


def play(seat: int, code: str, **choices: int) -> Callable[[Round], Command]:
    return lambda rnd: PlayCard(player=seat, card=card(rnd, seat, code), **choices)  # type: ignore[arg-type]


def turned_up(code: str, rules: RuleSet = SHOWDOWN, players: int = 3) -> Round:
    """The first card turned up is ``code`` (a wild): seat 1, left of the dealer, chooses."""
    rnd = Round.new(rules, RoundSetup(players=players, deck_order=deck_order(
        builtin_deck(rules.deck), {7 * players: code})))
    assert (top_code(rnd), rnd.state.phase, rnd.state.turn) == (code, Phase.OPENING, 1)
    return rnd


def in_a_showdown(rules: RuleSet = SHOWDOWN) -> Round:
    """Seat 0 played a Showdown icon leaving one card without saying UNO: the duel with seat 1
    is pending."""
    rnd = Round.from_position(rules, [["R3*2", "G1"], ["B1", "B2"], ["Y1", "Y2"]],
                              discard=["R7"])
    rnd.apply(play(0, "R3*2")(rnd))
    assert (rnd.state.phase, rnd.state.exposed) == (Phase.SHOWDOWN, 0)
    return rnd


Case = tuple[Callable[[], Round], Callable[[Round], Command], str, int | None, str]
"""How the round is set, the command, then the refusal: rule id, seat, words."""

CASES: dict[str, Case] = {
    "another seat plays": (
        table, play(1, "Y4"), "not-your-turn", None, "it is player 0's turn, not player 1's"),
    "a card from another hand": (
        table, lambda r: PlayCard(player=0, card=card(r, 1, "Y4")), "card-not-in-hand", None,
        "player 0 does not hold card {card}"),
    "a card that does not match": (
        table, play(0, "G2"), "card-does-not-match", 0,
        "player 0's card must match the colour, number or symbol on top"),
    "a wild without a colour": (
        table, play(0, "W"), "choose-colour", None, "a wild card needs a colour (0-3)"),
    "a wild with colour 4": (
        table, play(0, "W", colour=4), "choose-colour", None, "a wild card needs a colour (0-3)"),
    "a wild with colour -1": (
        table, play(0, "W", colour=-1), "choose-colour", None, "a wild card needs a colour (0-3)"),
    "a colour for a red card": (
        table, play(0, "R1", colour=G), "colour-only-for-wilds", None,
        "only a wild card chooses the colour"),
    "a card off colour on a spent Draw Two": (
        lambda: after(Round.from_position(RuleSet(spent_draw_colour_only=True),
                                          [["R+2", "G1"], ["Y4", "Y5"], ["G+2", "B1"]],
                                          discard=["R7"]),
                      play(0, "R+2"), lambda r: Draw(player=1)),
        play(2, "G+2"), "card-does-not-match", 2,
        "player 2's card must match the colour, number or symbol on top (the colour only, once "
        "a draw's penalty is taken)"),
    "a Swap Hands without a target": (
        lambda: Round.from_position(RuleSet(deck="swap"), [["WX", "G1"], ["B1"], ["Y1"]],
                                    discard=["R7"]),
        play(0, "WX", colour=G), "target-required", None,
        "choose another player (0-2) as target"),
    "a Wild Showdown against oneself": (
        lambda: Round.from_position(SHOWDOWN, [["WSD", "G1"], ["B1"], ["Y1"]], discard=["R7"]),
        play(0, "WSD", colour=G, opponent=0, count=1), "opponent-required", None,
        "choose another player (0-2) as opponent"),
    "a Swap Hands with oneself": (
        lambda: Round.from_position(RuleSet(deck="swap"), [["WX", "G1"], ["B1"], ["Y1"]],
                                    discard=["R7"]),
        play(0, "WX", colour=G, target=0), "target-required", None,
        "choose another player (0-2) as target"),
    "a Wild Showdown of 4 cards": (
        lambda: Round.from_position(SHOWDOWN, [["WSD", "G1"], ["B1"], ["Y1"]], discard=["R7"]),
        play(0, "WSD", colour=G, opponent=1, count=4), "showdown-count", None,
        "a Wild Showdown loads 1, 2 or 3 cards"),
    "another seat draws": (
        table, lambda r: Draw(player=1), "not-your-turn", None,
        "it is player 0's turn, not player 1's"),
    "a pass before drawing": (
        table, lambda r: Pass(player=0), "pass-after-drawing", None,
        "you may pass only after drawing a playable card"),
    "another card after drawing": (
        lambda: after(table(), lambda r: Draw(player=0)), play(0, "R1"), "only-drawn-card", None,
        "after drawing, only the card just drawn may be played"),
    "a second draw": (
        lambda: after(table(), lambda r: Draw(player=0)), lambda r: Draw(player=0),
        "already-drew", None, "you have drawn this turn: play that card or pass"),
    "another seat passes": (
        lambda: after(table(), lambda r: Draw(player=0)), lambda r: Pass(player=1),
        "not-your-turn", None, "it is player 0's turn, not player 1's"),
    "a card on a pending Draw Two": (
        lambda: after(table(), play(0, "R+2")), play(1, "Y4"), "answer-the-draw", 1,
        "player 1 faces a pending draw of 2: draw it (stacking is off)"),
    "a card on a pending Draw Two that cannot stack": (
        lambda: after(table(RuleSet(stack_draw_two=True)), play(0, "R+2")), play(1, "Y4"),
        "answer-the-draw", 1,
        "player 1 faces a pending draw of 2: draw it or stack/deflect as the rules allow"),
    "a card on a pending Wild Draw 4": (
        lambda: after(table(), play(0, "W+4", colour=Y)), play(1, "Y4"), "answer-the-draw", 1,
        "player 1 faces a pending draw of 4: draw it, challenge it (stacking is off)"),
    "a challenge by the seat after the victim": (
        lambda: after(table(), play(0, "W+4", colour=Y)), lambda r: Challenge(player=2),
        "challenge-only-next-player", None,
        "only the next player may challenge a Wild Draw 4, before beginning their turn"),
    "a challenge of a play that is no Wild Draw 4": (
        lambda: after(table(), play(0, "R1")), lambda r: Challenge(player=1),
        "challenge-only-next-player", None,
        "only the next player may challenge a Wild Draw 4, before beginning their turn"),
    "a challenge under rules with no challenge": (
        lambda: after(Round.from_position(preset("house"), [["R1", "W+4"], ["Y4", "Y5"], ["G6"]],
                                          discard=["R7"]), play(0, "W+4", colour=Y)),
        lambda r: Challenge(player=1), "no-challenge", 1,
        "a Wild Draw 4 may be played at any time under these rules: nothing to challenge"),
    "going out on a wild where that is off": (
        lambda: Round.from_position(preset("house"), [["W+4"], ["Y4"], ["G6"]], discard=["R7"]),
        play(0, "W+4", colour=Y), "last-card-action", 0,
        "player 0 may not go out on an action or wild card: draw instead"),
    "a showdown result with no showdown": (
        table, lambda r: ShowdownResult(winner=0, loser=1), "no-showdown", None,
        "there is no showdown to settle"),
    "a showdown result naming a seat outside the duel": (
        in_a_showdown, lambda r: ShowdownResult(winner=2, loser=0),
        "showdown-players", None, "this showdown is between players 0 and 1"),
    "an opening choice in play": (
        table, lambda r: ChooseOpening(player=0, colour=Y), "not-after-drawing", None,
        "that is only possible after drawing a playable card"),
    "an opening colour 4": (
        lambda: turned_up("W"), lambda r: ChooseOpening(player=1, colour=4), "choose-colour",
        None, "choose a colour 0-3"),
    "an opening colour -1": (
        lambda: turned_up("W"), lambda r: ChooseOpening(player=1, colour=-1), "choose-colour",
        None, "choose a colour 0-3"),
    "an opening choice by the dealer": (
        lambda: turned_up("W"), lambda r: ChooseOpening(player=0, colour=G), "not-your-turn",
        None, "it is player 1's turn, not player 0's"),
    "an opening swap with oneself": (
        lambda: turned_up("WX", RuleSet(deck="swap")),
        lambda r: ChooseOpening(player=1, colour=G, target=1), "target-required", None,
        "choose another player (0-2) as target"),
    "an opening swap with seat 3 of 3": (
        lambda: turned_up("WX", RuleSet(deck="swap")),
        lambda r: ChooseOpening(player=1, colour=G, target=3), "target-required", None,
        "choose another player (0-2) as target"),
    "UNO with three cards": (
        lambda: table(turn=1), lambda r: CallUno(player=0), "uno-needs-one-card", 0,
        "UNO is said with one card left"),
    "UNO again with the one card left": (
        lambda: after(Round.from_position(OFFICIAL, [["R1", "G2"], ["Y4", "Y5"], ["G6"]],
                                          discard=["R7"]), play(0, "R1"),
                      lambda r: CallUno(player=0)),
        lambda r: CallUno(player=0), "uno-already-safe", 0,
        "you are already safe: UNO was said or is not due"),
    "UNO by another seat while one is exposed": (
        lambda: after(Round.from_position(OFFICIAL, [["R1", "G2"], ["Y4", "Y5", "Y6"], ["G6"]],
                                          discard=["R7"]), play(0, "R1")),
        lambda r: CallUno(player=1), "uno-needs-one-card", 1, "UNO is said with one card left"),
    "UNO twice": (
        lambda: after(table(turn=1), lambda r: CallUno(player=1)), lambda r: CallUno(player=1),
        "uno-already-said", 1, "you have already said UNO"),
    "UNO by seat 3 of 3": (
        table, lambda r: CallUno(player=3), "no-such-player", 3, "there is no player 3"),
    "UNO by seat -1": (
        table, lambda r: CallUno(player=-1), "no-such-player", -1, "there is no player -1"),
    "a catch of a player with two cards": (
        table, lambda r: CatchUno(player=0, target=1), "catch-window", 1,
        "a player can be caught only holding one card without having said UNO, before the next "
        "player begins their turn"),
    "a catch under 003's window": (
        lambda: table(RuleSet(uno_catch_window="next-discard")),
        lambda r: CatchUno(player=0, target=1), "catch-window", 1,
        "a player can be caught only holding one card without having said UNO, until the next "
        "card is discarded"),
    "a wrong card that matches": (
        table, lambda r: WrongCard(player=0, card=card(r, 0, "R1")), "not-a-wrong-card", None,
        "that card may be played: it is not a wrong card"),
    "a wrong card from another hand": (
        table, lambda r: WrongCard(player=0, card=card(r, 1, "Y4")), "card-not-in-hand", None,
        "player 0 does not hold card {card}"),
    "a wrong card with the penalty off": (
        lambda: table(RuleSet(wrong_card_penalty=0)),
        lambda r: WrongCard(player=0, card=card(r, 0, "G2")), "wrong-card-penalty-off", None,
        "the wrong-card penalty is switched off"),
    "a jump-in where jumping in is off": (
        table, lambda r: JumpIn(player=1, card=card(r, 1, "Y4")), "jump-in-off", 1,
        "jumping in is not one of these rules"),
    "a penalty for seat 5 of 3": (
        table, lambda r: Penalty(player=5, reason=PenaltyReason.ADVICE), "no-such-player", 5,
        "there is no player 5"),
    "a penalty for seat 3 of 3 (seats count from 0)": (
        table, lambda r: Penalty(player=3, reason=PenaltyReason.ADVICE), "no-such-player", 3,
        "there is no player 3"),
    "a penalty for seat -1": (
        table, lambda r: Penalty(player=-1, reason=PenaltyReason.ADVICE), "no-such-player", -1,
        "there is no player -1"),
    "a wrong card as a table penalty": (
        table, lambda r: Penalty(player=1, reason=PenaltyReason.WRONG_CARD),
        "wrong-card-is-reported", 1,
        "report a wrong card with WrongCard: the card is taken back and the turn ends"),
    "a missing UNO as a table penalty": (
        table, lambda r: Penalty(player=2, reason=PenaltyReason.MISSED_UNO),
        "missed-uno-is-caught", 2,
        "catch a missing UNO with CatchUno: it knows the catch window and the cards it costs"),
    "a table penalty not agreed": (
        table, lambda r: Penalty(player=1, reason=PenaltyReason.SLAP), "penalty-not-agreed", 1,
        "slap is not a table rule of this game (agreed: advice)"),
    "a penalty of no cards": (
        table, lambda r: Penalty(player=1, reason=PenaltyReason.ADVICE, cards=0), "penalty-cards",
        1, "a penalty is 1 to 20 cards, not 0"),
    "a penalty of 21 cards": (
        table, lambda r: Penalty(player=1, reason=PenaltyReason.ADVICE, cards=21),
        "penalty-cards", 1, "a penalty is 1 to 20 cards, not 21"),
    "a jump-in on one's own turn": (
        lambda: Round.from_position(preset("killer"), [["Y5", "B2"], ["R8", "G5"], ["G6"]],
                                    discard=["R8"]),
        lambda r: JumpIn(player=0, card=card(r, 0, "Y5")), "jump-in-own-turn", 0,
        "it is player 0's turn: play the card"),
    "a jump-in with a card not identical": (
        lambda: Round.from_position(preset("killer"), [["Y5", "B2"], ["R8", "G5"], ["G6"]],
                                    discard=["R8"]),
        lambda r: JumpIn(player=2, card=card(r, 2, "G6")), "jump-in-not-identical", 2,
        "player 2 may jump in only with a card identical to the top card (the same colour and the "
        "same number or symbol)"),
    "a jump-in with another's card": (
        lambda: Round.from_position(preset("killer"), [["Y5", "B2"], ["R8", "G5"], ["G6"]],
                                    discard=["R8"]),
        lambda r: JumpIn(player=2, card=card(r, 1, "R8")), "card-not-in-hand", 2,
        "player 2 does not hold card {card}"),
    "a jump-in by seat 3 of 3": (
        lambda: Round.from_position(preset("killer"), [["Y5", "B2"], ["R8", "G5"], ["G6"]],
                                    discard=["R8"]),
        lambda r: JumpIn(player=3, card=card(r, 1, "R8")), "no-such-player", 3,
        "there is no player 3"),
    "something that is no command": (
        table, lambda r: "play R1", "unknown-command", None,  # type: ignore[arg-type,return-value]
        "not a command: 'play R1'"),
}


@pytest.mark.parametrize("name", CASES)
def test_a_refusal_names_its_rule_and_seat_in_words_and_changes_nothing(name: str) -> None:
    build, command, rule, seat, words = CASES[name]
    rnd = build()
    sent = command(rnd)
    error = refused(rnd, sent)
    words = words.format(card=getattr(sent, "card", None))  # a card id, where one is named
    assert (error.rule, error.seat, str(error)) == (rule, seat, f"{words} [rule: {rule}]")


# -- dealing ------------------------------------------------------------------------------------


@pytest.mark.parametrize(("rules", "players", "words"), [
    (OFFICIAL, 1, "these rules are for 2-10 players, not 1"),
    (OFFICIAL, 11, "these rules are for 2-10 players, not 11"),
    (preset("house"), 9, "these rules are for 2-8 players, not 9"),
])
def test_a_deal_refuses_a_table_the_rules_are_not_for(rules: RuleSet, players: int,
                                                       words: str) -> None:
    with pytest.raises(RuleError) as caught:
        Round.new(rules, RoundSetup(players=players))
    error = caught.value
    assert (error.rule, error.seat, str(error)) == ("players", None, f"{words} [rule: players]")


@pytest.mark.parametrize("dealer", [3, -1])
def test_a_deal_refuses_a_dealer_not_at_the_table(dealer: int) -> None:
    with pytest.raises(RuleError) as caught:
        Round.new(OFFICIAL, RoundSetup(players=3, dealer=dealer))
    error = caught.value
    assert (error.rule, error.seat, str(error)) == (
        "dealer", None, "dealer must be a seat 0-2 [rule: dealer]")


def test_a_deal_needs_seven_cards_a_hand_a_card_to_turn_up_and_one_to_draw() -> None:
    """Six players need 44 cards: a deck of 44 deals, one of 43 is refused in words."""
    codes = [f"{colour}{number}" for colour in "RYGB" for number in range(10)]
    enough = Deck.from_codes("44", [*codes, "R1", "Y1", "G1", "B1"])
    rnd = Round.new(OFFICIAL, RoundSetup(players=6), enough)
    assert [len(hand) for hand in rnd.state.hands] == [7] * 6
    assert len(rnd.state.draw_pile) + len(rnd.state.discard) == 2
    short = Deck.from_codes("43", [*codes, "R1", "Y1", "G1"])
    with pytest.raises(RuleError) as caught:
        Round.new(OFFICIAL, RoundSetup(players=6), short)
    error = caught.value
    assert (error.rule, error.seat, str(error)) == (
        "deck-size", None, "43 cards cannot deal 6 hands of 7 [rule: deck-size]")


# -- a Wild Showdown turned up as the first card ------------------------------------------------


def wild_showdown_first(players: int = 3) -> Round:
    """The first card turned up is a Wild Showdown: seat 1 (left of the dealer) chooses."""
    deck = builtin_deck("showdown")
    rnd = Round.new(SHOWDOWN, RoundSetup(players=players, deck_order=deck_order(
        deck, {7 * players: "WSD"})))
    assert (top_code(rnd), rnd.state.phase) == ("WSD", Phase.OPENING)
    return rnd


@pytest.mark.parametrize("count", [None, 0, 4, 7])
def test_a_wild_showdown_turned_up_first_loads_1_to_3_cards_only(count: int | None) -> None:
    rnd = wild_showdown_first()
    error = refused(rnd, ChooseOpening(player=1, colour=G, opponent=2, count=count))
    assert (error.rule, str(error)) == (
        "showdown-count", "a Wild Showdown loads 1, 2 or 3 cards [rule: showdown-count]")
    assert rnd.state.phase is Phase.OPENING


@pytest.mark.parametrize("opponent", [None, 1, 3, -1])
def test_a_wild_showdown_turned_up_first_needs_another_seat_at_the_table(
    opponent: int | None,
) -> None:
    rnd = wild_showdown_first()
    error = refused(rnd, ChooseOpening(player=1, colour=G, opponent=opponent, count=2))
    assert (error.rule, str(error)) == (
        "opponent-required", "choose another player (0-2) as opponent [rule: opponent-required]")


@pytest.mark.parametrize("count", [1, 2, 3])
def test_a_wild_showdown_turned_up_first_loads_the_count_chosen(count: int) -> None:
    rnd = wild_showdown_first()
    top_of_pile = list(reversed(rnd.state.draw_pile))[:count]
    events = rnd.apply(ChooseOpening(player=1, colour=G, opponent=0, count=count))
    started = next(e for e in events if isinstance(e, ShowdownStarted))
    assert (started.challenger, started.opponent, started.source) == (1, 0, "wild")
    assert list(started.loaded) == top_of_pile
    assert (rnd.state.phase, rnd.state.colour) == (Phase.SHOWDOWN, G)


def test_the_opening_choice_announces_the_colour_and_begins_the_first_turn() -> None:
    rnd = turned_up("W")
    hands = [list(hand) for hand in rnd.state.hands]
    events = rnd.apply(ChooseOpening(player=1, colour=G))
    assert events == [ColourChosen(player=1, colour=G), TurnStarted(player=1)]
    assert (rnd.state.phase, rnd.state.turn, rnd.state.colour) == (Phase.PLAY, 1, G)
    assert rnd.state.hands == hands
    # The choice is part of the first turn: counted as a round whose first card is a number is.
    numbered = Round.new(SHOWDOWN, RoundSetup(players=3, deck_order=deck_order(
        builtin_deck("showdown"), {21: "G2"})))
    assert rnd.state.turns == numbered.state.turns == 0


@pytest.mark.parametrize("code", ["W", "WSD"])
def test_a_target_chosen_for_a_wild_that_swaps_nothing_is_ignored(code: str) -> None:
    rnd = turned_up(code)
    hands = [list(hand) for hand in rnd.state.hands]
    choices = {"opponent": 2, "count": 1} if code == "WSD" else {}
    rnd.apply(ChooseOpening(player=1, colour=G, target=1, **choices))  # type: ignore[arg-type]
    assert rnd.state.hands[:2] == hands[:2] and rnd.state.colour == G


@pytest.mark.parametrize("winner", [1, 0])
def test_a_wild_showdown_turned_up_first_is_settled_and_the_first_player_plays(
    winner: int,
) -> None:
    """Whoever wins, the round goes on (no card went out) and it is still seat 1's first turn."""
    rnd = wild_showdown_first()
    wild = rnd.top
    loaded = tuple(reversed(rnd.state.draw_pile[-2:]))
    events = rnd.apply(ChooseOpening(player=1, colour=B, opponent=0, count=2))
    assert events == [
        ColourChosen(player=1, colour=B),
        ShowdownStarted(challenger=1, opponent=0, loaded=loaded, source="wild", card=wild,
                        last_card=False),
    ]
    assert (rnd.state.phase, rnd.state.turn) == (Phase.SHOWDOWN, 1)
    loser = 1 - winner
    before = list(rnd.state.hands[loser])
    events = rnd.apply(ShowdownResult(winner=winner, loser=loser))
    assert events[-1] == TurnStarted(player=1)
    assert (rnd.state.phase, rnd.state.turn, rnd.state.colour) == (Phase.PLAY, 1, B)
    assert rnd.state.hands[loser] == before + list(loaded)
    assert rnd.state.turns == 0


def test_a_wild_showdown_played_loads_1_to_3_cards_only() -> None:
    rnd = Round.from_position(SHOWDOWN, [["WSD", "G1"], ["B1"], ["Y1"]], discard=["R7"])
    for count in (0, 4):
        error = refused(rnd, play(0, "WSD", colour=G, opponent=2, count=count)(rnd))
        assert (error.rule, error.seat) == ("showdown-count", None)


# -- UNO while nothing may be said ----------------------------------------------------------------


@pytest.mark.parametrize("command", [
    CallUno(player=0), CallUno(player=1), CatchUno(player=1, target=0),
    CatchUno(player=2, target=0), JumpIn(player=2, card=0),
    Penalty(player=2, reason=PenaltyReason.ADVICE),
])
def test_no_uno_catch_jump_in_or_penalty_while_a_showdown_is_pending(command: Command) -> None:
    rnd = in_a_showdown(preset("killer").model_copy(update={"deck": "showdown"}))
    error = refused(rnd, command)
    assert (error.rule, str(error)) == (
        "showdown-pending",
        "a showdown is pending: only its result is accepted [rule: showdown-pending]")


def test_the_catch_waits_for_the_showdown_result() -> None:
    rnd = in_a_showdown()
    rnd.apply(ShowdownResult(winner=0, loser=1))
    events = rnd.apply(CatchUno(player=2, target=0))
    assert UnoCaught(catcher=2, target=0) in events and len(rnd.state.hands[0]) == 3


def round_over() -> Round:
    """Seat 0 went out with its last card; seat 1 holds one card it never said UNO for."""
    rnd = Round.from_position(OFFICIAL, [["R1"], ["B1"], ["Y1", "Y2"]], discard=["R7"])
    rnd.apply(play(0, "R1")(rnd))
    assert rnd.state.phase is Phase.OVER
    return rnd


@pytest.mark.parametrize("seat", [0, 1, 2])
def test_no_uno_is_said_after_the_round_is_over(seat: int) -> None:
    rnd = round_over()
    error = refused(rnd, CallUno(player=seat))
    assert (error.rule, str(error)) == ("round-over", "the round is over [rule: round-over]")


def test_no_one_is_caught_after_the_round_is_over() -> None:
    error = refused(round_over(), CatchUno(player=2, target=1))
    assert (error.rule, error.seat) == ("catch-window", 1)


# -- who may catch -------------------------------------------------------------------------------


def exposed() -> Round:
    """Seat 0 played its next-to-last card without saying UNO: exposed until seat 1 begins."""
    rnd = Round.from_position(OFFICIAL, [["R1", "G2"], ["B1", "B2"], ["Y1", "Y2"], ["G5"]],
                              discard=["R7"])
    rnd.apply(play(0, "R1")(rnd))
    assert rnd.state.exposed == 0
    return rnd


@pytest.mark.parametrize("catcher", [4, 5, -1, 0])
def test_only_another_seat_at_the_table_catches_a_player(catcher: int) -> None:
    """Seats 4 and -1 are not at a table of four; seat 0 cannot catch itself."""
    rnd = exposed()
    error = refused(rnd, CatchUno(player=catcher, target=0))
    assert (error.rule, error.seat) == ("catch-window", 0)


@pytest.mark.parametrize("catcher", [1, 2, 3])
def test_every_other_seat_at_the_table_may_catch(catcher: int) -> None:
    rnd = exposed()
    events = rnd.apply(CatchUno(player=catcher, target=0))
    assert events[0] == UnoCaught(catcher=catcher, target=0)
    assert isinstance(events[1], CardsDrawn)
    assert (events[1].player, len(events[1].cards), events[1].reason) == (0, 2, "uno-caught")
    assert (len(rnd.state.hands[0]), rnd.state.exposed, rnd.state.turn) == (3, None, 1)


def test_the_self_catch_makes_the_player_safe_and_is_announced() -> None:
    rnd = exposed()
    assert rnd.apply(CallUno(player=0)) == [UnoCalled(player=0)]
    assert (rnd.state.exposed, rnd.state.uno_called[0]) == (None, True)
    assert refused(rnd, CatchUno(player=1, target=0)).rule == "catch-window"


def test_a_false_call_costs_its_penalty_where_that_is_on() -> None:
    rnd = Round.from_position(RuleSet(false_call_penalty=2), [["R1", "G2", "B3"], ["Y4"]],
                              discard=["R7"], turn=1)
    events = rnd.apply(CallUno(player=0))
    assert isinstance(events[0], CardsDrawn)
    assert (events[0].player, len(events[0].cards), events[0].reason) == (0, 2, "false-uno")
