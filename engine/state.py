"""The state of one round: plain data (lists of card ids), serialisable to JSON and back.

The :class:`~engine.round.Round` mutates a :class:`RoundState` in place; nothing here knows the
rules. Piles are lists whose *last* element is the top card. :class:`RoundSetup` is how a round
was dealt, the other half of what saving a round writes.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from enum import StrEnum
from typing import Any

__all__ = ["PendingShowdown", "Phase", "RoundSetup", "RoundState"]


class Phase(StrEnum):
    """What the round is waiting for."""

    OPENING = "opening"
    """The first card is a wild: the first player chooses (``ChooseOpening``)."""
    PLAY = "play"
    """The current player plays, draws, or answers a pending Draw Two / Wild Draw 4."""
    DRAWN = "drawn"
    """The current player drew a playable card: play it or pass."""
    SHOWDOWN = "showdown"
    """A showdown is pending: only :class:`~engine.commands.ShowdownResult` is accepted."""
    OVER = "over"
    """Someone went out."""


@dataclass(slots=True)
class PendingShowdown:
    """A showdown waiting for its result; ``loaded`` cards are in flight (in the unit)."""

    challenger: int
    opponent: int
    loaded: list[int]
    source: str
    card: int | None
    last_card: bool = False


@dataclass(slots=True)
class RoundState:
    """Everything that changes during a round."""

    players: int
    dealer: int
    hands: list[list[int]]
    draw_pile: list[int]
    discard: list[int]
    colour: int = -1
    """The colour to follow (0-3); -1 until an opening wild's colour is chosen."""
    turn: int = 0
    direction: int = 1
    """+1: play goes left (seat + 1); -1: right."""
    phase: Phase = Phase.PLAY
    drawn_card: int | None = None
    pending_draw: int = 0
    """Cards the current player must draw unless they stack, deflect or challenge."""
    challenge_offender: int | None = None
    """Who played the Wild Draw 4 the current player may still challenge."""
    challenge_guilty: bool = False
    uno_called: list[bool] = field(default_factory=list)
    exposed: int | None = None
    """A player holding one card without having said UNO, who may still be caught."""
    showdown: PendingShowdown | None = None
    face_up_until: int | None = None
    """Hands are face up until this player's next turn (a Customizable effect)."""
    went_out: int | None = None
    turns: int = 0
    """Turns begun after the first: one for each ``TurnStarted`` after the first (a first turn
    that begins with an opening choice, or after its showdown, is still the first)."""
    spent: bool = False
    """The top card is a draw card whose penalty was taken, and under
    ``RuleSet.spent_draw_colour_only`` (002) it matches by colour only. Left out of
    :meth:`to_dict` while False, so a round under other rules saves exactly as it did before the
    switch existed."""

    def in_flight(self) -> list[int]:
        """Cards loaded into the Showdown unit, belonging to no hand or pile yet."""
        return list(self.showdown.loaded) if self.showdown else []

    def all_cards(self) -> list[int]:
        """Every card id in hands, piles and in flight (the conservation invariant's count)."""
        cards = [card for hand in self.hands for card in hand]
        return cards + self.draw_pile + self.discard + self.in_flight()

    def copy(self) -> RoundState:
        """An independent copy (lists copied; card ids are plain ints)."""
        showdown = self.showdown
        return RoundState(
            players=self.players,
            dealer=self.dealer,
            hands=[list(hand) for hand in self.hands],
            draw_pile=list(self.draw_pile),
            discard=list(self.discard),
            colour=self.colour,
            turn=self.turn,
            direction=self.direction,
            phase=self.phase,
            drawn_card=self.drawn_card,
            pending_draw=self.pending_draw,
            challenge_offender=self.challenge_offender,
            challenge_guilty=self.challenge_guilty,
            uno_called=list(self.uno_called),
            exposed=self.exposed,
            showdown=None
            if showdown is None
            else PendingShowdown(
                showdown.challenger,
                showdown.opponent,
                list(showdown.loaded),
                showdown.source,
                showdown.card,
                showdown.last_card,
            ),
            face_up_until=self.face_up_until,
            went_out=self.went_out,
            turns=self.turns,
            spent=self.spent,
        )

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready data."""
        data = asdict(self)
        data["phase"] = str(self.phase)
        if not self.spent:
            del data["spent"]
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> RoundState:
        """Inverse of :meth:`to_dict`."""
        values = dict(data)  # every list is copied: the state must not share the caller's data
        values["phase"] = Phase(values["phase"])
        showdown = values.get("showdown")
        if showdown is not None:
            showdown = dict(showdown)
            showdown["loaded"] = list(showdown["loaded"])
            values["showdown"] = PendingShowdown(**showdown)
        values["hands"] = [list(hand) for hand in values["hands"]]
        for name in ("draw_pile", "discard", "uno_called"):
            values[name] = list(values[name])
        return cls(**values)


@dataclass(frozen=True, slots=True)
class RoundSetup:
    """How a round starts: seats, dealer, and the shuffle.

    ``seed`` drives every shuffle. ``deck_order`` (optional) fixes the deck instead: a permutation
    of all card ids, top card first; the first ``7 * players`` are dealt one at a time starting
    left of the dealer, the next is turned up to start the discard pile.
    """

    players: int
    dealer: int = 0
    seed: int = 0
    deck_order: tuple[int, ...] | None = None

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready data."""
        return {
            "players": self.players,
            "dealer": self.dealer,
            "seed": self.seed,
            "deck_order": None if self.deck_order is None else list(self.deck_order),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> RoundSetup:
        """Inverse of :meth:`to_dict`."""
        order = data.get("deck_order")
        return cls(
            players=int(data["players"]),
            dealer=int(data.get("dealer", 0)),
            seed=int(data.get("seed", 0)),
            deck_order=None if order is None else tuple(int(c) for c in order),
        )
