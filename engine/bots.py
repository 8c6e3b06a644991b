"""Bots: a random-legal player and a simple heuristic player, deterministic under a seed.

:func:`play_round` drives a round to its end with one bot per seat. Showdown results are drawn at
random (a stand-in for two people slamming paddles). A bot also gets a chance to react while
the UNO catch window is open: the exposed player may say UNO, the others may catch; and, under
Killer UNO, to jump in with a card identical to the top one before the player whose turn it is.
The table's own part of Killer UNO, penalising whoever speaks after a 2 or slaps last after a 9,
is played at random too.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Final, Protocol

from engine import jump_in
from engine.cards import CardKind
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
)
from engine.events import CardPlayed, Event
from engine.interned import CALL_UNO, CATCH_UNO, CHALLENGE, DRAW, PASS, play_card
from engine.legality import playable_cards
from engine.penalties import TRIGGERS
from engine.rng import below
from engine.round import Round
from engine.rules import PenaltyReason
from engine.state import Phase

__all__ = ["Bot", "HeuristicBot", "RandomBot", "offer_jump_in", "play_round", "table_penalty"]


class Bot(Protocol):
    """A player: picks one of ``actions`` (never empty) for ``seat``, or None to let a reaction
    (a UNO call or catch, a jump-in) pass."""

    def choose(self, rnd: Round, seat: int, actions: Sequence[Command]) -> Command | None:
        """The chosen command, or None to decline a reaction."""
        ...


class RandomBot:
    """A random legal player, like RLCard's random agent: it plays a uniformly random playable
    card (random colour, target, opponent, UNO said or not) whenever it has one, and draws only
    when it has none. It challenges, keeps a drawn card, and reacts (UNO self-call, catch,
    jump-in) each with probability 1/2.

    :meth:`act` makes the same kind of choice straight from the playable cards, without listing
    every variant first; :func:`play_round` uses it (the engine still checks every command)."""

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, rnd: Round, seat: int, actions: Sequence[Command]) -> Command | None:
        """See the class docstring."""
        rng = self.rng
        first = actions[0]
        if isinstance(first, _REACTIONS):
            return None if rng.random() < 0.5 else actions[below(rng, len(actions))]
        by_card: dict[int, list[PlayCard]] = {}
        for action in actions:
            if isinstance(action, PlayCard):
                by_card.setdefault(action.card, []).append(action)
        if by_card:
            if isinstance(actions[-1], Pass) and rng.random() < 0.5:
                return actions[-1]
            cards = sorted(by_card)
            variants = by_card[cards[below(rng, len(cards))]]
            return variants[below(rng, len(variants))]
        return actions[below(rng, len(actions))]

    def act(self, rnd: Round, seat: int) -> Command:
        """The turn's command for ``seat`` (the current player), chosen as in :meth:`choose`."""
        rng = self.rng
        st = rnd.state
        if st.phase is _OPENING:
            options = rnd.legal_actions(seat, reactions=False)
            return options[below(rng, len(options))]
        cards = playable_cards(st, rnd.tables, rnd.rules)
        if cards:
            if st.phase is _DRAWN and rng.random() < 0.5:
                return PASS[seat]
            card = cards[below(rng, len(cards))]
            t = rnd.tables
            size = len(st.hands[seat])
            uno = size == 2 and rng.random() < 0.5
            if not t.is_wild[card]:
                return play_card(seat, card, None, uno)
            kind = t.kind[card]
            colour = below(rng, 4)
            if kind == _SWAP and size > 1:
                other = below(rng, st.players - 1)
                target = other + 1 if other >= seat else other
                return PlayCard(player=seat, card=card, colour=colour, uno=uno, target=target)
            if kind == _SHOWDOWN:
                other = below(rng, st.players - 1)
                opponent = other + 1 if other >= seat else other
                return PlayCard(
                    player=seat,
                    card=card,
                    colour=colour,
                    uno=uno,
                    opponent=opponent,
                    count=1 + below(rng, 3),
                )
            return play_card(seat, card, colour, uno)
        if st.challenge_offender is not None and rng.random() < 0.5:
            return CHALLENGE[seat]
        if st.phase is _DRAWN:
            return PASS[seat]
        return DRAW[seat]


_REACTIONS: Final = (CallUno, CatchUno, JumpIn)
_OPENING: Final = Phase.OPENING
_DRAWN: Final = Phase.DRAWN
_SHOWDOWN_PHASE: Final = Phase.SHOWDOWN
_OVER: Final = Phase.OVER


_WD4: Final = int(CardKind.WILD_DRAW_FOUR)
_SWAP: Final = int(CardKind.WILD_SWAP_HANDS)
_SHOWDOWN: Final = int(CardKind.WILD_SHOWDOWN)
_KIND_ORDER: Final = {
    int(CardKind.DRAW_TWO): 0,
    int(CardKind.SKIP): 1,
    int(CardKind.REVERSE): 2,
}


