"""The table as the phone page shows it: a picture built from the session and the unit.

:class:`TableSource` listens to the session (every accepted entry) and to the unit's state
machine (each step of a showdown), keeps the showdown in progress as
:class:`~showdown.game.live.ShowdownView` (the scoreboard's own mirror), and tells the
:class:`~showdown.web.hub.Hub` which part of the page changed. Listening costs the session's and
the unit's threads a lock and a counter; the picture (:func:`picture`) is built later, on the
server's thread, from the session's immutable state.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol

from showdown.game.colours import Colour, game_colours
from showdown.game.journal import JournalError
from showdown.game.live import ShowdownView, mirror
from showdown.game.messages import (
    EditRound,
    EntryRejected,
    Event,
    GameStarted,
    HandEntry,
    UndoLast,
)
from showdown.game.session import GameState, Session
from showdown.unit.events import ShowdownEvent

__all__ = [
    "MARKERS",
    "PARTS",
    "RoundLine",
    "Seat",
    "ShowdownLine",
    "TablePicture",
    "TableSide",
    "TableSource",
    "picture",
]

log = logging.getLogger(__name__)

PARTS = ("table", "showdown")
"""The page's parts that change apart: the score (every entry) and the showdown in progress."""

MARKERS = ("circle", "square", "triangle", "diamond", "down", "plus", "cross", "ring", "box",
           "hourglass")
"""One marker shape a seat, as the scoreboard's chart draws them: colour is never the only key."""


@dataclass(frozen=True)
class Seat:
    """One player at the table."""

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


@dataclass(frozen=True)
class RoundLine:
    """One recorded round: who went out, each seat's points and running total after it."""

    number: int
    went_out: str
    points: tuple[int, ...]
    """What the round scored, per seat."""
    totals: tuple[int, ...]
    """Each seat's total after the round."""
    held: tuple[int, ...] = ()
    """What each seat held at the round's end, as entered (0 for who went out)."""


@dataclass(frozen=True)
class ShowdownLine:
    """One recorded showdown."""

    round: int
    winner: str
    loser: str
    cards: int
    reason: str
    winner_ms: float | None
    loser_ms: float | None
    by_hand: bool


@dataclass(frozen=True)
class TablePicture:
    """Everything the table's page draws, at one moment."""

    started: bool = False
    game_id: int = 0
    round: int = 1
    dealer: str | None = None
    target: int | None = None
    rounds_to_play: int | None = None
    lowest_wins: bool = False
    finished: bool = False
    winners: tuple[str, ...] = ()
    seats: tuple[Seat, ...] = ()
    rounds: tuple[RoundLine, ...] = ()
    showdowns: tuple[ShowdownLine, ...] = ()
    live: ShowdownView = field(default_factory=ShowdownView)
    can_undo: bool = False

    @property
    def standings(self) -> tuple[Seat, ...]:
        """The seats, the leader first (seat order among players level)."""
        return tuple(sorted(self.seats, key=lambda s: (s.place, s.seat)))


class TableSide(Protocol):
    """What the table's page asks of the table: :class:`TableSource` beside the session, or its
    mirror in the page's own process (:mod:`showdown.web.process`)."""

    def picture(self) -> TablePicture:
        """The table now."""

    def undo(self) -> list[Event]:
        """Take back the last entry."""

    def edit(self, number: int, went_out: str, points: dict[str, int]) -> list[Event]:
        """Replace round ``number``."""


def css(colour: Colour) -> str:
    """``#rrggbb``."""
    return "#{:02x}{:02x}{:02x}".format(*colour)


def picture(state: GameState | None, live: ShowdownView,
            picked: dict[str, str | None] | None = None) -> TablePicture:
    """The page's picture of ``state`` with the showdown ``live`` in progress."""
    if state is None:
        return TablePicture(live=live)
    players = state.players
    totals = state.sheet.totals
    colours = game_colours(players, picked or {})
    stats = state.stats
    lowest = state.scoring.lowest_wins
    ordered = sorted(set(totals), reverse=not lowest)
    seats = tuple(
        Seat(seat=i, name=name, total=totals[i], colour=css(colours[i]),
             marker=MARKERS[i % len(MARKERS)], dealer=name == state.dealer,
             eliminated=name in state.eliminated, rounds_won=stats[name].rounds_won,
             place=ordered.index(totals[i]) + 1)
        for i, name in enumerate(players)
    )
    rounds = tuple(
        RoundLine(r.round, r.went_out, tuple(score.deltas), tuple(score.totals),
                  tuple(r.points.get(name, 0) for name in players))
        for r, score in zip(state.rounds, state.sheet.history, strict=False)
    )
    showdowns = tuple(
        ShowdownLine(s.round, s.winner, s.loser, s.cards_loaded, s.reason,
                     s.reaction_ms.get(s.winner), s.reaction_ms.get(s.loser), s.source == "hand")
        for s in state.showdowns
    )
    return TablePicture(
        started=True, game_id=state.game_id, round=state.current_round, dealer=state.dealer,
        target=state.scoring.target, rounds_to_play=state.scoring.rounds, lowest_wins=lowest,
        finished=state.is_over, winners=state.winners, seats=seats, rounds=rounds,
        showdowns=showdowns, live=live, can_undo=bool(state.undoable) and not state.is_over,
    )


class TableSource:
    """The table's session and unit as the page's source (see the module docstring)."""

    def __init__(self, session: Session, changed: Callable[..., None]) -> None:
        self.session = session
        self._changed = changed
        self._lock = threading.Lock()
        self._live = ShowdownView()
        self._picked: dict[str, str | None] = {}
        self._picked_for: int | None = None
        self._unsubscribe = session.subscribe(self._heard)

    def _heard(self, event: Event) -> None:
        """A session event (on the thread that sent the command)."""
        if isinstance(event, EntryRejected):
            return
        if isinstance(event, GameStarted):
            with self._lock:
                self._live = ShowdownView()
                self._picked_for = None
        self._changed("table")

    def unit_event(self, event: ShowdownEvent) -> None:
        """One step of the showdown on the unit (the unit's thread)."""
        with self._lock:
            self._live = mirror(self._live, event)
        self._changed("showdown")

    def live(self) -> ShowdownView:
        """The showdown in progress."""
        with self._lock:
            return self._live

    def show(self, view: ShowdownView) -> None:
        """Show ``view`` as the showdown in progress (a sample for the documentation)."""
        with self._lock:
            self._live = view
        self._changed("showdown")

    def picture(self) -> TablePicture:
        """The table now (built on the caller's thread from the session's immutable state)."""
        state = self.session.state
        with self._lock:
            live = self._live
            stale = state is not None and self._picked_for != state.game_id
        if stale and state is not None:
            try:
                picked = dict(self.session.journal.players())
            except JournalError as error:  # colours are a nicety: seat colours then
                log.warning("the players' colours cannot be read: %s", error)
                picked = {}
            with self._lock:
                self._picked, self._picked_for = picked, state.game_id
        with self._lock:
            picked = self._picked
        return picture(state, live, picked)

    def undo(self) -> list[Event]:
        """Take back the last entry (the phone's Undo, once its PIN was right)."""
        return self.session.handle(UndoLast())

    def edit(self, number: int, went_out: str, points: dict[str, int]) -> list[Event]:
        """Replace round ``number`` (the phone's Edit, once its PIN was right)."""
        hands = {name: HandEntry(points=value) for name, value in points.items()}
        return self.session.handle(EditRound(round=number, went_out=went_out, hands=hands))

    def close(self) -> None:
        """Stop listening to the session."""
        self._unsubscribe()
