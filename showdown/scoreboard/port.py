"""What the scoreboard asks of the game: the commands a touch can become.

:class:`TablePort` is the whole contract between the screens and the game session. The adapter
over the real session implements it; so can anything else that keeps score (a replay, a test
table). A command the game refuses raises :class:`RefusedError` with a message for the players; the
screen shows it and nothing else changes.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Protocol

from engine.error_text import ErrorText, plain
from engine.scoring import ScoringSettings
from showdown.scoreboard.view import (
    AllTimeView,
    CardKind,
    Fact,
    RosterPlayer,
    SavedGame,
    ScoringChoice,
    TableView,
)
from showdown.tournament.discovery import Found
from showdown.tournament.view import TournamentSource


class RefusedError(Exception):
    """The game refused a command. ``str(exc)`` is the English message; ``text`` is the same as
    a template and its values, which the scoreboard translates for the banner
    (:func:`showdown.scoreboard.refusals.translate`). A plain string is shown as it is."""

    def __init__(self, message: str | ErrorText) -> None:
        self.text = plain(message) if isinstance(message, str) else message
        super().__init__(str(self.text))


@dataclass(frozen=True)
class GameSetup:
    """A new game as chosen on the set-up screen."""

    players: tuple[str, ...]
    preset: str
    mode: str
    target: int
    first_dealer: int = 0
    pigs: int | None = None
    """Hero and mean scoring: the game ends when a player has this many pigs."""
    rounds: int | None = None
    """Hero and mean scoring: the game ends after this many rounds (with ``pigs``, whichever
    comes first; the engine refuses the two modes without one of them)."""
    scoring: ScoringSettings | None = None
    """The event's scoring, which ``mode`` and ``target`` then do not change."""
    key: str | None = None
    """The event round's set-up key: the host reads the round from it, and a round is set up
    once at a table however often Start is tapped."""


Tally = Mapping[str, int]
"""Cards a player holds at a round's end, counted by :attr:`CardKind.key`."""


@dataclass(frozen=True)
class HandInput:
    """One player's round-end entry: a points total typed on the keypad, or a card tally."""

    total: int | None = None
    tally: Tally | None = None


class TablePort(Protocol):
    """The game as the scoreboard sees it: a view to draw, and commands to send."""

    def view(self) -> TableView:
        """The current picture of the game."""
        ...

    def tournament(self) -> TournamentSource | None:
        """The event this table is in, as the table's read model holds it (None: in none)."""
        ...

    def news(self) -> tuple[Fact, ...]:
        """What was recorded since the last call (by touch or by the unit), oldest first."""
        ...

    def close(self) -> None:
        """Stop listening to the game (the scoreboard closes)."""
        ...

    def presets(self) -> tuple[str, ...]:
        """Names of the rule presets the set-up screen offers."""
        ...

    def modes(self) -> tuple[ScoringChoice, ...]:
        """The scoring modes the set-up screen offers."""
        ...

    def card_kinds(self) -> tuple[CardKind, ...]:
        """The kinds of card a round-end tally can count, with their points."""
        ...

    def start_game(self, setup: GameSetup) -> None:
        """Begin a new game."""
        ...

    def rematch(self) -> None:
        """After game over: the next game with the same players, seats, rules and target."""
        ...

    def record_round(self, went_out: int, entries: Mapping[int, HandInput]) -> None:
        """Record a round's end: the seat that went out and every other seat's entry."""
        ...

    def edit_round(self, number: int, went_out: int, entries: Mapping[int, HandInput]) -> None:
        """Replace a past round; every total after it is recomputed."""
        ...

    def record_penalty(self, seat: int, reason: str) -> None:
        """The table made the player at ``seat`` draw for a table rule (``reason``: silence,
        slap, advice, wrong-card, missed-uno); the cards are what the game's rules say."""
        ...

    def undo(self) -> None:
        """Take back the last entry."""
        ...

    def redo(self) -> None:
        """Take back the last undo (only while nothing else was entered since)."""
        ...

    def correct_showdown(self, winner: int, loser: int) -> None:
        """The last showdown went the other way: ``winner`` beat ``loser``."""
        ...

    def games(self) -> tuple[SavedGame, ...]:
        """The games kept, most recently played first: the unfinished ones other than the one
        being played, and the finished ones (none without a round, none deleted)."""
        ...

    def all_time(self) -> tuple[AllTimeView, ...]:
        """Each player's figures over every game kept, most games first."""
        ...

    def roster(self) -> tuple[RosterPlayer, ...]:
        """The players kept across games, the one who played last first."""
        ...

    def pick_colour(self, name: str, colour: str) -> None:
        """A kept player's own colour, from the palette."""
        ...

    def resume_game(self, game_id: int) -> None:
        """Take up a saved game again (the current one stays saved)."""
        ...

    def open_game(self, game_id: int) -> None:
        """Show a finished game to read (its view is read-only) until :meth:`close_game`."""
        ...

    def close_game(self) -> None:
        """Back to the game being played from one opened to read."""
        ...

    def rename_game(self, game_id: int, name: str) -> None:
        """Name a game (an empty name takes the name away)."""
        ...

    def delete_game(self, game_id: int) -> None:
        """Take a game out of the lists and the all-time figures (not the one being played)."""
        ...

    def restore_game(self, game_id: int) -> None:
        """Bring a deleted game back."""
        ...

    def load_showdown(self, left: int, right: int, cards: int) -> None:
        """Tell the unit who sits at each paddle and how many cards are loaded."""
        ...

    def record_showdown_by_hand(self, winner: int, loser: int, cards: int) -> None:
        """Record a showdown played without the unit."""
        ...


class TournamentDoor(Protocol):
    """How a table's scoreboard joins an event (the service provides it; headless, none). Both
    calls wait on the network: the scoreboard makes them off its own thread."""

    def find(self) -> list[Found]:
        """The events announced on this network (mDNS), after a few seconds of listening."""
        ...

    def join(self, code: str, address: str) -> TournamentSource:
        """Join with the host's code at ``address`` (``HOST`` or ``HOST:PORT``) and give the
        event to the table's read model (:meth:`~showdown.game.table_model.TableModel.join`);
        the event from then on. Raises :class:`~showdown.tournament.join.JoinError` saying why
        not."""
        ...