class HeuristicBot:
    """A simple sensible player.

    Always says UNO, always catches and always jumps in (saying UNO with it when due);
    challenges a Wild Draw 4 when the offender holds many cards; never bluffs a Wild Draw 4;
    plays action cards before numbers and numbers (highest first) before wilds; picks the
    colour it holds most; swaps with the smallest hand; draws only when it must.
    """

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, rnd: Round, seat: int, actions: Sequence[Command]) -> Command | None:
        """See the class docstring."""
        first = actions[0]
        if isinstance(first, JumpIn):
            return max(actions, key=lambda a: isinstance(a, JumpIn) and a.uno)
        if isinstance(first, _REACTIONS):
            return first
        st, t = rnd.state, rnd.tables
        if st.challenge_offender is not None and len(st.hands[st.challenge_offender]) >= 5:
            for action in actions:
                if isinstance(action, Challenge):
                    return action
        plays = [
            a
            for a in actions
            if isinstance(a, PlayCard)
            and (t.kind[a.card] != _WD4 or rnd.wild_draw_four_is_legal(seat, a.card))
        ]
        if not plays:
            for action in actions:
                if isinstance(action, Draw | Pass):
                    return action
            return actions[below(self.rng, len(actions))]
        hand = st.hands[seat]
        counts = [0, 0, 0, 0]
        for card in hand:
            if t.colour[card] >= 0:
                counts[t.colour[card]] += 1
        best_colour = max(range(4), key=lambda c: (counts[c], -c))
        smallest = min(
            (s for s in range(st.players) if s != seat), key=lambda s: (len(st.hands[s]), s)
        )

        def score(action: PlayCard) -> tuple[int, ...]:
            card = action.card
            wild = t.is_wild[card]
            kind = t.kind[card]
            rank = 3 if wild else _KIND_ORDER.get(kind, 1)
            return (
                int(action.uno) if len(hand) == 2 else 0,
                -rank,
                0 if wild else kind,
                int(action.colour == best_colour) if wild else 0,
                int(action.target == smallest) if action.target is not None else 0,
                -(action.count or 0),
            )

        return max(plays, key=score)


def play_round(
    rnd: Round, bots: Sequence[Bot], rng: random.Random, max_steps: int = 100_000
) -> int:
    """Play ``rnd`` to its end with ``bots[seat]`` choosing for each seat; returns the number of
    commands applied. ``rng`` decides showdowns and who the table penalises (Killer UNO's
    silence and slap, when the rules have them)."""
    st = rnd.state
    jumps = rnd.rules.jump_in
    table_rules = any(reason in TRIGGERS for reason in rnd.rules.table_penalties)
    # RandomBots choose straight from the playable cards (RandomBot.act); others get the list.
    randoms = [bot if isinstance(bot, RandomBot) else None for bot in bots]
    steps = 0
    while True:
        phase = st.phase
        if phase is _OVER:
            break
        if steps >= max_steps:
            raise RuntimeError(f"round did not finish in {max_steps} commands")
        if phase is _SHOWDOWN_PHASE:
            duel = rnd.legal_actions()
            rnd.step(duel[below(rng, 2)])
            steps += 1
            continue
        exposed = st.exposed
        if exposed is not None:
            reacted = False
            for offset in range(st.players):
                seat = (exposed + offset) % st.players
                option: Command = CALL_UNO[seat] if seat == exposed else CATCH_UNO[seat][exposed]
                reaction = bots[seat].choose(rnd, seat, (option,))
                if reaction is not None:
                    rnd.step(reaction)
                    steps += 1
                    reacted = True
                    break
            if reacted:
                continue
        if jumps:
            jumped = offer_jump_in(rnd, bots)
            if jumped is not None:
                steps += _played(rnd, jumped, rng)
                continue
        seat = st.turn
        random_bot = randoms[seat]
        choice: Command | None
        if random_bot is not None:
            choice = random_bot.act(rnd, seat)
        else:
            choice = bots[seat].choose(rnd, seat, rnd.legal_actions(seat, reactions=False))
        assert choice is not None
        if table_rules:
            steps += _played(rnd, choice, rng)
        else:
            rnd.step(choice)
            steps += 1
    return steps


def offer_jump_in(rnd: Round, bots: Sequence[Bot]) -> Command | None:
    """Killer UNO: the first jump-in a bot takes, asking the seats after the current player
    nearest first; None when nobody can or will."""
    st = rnd.state
    for offset in range(1, st.players):
        seat = (st.turn + offset * st.direction) % st.players
        cards = jump_in.candidates(st, rnd.tables, rnd.rules, seat)
        if not cards:
            continue
        unos = (False, True) if len(st.hands[seat]) == 2 else (False,)
        options = [JumpIn(player=seat, card=card, uno=uno) for card in cards for uno in unos]
        choice = bots[seat].choose(rnd, seat, options)
        if choice is not None:
            return choice
    return None


def table_penalty(rnd: Round, events: Sequence[Event], rng: random.Random) -> Penalty | None:
    """The table's part of Killer UNO after a command's ``events``: when they played a card that
    starts a table rule of the round's rules (a 2: silence; a 9: the slap), the slowest to slap,
    or one time in four someone who spoke, is penalised (a seat drawn with ``rng``). None
    otherwise, and while a showdown waits or once the round is over."""
    st = rnd.state
    if st.phase is _OVER or st.phase is _SHOWDOWN_PHASE:
        return None
    played = next((e for e in events if isinstance(e, CardPlayed)), None)
    if played is None:
        return None
    kind = rnd.tables.kind[played.card]
    for reason in rnd.rules.table_penalties:
        if TRIGGERS.get(reason) != kind:
            continue
        if reason is PenaltyReason.SILENCE and rng.random() >= 0.25:
            return None
        return Penalty(player=below(rng, st.players), reason=reason)
    return None


def _played(rnd: Round, command: Command, rng: random.Random) -> int:
    """Apply ``command``, then the table's penalty it calls for, if any; the commands applied."""
    mark = len(rnd.events)
    rnd.step(command)
    penalty = table_penalty(rnd, rnd.events[mark:], rng)
    if penalty is None:
        return 1
    rnd.step(penalty)
    return 2
