"""A game: rounds until the scoresheet says it is over (default: first to 500).

The deal passes left each round (or to the round's winner, ``rules.next_dealer="winner"``). Totals,
eliminations and winners come from the shared scorekeeper :class:`engine.scoring.Scoresheet`, so
a game the engine plays and a game recorded at a table are scored by the same code. Only the seats
the sheet says play the next hand (``sheet.tables``) are dealt in, so Challenge UNO's eliminations
and partner tables work too.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from engine.bots import Bot, play_round
from engine.dealer import DealerDraw, draw_first_dealer
from engine.deck import Deck, builtin_deck
from engine.round import Round, RoundSetup
from engine.rules import RuleSet
from engine.scoring import RoundResult, RoundScore, Scoresheet, ScoringSettings

MAX_ROUNDS = 10_000
"""How many rounds :meth:`Game.play` deals before it gives up on a game nobody wins (bots that
never reach the target): far more than any real game, few enough to end a runaway one."""

__all__ = ["Game"]


class Game:
    """Rounds of one game with one rule set, scored on a :class:`~engine.scoring.Scoresheet`.

    ``Game(rules, players=4, seed=1)``, then either :meth:`play` with bots, or for each round
    :meth:`new_round`, drive the round, and :meth:`finish_round`.
    """

    def __init__(
        self,
        rules: RuleSet,
        players: int,
        *,
        seed: int = 0,
        scoring: ScoringSettings | None = None,
        deck: Deck | None = None,
    ) -> None:
        self.rules = rules
        self.players = players
        self.deck = deck if deck is not None else builtin_deck(rules.deck)
        self.sheet = Scoresheet(scoring or ScoringSettings(target=rules.target_score), players)
        self.rng = random.Random(seed)
        self.dealer_draw: DealerDraw = draw_first_dealer(
            self.deck, players, self.rng, rules=rules
        )
        self.dealer = self.dealer_draw.dealer
        self.rounds: list[Round] = []
        self._seats: tuple[int, ...] = ()
        self._in_play: Round | None = None
        """The round :meth:`new_round` dealt and :meth:`finish_round` has not yet recorded."""

    @property
    def is_over(self) -> bool:
        """True once the scoresheet has winners."""
        return self.sheet.is_over

    def new_round(self) -> Round:
        """Deal the next round among the seats that play it (the first open table)."""
        seats = self.sheet.tables[0].seats
        dealer = self.dealer
        while dealer not in seats:  # an eliminated dealer passes the deal on to the left
            dealer = (dealer + 1) % self.players
        setup = RoundSetup(
            players=len(seats), dealer=seats.index(dealer), seed=self.rng.randrange(2**32)
        )
        rnd = Round.new(self.rules, setup, self.deck)
        self.rounds.append(rnd)
        self._seats = seats
        self._in_play = rnd
        return rnd

    def finish_round(self, rnd: Round) -> RoundScore:
        """Record a finished round on the sheet and pass the deal. Only the round
        :meth:`new_round` dealt last, and only once: its points count once, on the seats that
        played it."""
        if rnd is not self._in_play:
            raise ValueError("not the round in play: finish the round new_round dealt, once")
        went_out = rnd.state.went_out
        if went_out is None:
            raise ValueError("the round is not over")
        seats = self._seats
        points = [0] * self.players
        for local, value in enumerate(rnd.hand_points()):
            points[seats[local]] = value
        score = self.sheet.record(RoundResult(went_out=seats[went_out], hand_points=tuple(points)))
        if self.rules.next_dealer == "winner":
            self.dealer = seats[went_out]
        else:
            self.dealer = (seats[rnd.setup.dealer] + 1) % self.players
        self._in_play = None
        return score

    def play(
        self,
        bots: Sequence[Bot],
        on_round: Callable[[Round, RoundScore], None] | None = None,
        max_rounds: int = MAX_ROUNDS,
    ) -> tuple[int, ...]:
        """Play to the end with ``bots[seat]``; returns the winners. ``on_round`` sees each
        finished round and its line on the sheet."""
        for _ in range(max_rounds):
            if self.is_over:
                return self.sheet.winners
            rnd = self.new_round()
            seats = self._seats
            play_round(rnd, [bots[s] for s in seats], self.rng)
            score = self.finish_round(rnd)
            if on_round is not None:
                on_round(rnd, score)
        raise RuntimeError(f"no winner after {max_rounds} rounds")
