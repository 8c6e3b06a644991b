"""The scoreboard's port over the real game session (:class:`showdown.game.session.Session`).

Touches become the session's typed commands; the session's answer is checked, and a refusal
becomes :class:`~showdown.scoreboard.port.RefusedError` with the session's own message (its
template and values, so the banner can be translated). What the screens draw comes from the
table's one read model (:class:`~showdown.game.table_model.TableModel`), the one the phone page
draws too: its game, the showdown on the unit, the event the table is in.
"""

from __future__ import annotations

import logging
import threading
from collections import deque
from collections.abc import Callable, Mapping
from dataclasses import replace

from pydantic import ValidationError

from engine.error_text import ErrorText
from engine.rules import PRESETS, PenaltyReason
from engine.scoring import PIG_MODES, PIG_TARGETS, ScoringMode, ScoringSettings
from showdown.game.alltime import all_time
from showdown.game.journal import JournalError
from showdown.game.messages import (
    Command,
    CorrectShowdown,
    EditRound,
    EntryRedone,
    EntryRejected,
    EntryUndone,
    Event,
    GameResumed,
    GameStarted,
    GameWon,
    HandEntry,
    RecordPenalty,
    RecordRound,
    RecordShowdown,
    RedoLast,
    ResumeGame,
    ScoresUpdated,
    SetUpGame,
    UndoLast,
)
from showdown.game.session import GameState, KeptGame, Session, deck_values
from showdown.game.table_model import TableModel
from showdown.game.table_view import fact as fact_of
from showdown.scoreboard.port import GameSetup, HandInput, RefusedError
from showdown.scoreboard.theme import PLAYER_PALETTE
from showdown.scoreboard.view import (
    AllTimeView,
    CardKind,
    Fact,
    RosterPlayer,
    SavedGame,
    ScoringChoice,
    ShowdownView,
    Stage,
    TableView,
)
from showdown.scoreboard.vocabulary import is_default_name
from showdown.tournament.view import TournamentSource

log = logging.getLogger(__name__)

LoadListener = Callable[[str, str, int], None]
"""Told who sits at the left and right paddle and how many cards are loaded (the unit)."""

_KIND_ORDER = (
    "skip", "reverse", "draw-two", "wild", "wild-draw-four", "wild-shuffle-hands",
    "wild-customizable", "wild-swap-hands", "blank", "wild-showdown",
)
_DEFAULT_PRESET = "showdown"


