"""Tabletop round entry: turn what players report at the table into a checked round result.

At a real table nobody enters every card. For each player who did not go out the scorekeeper takes
either a points total or the cards they hold tapped by kind (``{"7": 2, "wild": 1}``); both give a
points total through the deck's card values, and if both are given they must agree (rules.md, last
paragraph). Before anything reaches the scoresheet the entry is checked against what the deck makes
possible: no more cards of a kind across all hands than the deck holds, no total above what the
cards still unaccounted for are worth, no total that no combination of those cards can make. Every
refusal is a :class:`TallyError` naming the player and the problem.

The deck is described by :class:`DeckValues` (copies and points per kind), so this module does not
care how the engine names its kinds; the session builds one from the engine's deck and rule set.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Collection, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

from engine.cards import Card, CardKind, point_value
from engine.deck import Deck
from engine.error_text import ErrorText, Param
from engine.rules import RuleSet
from engine.scoring import RoundResult, Scoresheet, ScoringError

__all__ = [
    "DeckValues",
    "HandTally",
    "TallyError",
    "kind_label",
    "reachable_totals",
    "round_result",
    "tally_for",
    "tally_round",
]

K = TypeVar("K", bound=Hashable)


class TallyError(ScoringError):
    """A round entry that cannot be true; the message names the player and the problem."""


@dataclass(frozen=True)
class DeckValues(Generic[K]):
    """How many cards of each kind the deck holds and what one is worth at the end of a round.

    A kind is whatever a player taps on the scoreboard (a face such as "7" or "draw-two"); colour
    does not matter for points.
    """

    copies: Mapping[K, int]
    values: Mapping[K, int]

    def __post_init__(self) -> None:
        if set(self.copies) != set(self.values):
            raise ValueError("every kind needs both a number of copies and a value")
        for kind in self.copies:
            if self.copies[kind] < 0 or self.values[kind] < 0:
                raise ValueError(f"{kind_label(kind)}: copies and value cannot be negative")

    @property
    def total_points(self) -> int:
        """What the whole deck is worth: no set of hands can hold more."""
        return sum(self.copies[k] * self.values[k] for k in self.copies)

    @staticmethod
    def of(deck: Deck, rules: RuleSet | None = None) -> DeckValues[CardKind]:
        """The engine's deck and the table's rule set (the agreed Blank, Swap Hands, ... values)."""
        copies = Counter(card.kind for card in deck.cards)
        return DeckValues(
            copies=dict(copies), values={kind: point_value(kind, rules) for kind in copies}
        )

    def points(self, cards: Mapping[K, int]) -> int:
        """The points total of ``cards`` (kinds must be known; counts are not checked here)."""
        return sum(self.values[kind] * count for kind, count in cards.items())


def kind_label(kind: Hashable) -> str:
    """How a kind reads in a message: ``7``, ``draw two``, ``wild draw four``."""
    if isinstance(kind, CardKind):
        return str(int(kind)) if kind.is_number else kind.name.replace("_", " ").lower()
    return str(kind)


@dataclass(frozen=True)
class HandTally(Generic[K]):
    """What the table reports for one player who did not go out: a total, the cards, or both."""

    points: int | None = None
    cards: Mapping[K, int] | None = None


def reachable_totals(copies: Mapping[K, int], values: Mapping[K, int]) -> frozenset[int]:
    """Every points total some non-empty hand drawn from ``copies`` can make.

    A bounded subset sum over at most a few thousand points: instant for any real deck.
    """
    reach = {0}  # any hand, the empty one included
    nonempty: set[int] = set()
    for kind, count in copies.items():
        value = values[kind]
        added = {base + n * value for base in reach for n in range(1, count + 1)}
        nonempty |= added
        reach |= added
    return frozenset(nonempty)


def tally_round(
    deck: DeckValues[K],
    went_out: int,
    hands: Mapping[int, HandTally[K]],
    *,
    players: int,
    seats: Collection[int] | None = None,
    names: Sequence[str] = (),
) -> RoundResult:
    """Check a round's entries and return the :class:`RoundResult` the scoresheet records.

    ``seats`` are the seats that played this hand (default: all); each of them except
    ``went_out`` needs an entry, and nobody else may have one.
    """
    in_hand = set(range(players)) if seats is None else set(seats)

    def who(seat: int) -> ErrorText:  # counted from 1 in messages, as at the table
        if 0 <= seat < len(names):
            return ErrorText("seat {seat} ({name})", {"seat": seat + 1, "name": names[seat]})
        return ErrorText("seat {seat}", {"seat": seat + 1})

    def refuse(template: str, seat: int, **params: int | str) -> TallyError:
        return TallyError(ErrorText(template, {"who": who(seat), **params}))

    if not 0 <= went_out < players or went_out not in in_hand:
        raise refuse("{who} did not play this hand, so cannot have gone out", went_out)
    for seat in hands:
        if seat == went_out:
            raise refuse("{who} went out and holds no cards: enter nothing for them", seat)
        if seat not in in_hand or not 0 <= seat < players:
            raise refuse("{who} did not play this hand", seat)
    missing = sorted(in_hand - {went_out} - set(hands))
    if missing:
        raise refuse("{who}: enter a points total or the cards they hold", missing[0])

    points = [0] * players
    held: Counter[K] = Counter()
    by_points: list[tuple[int, int]] = []
    for seat in sorted(hands):
        entry = hands[seat]
        if entry.points is None and entry.cards is None:
            raise refuse("{who}: enter a points total or the cards they hold", seat)
        if entry.points is not None and entry.points < 0:
            raise refuse("{who}: points cannot be negative ({points})", seat, points=entry.points)
        if entry.cards is None:
            assert entry.points is not None
            by_points.append((seat, entry.points))
            points[seat] = entry.points
            continue
        total = _check_cards(deck, entry.cards, who(seat))
        if entry.points is not None and entry.points != total:
            raise refuse(
                "{who}: the cards tapped are worth {total}, but the total says {points}",
                seat, total=total, points=entry.points,
            )
        held.update(entry.cards)
        points[seat] = total

    for kind, count in held.items():
        if count > deck.copies[kind]:
            holders = tuple(
                who(s)
                for s in sorted(hands)
                if (cards := hands[s].cards) is not None and cards.get(kind, 0)
            )
            raise TallyError(ErrorText(
                "{holders} hold {count} {kind} cards between them, but the deck has only {copies}",
                {"holders": holders, "count": count, "kind": kind_label(kind),
                 "copies": deck.copies[kind]},
            ))
    _check_totals(deck, held, by_points, who)
    return RoundResult(went_out=went_out, hand_points=tuple(points))


def round_result(
    went_out: int, hands: Sequence[Iterable[Card]], rules: RuleSet | None = None
) -> RoundResult:
    """The result of a hand the engine played itself: every seat's cards valued by ``rules``.

    ``hands[seat]`` are the cards ``seat`` holds when ``went_out`` plays their last card (after
    any final Draw Two / Wild Draw 4 is drawn); eliminated or absent seats hold none.
    """
    points = tuple(sum(point_value(card.kind, rules) for card in hand) for hand in hands)
    return RoundResult(went_out=went_out, hand_points=points)


def tally_for(
    sheet: Scoresheet,
    deck: DeckValues[K],
    went_out: int,
    hands: Mapping[int, HandTally[K]],
) -> RoundResult:
    """:func:`tally_round` for the sheet's next hand: the table ``went_out`` sits at, its names.

    The returned result still goes through ``sheet.record``, which checks the rest (game over).
    """
    table = next((t for t in sheet.tables if went_out in t.seats), None)
    if table is None:
        try:  # the sheet knows why: eliminated, game over, no such seat
            sheet.check(RoundResult(went_out=went_out, hand_points=(0,) * sheet.players))
        except ScoringError as error:
            raise TallyError(error.text) from None
        raise TallyError(  # pragma: no cover
            ErrorText("seat {seat} does not play the next hand", {"seat": went_out + 1})
        )
    return tally_round(
        deck, went_out, hands, players=sheet.players, seats=table.seats, names=sheet.names
    )


def _check_cards(deck: DeckValues[K], cards: Mapping[K, int], player: ErrorText) -> int:
    for kind, count in cards.items():
        about: dict[str, Param] = {"who": player, "kind": kind_label(kind), "count": count}
        if kind not in deck.copies:
            raise TallyError(ErrorText("{who}: this deck has no {kind} cards", about))
        if count < 0:
            raise TallyError(ErrorText("{who}: cannot hold {count} {kind} cards", about))
        if count > deck.copies[kind]:
            raise TallyError(ErrorText(
                "{who}: holds {count} {kind} cards, but the deck has only {copies}",
                {**about, "copies": deck.copies[kind]},
            ))
    if sum(cards.values()) == 0:
        raise TallyError(ErrorText("{who}: holds no cards, but did not go out", {"who": player}))
    return deck.points(cards)


def _check_totals(
    deck: DeckValues[K],
    held: Counter[K],
    by_points: list[tuple[int, int]],
    who: Callable[[int], ErrorText],
) -> None:
    """Totals entered without cards must be makeable from the cards nobody tapped."""
    if not by_points:
        return
    left = {kind: deck.copies[kind] - held.get(kind, 0) for kind in deck.copies}
    worth_left = sum(left[k] * deck.values[k] for k in left)
    reach = reachable_totals(left, deck.values)
    for seat, total in by_points:
        if total > worth_left:
            raise TallyError(ErrorText(
                "{who}: {total} points is more than the cards not yet counted are worth ({worth})",
                {"who": who(seat), "total": total, "worth": worth_left},
            ))
        if total not in reach:
            raise TallyError(ErrorText(
                "{who}: no hand of the cards not yet counted adds up to {total}",
                {"who": who(seat), "total": total},
            ))
    together = sum(total for _, total in by_points)
    if len(by_points) > 1 and together not in reach:
        raise TallyError(ErrorText(
            "{holders}: no cards left uncounted add up to {total} points together",
            {"holders": tuple(who(s) for s, _ in by_points), "total": together},
        ))
