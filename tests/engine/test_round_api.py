"""The round's public API: typed errors that change nothing, JSON round trips, replay, legal
actions, set-up from a seed or an explicit deck order (issue 2 item 3)."""

from __future__ import annotations

import random

import pytest

from engine.bots import RandomBot, play_round
from engine.commands import COMMAND_ADAPTER, Draw, PlayCard, ShowdownResult
from engine.deck import builtin_deck
from engine.errors import RuleError
from engine.events import EVENT_ADAPTER
from engine.rng import generator, shuffle
from engine.round import Round, RoundSetup
from engine.rules import RuleSet, preset
from engine.state import Phase
from tests.engine.scenario import card, codes

DEFAULT = RuleSet()


@pytest.mark.parametrize(
    ("command", "rule"),
    [
        (Draw(player=1), "not-your-turn"),
        (PlayCard(player=0, card=999), "card-not-in-hand"),
        (PlayCard(player=1, card=0), "not-your-turn"),
        (ShowdownResult(winner=0, loser=1), "no-showdown"),
    ],
)
def test_rule_breaking_command_raises_and_changes_nothing(command: object, rule: str) -> None:
    rnd = Round.new(DEFAULT, RoundSetup(players=3, dealer=2, seed=3))
    before = rnd.to_dict()
    with pytest.raises(RuleError) as caught:
        rnd.apply(command)  # type: ignore[arg-type]
    assert caught.value.rule == rule and f"[rule: {rule}]" in str(caught.value)
    assert rnd.to_dict() == before and rnd.history == []


def test_card_that_does_not_match_names_the_rule() -> None:
    rnd = Round.from_position(DEFAULT, [["Y3", "B9"], ["G1"]], discard=["R7"])
    before = rnd.to_dict()
    with pytest.raises(RuleError, match="must match the colour, number or symbol"):
        rnd.apply(PlayCard(player=0, card=card(rnd, 0, "Y3")))
    assert rnd.to_dict() == before


def test_wild_needs_a_colour() -> None:
    rnd = Round.from_position(DEFAULT, [["W", "B9"], ["G1"]], discard=["R7"])
    with pytest.raises(RuleError, match="needs a colour"):
        rnd.apply(PlayCard(player=0, card=card(rnd, 0, "W")))


def test_same_seed_same_deal_and_explicit_deck_order() -> None:
    a = Round.new(DEFAULT, RoundSetup(players=4, seed=9))
    b = Round.new(DEFAULT, RoundSetup(players=4, seed=9))
    assert a.to_dict() == b.to_dict()
    deck = builtin_deck("modern")
    order = tuple(range(len(deck)))
    rnd = Round.new(DEFAULT, RoundSetup(players=2, dealer=0, deck_order=order))
    # dealt one at a time starting left of the dealer: seat 1 gets ids 0, 2, 4, ...
    assert rnd.state.hands[1] == [0, 2, 4, 6, 8, 10, 12]
    assert rnd.state.hands[0] == [1, 3, 5, 7, 9, 11, 13]
    assert rnd.top == 14
    with pytest.raises(RuleError, match="every card id exactly once"):
        Round.new(DEFAULT, RoundSetup(players=2, deck_order=(0, 0, 1)))


def test_every_legal_action_is_accepted() -> None:
    rng = random.Random(5)
    for seed in range(10):
        rnd = Round.new(preset("showdown"), RoundSetup(players=2 + seed % 5, seed=seed))
        while not rnd.over:
            saved = rnd.to_dict()
            for action in rnd.legal_actions():
                Round.from_dict(saved).apply(action)
            actions = rnd.legal_actions()
            rnd.apply(actions[rng.randrange(len(actions))])
            if len(rnd.history) > 60:
                break


def test_legal_actions_for_one_seat() -> None:
    rnd = Round.from_position(DEFAULT, [["R3", "B9", "W"], ["G1"]], discard=["R7"])
    mine = rnd.legal_actions(0)
    assert rnd.legal_actions(1) == []
    plays = [a for a in mine if isinstance(a, PlayCard)]
    assert {a.card for a in plays} == {card(rnd, 0, "R3"), card(rnd, 0, "W")}
    assert len([a for a in plays if a.card == card(rnd, 0, "W")]) == 4
    assert Draw(player=0) in mine


