"""The table as the phone page shows it: the table's one read model, marked as the page marks it.

The page draws the :class:`~showdown.game.table_view.TableView` of the table's read model
(:class:`~showdown.game.table_model.TableModel`), the value the scoreboard draws too, so the two
cannot disagree. What is the page's own is how it marks a seat (:class:`Seat`: a CSS colour and
a marker shape beside the name) and the two corrections a phone may make
(:class:`TableSource`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

from showdown.game.colours import Colour
from showdown.game.messages import EditRound, Event, HandEntry, UndoLast
from showdown.game.table_model import TableModel
from showdown.game.table_view import TableView

__all__ = [
    "MARKERS",
    "PARTS",
    "Seat",
    "TableSide",
    "TableSource",
    "css",
    "seats",
    "standings",
]

PARTS = ("table", "showdown")
"""The page's parts that change apart: the score (every entry) and the showdown in progress."""

MARKERS = ("circle", "square", "triangle", "diamond", "down", "plus", "cross", "ring", "box",
           "hourglass")
"""One marker shape a seat, as the scoreboard's chart draws them: colour is never the only key."""


@dataclass(frozen=True)
class Seat:
    """One player at the table, as the page marks them."""

    seat: int
    name: str
    total: int
    colour: str
    """CSS colour (``#0072b2``): the player's colour in this game, as the scoreboard draws it."""
    marker: str
    dealer: bool
    eliminated: bool
    rounds_won: int
    place: int
    """1 for the leader; players level share a place."""


def css(colour: Colour) -> str:
    """``#rrggbb``."""
    return "#{:02x}{:02x}{:02x}".format(*colour)


def seats(view: TableView) -> tuple[Seat, ...]:
    """``view``'s players in seat order, each with their colour and marker."""
    return tuple(
        Seat(seat=i, name=player.name, total=player.total,
             colour=css(player.colour) if player.colour is not None else "",
             marker=MARKERS[i % len(MARKERS)], dealer=i == view.dealer,
             eliminated=player.eliminated, rounds_won=player.rounds_won, place=player.place)
        for i, player in enumerate(view.players)
    )


def standings(marked: tuple[Seat, ...]) -> tuple[Seat, ...]:
    """The seats, the leader first (seat order among players level)."""
    return tuple(sorted(marked, key=lambda s: (s.place, s.seat)))


class TableSide(Protocol):
    """What the table's page asks of the table: :class:`TableSource` beside the session, or its
    mirror in the page's own process (:mod:`showdown.web.process`)."""

    def picture(self) -> TableView:
        """The table now."""

    def undo(self) -> list[Event]:
        """Take back the last entry."""

    def edit(self, number: int, went_out: str, points: dict[str, int]) -> list[Event]:
        """Replace round ``number``."""


class TableSource:
    """The table's read model as the page's side, with the corrections a phone may make once
    its PIN was right."""

    def __init__(self, model: TableModel[Any]) -> None:
        self.model = model

    def picture(self) -> TableView:
        """The table now (built on the caller's thread from the session's immutable state)."""
        return self.model.view()

    def undo(self) -> list[Event]:
        """Take back the last entry (the phone's Undo)."""
        return self.model.session.handle(UndoLast())

    def edit(self, number: int, went_out: str, points: dict[str, int]) -> list[Event]:
        """Replace round ``number`` (the phone's Edit)."""
        hands = {name: HandEntry(points=value) for name, value in points.items()}
        return self.model.session.handle(EditRound(round=number, went_out=went_out, hands=hands))
