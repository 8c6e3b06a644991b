"""The table's one read model, so the scoreboard and the phones show the same game and showdown.

A :class:`TableModel` hears the session once, mirrors the unit's showdown once
(:func:`~showdown.game.live.mirror`), reads the players' own colours once a game, and holds the
event the table is in, if any. Both front ends draw its :meth:`TableModel.view`; whoever draws
subscribes (:meth:`TableModel.subscribe`) and is told which part changed: ``"table"`` (an entry
accepted), ``"showdown"`` (a step on the unit) or ``"event"`` (the table joined an event, or the
event moved on). Telling costs the session's and the unit's threads a lock and a call; the view
is built later, on the reader's thread, from the session's immutable state.

The game layer knows nothing of events (``showdown.tournament`` sits above it): the membership is
anything that says when it changed (:class:`Watched`), and the front ends name its type,
``TableModel[TournamentSource]``.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import Generic, Protocol, TypeVar

from showdown.game.journal import JournalError
from showdown.game.live import ShowdownView, mirror
from showdown.game.messages import EntryRejected, Event, GameStarted
from showdown.game.session import GameState, Session
from showdown.game.table_view import TableView, table_view
from showdown.unit.events import ShowdownEvent
from showdown.unit.listeners import Listeners

__all__ = ["TableModel", "Watched"]

log = logging.getLogger(__name__)


class Watched(Protocol):
    """Something a table can be a member of, that says when it changed (an event's source)."""

    def subscribe(self, listener: Callable[[], None]) -> None:
        """Call ``listener`` whenever it changed."""


M = TypeVar("M", bound=Watched)


class TableModel(Generic[M]):
    """The table's game, its showdown and its event, as every front end reads them (see the
    module docstring)."""

    def __init__(self, session: Session, *, unit: bool = True) -> None:
        """``unit``: a unit is wired to this table (False for ``showdown scoreboard`` alone:
        showdowns are then entered by hand)."""
        self.session = session
        self.unit = unit
        self._lock = threading.Lock()
        self._showdown = ShowdownView()
        self._picked: dict[str, str | None] = {}
        self._picked_for: int | None = None
        """The game the colours were read for (a new game reads them again)."""
        self._tournament: M | None = None
        self._listeners: Listeners[[str]] = Listeners(lock=self._lock)
        self.reread_players()
        self._unsubscribe = session.subscribe(self._heard)

    # -- telling ------------------------------------------------------------------------------

    def subscribe(self, listener: Callable[[str], object]) -> Callable[[], None]:
        """Call ``listener`` with each part that changes from now on, ``"table"``,
        ``"showdown"`` or ``"event"`` (on the thread that changed it, never under the model's
        lock); returns a function that unsubscribes."""
        return self._listeners.subscribe(listener)

    def _tell(self, part: str) -> None:
        self._listeners.tell(part)

    def _heard(self, event: Event) -> None:
        """A session event (on the thread that sent the command): a new game starts with no
        showdown on the unit."""
        if isinstance(event, EntryRejected):
            return
        if isinstance(event, GameStarted):
            with self._lock:
                self._showdown = ShowdownView()
            self._tell("showdown")
        self._tell("table")

    # -- the showdown -------------------------------------------------------------------------

    @property
    def showdown(self) -> ShowdownView:
        """The showdown on the unit now."""
        with self._lock:
            return self._showdown

    def unit_event(self, event: ShowdownEvent) -> None:
        """One step of the showdown state machine (any thread): the mirror moves on."""
        with self._lock:
            self._showdown = mirror(self._showdown, event)
        self._tell("showdown")

    def show(self, showdown: ShowdownView) -> None:
        """Show ``showdown`` as the one on the unit (loaded, or entered by hand, at the
        scoreboard; a sample for the documentation)."""
        with self._lock:
            self._showdown = showdown
        self._tell("showdown")

    # -- the tournament -----------------------------------------------------------------------

    @property
    def tournament(self) -> M | None:
        """The event the table is in (None while it is in none)."""
        with self._lock:
            return self._tournament

    def join(self, tournament: M) -> None:
        """The table is in ``tournament`` from now on (joined at the start or from Set-up)."""
        with self._lock:
            if self._tournament is tournament:
                return
            self._tournament = tournament
        tournament.subscribe(lambda: self._tell("event"))
        self._tell("event")

    # -- the game -----------------------------------------------------------------------------

    def reread_players(self) -> dict[str, str | None]:
        """The players kept in the journal with their own colours, read again (after a pick or
        a new game's players were kept); the last ones read when the journal cannot be read."""
        state = self.session.state
        try:
            picked = dict(self.session.journal.players())
        except JournalError as error:  # the colours are a nicety: seat colours then
            log.warning("the list of players cannot be read: %s", error)
            with self._lock:
                picked = self._picked
        with self._lock:
            self._picked = picked
            self._picked_for = None if state is None else state.game_id
        return dict(picked)

    def view(self, game: GameState | None = None, *, name: str | None = None) -> TableView:
        """The game being played as the table shows it now; or a finished ``game`` opened to
        read (``name``: what the table named it)."""
        state = game or self.session.state
        with self._lock:
            stale = state is not None and game is None and self._picked_for != state.game_id
        if stale:
            self.reread_players()
        with self._lock:
            showdown, picked = self._showdown, self._picked
        return table_view(state, showdown, picked, read_only=game is not None,
                          has_unit=self.unit, game_name=name)

    def close(self) -> None:
        """Stop hearing the session."""
        self._unsubscribe()