def test_commands_and_events_to_json_and_back() -> None:
    rnd = Round.new(preset("showdown"), RoundSetup(players=3, seed=1))
    for command in rnd.legal_actions():
        assert COMMAND_ADAPTER.validate_json(COMMAND_ADAPTER.dump_json(command)) == command
    for event in rnd.events:
        assert EVENT_ADAPTER.validate_json(EVENT_ADAPTER.dump_json(event)) == event


def test_from_position_refuses_cards_the_deck_lacks() -> None:
    with pytest.raises(RuleError, match="no \\(more\\) WX"):
        Round.from_position(DEFAULT, [["WX"], ["G1"]], discard=["R7"])
    rnd = Round.from_position(DEFAULT, [["R1", "R1"], ["G1"]], discard=["R7"])
    assert codes(rnd, 0) == ["R1", "R1"] and rnd.state.hands[0][0] != rnd.state.hands[0][1]
    assert rnd.state.phase is Phase.PLAY


@pytest.mark.parametrize(
    ("hands", "discard", "words"),
    [
        ([["WX"], ["G1"]], ["R7"], "deck 'modern' has no (more) WX cards"),
        ([["R0"], ["R0"]], ["R7"], "deck 'modern' has no (more) R0 cards"),
        ([["R1"], ["G1"]], [], "the discard pile needs a top card"),
        ([["R1"], ["G1"]], ["R7", "W"], "give the colour chosen for the wild on top"),
    ],
)
def test_a_position_that_cannot_be_laid_out_is_refused_in_words(
    hands: list[list[str]], discard: list[str], words: str
) -> None:
    with pytest.raises(RuleError) as caught:
        Round.from_position(DEFAULT, hands, discard=discard)
    assert (caught.value.rule, caught.value.seat, str(caught.value)) == (
        "position", None, f"{words} [rule: position]")


@pytest.mark.parametrize(
    ("turn", "direction", "dealer"), [(0, 1, 2), (0, -1, 1), (2, 1, 1), (1, -1, 2)]
)
def test_a_positioned_round_seats_its_dealer_just_before_the_player_to_start(
    turn: int, direction: int, dealer: int
) -> None:
    """Unless given, the dealer is the seat the player to start follows; the set-up saved with
    the round names the same dealer (the next round's dealer follows from it)."""
    rnd = Round.from_position(
        DEFAULT, [["R1"], ["G1"], ["B1"]], discard=["R7"], turn=turn, direction=direction
    )
    assert (rnd.state.dealer, rnd.setup.dealer, rnd.state.turn) == (dealer, dealer, turn)
    assert Round.from_json(rnd.to_json()).setup.dealer == dealer


def test_a_positioned_round_keeps_the_dealer_it_is_given() -> None:
    rnd = Round.from_position(DEFAULT, [["R1"], ["G1"], ["B1"]], discard=["R7"], dealer=0)
    assert (rnd.state.dealer, rnd.setup.dealer, rnd.state.turn) == (0, 0, 0)


@pytest.mark.parametrize("seed", [None, 0, 1, 7])
def test_a_positioned_round_reshuffles_by_its_seed(seed: int | None) -> None:
    """Every card not named lies under the discard pile (``rest="discard"``): the first draw
    reshuffles it with the round's seed (0 unless given), which the saved set-up records."""
    hands, discard = [["G1", "G2"], ["B1"], ["B2"]], ["R7"]
    if seed is None:
        rnd = Round.from_position(DEFAULT, hands, discard, rest="discard")
    else:
        rnd = Round.from_position(DEFAULT, hands, discard, rest="discard", seed=seed)
    used = 0 if seed is None else seed
    assert rnd.setup == RoundSetup(players=3, dealer=2, seed=used)
    under = rnd.state.discard[:-1]
    assert rnd.state.draw_pile == [] and len(under) == len(rnd.deck) - 5
    reshuffled = list(under)
    shuffle(generator(used), reshuffled)
    rnd.apply(Draw(player=0))
    assert rnd.state.hands[0][2] == reshuffled[-1]
    assert rnd.state.draw_pile == reshuffled[:-1]


def _play_at_random(rnd: Round, commands: int, seed: int) -> None:
    """Apply up to ``commands`` legal commands chosen at random (any seat, reactions too)."""
    rng = random.Random(seed)
    for _ in range(commands):
        actions = rnd.legal_actions()
        rnd.apply(actions[rng.randrange(len(actions))])
        if rnd.over:
            break