class SessionPort:
    """:class:`~showdown.scoreboard.port.TablePort` over a :class:`Session`."""

    def __init__(self, session: Session, *, on_load: LoadListener | None = None,
                 unit: bool = True, model: TableModel[TournamentSource] | None = None) -> None:
        """``unit``: a unit is wired to this table (False for ``showdown scoreboard`` alone:
        showdowns are then entered by hand, and nothing asks for the unit). ``model``: the
        table's read model, shared with the phone page (default: one of the port's own, with
        ``unit``; a model given says itself whether a unit is wired)."""
        self.session = session
        self.on_load = on_load
        self.model: TableModel[TournamentSource] = (
            TableModel(session, unit=unit) if model is None else model)
        self._owns_model = model is None
        self._lock = threading.Lock()
        self._archive: GameState | None = None
        """A finished game opened to read, if one is."""
        self._names: dict[int, str] = {}
        """Games' names, read with the list of games."""
        self._heard: list[Event] = []
        """The facts of the command being answered, until its scores arrive."""
        self._news: deque[Fact] = deque(maxlen=8)
        self._unsubscribe = session.subscribe(self._hear)

    # -- news ---------------------------------------------------------------------------------

    def _hear(self, event: Event) -> None:
        """A session event (on the thread that sent the command): an accepted entry's facts
        come before its scores, which end the answer; the entry becomes one piece of news."""
        if isinstance(event, ScoresUpdated):
            heard, self._heard = self._heard, []
            fact = _news(heard, self.session.state)
            if fact is not None:
                with self._lock:
                    self._news.append(fact)
        elif not isinstance(event, GameWon | EntryRejected):
            self._heard.append(event)

    def news(self) -> tuple[Fact, ...]:
        """What was recorded since the last call, oldest first (the scoreboard tells each)."""
        with self._lock:
            found = tuple(self._news)
            self._news.clear()
        return found

    def close(self) -> None:
        """Stop hearing the session (and the read model with it, when it is the port's own)."""
        self._unsubscribe()
        if self._owns_model:
            self.model.close()

    # -- reading ------------------------------------------------------------------------------

    def view(self) -> TableView:
        """The current game as the screens draw it (or a finished one opened to read)."""
        with self._lock:
            archive = self._archive
        state = archive or self.session.state
        name = None if state is None else self._names.get(state.game_id)
        return self.model.view(archive, name=name)

    def tournament(self) -> TournamentSource | None:
        """The event this table is in (None while in none)."""
        return self.model.tournament

    def presets(self) -> tuple[str, ...]:
        """Rule presets, the Showdown deck first (it is the unit's game)."""
        names = list(PRESETS)
        names.sort(key=lambda n: n != _DEFAULT_PRESET)
        return tuple(names)

    def modes(self) -> tuple[ScoringChoice, ...]:
        """Scoring modes the set-up screen offers (partners needs a fixed table size), each
        with its own target (002's mean scoring draws pigs at 100)."""
        default = ScoringSettings().target or 0
        return tuple(ScoringChoice(str(m), PIG_TARGETS.get(m, default), m in PIG_MODES)
                     for m in ScoringMode)

    def card_kinds(self) -> tuple[CardKind, ...]:
        """The kinds of the game's deck with their points, numbers first."""
        state = self.session.state
        rules = state.rules if state is not None else PRESETS[_DEFAULT_PRESET]
        values = deck_values(rules)
        keys = [str(n) for n in range(10) if str(n) in values.values]
        keys += [k for k in _KIND_ORDER if k in values.values]
        return tuple(
            CardKind(key=k, name=k.replace("-", "_"), points=values.values[k],
                     coloured=k.isdigit() or k in ("skip", "reverse", "draw-two"))
            for k in keys
        )

    # -- commands -----------------------------------------------------------------------------

    def _send(self, command: Command) -> None:
        with self._lock:
            reading = self._archive is not None
            if isinstance(command, SetUpGame | ResumeGame):
                self._archive = None
        if reading and not isinstance(command, SetUpGame | ResumeGame):
            raise RefusedError(ErrorText("a finished game is open to read: close it first"))
        for event in self.session.handle(command):
            if isinstance(event, EntryRejected):
                raise RefusedError(event.text or event.message)

    def _name(self, seat: int) -> str:
        state = self.session.state
        if state is None or not 0 <= seat < len(state.players):
            raise RefusedError(ErrorText("there is no seat {seat}", {"seat": seat + 1}))
        return state.players[seat]

    def start_game(self, setup: GameSetup) -> None:
        """A :class:`SetUpGame` from the set-up screen's choices: in hero and mean scoring the
        target is where pigs are drawn, and the game ends at the agreed pigs or rounds."""
        # an event's round: the event's scoring; else the table's own choice
        scoring = setup.scoring if setup.scoring is not None else self._scoring(setup)
        players = list(setup.players)
        dealer = players[setup.first_dealer] if 0 <= setup.first_dealer < len(players) else None
        self._send(SetUpGame(players=players, preset=setup.preset, scoring=scoring,
                             first_dealer=dealer, command_id=setup.key))
        self._remember(players)
        self.model.show(ShowdownView())

    @staticmethod
    def _scoring(setup: GameSetup) -> ScoringSettings:
        """The table's own scoring from the set-up screen's choices."""
        try:
            mode = ScoringMode(setup.mode)
        except ValueError:
            raise RefusedError(ErrorText("there is no scoring mode {mode}",
                                         {"mode": setup.mode})) from None
        if mode in PIG_MODES and setup.pigs is None and setup.rounds is None:
            raise RefusedError(ErrorText(
                "hero and mean scoring end at an agreed number of pigs or rounds: choose one "
                "or both"))
        try:
            return ScoringSettings(mode=mode, target=setup.target, pigs=setup.pigs,
                                   rounds=setup.rounds)
        except ValidationError as error:
            raise RefusedError(error.errors()[0]["msg"].removeprefix("Value error, ")) from None

    def rematch(self) -> None:
        """The finished game's :meth:`~showdown.game.session.GameState.rematch`."""
        state = self.session.state
        if state is None or not state.is_over:
            raise RefusedError(ErrorText("a rematch follows a finished game"))
        self._send(state.rematch())
        self.model.show(ShowdownView())

    def all_time(self) -> tuple[AllTimeView, ...]:
        """Each player's figures over every game kept (:mod:`showdown.game.alltime`)."""
        return tuple(
            AllTimeView(r.name, r.games, r.won, r.points_per_round, r.showdowns_won,
                        r.showdowns_lost, r.best_ms, r.median_ms, r.false_starts)
            for r in all_time(kept.state for kept in self.session.kept_games()))

    def roster(self) -> tuple[RosterPlayer, ...]:
        """The players kept across games, the one who played last first."""
        picked = self.model.reread_players()
        return tuple(RosterPlayer(name, colour) for name, colour in picked.items())

    def pick_colour(self, name: str, colour: str) -> None:
        """A kept player's own colour, from the colour-blind-safe palette."""
        if colour not in PLAYER_PALETTE:
            raise RefusedError(ErrorText("{colour!r} is not a colour of the palette",
                                         {"colour": colour}))
        try:
            self.session.journal.set_player_colour(name, colour)
        except JournalError as error:
            raise RefusedError(ErrorText("not stored: {error}", {"error": str(error)})) from None
        self.model.reread_players()

    def _remember(self, names: list[str]) -> None:
        """Keep the named players of a game set up here (not "Player 4")."""
        try:
            self.session.journal.remember_players(
                [name for name in names if not is_default_name(name)])
        except JournalError as error:
            log.warning("the players of this game cannot be kept: %s", error)
        self.model.reread_players()

    def _hands(self, entries: Mapping[int, HandInput]) -> dict[str, HandEntry]:
        hands: dict[str, HandEntry] = {}
        for seat, entry in entries.items():
            cards = None if entry.tally is None else dict(entry.tally)
            hands[self._name(seat)] = HandEntry(points=entry.total, cards=cards)
        return hands

    def record_round(self, went_out: int, entries: Mapping[int, HandInput]) -> None:
        """A :class:`RecordRound`."""
        self._send(RecordRound(went_out=self._name(went_out), hands=self._hands(entries)))

    def edit_round(self, number: int, went_out: int, entries: Mapping[int, HandInput]) -> None:
        """An :class:`EditRound`."""
        self._send(EditRound(round=number, went_out=self._name(went_out),
                             hands=self._hands(entries)))

    def record_penalty(self, seat: int, reason: str) -> None:
        """A :class:`RecordPenalty` for the player at ``seat``; the cards are the rules'."""
        try:
            why = PenaltyReason(reason)
        except ValueError:
            raise RefusedError(ErrorText("there is no table penalty {reason}",
                                         {"reason": reason})) from None
        self._send(RecordPenalty(player=self._name(seat), reason=why))

    def undo(self) -> None:
        """An :class:`UndoLast`."""
        self._send(UndoLast())

    def redo(self) -> None:
        """A :class:`RedoLast`."""
        self._send(RedoLast())

    def correct_showdown(self, winner: int, loser: int) -> None:
        """A :class:`CorrectShowdown`; the showdown screen shows the corrected result."""
        winner_name, loser_name = self._name(winner), self._name(loser)
        self._send(CorrectShowdown(winner=winner_name, loser=loser_name))
        shown = self.model.showdown
        if {shown.winner, shown.loser} == {winner_name, loser_name}:
            self.model.show(replace(shown, winner=winner_name, loser=loser_name,
                                    false_start_side=None, reason="hand"))

    def games(self) -> tuple[SavedGame, ...]:
        """The games kept, the latest played first: every finished one, and every unfinished
        one but the game being played."""
        kept = self.session.kept_games()
        self._names = {game.state.game_id: game.name for game in kept if game.name}
        return tuple(_saved(game) for game in kept
                     if game.state.is_over or not game.current)

    def open_game(self, game_id: int) -> None:
        """Show a finished game to read; every command is refused until it is closed."""
        state = self.session.read_game(game_id) if game_id in {
            row.id for row in self.session.journal.games()} else None
        if state is None or not state.is_over:
            raise RefusedError(ErrorText("game {game} is not a finished game", {"game": game_id}))
        with self._lock:
            self._archive = None if state.game_id == self._current_id() else state

    def _current_id(self) -> int | None:
        return None if self.session.state is None else self.session.state.game_id

    def close_game(self) -> None:
        """Back to the game being played."""
        with self._lock:
            self._archive = None

    def rename_game(self, game_id: int, name: str) -> None:
        """Name a game in the journal's labels (not an entry: no score changes)."""
        self._label(game_id, name=name.strip())
        if name.strip():
            self._names[game_id] = name.strip()
        else:
            self._names.pop(game_id, None)

    def delete_game(self, game_id: int) -> None:
        """Mark a game deleted: it leaves the lists; its entries stay, so it can come back."""
        if game_id == self._current_id():
            raise RefusedError(ErrorText("the game on the table cannot be deleted"))
        self._label(game_id, deleted=True)

    def restore_game(self, game_id: int) -> None:
        """Take a deletion back."""
        self._label(game_id, deleted=False)

    def _label(self, game_id: int, *, name: str | None = None, deleted: bool | None = None
               ) -> None:
        try:
            self.session.journal.label_game(game_id, name=name, deleted=deleted)
        except JournalError as error:
            raise RefusedError(ErrorText("not stored: {error}", {"error": str(error)})) from None

    def resume_game(self, game_id: int) -> None:
        """A :class:`ResumeGame`; the showdown screen starts afresh."""
        self._send(ResumeGame(game_id=game_id))
        self.model.show(ShowdownView())

    def load_showdown(self, left: int, right: int, cards: int) -> None:
        """Mirror the load on the showdown screen and tell the unit, if one is wired."""
        left_name, right_name = self._name(left), self._name(right)
        if left_name == right_name:
            raise RefusedError(ErrorText("choose two different players for the paddles"))
        if self.on_load is not None:
            self.on_load(left_name, right_name, cards)
        self.model.show(ShowdownView(Stage.LOADED, left_name, right_name, cards))

    def record_showdown_by_hand(self, winner: int, loser: int, cards: int) -> None:
        """A :class:`RecordShowdown` entered by the table (the unit was not used)."""
        winner_name, loser_name = self._name(winner), self._name(loser)
        self._send(RecordShowdown(winner=winner_name, loser=loser_name, cards_loaded=cards,
                                  source="hand"))
        self.model.show(ShowdownView(Stage.RESULT, winner_name, loser_name, cards,
                                     winner=winner_name, loser=loser_name))

    def unit_changed(self, showdown: ShowdownView) -> None:
        """The unit's state changed (any thread): the showdown screen mirrors ``showdown``."""
        self.model.show(showdown)