def test_a_loaded_round_can_still_be_replayed() -> None:
    rnd = Round.new(DEFAULT, RoundSetup(players=3, seed=4))
    _play_at_random(rnd, 20, seed=1)
    loaded = Round.from_json(rnd.to_json())
    assert loaded.replayed().to_dict() == rnd.to_dict()


def test_game_with_challenge_uno_deals_only_active_seats() -> None:
    """001 / 003 Challenge UNO (scoring engine's mode): eliminated seats are not dealt in."""
    from engine.bots import HeuristicBot
    from engine.game import Game
    from engine.scoring import ScoringMode, ScoringSettings

    game = Game(DEFAULT, 4, seed=3, scoring=ScoringSettings(mode=ScoringMode.CHALLENGE, target=120))
    sizes = []
    game.play(
        [HeuristicBot(s) for s in range(4)],
        on_round=lambda rnd, score: sizes.append(rnd.state.players),
    )
    assert game.is_over and len(game.sheet.winners) == 1
    assert sizes[0] == 4 and sizes[-1] == 2


def test_loading_a_round_with_too_many_players_names_the_rule() -> None:
    data = Round.new(DEFAULT, RoundSetup(players=3, seed=1)).to_dict()
    data["state"]["players"] = 11
    with pytest.raises(RuleError) as caught:
        Round.from_dict(data)
    assert caught.value.rule == "players"


def test_events_and_bot_commands_equal_fresh_ones() -> None:
    """Shared (interned) events and commands compare and serialise like freshly built ones."""
    rnd = Round.new(DEFAULT, RoundSetup(players=4, seed=5))
    play_round(rnd, [RandomBot(seat) for seat in range(4)], random.Random(5))
    for event in rnd.events:
        text = EVENT_ADAPTER.dump_json(event)
        assert EVENT_ADAPTER.validate_json(text) == event
    for command in rnd.history:
        assert COMMAND_ADAPTER.validate_json(COMMAND_ADAPTER.dump_json(command)) == command
    assert rnd.replayed().to_dict() == rnd.to_dict()


def test_a_dealt_round_remembers_its_deal_after_play() -> None:
    """The start of a dealt round is rebuilt from its set-up on demand: after 30 commands,
    ``initial`` is still exactly the deal, and replaying the history reaches the same state."""
    setup = RoundSetup(players=4, dealer=2, seed=11)
    dealt = Round.new(DEFAULT, setup).to_dict()
    rnd = Round.new(DEFAULT, setup)
    _play_at_random(rnd, 30, seed=2)
    assert rnd.initial["state"] == dealt["state"] and rnd.initial["rng"] == dealt["rng"]
    assert rnd.to_dict()["start"]["state"] == dealt["state"]
    assert rnd.replayed().state == rnd.state


def test_fast_built_events_equal_constructed_ones() -> None:
    """Events the round builds without their dataclass __init__ (several cards drawn, start, end,
    hands shuffled) are equal to, hash like, print like and serialise like constructed ones."""
    from engine import interned
    from engine.events import CardsDrawn, HandsShuffled, RoundEnded, RoundStarted

    pairs = [
        (
            interned.cards_drawn(2, (5, 9), "penalty"),
            CardsDrawn(player=2, cards=(5, 9), reason="penalty"),
        ),
        (
            interned.round_started(1, 4, 17, 2, -1),
            RoundStarted(dealer=1, players=4, starter=17, first_player=2, direction=-1),
        ),
        (
            interned.round_ended(3, 42, (10, 0, 32, 0)),
            RoundEnded(went_out=3, points=42, hand_points=(10, 0, 32, 0)),
        ),
        (interned.hands_shuffled(0, (3, 4, 3)), HandsShuffled(player=0, sizes=(3, 4, 3))),
    ]
    for fast, built in pairs:
        assert type(fast) is type(built) and fast == built and hash(fast) == hash(built)
        assert repr(fast) == repr(built)
        assert EVENT_ADAPTER.dump_json(fast) == EVENT_ADAPTER.dump_json(built)
        with pytest.raises(AttributeError):
            fast.type = "changed"  # type: ignore[misc]  # still frozen