def _news(events: list[Event], state: GameState | None) -> Fact | None:
    """One accepted command's stored events as news (undos and redos are told where they are
    made, with what they took back)."""
    kinds = {type(event) for event in events}
    if GameStarted in kinds and state is not None:
        return Fact("started", 1, "", game=state.game_id)
    if GameResumed in kinds and state is not None:
        return Fact("resumed", state.current_round, "", game=state.game_id)
    fact = next((fact_of(event) for event in events if not isinstance(
        event, EntryUndone | EntryRedone | GameResumed | GameStarted)), None)
    if fact is not None and fact.kind == "showdown" and EntryUndone in kinds:
        return replace(fact, kind="correct")
    return fact


def _saved(game: KeptGame) -> SavedGame:
    state = game.state
    totals = state.totals
    if state.scoring.uses_pigs:  # the fewest pigs lead
        order = [state.players[seat] for seat in state.sheet.ranking]
    else:
        order = sorted(state.players, key=lambda name: totals[name],
                       reverse=not state.scoring.lowest_wins)
    leader = order[0]
    return SavedGame(state.game_id, state.players, state.current_round, leader, totals[leader],
                     game.last_played, standings=tuple((name, totals[name]) for name in order),
                     pigs=tuple(state.pigs[name] for name in order)
                     if state.scoring.uses_pigs else (),
                     finished=state.is_over, winners=state.winners, name=game.name,
                     current=game.current)
